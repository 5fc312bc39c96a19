// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// Sandbox.run against the real binary: every outcome, each SandboxResult
// property compared with the record it came from.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const nsbox = require('..');
const { makeProject } = require('./helpers');

let p;
before(() => { p = makeProject(); });
after(() => p.cleanup());

function sameAsRecord(r) {
  const rec = r.record;
  assert.equal(rec.schema, 1);
  assert.equal(r.status, rec.status);
  assert.equal(r.timedOut, rec.timed_out);
  assert.equal(r.denied, rec.denied);
  assert.equal(r.oomKilled, rec.oom_killed);
  assert.equal(r.truncated, rec.truncated);
  assert.equal(r.reason, rec.reason);
  assert.equal(r.durationMs, rec.duration_ms);
  assert.equal(r.signal, rec.signal);
  assert.deepEqual(r.resources, rec.resources);
  assert.deepEqual(r.enforced, rec.enforced);
  assert.deepEqual(r.violations, rec.violations);
  assert.equal(r.stdout, rec.stdout ?? '');
  assert.equal(r.stderr, rec.stderr ?? '');
  assert.deepEqual(r.network, rec.network ?? null);
  if (Number.isInteger(rec.exit_code)) assert.equal(r.exitCode, rec.exit_code);
  assert.equal(r.exit_code, r.exitCode);
}

test('exited 0 with its output', async () => {
  const r = await new nsbox.Sandbox({ project: p.project }).run(['cat', 'clean.txt']);
  sameAsRecord(r);
  assert.deepEqual([r.status, r.exitCode, r.stdout, r.stderr], ['exited', 0, 'alpha\nbeta\n', '']);
  assert.ok(r.ok);
  assert.equal(r.raiseForStatus(), r);
  assert.ok(r.enforced.namespaces.includes('user'));
});

test('exit code and both streams', async () => {
  const r = await new nsbox.Sandbox({ project: p.project }).run(['python3', 'exit7.py']);
  sameAsRecord(r);
  assert.deepEqual([r.status, r.exitCode, r.stdout, r.stderr], ['exited', 7, 'seven\n', 'err\n']);
  assert.throws(() => r.raiseForStatus(), (e) => e instanceof nsbox.CommandFailed && e.result === r);
});

test('stdin as a string and as bytes', async () => {
  const sb = new nsbox.Sandbox({ project: p.project });
  assert.equal((await sb.run(['wc', '-l'], { stdin: 'a\nb\nc\n' })).stdout.trim(), '3');
  const od = await sb.run(['od', '-An', '-tx1'], { stdin: Buffer.from([0, 255]) });
  assert.deepEqual(od.stdout.trim().split(/\s+/), ['00', 'ff']);
  assert.equal((await sb.run(['cat'])).stdout, '');
});

test('argv is never read as options', async () => {
  const r = await new nsbox.Sandbox({ project: p.project }).run(['echo', '--ro', 'x', '--share-net', '--', 'x y']);
  assert.equal(r.stdout, '--ro x --share-net -- x y\n');
});

test('denied', async () => {
  const r = await new nsbox.Sandbox({ project: p.project }).run(['python3', '-c', 'print(1)']);
  sameAsRecord(r);
  assert.deepEqual([r.status, r.exitCode, r.denied], ['denied', nsbox.EXIT_DENIED, true]);
  assert.equal(r.denial.rule, 'interp.inline');
  assert.throws(() => r.raiseForStatus(), (e) => e instanceof nsbox.CommandDenied
    && e.rule === 'interp.inline' && Boolean(e.hint) && e instanceof nsbox.CommandError);
});

for (const [argv, rule] of [
  [['rm', 'clean.txt'], 'exec.denylist'],
  [['cat', '../../../etc/shadow'], 'path.outside'],
  [['ls', ';', 'id'], 'shell.metachar'],
]) {
  test(`gate rule ${rule}`, async () => {
    const r = await nsbox.run(argv, { project: p.project });
    assert.equal(r.denied, true);
    assert.equal(r.denial.rule, rule);
    assert.equal(r.exitCode, -100);
  });
}

test('timed out', async () => {
  const r = await new nsbox.Sandbox({ project: p.project, timeout: 0.5 }).run(['sleep', '30']);
  sameAsRecord(r);
  assert.deepEqual([r.status, r.exitCode, r.timedOut], ['timed_out', nsbox.EXIT_TIMED_OUT, true]);
  assert.equal(r.enforced.limits.timeout.ms, 500);
  assert.throws(() => r.raiseForStatus(), nsbox.CommandTimedOut);
});

