// SPDX-License-Identifier: GPL-2.0-or-later
'use strict';
// The request document nsbox reads with --request-fd (nsbox(1), REQUEST
// DOCUMENT).  No command line is assembled for the
// sandboxed command: every option is a member of one JSON document.

function strs(name, value) {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string' || !Array.isArray(value)) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  for (const item of value) {
    if (typeof item !== 'string') throw new TypeError(`${name} entries must be strings`);
  }
  return [...value];
}

// options may be spelled as in JavaScript (maxOutput) or as in the request
// and the Python package (max_output)
function opt(o, camel, snake) {
  if (o[camel] !== undefined && o[camel] !== null) return o[camel];
  if (snake && o[snake] !== undefined && o[snake] !== null) return o[snake];
  return undefined;
}

/**
 * The request for one run of argv under options; only what was given
 * appears.  Output is always captured into the record.
 */
function buildRequest(argv, o = {}) {
  const args = strs('argv', argv);
  if (args.length === 0) throw new RangeError('argv must name a command');
  const req = { argv: args };
  if (o.project !== undefined && o.project !== null) req.project = String(o.project);
  if (o.cwd !== undefined && o.cwd !== null) req.cwd = String(o.cwd);
  for (const name of ['ro', 'rw', 'tmpfs']) {
    const items = strs(name, o[name]);
    if (items.length) req[name] = items;
  }
  if (o.env && Object.keys(o.env).length) {
    for (const [k, v] of Object.entries(o.env)) {
      if (typeof v !== 'string') throw new TypeError(`env.${k} must be a string`);
    }
    req.env = { ...o.env };
  }
  const network = {};
  const allow = strs('allowNet', opt(o, 'allowNet', 'allow_net'));
  const deny = strs('denyNet', opt(o, 'denyNet', 'deny_net'));
  if (allow.length) network.allow = allow;
  if (deny.length) network.deny = deny;
  if (opt(o, 'shareNet', 'share_net')) network.share = true;
  const ranges = strs('allowNetRange', opt(o, 'allowNetRange', 'allow_net_range'));
  if (ranges.length) network.ranges = ranges;
  const port = opt(o, 'proxyPort', 'proxy_port');
  if (port !== undefined) network.proxy_port = port;
  if (Object.keys(network).length) req.network = network;
  const limits = {};
  for (const [camel, snake] of [['memory'], ['pids'], ['cpus'], ['timeout'], ['maxOutput', 'max_output'],
    ['killAfter', 'kill_after'], ['tmpSize', 'tmp_size']]) {
    const v = opt(o, camel, snake);
    if (v === undefined) continue;
    if (typeof v !== 'number' && typeof v !== 'string') {
      throw new TypeError(`${camel} must be a number or a string`);
    }
    limits[snake || camel] = v;
  }
  if (Object.keys(limits).length) req.limits = limits;
  req.capture = true;
  for (const [camel, snake] of [['seccomp'], ['policy'], ['actor'], ['reason'], ['sideEffect', 'side_effect']]) {
    const v = opt(o, camel, snake);
    if (v !== undefined) req[snake || camel] = v;
  }
  // any other option is the request member of the same (snake_case) name:
  // hostname, allowInlineCode, isolation, overlay, ... (nsbox(1), REQUEST DOCUMENT);
  // nsbox refuses a member it does not know
  for (const [key, v] of Object.entries(o)) {
    if (HANDLED.has(key) || v === undefined || v === null || v === false) continue;
    req[snakeCase(key)] = v;
  }
  if (o.extra) Object.assign(req, o.extra);
  return req;
}

const HANDLED = new Set(['project', 'cwd', 'ro', 'rw', 'tmpfs', 'env', 'allowNet', 'allow_net', 'denyNet',
  'deny_net', 'shareNet', 'share_net', 'allowNetRange', 'allow_net_range', 'proxyPort', 'proxy_port',
  'memory', 'pids', 'cpus', 'timeout', 'maxOutput', 'max_output', 'killAfter', 'kill_after', 'tmpSize',
  'tmp_size', 'seccomp', 'policy', 'actor', 'reason', 'sideEffect', 'side_effect', 'extra', 'binary',
  'stdin', 'approved', 'signal', 'capture']);

function snakeCase(key) {
  return key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
}

module.exports = { buildRequest };
