// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// The pure parts, on made-up documents: outcomes this host cannot produce
// (the OOM killer needs a cgroup memory controller), nsbox's own failures
// mapped to errors, and the request document.

const { test } = require('node:test');
const assert = require('node:assert/strict');
const nsbox = require('..');
const { parseRecord, parseNsboxStderr } = require('../lib/launch');

function record(over = {}) {
  return {
    schema: 1, nsbox: '0.1.0', status: 'exited', exit_code: 0, signal: null, timed_out: false,
    oom_killed: false, denied: false, reason: null, denial: null, setup_error: null, duration_ms: 5,
    truncated: false, stdout: '', stderr: '', resources: {}, enforced: {}, violations: [], ...over,
  };
}

test('oom_killed', () => {
  const r = new nsbox.SandboxResult(record({ status: 'oom_killed', exit_code: null, signal: 9, oom_killed: true }), 137);
  assert.deepEqual([r.exitCode, r.oomKilled, r.signal], [137, true, 9]);
  assert.throws(() => r.raiseForStatus(), (e) => e instanceof nsbox.CommandOutOfMemory
    && e instanceof nsbox.CommandFailed && /signal 9/.test(e.message));
});

test('needs_approval', () => {
  const id = 'ab'.repeat(32);
  const r = new nsbox.SandboxResult(record({ status: 'needs_approval', exit_code: null,
    approval: { rule: 'ask exec x', approval_id: id } }), 123);
  assert.deepEqual([r.exitCode, r.approvalId], [123, id]);
  assert.throws(() => r.raiseForStatus(), (e) => e instanceof nsbox.ApprovalRequired && e.approvalId === id);
});

for (const [status, Cls] of [['usage_error', nsbox.SandboxError], ['setup_failed', nsbox.SandboxUnavailable]]) {
  test(`${status} is ${Cls.name}`, () => {
    const rec = record({ status, exit_code: null, setup_error: { stage: 'userns', errno: 1,
      errno_name: 'EPERM', message: 'cannot create a user namespace', hint: 'run nsbox doctor' } });
    assert.throws(() => parseRecord({ code: 125, stderr: '', record: JSON.stringify(rec) }),
      (e) => e instanceof Cls && e.stage === 'userns' && e.hint === 'run nsbox doctor'
        && e.status === status && e.message === 'cannot create a user namespace');
  });
}

test('verdict documents', () => {
  const old = new nsbox.Verdict({ allowed: false, gate: { rule: 'exec.denylist', hint: 'h', reason: 'r' } });
  assert.deepEqual([old.verdict, old.rule, old.hint, old.reason], ['deny', 'exec.denylist', 'h', 'r']);
  const ask = new nsbox.Verdict({ allowed: false, verdict: 'ask', gate: { rule: null },
    approval: { rule: 'ask argv git push', consequence: 'publishes', approval_id: 'cd'.repeat(32) } });
  assert.deepEqual([ask.verdict, ask.rule, ask.consequence, ask.approvalId],
    ['ask', 'ask argv git push', 'publishes', 'cd'.repeat(32)]);
});

test('stderr parsing', () => {
  assert.deepEqual(parseNsboxStderr("nsbox: warning: minor\nnsbox: --ro 'x': No such file\nnsbox: hint: create it\n"),
    { message: "--ro 'x': No such file", hint: 'create it' });
});

test('request document', () => {
  const req = nsbox.buildRequest(['make', '-j2'], {
    project: '/p', ro: ['a'], rw: ['b:/dst'], tmpfs: ['/scratch:64M'], env: { A: '1' },
    allowNet: ['example.org:443'], memory: '512M', pids: 64, cpus: 0.5, timeout: 60, maxOutput: 4096,
    seccomp: 'strict', actor: 'agent', reason: 'build', sideEffect: 'writes_workspace',
  });
  assert.deepEqual(req, {
    argv: ['make', '-j2'], project: '/p', ro: ['a'], rw: ['b:/dst'], tmpfs: ['/scratch:64M'],
    env: { A: '1' }, network: { allow: ['example.org:443'] },
    limits: { memory: '512M', pids: 64, cpus: 0.5, timeout: 60, max_output: 4096 },
    capture: true, seccomp: 'strict', actor: 'agent', reason: 'build', side_effect: 'writes_workspace',
  });
  assert.deepEqual(nsbox.buildRequest(['true']), { argv: ['true'], capture: true });
  assert.throws(() => nsbox.buildRequest(['true'], { ro: 'a' }), TypeError);
  assert.throws(() => nsbox.buildRequest(['true'], { env: { A: 1 } }), TypeError);
});
