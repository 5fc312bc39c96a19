// SPDX-License-Identifier: GPL-2.0-or-later
// Types of the nsbox package (hand-written; the runtime is index.js).


/** A size: bytes as a number, or nsbox's text form ("512M", "1G"). */
export type Size = number | string;

/** The request's options, as a Sandbox holds them and a run overrides them. */
export interface RequestOptions {
  /** Host paths bound read-only ("PATH" or "PATH:DEST"). */
  ro?: string[];
  /** Host paths bound read-write. */
  rw?: string[];
  /** Empty tmpfs mounts ("DEST" or "DEST:SIZE"). */
  tmpfs?: string[];
  /** Variables set inside; nothing of the caller's environment passes otherwise. */
  env?: Record<string, string>;
  /** Hosts reachable through nsbox's egress proxy (HOST[:PORT], *.SUFFIX). */
  allowNet?: string[];
  allow_net?: string[];
  /** Hosts refused even where allowNet lets them. */
  denyNet?: string[];
  deny_net?: string[];
  memory?: Size;
  pids?: number | 'unlimited';
  cpus?: number;
  /** Wall-clock timeout in seconds (fractions allowed). */
  timeout?: number;
  /** Per-stream output bound. */
  maxOutput?: Size;
  max_output?: Size;
  /** "default", "strict", "none" or a profile path. */
  seccomp?: string;
  /** A front-gate policy file (nsbox-policy(5)). */
  policy?: string;
  /** Echoed into the record for the audit log. */
  actor?: string;
  reason?: string;
  sideEffect?: string;
  side_effect?: string;
  /** The nsbox executable; else $NSBOX_BIN, else nsbox on PATH. */
  binary?: string;
  killAfter?: number;
  kill_after?: number;
  tmpSize?: Size;
  tmp_size?: Size;
  /** Keep the host network (network.share). */
  shareNet?: boolean;
  share_net?: boolean;
  allowNetRange?: string[];
  allow_net_range?: string[];
  proxyPort?: number;
  proxy_port?: number;
  hostname?: string;
  allowInlineCode?: boolean;
  allowMetachar?: boolean;
  allowPath?: string[];
  denyExec?: string[];
  allowExec?: string[];
  mask?: string[];
  overlay?: string[];
  isolation?: 'namespaces' | 'landlock' | 'auto';
  /** Further request members, passed through unchanged. */
  extra?: Record<string, unknown>;
}

export interface SandboxOptions extends RequestOptions {
  /** Project root, bound read-only and the working directory inside
   *  (default: the current directory).  Relative ro/rw paths resolve from it. */
  project?: string;
  /** The nsbox executable; else $NSBOX_BIN, else nsbox on PATH. */
  binary?: string;
  /** Any other request member by its name (camelCase becomes snake_case;
   *  nsbox(1), REQUEST DOCUMENT); nsbox refuses one it does not know. */
  [member: string]: unknown;
}

export interface RunOptions extends RequestOptions {
  /** The command's standard input; without it, /dev/null. */
  stdin?: string | Uint8Array;
  /** An approval id from check() for a command an `ask` rule holds. */
  approved?: string;
  /** Aborting stops the sandbox (SIGTERM to nsbox, then SIGKILL); the promise rejects. */
  signal?: AbortSignal;
  /** Any other request member, for this run only. */
  [member: string]: unknown;
}

export type Status =
  | 'exited' | 'signaled' | 'timed_out' | 'oom_killed' | 'denied'
  | 'exec_failed' | 'needs_approval';

/** The record as nsbox writes it (see nsbox(1), THE RESULT RECORD). */
export interface NsboxRecord {
  schema: number;
  nsbox: string;
  status: Status | 'setup_failed' | 'usage_error';
  exit_code: number | null;
  signal: number | null;
  timed_out: boolean;
  oom_killed: boolean;
  denied: boolean;
  reason: string | null;
  denial: Denial | null;
  setup_error: SetupError | null;
  duration_ms: number;
  stdout_bytes: number | null;
  stderr_bytes: number | null;
  truncated: boolean;
  stdout_truncated: boolean;
  stderr_truncated: boolean;
  stdout?: string;
  stderr?: string;
  resources: Resources;
  enforced: Record<string, any> | null;
  violations: Array<Record<string, any>>;
  network?: { connections: Array<Record<string, any>>; more: number };
  [member: string]: unknown;
}

export interface Denial {
  stage: string;
  rule: string;
  argv_index: number | null;
  token: string | null;
  resolved: string | null;
  hint: string | null;
  [member: string]: unknown;
}

export interface SetupError {
  stage: string;
  errno: number;
  errno_name: string | null;
  message: string;
  hint: string | null;
}

export interface Resources {
  cpu_user_ms: number | null;
  cpu_sys_ms: number | null;
  memory_peak_bytes: number | null;
  pids_peak: number | null;
}

