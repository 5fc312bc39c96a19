// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// Starting nsbox: the binary (option, NSBOX_BIN, PATH), the request over one
// inherited descriptor (--request-fd 3) and the record back over another
// (--result-fd 4), a descriptor the sandbox never sees.

const fs = require('node:fs');
const path = require('node:path');
const { spawn } = require('node:child_process');
const { constants: osConstants } = require('node:os');
const { SandboxError, SandboxUnavailable } = require('./errors');

const REQUEST_FD = 3;
const RECORD_FD = 4;

function executable(p) {
  try {
    fs.accessSync(p, fs.constants.X_OK);
    return fs.statSync(p).isFile();
  } catch {
    return false;
  }
}

/** The nsbox executable: `binary`, else $NSBOX_BIN, else nsbox on PATH. */
function findBinary(binary) {
  let found = null;
  let source;
  if (binary) {
    source = 'binary';
    found = binary.includes('/') ? binary : searchPath(binary);
  } else if (process.env.NSBOX_BIN) {
    source = 'NSBOX_BIN';
    found = process.env.NSBOX_BIN;
  } else {
    source = 'PATH';
    found = searchPath('nsbox');
  }
  if (!found || !executable(found)) {
    throw new SandboxUnavailable(`no executable nsbox found (looked at ${source}: ${binary || found || 'nsbox'})`, {
      stage: 'launch', hint: "install nsbox, or pass { binary: '/path/to/nsbox' } or set NSBOX_BIN",
    });
  }
  return path.resolve(found);
}

function searchPath(name) {
  for (const dir of (process.env.PATH || '').split(':')) {
    if (!dir) continue;
    const p = path.join(dir, name);
    if (executable(p)) return p;
  }
  return null;
}

/** Split nsbox's error text into { message, hint }. */
function parseNsboxStderr(text) {
  let message = '';
  let hint = null;
  const lines = text.split('\n').map((l) => l.trim()).filter(Boolean);
  for (const ln of lines) {
    if (!ln.startsWith('nsbox: ')) continue;
    const body = ln.slice(7);
    if (body.startsWith('warning:')) continue;
    if (body.startsWith('hint: ')) hint = body.slice(6);
    else { message = body; hint = null; }
  }
  if (!message && lines.length) message = lines[lines.length - 1];
  return { message, hint };
}

/**
 * Run nsbox once.  Resolves { code, stdout, stderr, record } where record is
 * the raw bytes written to the record descriptor (empty for --check).
 */
function launch(binary, request, { check = false, approved = null, cwd, stdin, signal } = {}) {
  return new Promise((resolve, reject) => {
    const args = [];
    if (!check) args.push('--result-fd', String(RECORD_FD));
    if (check) args.push('--check');
    if (approved !== null && approved !== undefined) args.push('--approved', String(approved));
    args.push('--request-fd', String(REQUEST_FD));
    const hasStdin = stdin !== undefined && stdin !== null;
    const stdio = [hasStdin ? 'pipe' : 'ignore', 'pipe', 'pipe', 'pipe', check ? 'ignore' : 'pipe'];
    let child;
    try {
      child = spawn(binary, args, { stdio, cwd });
    } catch (e) {
      reject(new SandboxUnavailable(`cannot execute '${binary}': ${e.message}`, { stage: 'launch' }));
      return;
    }
    const out = [];
    const err = [];
    const rec = [];
    const ignore = () => {}; // EPIPE from a command that does not read: its record says enough
    let killTimer = null;
    const onAbort = () => {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill('SIGTERM');
        killTimer = setTimeout(() => child.kill('SIGKILL'), 5000);
      }
    };
    if (signal) {
      if (signal.aborted) onAbort();
      else signal.addEventListener('abort', onAbort, { once: true });
    }
    child.on('error', (e) => {
      if (signal) signal.removeEventListener('abort', onAbort);
      reject(new SandboxUnavailable(`cannot execute '${binary}': ${e.message}`, {
        stage: 'launch', hint: 'check that the file is an nsbox binary this user may execute',
      }));
    });
    child.stdout.on('data', (c) => out.push(c));
    child.stderr.on('data', (c) => err.push(c));
    if (!check) {
      child.stdio[RECORD_FD].on('data', (c) => rec.push(c));
      child.stdio[RECORD_FD].on('error', ignore);
    }
    const reqStream = child.stdio[REQUEST_FD];
    reqStream.on('error', ignore);
    reqStream.end(JSON.stringify(request));
    if (hasStdin) {
      child.stdin.on('error', ignore);
      child.stdin.end(typeof stdin === 'string' ? Buffer.from(stdin, 'utf8') : Buffer.from(stdin));
    }
    child.on('close', (code, sig) => {
      if (killTimer) clearTimeout(killTimer);
      if (signal) signal.removeEventListener('abort', onAbort);
      const result = {
        code: code ?? 128 + (osConstants.signals[sig] || 0),
        stdout: Buffer.concat(out).toString('utf8'),
        stderr: Buffer.concat(err).toString('utf8'),
        record: Buffer.concat(rec).toString('utf8'),
      };
      if (signal && signal.aborted) {
        const e = signal.reason instanceof Error ? signal.reason : new Error('aborted');
        if (!(signal.reason instanceof Error)) e.name = 'AbortError';
        e.nsbox = result;
        reject(e);
        return;
      }
      resolve(result);
    });
  });
}

/** The record of a finished run, or a SandboxError when there is none. */
function parseRecord({ code, stderr, record }) {
  const raw = record.trim();
  if (!raw) {
    const { message, hint } = parseNsboxStderr(stderr);
    throw new SandboxError(message || `nsbox exited with status ${code} and wrote no record`, {
      stage: 'launch', hint, stderr,
    });
  }
  let rec;
  try {
    rec = JSON.parse(raw);
  } catch (e) {
    throw new SandboxError(`unreadable record: ${e.message}`, { stage: 'launch', stderr });
  }
  if (!rec || typeof rec !== 'object' || Array.isArray(rec)) {
    throw new SandboxError('the record is not a JSON object', { stage: 'launch', stderr });
  }
  const status = rec.status;
  if (status === 'usage_error' || status === 'setup_failed') {
    const se = rec.setup_error || {};
    const Cls = status === 'setup_failed' ? SandboxUnavailable : SandboxError;
    throw new Cls(se.message || rec.reason || status, {
      stage: se.stage || 'usage', hint: se.hint ?? null, status, record: rec, stderr,
    });
  }
  return rec;
}

module.exports = { findBinary, launch, parseRecord, parseNsboxStderr };
