// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// Typed views of nsbox's JSON documents: the record (SandboxResult), the
// --check document (Verdict) and `nsbox doctor --json` (DoctorReport).  Each
// keeps the whole document; the properties are a convenience over it.

const {
  ApprovalRequired, CommandDenied, CommandFailed, CommandOutOfMemory, CommandTimedOut,
} = require('./errors');

const EXIT_DENIED = -100;
const EXIT_TIMED_OUT = -101;

// snake_case names of the Python package and the record, as read-only aliases
function aliases(proto, pairs) {
  for (const [snake, camel] of pairs) {
    Object.defineProperty(proto, snake, {
      get() { return this[camel]; }, enumerable: false, configurable: true,
    });
  }
}

class SandboxResult {
  /**
   * @param {object} record the parsed record
   * @param {number} returncode nsbox's exit status (used where the record's
   *   exit_code is null: killed, OOM, not found)
   * @param {string} nsboxStderr what nsbox itself printed
   */
  constructor(record, returncode, nsboxStderr = '') {
    const code = Number.isInteger(record.exit_code) ? record.exit_code : returncode;
    this.exitCode = code;
    this.stdout = record.stdout ?? '';
    this.stderr = record.stderr ?? '';
    this.truncated = Boolean(record.truncated);
    this.timedOut = Boolean(record.timed_out);
    this.denied = Boolean(record.denied);
    this.reason = record.reason ?? null;
    this.durationMs = Number(record.duration_ms ?? 0);
    this.status = String(record.status);
    this.signal = record.signal ?? null;
    this.oomKilled = Boolean(record.oom_killed);
    this.resources = record.resources ?? {};
    this.enforced = record.enforced ?? null;
    this.violations = Array.isArray(record.violations) ? record.violations : [];
    this.network = record.network ?? null;
    this.record = record;
    this.nsboxStderr = nsboxStderr;
  }

  /** True when the command exited by itself with status 0. */
  get ok() { return this.status === 'exited' && this.exitCode === 0; }

  /** The record's denial object for a refused run, else null. */
  get denial() { return this.record.denial ?? null; }

  /** The record's request member (actor, reason, side_effect), or null. */
  get request() { return this.record.request ?? null; }

  /** For needs_approval: the id to pass as `approved`. */
  get approvalId() {
    const a = this.record.approval || {};
    return a.approval_id ?? a.id ?? null;
  }

  /** Throw a CommandError subclass unless the command exited 0; else return this. */
  raiseForStatus() {
    if (this.ok) return this;
    switch (this.status) {
      case 'denied': throw new CommandDenied(this);
      case 'needs_approval': throw new ApprovalRequired(this);
      case 'timed_out': throw new CommandTimedOut(this);
      case 'oom_killed': throw new CommandOutOfMemory(this);
      default: throw new CommandFailed(this);
    }
  }

  toJSON() {
    const out = {};
    for (const k of Object.keys(this)) if (k !== 'record') out[k] = this[k];
    return out;
  }
}
aliases(SandboxResult.prototype, [
  ['exit_code', 'exitCode'], ['timed_out', 'timedOut'], ['duration_ms', 'durationMs'],
  ['oom_killed', 'oomKilled'], ['approval_id', 'approvalId'],
  ['raise_for_status', 'raiseForStatus'],
]);

class Verdict {
  /** @param {object} doc the parsed --check document */
  constructor(doc) {
    const gate = doc.gate || {};
    let verdict = doc.verdict ?? gate.verdict;
    if (!['allow', 'ask', 'deny'].includes(verdict)) verdict = doc.allowed ? 'allow' : 'deny';
    const approval = doc.approval && typeof doc.approval === 'object' ? doc.approval : {};
    const pick = (name) => {
      for (const src of [doc, approval, gate]) if (src[name] !== undefined && src[name] !== null) return src[name];
      return null;
    };
    this.verdict = verdict;
    this.rule = pick('rule');
    this.hint = pick('hint');
    this.reason = pick('reason');
    this.consequence = pick('consequence');
    this.approvalId = pick('approval_id');
    this.plan = doc;
  }

  /** Whether the run would go ahead: allow, or ask checked with an
   *  approved id that matches (the document's allowed). */
  get allowed() {
    return typeof this.plan.allowed === 'boolean' ? this.plan.allowed : this.verdict === 'allow';
  }
}
aliases(Verdict.prototype, [['approval_id', 'approvalId']]);

class DoctorReport {
  constructor(doc, returncode) {
    this.exitCode = Number.isInteger(doc.exit_code) ? doc.exit_code : returncode;
    this.isolation = doc.isolation ?? {};
    this.checks = Array.isArray(doc.checks) ? doc.checks : [];
    this.document = doc;
  }

  /** True when the full (namespaces) sandbox works on this host. */
  get ok() { return this.exitCode === 0; }

  /** The checks that failed, each with its fix. */
  get failing() { return this.checks.filter((c) => !c.ok && !c.info); }
}
aliases(DoctorReport.prototype, [['exit_code', 'exitCode']]);

module.exports = { SandboxResult, Verdict, DoctorReport, EXIT_DENIED, EXIT_TIMED_OUT };
