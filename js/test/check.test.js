// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// check(), nsbox's own failures, binary discovery, doctor(), the version.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const nsbox = require('..');
const { BIN, SRCDIR, makeProject } = require('./helpers');

let p;
before(() => { p = makeProject(); });
after(() => p.cleanup());

test('check: allow', async () => {
  const v = await new nsbox.Sandbox({ project: p.project }).check(['cat', 'clean.txt']);
  assert.equal(v.verdict, 'allow');
  assert.ok(v.allowed);
  assert.equal(v.rule, null);
  assert.ok(v.approvalId === null || v.approvalId.length === 64);
  assert.equal(v.plan.check, true);
  assert.ok(v.plan.mounts.some((m) => m.dest === p.project));
});

test('check: deny', async () => {
  const v = await nsbox.check(['python3', '-c', '1'], { project: p.project });
  assert.deepEqual([v.verdict, v.rule, v.allowed], ['deny', 'interp.inline', false]);
  assert.ok(v.hint && v.reason);
});

test('check: usage error', async () => {
  await assert.rejects(new nsbox.Sandbox({ project: p.project, rw: ['missing-dir'] }).check(['true']),
    (e) => e instanceof nsbox.SandboxError && e.message.includes('missing-dir'));
});

test('usage error is a SandboxError with stage and hint', async () => {
  await assert.rejects(new nsbox.Sandbox({ project: p.project, ro: ['does-not-exist'] }).run(['true']),
    (e) => e instanceof nsbox.SandboxError && !(e instanceof nsbox.SandboxUnavailable)
      && e.stage === 'usage' && e.status === 'usage_error' && Boolean(e.hint)
      && e.message.includes('does-not-exist') && e.record.status === 'usage_error');
  await assert.rejects(new nsbox.Sandbox({ project: p.project, memory: 'lots' }).run(['true']),
    (e) => e instanceof nsbox.SandboxError && e.record.status === 'usage_error');
});

test('a missing binary is SandboxUnavailable', async () => {
  await assert.rejects(new nsbox.Sandbox({ project: p.project, binary: path.join(p.top, 'nope') }).run(['true']),
    (e) => e instanceof nsbox.SandboxUnavailable && e.stage === 'launch' && e.hint.includes('NSBOX_BIN'));
});

test('no record is a SandboxError with nsbox\'s message', async () => {
  const fake = path.join(p.top, 'fake-nsbox');
  fs.writeFileSync(fake, "#!/bin/sh\necho 'nsbox: broken here' >&2\necho 'nsbox: hint: fix it' >&2\nexit 125\n");
  fs.chmodSync(fake, 0o755);
  await assert.rejects(new nsbox.Sandbox({ project: p.project, binary: fake }).run(['true']),
    (e) => e instanceof nsbox.SandboxError && e.message === 'broken here' && e.hint === 'fix it');
});

test('discovery order: binary, NSBOX_BIN, PATH', () => {
  const saved = { bin: process.env.NSBOX_BIN, path: process.env.PATH };
  try {
    const dir = path.join(p.top, 'bin');
    fs.mkdirSync(dir, { recursive: true });
    fs.copyFileSync(BIN, path.join(dir, 'nsbox'));
    fs.chmodSync(path.join(dir, 'nsbox'), 0o755);
    delete process.env.NSBOX_BIN;
    process.env.PATH = dir;
    assert.equal(nsbox.findBinary(), path.join(dir, 'nsbox'));
    process.env.NSBOX_BIN = BIN;
    assert.equal(nsbox.findBinary(), path.resolve(BIN));
    assert.equal(nsbox.findBinary(path.join(dir, 'nsbox')), path.join(dir, 'nsbox'));
    delete process.env.NSBOX_BIN;
    process.env.PATH = path.join(p.top, 'empty');
    assert.throws(() => nsbox.findBinary(), nsbox.SandboxUnavailable);
  } finally {
    process.env.NSBOX_BIN = saved.bin;
    process.env.PATH = saved.path;
  }
});

test('doctor', async () => {
  const d = await nsbox.doctor();
  assert.ok([0, 1, 2].includes(d.exitCode));
  assert.equal(d.document.schema, 1);
  assert.ok(d.checks.length > 0 && d.checks.every((c) => 'name' in c));
  assert.equal(d.ok, d.exitCode === 0);
});

test('one version: VERSION, package.json, index.js, python', () => {
  const version = fs.readFileSync(path.join(SRCDIR, 'VERSION'), 'utf8').trim();
  assert.equal(require('../package.json').version, version);
  assert.equal(nsbox.VERSION, version);
  assert.match(fs.readFileSync(path.join(SRCDIR, 'python', 'pyproject.toml'), 'utf8'),
    new RegExp(`version = "${version.replace(/\./g, '\\.')}"`));
});
