// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// Run commands in the nsbox sandbox from Node (>= 18), no dependencies.
//
//   const nsbox = require('nsbox');
//   const sb = new nsbox.Sandbox({ project: '.', ro: ['input'], rw: ['out'],
//                                  memory: '512M', timeout: 60, maxOutput: '1M' });
//   const verdict = await sb.check(['python3', 'script.py']);   // allow | ask | deny
//   const result = await sb.run(['python3', 'script.py']);      // a SandboxResult
//   result.raiseForStatus();                                     // typed errors
//
// The request goes to nsbox as one JSON document over an inherited
// descriptor (--request-fd) and the record comes back over another
// (--result-fd); see nsbox(1).

const path = require('node:path');
const { spawn } = require('node:child_process');
const errors = require('./lib/errors');
const { buildRequest } = require('./lib/request');
const { findBinary, launch, parseRecord, parseNsboxStderr } = require('./lib/launch');
const { SandboxResult, Verdict, DoctorReport, EXIT_DENIED, EXIT_TIMED_OUT } = require('./lib/result');

const VERSION = '0.1.0';
const RUN_ONLY = ['stdin', 'approved', 'signal'];

class Sandbox {
  /**
   * @param {import('./index').SandboxOptions} [options]
   */
  constructor(options = {}) {
    const { project, binary, ...rest } = options;
    this.project = project !== undefined && project !== null ? path.resolve(String(project)) : null;
    this.binaryOption = binary ?? null;
    this.options = rest;
  }

  /** The nsbox executable (looked up on each access). */
  get binary() { return findBinary(this.binaryOption); }

  /** The request document a run of argv sends to nsbox. */
  request(argv, overrides = {}) {
    if (typeof argv === 'string') {
      throw new TypeError('argv must be an array of strings (no shell is involved)');
    }
    const o = { ...this.options };
    for (const [k, v] of Object.entries(overrides)) {
      if (v !== undefined && v !== null && !RUN_ONLY.includes(k)) o[k] = v;
    }
    if (this.project !== null) o.project = this.project;
    return buildRequest(argv, o);
  }

  /**
   * Run argv in a fresh sandbox.  Resolves to a SandboxResult for everything
   * the command did; rejects with SandboxError / SandboxUnavailable when
   * nsbox itself fails.  `stdin` (string or Buffer), `approved` (an
   * approval id from check()), `signal` (an AbortSignal that stops the
   * sandbox) and per-run option overrides go in the second argument.
   */
  async run(argv, opts = {}) {
    const request = this.request(argv, opts);
    const raw = await launch(this.binary, request, {
      approved: opts.approved, stdin: opts.stdin, signal: opts.signal, cwd: this.project ?? undefined,
    });
    return new SandboxResult(parseRecord(raw), raw.code, raw.stderr);
  }

  /** The same as run(): every run is asynchronous in Node. */
  runAsync(argv, opts = {}) { return this.run(argv, opts); }

  /** Ask the front gate what it would do with argv (--check); runs nothing.
   *  With `approved`, whether that id would let this request run. */
  async check(argv, overrides = {}) {
    const request = this.request(argv, overrides);
    const raw = await launch(this.binary, request, {
      check: true, approved: overrides.approved, cwd: this.project ?? undefined,
    });
    let doc = null;
    try {
      doc = raw.stdout.trim() ? JSON.parse(raw.stdout) : null;
    } catch {
      doc = null;
    }
    if (!doc || typeof doc !== 'object' || Array.isArray(doc)) {
      const { message, hint } = parseNsboxStderr(raw.stderr);
      const Cls = raw.code === 125 ? errors.SandboxError : errors.SandboxUnavailable;
      throw new Cls(message || `nsbox --check exited with status ${raw.code} and printed no document`, {
        stage: raw.code === 125 ? 'usage' : 'launch', hint, stderr: raw.stderr,
      });
    }
    return new Verdict(doc);
  }
}
Sandbox.prototype.run_async = Sandbox.prototype.runAsync;

/** One-shot: new Sandbox(options).run(argv, options). */
function run(argv, options = {}) {
  const { stdin, approved, signal, ...rest } = options;
  return new Sandbox(rest).run(argv, { stdin, approved, signal });
}

/** One-shot: new Sandbox(options).check(argv). */
function check(argv, options = {}) {
  const { approved, ...rest } = options;
  return new Sandbox(rest).check(argv, { approved });
}

/** `nsbox doctor --json`: what this host supports and what to change. */
function doctor(options = {}) {
  return new Promise((resolve, reject) => {
    let exe;
    try {
      exe = findBinary(options.binary);
    } catch (e) {
      reject(e);
      return;
    }
    const child = spawn(exe, ['doctor', '--json'], { stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    const err = [];
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    child.on('error', (e) => reject(new errors.SandboxUnavailable(`cannot execute '${exe}': ${e.message}`)));
    child.on('close', (code) => {
      const stderr = Buffer.concat(err).toString('utf8');
      let doc = null;
      try {
        doc = JSON.parse(Buffer.concat(out).toString('utf8'));
      } catch {
        doc = null;
      }
      if (!doc || typeof doc !== 'object') {
        const { message, hint } = parseNsboxStderr(stderr);
        reject(new errors.SandboxError(message || 'nsbox doctor printed no JSON document', {
          stage: 'doctor', hint, stderr,
        }));
        return;
      }
      resolve(new DoctorReport(doc, code));
    });
  });
}

module.exports = {
  Sandbox,
  SandboxResult,
  Verdict,
  DoctorReport,
  run,
  check,
  doctor,
  findBinary,
  buildRequest,
  EXIT_DENIED,
  EXIT_TIMED_OUT,
  VERSION,
  NsboxError: errors.NsboxError,
  SandboxError: errors.SandboxError,
  SandboxUnavailable: errors.SandboxUnavailable,
  CommandError: errors.CommandError,
  CommandDenied: errors.CommandDenied,
  ApprovalRequired: errors.ApprovalRequired,
  CommandTimedOut: errors.CommandTimedOut,
  CommandFailed: errors.CommandFailed,
  CommandOutOfMemory: errors.CommandOutOfMemory,
};
