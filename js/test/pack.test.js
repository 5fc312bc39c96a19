// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// `npm pack` makes a tarball that installs offline into a fresh project and
// works from there; the shipped types compile with tsc (Debian's
// node-typescript) when it is installed.

const { test, before, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync, spawnSync } = require('node:child_process');
const { makeProject } = require('./helpers');

const JSDIR = path.resolve(__dirname, '..');

function which(cmd) {
  return spawnSync('sh', ['-c', `command -v ${cmd}`], { encoding: 'utf8' }).stdout.trim() || null;
}

let work;
before(() => { work = fs.mkdtempSync(path.join(os.tmpdir(), 'nsbox-js-pack-')); });
after(() => fs.rmSync(work, { recursive: true, force: true }));

test('npm pack installs offline and runs', { skip: which('npm') ? false : 'npm is not installed' }, () => {
  const env = { ...process.env, npm_config_cache: path.join(work, 'cache'), npm_config_update_notifier: 'false',
    npm_config_fund: 'false', npm_config_audit: 'false' };
  const out = execFileSync('npm', ['pack', '--pack-destination', work, JSDIR], { env, encoding: 'utf8' });
  const tarball = path.join(work, out.trim().split('\n').pop());
  assert.ok(fs.existsSync(tarball), tarball);
  const listing = execFileSync('tar', ['-tzf', tarball], { encoding: 'utf8' }).split('\n');
  for (const f of ['package/index.js', 'package/index.d.ts', 'package/lib/launch.js', 'package/package.json']) {
    assert.ok(listing.includes(f), `${f} in ${listing}`);
  }
  assert.ok(!listing.some((f) => f.startsWith('package/test/')), 'tests are not shipped');
  const app = path.join(work, 'app');
  fs.mkdirSync(app);
  fs.writeFileSync(path.join(app, 'package.json'), '{"name":"app","version":"1.0.0","private":true}\n');
  execFileSync('npm', ['install', '--offline', '--no-audit', '--no-fund', tarball], { cwd: app, env, stdio: 'pipe' });
  const p = makeProject();
  try {
    const script = `const n = require('nsbox'); n.run(['cat','clean.txt'], {project: ${JSON.stringify(p.project)}})
      .then((r) => { process.stdout.write(JSON.stringify([r.status, r.exitCode, r.stdout])); });`;
    const res = execFileSync(process.execPath, ['-e', script], { cwd: app, encoding: 'utf8' });
    assert.deepEqual(JSON.parse(res), ['exited', 0, 'alpha\nbeta\n']);
    const esm = `import { Sandbox } from 'nsbox'; const r = await new Sandbox({project: ${JSON.stringify(p.project)}}).run(['true']); console.log(r.status);`;
    const res2 = execFileSync(process.execPath, ['--input-type=module', '-e', esm], { cwd: app, encoding: 'utf8' });
    assert.equal(res2.trim(), 'exited');
  } finally {
    p.cleanup();
  }
});

test('the types compile (tsc --strict)', { skip: which('tsc') ? false : 'tsc (node-typescript) is not installed' }, () => {
  const dir = path.join(work, 'types');
  fs.mkdirSync(path.join(dir, 'node_modules'), { recursive: true });
  fs.symlinkSync(JSDIR, path.join(dir, 'node_modules', 'nsbox'));
  fs.copyFileSync(path.join(__dirname, 'types-check.ts'), path.join(dir, 'check.ts'));
  // no @types/node needed: the declarations use only the language's and the DOM's types
  fs.writeFileSync(path.join(dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { noEmit: true, strict: true, target: 'es2020', module: 'commonjs',
      moduleResolution: 'node', lib: ['es2020', 'dom'], types: [] },
    files: ['check.ts'],
  }));
  const r = spawnSync('tsc', ['-p', dir], { cwd: dir, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stdout + r.stderr);
});
