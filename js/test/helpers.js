// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// The real nsbox binary (NSBOX_BIN, else build/nsbox of this tree) and a
// temporary project holding clean.txt, a writable out/ and two scripts.

const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');

const SRCDIR = path.resolve(__dirname, '..', '..');
const BIN = process.env.NSBOX_BIN || path.join(SRCDIR, 'build', 'nsbox');
if (!fs.existsSync(BIN)) throw new Error(`no nsbox binary at ${BIN}: run make, or set NSBOX_BIN`);
process.env.NSBOX_BIN = BIN;

function makeProject() {
  const top = fs.mkdtempSync(path.join(os.tmpdir(), 'nsbox-js-'));
  fs.chmodSync(top, 0o755);
  const project = path.join(top, 'project');
  fs.mkdirSync(project);
  fs.writeFileSync(path.join(project, 'clean.txt'), 'alpha\nbeta\n');
  fs.mkdirSync(path.join(project, 'out'));
  fs.chmodSync(path.join(project, 'out'), 0o777);
  fs.writeFileSync(path.join(project, 'kill_self.py'), 'import os, signal\nos.kill(os.getpid(), signal.SIGKILL)\n');
  fs.writeFileSync(path.join(project, 'exit7.py'),
    "import sys\nprint('seven'); print('err', file=sys.stderr)\nsys.exit(7)\n");
  return { top, project, cleanup: () => fs.rmSync(top, { recursive: true, force: true }) };
}

module.exports = { SRCDIR, BIN, makeProject };
