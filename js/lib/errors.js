// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// Two families, never mixed: SandboxError (nsbox itself failed: exit 125, no
// binary, no record), thrown by run() and check(); CommandError (the command
// did not succeed), thrown only by SandboxResult.raiseForStatus().

class NsboxError extends Error {}

class SandboxError extends NsboxError {
  constructor(message, { stage = 'launch', hint = null, status = null, record = null, stderr = '' } = {}) {
    // message is nsbox's own text; stage and hint are apart, as in the record
    super(message);
    this.name = new.target.name;
    this.stage = stage;
    this.hint = hint;
    this.status = status;
    this.record = record;
    this.stderr = stderr;
  }
}

class SandboxUnavailable extends SandboxError {}

class CommandError extends NsboxError {
  constructor(result, text) {
    super(text);
    this.name = new.target.name;
    this.result = result;
  }
}

class CommandDenied extends CommandError {
  constructor(result) {
    const denial = result.record.denial || {};
    super(result, `denied by rule ${denial.rule}: ${result.reason}`);
    this.rule = denial.rule ?? null;
    this.hint = denial.hint ?? null;
  }
}

class ApprovalRequired extends CommandError {
  constructor(result) {
    super(result, `needs approval: ${result.reason}`);
    this.approvalId = result.approvalId;
    this.rule = (result.record.approval || {}).rule ?? null;
  }
}

class CommandTimedOut extends CommandError {
  constructor(result) {
    super(result, `timed out after ${result.durationMs} ms: ${result.reason}`);
  }
}

class CommandFailed extends CommandError {
  constructor(result) {
    const what = result.signal !== null && (result.status === 'signaled' || result.status === 'oom_killed')
      ? `killed by signal ${result.signal}` : `exit code ${result.exitCode}`;
    super(result, `${result.status}: ${what}` + (result.reason ? `: ${result.reason}` : ''));
  }
}

class CommandOutOfMemory extends CommandFailed {}

module.exports = {
  NsboxError, SandboxError, SandboxUnavailable, CommandError, CommandDenied,
  ApprovalRequired, CommandTimedOut, CommandFailed, CommandOutOfMemory,
};