test('truncated output', async () => {
  const r = await new nsbox.Sandbox({ project: p.project, maxOutput: 1000 }).run(['head', '-c', '100000', '/dev/zero']);
  sameAsRecord(r);
  assert.ok(r.ok && r.truncated);
  assert.equal(r.stdout.length, 1000);
  assert.equal(r.record.stdout_bytes, 100000);
  const snake = await new nsbox.Sandbox({ project: p.project, max_output: 10 }).run(['head', '-c', '100', '/dev/zero']);
  assert.equal(snake.stdout.length, 10);
});

test('signaled', async () => {
  const r = await new nsbox.Sandbox({ project: p.project }).run(['python3', 'kill_self.py']);
  sameAsRecord(r);
  assert.deepEqual([r.status, r.signal, r.exitCode], ['signaled', 9, 137]);
  assert.throws(() => r.raiseForStatus(), /signal 9/);
});

test('not found', async () => {
  const r = await new nsbox.Sandbox({ project: p.project }).run(['no-such-command-here']);
  sameAsRecord(r);
  assert.deepEqual([r.status, r.exitCode], ['exec_failed', 127]);
});

test('rw and env', async () => {
  const sb = new nsbox.Sandbox({ project: p.project, rw: ['out'], env: { GREETING: 'hello world' } });
  assert.ok((await sb.run(['cp', 'clean.txt', 'out/copy.txt'])).ok);
  assert.equal(fs.readFileSync(path.join(p.project, 'out', 'copy.txt'), 'utf8'), 'alpha\nbeta\n');
  assert.equal((await sb.run(['printenv', 'GREETING'])).stdout, 'hello world\n');
  process.env.NSBOX_JS_SECRET = 'leak';
  const r = await sb.run(['printenv', 'NSBOX_JS_SECRET']);
  delete process.env.NSBOX_JS_SECRET;
  assert.deepEqual([r.exitCode, r.stdout], [1, '']);
  const ro = await sb.run(['touch', 'new.txt']);
  assert.ok(ro.exitCode !== 0 && ro.stderr.includes('Read-only'));
});

test('limits and seccomp recorded', async () => {
  const r = await new nsbox.Sandbox({ project: p.project, memory: '256M', seccomp: 'strict' }).run(['true']);
  assert.equal(r.enforced.limits.memory.bytes, 256 * 1024 * 1024);
  assert.equal(r.enforced.seccomp.profile, 'strict');
});

test('concurrent runs', async () => {
  const sb = new nsbox.Sandbox({ project: p.project });
  const rs = await Promise.all([0, 1, 2, 3, 4, 5].map((i) => sb.runAsync(['echo', String(i)])));
  assert.deepEqual(rs.map((r) => r.stdout), ['0\n', '1\n', '2\n', '3\n', '4\n', '5\n']);
});

test('an AbortSignal stops the sandbox', async () => {
  const ac = new AbortController();
  const start = Date.now();
  setTimeout(() => ac.abort(), 800);
  await assert.rejects(new nsbox.Sandbox({ project: p.project }).run(['sleep', '60'], { signal: ac.signal }),
    (e) => e.name === 'AbortError');
  assert.ok(Date.now() - start < 10000);
});

test('a string argv is refused', () => {
  assert.throws(() => new nsbox.Sandbox({ project: p.project }).request('cat clean.txt'), TypeError);
  assert.throws(() => new nsbox.Sandbox({ project: p.project }).request([]), RangeError);
});

test('any request member', async () => {
  const sb = new nsbox.Sandbox({ project: p.project, hostname: 'pkgtest', allowInlineCode: true, tmpSize: '32M' });
  const r = await sb.run(['python3', '-c', 'import socket; print(socket.gethostname())']);
  assert.ok(r.ok);
  assert.equal(r.stdout, 'pkgtest\n');
  assert.equal(r.enforced.limits.tmp.bytes, 32 * 1024 * 1024);
  const req = sb.request(['true'], { shareNet: true, killAfter: 1 });
  assert.deepEqual(req.network, { share: true });
  assert.equal(req.limits.kill_after, 1);
  assert.equal(req.allow_inline_code, true);
  await assert.rejects(new nsbox.Sandbox({ project: p.project, noSuchMember: 'x' }).run(['true']), nsbox.SandboxError);
});

test('actor, reason and side_effect reach the record', async () => {
  const r = await new nsbox.Sandbox({ project: p.project, actor: 'agent-7', reason: 'read a file',
    sideEffect: 'read_only' }).run(['cat', 'clean.txt']);
  assert.ok(r.ok);
  assert.deepEqual([r.request.actor, r.request.reason, r.request.side_effect], ['agent-7', 'read a file', 'read_only']);
});
