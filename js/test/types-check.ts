// SPDX-License-Identifier: GPL-2.0-or-later
// Compiled (never run) by pack.test.js: the shipped index.d.ts describes the
// API a TypeScript harness uses.
import {
  Sandbox, SandboxResult, Verdict, run, check, doctor, SandboxError, CommandDenied,
  EXIT_DENIED, VerdictKind,
} from 'nsbox';

async function main(): Promise<number> {
  const sb = new Sandbox({ project: '.', ro: ['input'], rw: ['out'], memory: '512M', timeout: 60,
    maxOutput: '1M', allowNet: ['example.org'], env: { A: 'b' }, seccomp: 'default' });
  const v: Verdict = await sb.check(['python3', 'script.py']);
  const kind: VerdictKind = v.verdict;
  const id: string | null = v.approvalId;
  const r: SandboxResult = await sb.run(['python3', 'script.py'], { stdin: 'x', approved: id ?? undefined });
  const code: number = r.exitCode;
  const out: string = r.stdout;
  const t: boolean = r.truncated && r.timedOut && r.denied && r.oomKilled;
  const reason: string | null = r.reason;
  const ms: number = r.durationMs + r.duration_ms;
  try {
    r.raiseForStatus();
  } catch (e) {
    if (e instanceof CommandDenied) console.log(e.rule, e.hint, e.result.exitCode === EXIT_DENIED);
    if (e instanceof SandboxError) console.log(e.stage, e.hint);
  }
  const one = await run(['true'], { project: '.', timeout: 1 });
  const v2 = await check(['true']);
  const d = await doctor();
  console.log(kind, code, out, t, reason, ms, one.ok, v2.allowed, d.ok, r.record.status, r.enforced?.namespaces);
  return d.exitCode;
}
main();
