// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// allow / ask / deny: an ask rule holds the command until run({ approved })
// with the id check() gave for exactly that request, and no other.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const nsbox = require('..');
const { makeProject } = require('./helpers');

let p;
let policy;
before(() => {
  p = makeProject();
  policy = path.join(p.top, 'ask.policy');
  fs.writeFileSync(policy, 'ask argv git push : publishes commits to the remote\nask exec wc : counts words (a test rule)\n');
  fs.chmodSync(policy, 0o644);
});
after(() => p.cleanup());

test('three verdicts', async () => {
  const sb = new nsbox.Sandbox({ project: p.project, policy });
  const [allow, ask, deny] = await Promise.all([
    sb.check(['cat', 'clean.txt']), sb.check(['wc', '-l', 'clean.txt']), sb.check(['rm', 'clean.txt'])]);
  assert.deepEqual([allow.verdict, ask.verdict, deny.verdict], ['allow', 'ask', 'deny']);
  assert.equal(ask.rule, 'ask exec wc');
  assert.equal(ask.consequence, 'counts words (a test rule)');
  assert.equal(ask.approvalId.length, 64);
  assert.equal(ask.approval_id, ask.approvalId);
  assert.equal(deny.rule, 'exec.denylist');
  assert.equal(deny.approvalId, null);
});

test('needs approval, then approved', async () => {
  const sb = new nsbox.Sandbox({ project: p.project, policy });
  const held = await sb.run(['wc', '-l', 'clean.txt']);
  assert.deepEqual([held.status, held.exitCode, held.stdout], ['needs_approval', 123, '']);
  assert.throws(() => held.raiseForStatus(), (e) => e instanceof nsbox.ApprovalRequired
    && e.rule === 'ask exec wc' && e.approvalId === held.approvalId);
  const v = await sb.check(['wc', '-l', 'clean.txt']);
  assert.equal(v.approvalId, held.approvalId);
  const ran = await sb.run(['wc', '-l', 'clean.txt'], { approved: v.approvalId });
  assert.ok(ran.ok);
  assert.equal(ran.stdout.trim(), '2 clean.txt');
  assert.equal(ran.record.approval.approved, true);
});

for (const [name, argv, change] of [
  ['argv', ['wc', '-c', 'clean.txt'], {}],
  ['rw', null, { rw: ['out'] }],
  ['env', null, { env: { X: '1' } }],
  ['network', null, { allowNet: ['example.org'] }],
]) {
  test(`an approval does not cover a changed ${name}`, async () => {
    const sb = new nsbox.Sandbox({ project: p.project, policy });
    const { approvalId } = await sb.check(['wc', '-l', 'clean.txt']);
    const other = await sb.run(argv || ['wc', '-l', 'clean.txt'], { approved: approvalId, ...change });
    assert.deepEqual([other.status, other.exitCode], ['needs_approval', 123]);
    assert.notEqual(other.approvalId, approvalId);
  });
}

test('check with the approval', async () => {
  const sb = new nsbox.Sandbox({ project: p.project, policy });
  const { approvalId } = await sb.check(['wc', 'clean.txt']);
  assert.ok((await sb.check(['wc', 'clean.txt'], { approved: approvalId })).allowed);
  assert.ok(!(await nsbox.check(['wc', '-w', 'clean.txt'], { project: p.project, policy, approved: approvalId })).allowed);
});