/** The outcome of one run; never thrown for what the command did. */
export class SandboxResult {
  constructor(record: NsboxRecord, returncode: number, nsboxStderr?: string);
  /** The command's exit status; -100 denied, -101 timed out; else nsbox's
   *  own exit status (128+N, 137, 126, 127, 123 for a needed approval). */
  readonly exitCode: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly truncated: boolean;
  readonly timedOut: boolean;
  readonly denied: boolean;
  readonly reason: string | null;
  readonly durationMs: number;
  readonly status: Status;
  readonly signal: number | null;
  readonly oomKilled: boolean;
  readonly resources: Resources;
  readonly enforced: Record<string, any> | null;
  readonly violations: Array<Record<string, any>>;
  readonly network: { connections: Array<Record<string, any>>; more: number } | null;
  /** The whole record. */
  readonly record: NsboxRecord;
  /** What nsbox itself printed on standard error (warnings). */
  readonly nsboxStderr: string;
  /** exited with status 0 */
  readonly ok: boolean;
  readonly denial: Denial | null;
  readonly approvalId: string | null;
  /** The record's request member: actor, reason, side_effect as the request gave them. */
  readonly request: { actor?: string | null; reason?: string | null; side_effect?: string | null; [k: string]: unknown } | null;
  /** Throws a CommandError subclass unless ok; returns this otherwise. */
  raiseForStatus(): this;
  // snake_case aliases (the record's and the Python package's names)
  readonly exit_code: number;
  readonly timed_out: boolean;
  readonly duration_ms: number;
  readonly oom_killed: boolean;
  readonly approval_id: string | null;
  raise_for_status(): this;
}

export type VerdictKind = 'allow' | 'ask' | 'deny';

/** The front gate's dry-run answer (nsbox --check). */
export class Verdict {
  constructor(doc: Record<string, any>);
  readonly verdict: VerdictKind;
  readonly rule: string | null;
  readonly hint: string | null;
  readonly reason: string | null;
  /** For ask: the one-line text for an approval prompt. */
  readonly consequence: string | null;
  /** The id of exactly this request; for ask, what run({ approved }) accepts
   *  once a human approved it; null for deny. */
  readonly approvalId: string | null;
  readonly approval_id: string | null;
  /** The whole --check document. */
  readonly plan: Record<string, any>;
  /** The run would go ahead: allow, or ask with a matching approved id. */
  readonly allowed: boolean;
}

export interface DoctorCheck {
  name: string;
  ok: boolean;
  info: boolean;
  value: string | null;
  fix: string | null;
}

export class DoctorReport {
  constructor(doc: Record<string, any>, returncode: number);
  /** 0 full sandbox, 1 only isolation landlock, 2 nsbox cannot run here. */
  readonly exitCode: number;
  readonly exit_code: number;
  readonly isolation: { default?: string; auto?: string; landlock_net?: boolean };
  readonly checks: DoctorCheck[];
  readonly document: Record<string, any>;
  readonly ok: boolean;
  readonly failing: DoctorCheck[];
}

export class Sandbox {
  constructor(options?: SandboxOptions);
  readonly project: string | null;
  /** The nsbox executable (looked up on each access; throws SandboxUnavailable). */
  readonly binary: string;
  /** The request document a run of argv sends to nsbox. */
  request(argv: string[], overrides?: RunOptions): Record<string, unknown>;
  run(argv: string[], options?: RunOptions): Promise<SandboxResult>;
  runAsync(argv: string[], options?: RunOptions): Promise<SandboxResult>;
  run_async(argv: string[], options?: RunOptions): Promise<SandboxResult>;
  /** With `approved`: whether that id would let this request run. */
  check(argv: string[], overrides?: Omit<RunOptions, 'stdin' | 'signal'>): Promise<Verdict>;
}

export function run(argv: string[], options?: SandboxOptions & RunOptions): Promise<SandboxResult>;
export function check(argv: string[], options?: SandboxOptions & { approved?: string }): Promise<Verdict>;
export function doctor(options?: { binary?: string }): Promise<DoctorReport>;
export function findBinary(binary?: string | null): string;
export function buildRequest(argv: string[], options?: Record<string, unknown>): Record<string, unknown>;

export const EXIT_DENIED: -100;
export const EXIT_TIMED_OUT: -101;
export const VERSION: string;

export class NsboxError extends Error {}
/** nsbox itself failed (exit 125, no binary, no record). */
export class SandboxError extends NsboxError {
  constructor(message: string, options?: { stage?: string; hint?: string | null; status?: string | null; record?: NsboxRecord | null; stderr?: string });
  /** usage, policy, profile, limits, userns, ..., or "launch". */
  readonly stage: string;
  readonly hint: string | null;
  /** usage_error or setup_failed, or null without a record. */
  readonly status: string | null;
  readonly record: NsboxRecord | null;
  readonly stderr: string;
}
/** No sandbox can be built here (missing binary, setup_failed). */
export class SandboxUnavailable extends SandboxError {}
export class CommandError extends NsboxError {
  constructor(result: SandboxResult, text: string);
  readonly result: SandboxResult;
}
export class CommandDenied extends CommandError {
  readonly rule: string | null;
  readonly hint: string | null;
}
export class ApprovalRequired extends CommandError {
  readonly approvalId: string | null;
  readonly rule: string | null;
}
export class CommandTimedOut extends CommandError {}
export class CommandFailed extends CommandError {}
export class CommandOutOfMemory extends CommandFailed {}
