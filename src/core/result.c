// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The result record (DESIGN.md section 5).  Serialization is pure; only
 * nsb_result_write() touches an fd.  The field order is part of the contract:
 * callers may compare records textually, so fields are only ever appended.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "base/fmt.h"
#include "base/json.h"
#include "base/macro.h"
#include "core/overlay_record.h"
#include "core/result.h"
#include "core/result_isolation.h"
#include "core/result_net.h"

void nsb_result_init(struct nsb_result *r)
{
	memset(r, 0, sizeof(*r));
	/*
	 * Nothing has run yet: a record written before the supervisor learns
	 * more must not claim the command exited.
	 */
	r->status = NSB_STATUS_SETUP_FAILED;
	r->denial.argv_index = -1;
	r->duration_ms = -1;
	r->stdout_bytes = -1;
	r->stderr_bytes = -1;
	r->cpu_user_ms = -1;
	r->cpu_sys_ms = -1;
	r->memory_peak_bytes = -1;
	r->pids_peak = -1;
}

static void put_denial(struct nsb_json *j, const struct nsb_denial *d)
{
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "stage", d->stage ? d->stage : "gate");
	nsb_json_put_str(j, "rule", d->rule);
	nsb_json_put_opt_int(j, "argv_index", d->argv_index);
	nsb_json_put_str(j, "token", d->token);
	nsb_json_put_str(j, "resolved", d->resolved);
	nsb_json_put_str(j, "hint", d->hint);
	nsb_json_put_str(j, "metachar", d->metachar);
	nsb_json_end_object(j);
}

static void put_setup_error(struct nsb_json *j, const struct nsb_error *e)
{
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "stage", nsb_stage_name(e->stage));
	nsb_json_key(j, "errno");
	nsb_json_int(j, e->err);
	nsb_json_put_str(j, "errno_name", nsb_errno_name(e->err));
	nsb_json_put_strn(j, "message", e->message, sizeof(e->message));
	if (e->hint[0])
		nsb_json_put_strn(j, "hint", e->hint, sizeof(e->hint));
	else
		nsb_json_put_str(j, "hint", NULL);
	nsb_json_end_object(j);
}

/* enforced.seccomp: the profile and its program, or null. */
static void put_enforced_seccomp(struct nsb_json *j, const struct nsb_enforced *en)
{
	nsb_json_key(j, "seccomp");
	if (en->seccomp_profile) {
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "profile", en->seccomp_profile);
		nsb_json_put_str(j, "sha256", en->seccomp_sha256);
		nsb_json_put_str(j, "default_action", en->seccomp_default_action);
		nsb_json_put_str(j, "unmapped_ids", en->seccomp_unmapped_ids);
		nsb_json_end_object(j);
	} else {
		nsb_json_null(j);
	}
}

/* enforced.limits: one member per limit in force, with its mechanism. */
static void put_enforced_limits(struct nsb_json *j, const struct nsb_enforced *en)
{
	nsb_json_key(j, "limits");
	nsb_json_begin_object(j);
	if (en->memory_via) {
		nsb_json_key(j, "memory");
		nsb_json_begin_object(j);
		nsb_json_key(j, "bytes");
		nsb_json_uint(j, en->memory_bytes);
		nsb_json_put_str(j, "via", en->memory_via);
		nsb_json_end_object(j);
	}
	/* Present also when nothing enforces a pids limit, to say why. */
	if (en->pids_via || en->pids_reason) {
		nsb_json_key(j, "pids");
		nsb_json_begin_object(j);
		nsb_json_key(j, "max");
		if (en->pids_via)
			nsb_json_uint(j, en->pids_max);
		else
			nsb_json_null(j);
		nsb_json_put_str(j, "via", en->pids_via);
		nsb_json_put_bool(j, "default", en->pids_default);
		nsb_json_put_str(j, "reason", en->pids_via ? NULL : en->pids_reason);
		nsb_json_end_object(j);
	}
	if (en->cpus_via) {
		nsb_json_key(j, "cpus");
		nsb_json_begin_object(j);
		nsb_json_key(j, "millicpus");
		nsb_json_uint(j, en->cpus_milli);
		nsb_json_key(j, "quota_us");
		nsb_json_uint(j, en->cpu_quota_us);
		nsb_json_key(j, "period_us");
		nsb_json_uint(j, en->cpu_period_us);
		nsb_json_put_str(j, "via", en->cpus_via);
		nsb_json_end_object(j);
	}
	if (en->timeout_ms) {
		nsb_json_key(j, "timeout");
		nsb_json_begin_object(j);
		nsb_json_key(j, "ms");
		nsb_json_uint(j, en->timeout_ms);
		nsb_json_key(j, "kill_after_ms");
		nsb_json_uint(j, en->kill_after_ms);
		nsb_json_put_str(j, "via", "supervisor");
		nsb_json_end_object(j);
	}
	if (en->has_max_output) {
		nsb_json_key(j, "output");
		nsb_json_begin_object(j);
		nsb_json_key(j, "max_bytes");
		nsb_json_uint(j, en->max_output);
		nsb_json_put_bool(j, "capture", en->capture);
		nsb_json_put_str(j, "via", "supervisor");
		nsb_json_end_object(j);
	}
	if (en->tmp_size) {
		nsb_json_key(j, "tmp");
		nsb_json_begin_object(j);
		nsb_json_key(j, "bytes");
		nsb_json_uint(j, en->tmp_size);
		nsb_json_put_str(j, "via", "tmpfs");
		nsb_json_end_object(j);
	}
	if (en->overlay_via) {
		nsb_json_key(j, "overlay");
		nsb_json_begin_object(j);
		nsb_json_key(j, "bytes");
		nsb_json_uint(j, en->overlay_size);
		nsb_json_put_str(j, "via", en->overlay_via);
		/* tmpfs: ENOSPC at the bound; the watch: a kill after it. */
		nsb_json_put_bool(j, "hard", strcmp(en->overlay_via, "tmpfs") == 0);
		nsb_json_end_object(j);
	}
	nsb_json_end_object(j);
}

/* enforced.protected / enforced.masked: {count, paths (the first ones), truncated}. */
static void put_covers(struct nsb_json *j, const char *key, bool on, size_t n,
		       const char *const *paths, const struct nsb_enforced *en)
{
	nsb_json_key(j, key);
	if (!on) {
		nsb_json_null(j);
		return;
	}
	nsb_json_begin_object(j);
	nsb_json_key(j, "count");
	nsb_json_uint(j, n);
	nsb_json_key(j, "paths");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < n && i < NSB_RECORD_MAX_COVER_PATHS; i++)
		nsb_json_string(j, paths[i]);
	nsb_json_end_array(j);
	nsb_json_put_bool(j, "truncated", en->covers_truncated);
	nsb_json_key(j, "scanned");
	nsb_json_uint(j, en->covers_entries);
	nsb_json_end_object(j);
}

static void put_enforced(struct nsb_json *j, const struct nsb_enforced *en)
{
	static const struct {
		unsigned bit;
		const char *name;
	} ns[] = {
		{NSB_NS_USER, "user"},	   {NSB_NS_MOUNT, "mount"}, {NSB_NS_PID, "pid"},
		{NSB_NS_NET, "net"},	   {NSB_NS_IPC, "ipc"},	    {NSB_NS_UTS, "uts"},
		{NSB_NS_CGROUP, "cgroup"},
	};

	nsb_json_begin_object(j);
	nsb_json_key(j, "namespaces");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < ARRAY_SIZE(ns); i++)
		if (en->namespaces & ns[i].bit)
			nsb_json_string(j, ns[i].name);
	nsb_json_end_array(j);
	nsb_json_put_bool(j, "caps_dropped", en->caps_dropped);
	nsb_json_put_bool(j, "no_new_privs", en->no_new_privs);
	put_enforced_seccomp(j, en);
	nsb_json_put_str(j, "hostname", en->hostname);
	if (en->net_policy)
		nsb_result_put_net_policy(j, en->net_policy);
	else
		nsb_json_put_str(j, "network", en->share_net ? "host" : "none");
	nsb_json_put_str(j, "mount_api", en->mount_api);
	nsb_json_put_str(j, "etc", en->etc);

	put_enforced_limits(j, en);

	if (en->has_stdio) {
		nsb_json_key(j, "stdio");
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "stdin", en->stdio[0]);
		nsb_json_put_str(j, "stdout", en->stdio[1]);
		nsb_json_put_str(j, "stderr", en->stdio[2]);
		nsb_json_put_bool(j, "pty", en->stdio_pty);
		nsb_json_end_object(j);
	}

	nsb_json_key(j, "cgroup");
	if (en->cgroup_path) {
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "path", en->cgroup_path);
		nsb_json_put_str(j, "placement", en->cgroup_placement);
		nsb_json_end_object(j);
	} else {
		nsb_json_null(j);
	}
	if (en->has_covers) {
		put_covers(j, "protected", en->protect_on, en->n_protected, en->protected_paths,
			   en);
		put_covers(j, "masked", en->mask_on, en->n_masked, en->masked_paths, en);
	}
	nsb_result_put_isolation(j, en);
	nsb_json_end_object(j);
}

/*
 * A record written as a stream (nsb_result_write with large captured output):
 * the captured strings are left empty in the JSON built in memory, and their
 * escaped text goes straight from the capture buffers to the fd, in chunks,
 * at the offsets noted here.  The in-memory record is then small: the
 * escaped copy of up to 2 x 64 MiB is never held.
 */
struct holes {
	size_t at[2];	 /* offset of each empty string's closing quote */
	bool invalid[2]; /* each stream's *_invalid_utf8, computed beforehand */
};

/* Captured output; invalid UTF-8 is replaced, and flagged next to it.  With
 * h, an empty string whose position is noted in h->at[k]. */
static void put_captured(struct nsb_json *j, const char *name, const char *data, size_t len,
			 struct holes *h, int k)
{
	char flag[32];

	j->replaced_invalid_utf8 = false;
	nsb_json_key(j, name);
	if (h) {
		nsb_json_string_len(j, "", 0);
		h->at[k] = j->len - 1;
		j->replaced_invalid_utf8 = h->invalid[k];
	} else {
		nsb_json_string_len(j, data ? data : "", data ? len : 0);
	}
	nsb_format(flag, sizeof(flag), "%s_invalid_utf8", name);
	nsb_json_put_bool(j, flag, j->replaced_invalid_utf8);
}

/* How the run ended: status, exit code or signal, and why. */
static void put_outcome(struct nsb_json *j, const struct nsb_result *r)
{
	nsb_json_put_str(j, "status", nsb_status_name(r->status));
	nsb_json_key(j, "exit_code");
	if (r->exit_code_set)
		nsb_json_int(j, r->exit_code); /* may be a negative sentinel */
	else
		nsb_json_null(j);
	nsb_json_key(j, "signal");
	if (r->signal)
		nsb_json_int(j, r->signal);
	else
		nsb_json_null(j);
	nsb_json_put_bool(j, "timed_out", r->timed_out);
	nsb_json_put_bool(j, "oom_killed", r->oom_killed);
	nsb_json_put_bool(j, "denied", r->denied);
	nsb_json_put_str(j, "reason", r->reason);

	nsb_json_key(j, "denial");
	if (r->has_denial)
		put_denial(j, &r->denial);
	else
		nsb_json_null(j);
	nsb_json_key(j, "setup_error");
	if (r->has_setup_error)
		put_setup_error(j, &r->setup_error);
	else
		nsb_json_null(j);
}

/* Time, output sizes and truncation, the captured output, resources. */
static void put_usage(struct nsb_json *j, const struct nsb_result *r, struct holes *h)
{
	nsb_json_put_opt_int(j, "duration_ms", r->duration_ms);
	nsb_json_put_opt_int(j, "stdout_bytes", r->stdout_bytes);
	nsb_json_put_opt_int(j, "stderr_bytes", r->stderr_bytes);
	nsb_json_put_bool(j, "truncated", r->stdout_truncated || r->stderr_truncated);
	nsb_json_put_bool(j, "stdout_truncated", r->stdout_truncated);
	nsb_json_put_bool(j, "stderr_truncated", r->stderr_truncated);
	if (r->captured) {
		put_captured(j, "stdout", r->stdout_data, r->stdout_len, h, 0);
		put_captured(j, "stderr", r->stderr_data, r->stderr_len, h, 1);
	}

	nsb_json_key(j, "resources");
	nsb_json_begin_object(j);
	nsb_json_put_opt_int(j, "cpu_user_ms", r->cpu_user_ms);
	nsb_json_put_opt_int(j, "cpu_sys_ms", r->cpu_sys_ms);
	nsb_json_put_opt_int(j, "memory_peak_bytes", r->memory_peak_bytes);
	nsb_json_put_opt_int(j, "pids_peak", r->pids_peak);
	nsb_json_end_object(j);
}

/* Violations (always an array) and warnings (only when there are some). */
static void put_findings(struct nsb_json *j, const struct nsb_result *r)
{
	nsb_json_key(j, "violations");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < r->n_violations && i < ARRAY_SIZE(r->violations); i++) {
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "kind", r->violations[i].kind);
		nsb_json_key(j, "count");
		nsb_json_uint(j, r->violations[i].count);
		if (r->violations[i].path)
			nsb_json_put_str(j, "path", r->violations[i].path);
		nsb_json_end_object(j);
	}
	nsb_result_put_seccomp(j, r);
	nsb_json_end_array(j);
	if (r->has_violations_reporting) {
		nsb_json_put_bool(j, "violations_reporting", r->violations_reporting);
		nsb_json_put_str(j, "violations_reporting_reason", r->violations_reporting_reason);
	}

	if (!r->n_warnings)
		return;
	nsb_json_key(j, "warnings");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < r->n_warnings && i < ARRAY_SIZE(r->warnings); i++) {
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "kind", r->warnings[i].kind);
		nsb_json_put_str(j, "path", r->warnings[i].path);
		nsb_json_put_str(j, "message", r->warnings[i].message);
		nsb_json_end_object(j);
	}
	nsb_json_end_array(j);
}

/* The record's members in their documented order (nsbox(1), THE RESULT RECORD). */
static int build_json(const struct nsb_result *r, struct holes *h, char **ret, size_t *ret_len)
{
	_cleanup_(nsb_json_free) struct nsb_json j;

	/* The writer's errors are sticky: emit everything, check once at the end. */
	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "schema");
	nsb_json_int(&j, NSB_RECORD_SCHEMA);
	nsb_json_put_str(&j, "nsbox", NSB_VERSION);
	put_outcome(&j, r);
	put_usage(&j, r, h);
	nsb_json_key(&j, "enforced");
	if (r->has_enforced)
		put_enforced(&j, &r->enforced);
	else
		nsb_json_null(&j);
	put_findings(&j, r);
	if (r->has_network)
		nsb_result_put_network(&j, r);
	if (r->gate_metachar) {
		nsb_json_key(&j, "gate");
		nsb_json_begin_object(&j);
		nsb_json_put_str(&j, "metachar", r->gate_metachar);
		nsb_json_end_object(&j);
	}
	if (r->n_overlays)
		nsb_overlay_record_put(&j, r->overlays, r->n_overlays);
	if (r->has_approval)
		nsb_result_put_approval(&j, r);
	if (r->has_request)
		nsb_result_put_request(&j, r);
	nsb_json_end_object(&j);
	nsb_json_newline(&j);
	return nsb_json_finish(&j, ret, ret_len);
}

/* Cut len back so data[0..len) does not end inside a UTF-8 sequence. */
static size_t utf8_floor(const char *data, size_t len)
{
	size_t k = len;
	while (k > 0 && len - k < 4 && ((unsigned char)data[k - 1] & 0xc0) == 0x80)
		k--;
	if (k == 0 || ((unsigned char)data[k - 1] & 0xc0) != 0xc0)
		return len; /* no lead byte: nothing of ours to cut (or not UTF-8) */
	unsigned char lead = (unsigned char)data[k - 1];
	size_t want = lead >= 0xf0 ? 3 : lead >= 0xe0 ? 2 : 1;
	return len - k == want ? len : k - 1; /* complete, or cut before the lead */
}

/*
 * The record must always be written.  Captured output is bounded in raw
 * bytes (--max-output <= 64 MiB per stream), but escaping can grow it up to
 * six times (\u00XX) past the writer's NSB_JSON_MAX_LEN: then halve the
 * longer captured stream (at a character boundary) until the record fits,
 * and say so in its *_truncated flags.
 */
int nsb_result_to_json(const struct nsb_result *r, char **ret, size_t *ret_len)
{
	struct nsb_result cut = *r;

	for (;;) {
		int e = build_json(&cut, NULL, ret, ret_len);
		if (e != -E2BIG || !cut.captured || (cut.stdout_len == 0 && cut.stderr_len == 0))
			return e;
		/* an eighth at a time: at most ~14 rounds from 6x over, and
		 * the record keeps most of what fits */
		if (cut.stdout_len >= cut.stderr_len) {
			cut.stdout_len = utf8_floor(cut.stdout_data,
						    cut.stdout_len - cut.stdout_len / 8 - 1);
			cut.stdout_truncated = true;
		} else {
			cut.stderr_len = utf8_floor(cut.stderr_data,
						    cut.stderr_len - cut.stderr_len / 8 - 1);
			cut.stderr_truncated = true;
		}
	}
}

static int write_all(int fd, const char *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, buf + off, len - off);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return nsb_negerrno();
		}
		if (n == 0)
			return -EIO; /* no progress and no error: do not spin */
		off += (size_t)n;
	}
	return 0;
}

/* Captured output at least this large is streamed (struct holes). */
#define STREAM_MIN   (256u << 10)
#define STREAM_CHUNK (256u << 10)

/*
 * Where to end a chunk near data[b] so that escaping the chunks one by one
 * gives the bytes escaping the whole does: before a byte that is not a UTF-8
 * continuation byte (no sequence, valid or not, runs across it); when the
 * last four bytes are all continuation bytes, data[b] cannot belong to a
 * sequence begun before it (four bytes at most), so b itself.
 */
static size_t chunk_end(const char *data, size_t a, size_t b)
{
	for (size_t p = b; p > a && p + 3 >= b; p--)
		if (((unsigned char)data[p] & 0xc0) != 0x80)
			return p;
	return b;
}

/*
 * Escape data[0..len) chunk by chunk: its escaped length (quotes excluded)
 * and whether invalid UTF-8 was replaced; with fd >= 0 also write it there.
 */
static int escape_stream(int fd, const char *data, size_t len, size_t *ret_len, bool *ret_invalid)
{
	size_t total = 0;
	bool invalid = false;

	for (size_t a = 0, b; a < len; a = b) {
		_cleanup_(nsb_json_free) struct nsb_json t;
		int r;

		b = len - a > STREAM_CHUNK ? chunk_end(data, a, a + STREAM_CHUNK) : len;
		nsb_json_init(&t);
		r = nsb_json_string_len(&t, data + a, b - a);
		if (r < 0)
			return r;
		total += t.len - 2;
		invalid |= t.replaced_invalid_utf8;
		if (fd >= 0 && (r = write_all(fd, t.buf + 1, t.len - 2)) < 0)
			return r;
	}
	*ret_len = total;
	*ret_invalid = invalid;
	return 0;
}

/*
 * The record with large captured output, streamed (struct holes): the same
 * bytes as nsb_result_to_json, cut the same way when it would not fit.
 */
static int write_streamed(int fd, const struct nsb_result *r)
{
	struct nsb_result cut = *r;
	const char *data[2];
	size_t esc[2], len;
	struct holes h = {0};
	int e;

	for (;;) {
		_cleanup_free_ char *skel = NULL;

		data[0] = cut.stdout_data ? cut.stdout_data : "";
		data[1] = cut.stderr_data ? cut.stderr_data : "";
		size_t n[2] = {cut.stdout_data ? cut.stdout_len : 0,
			       cut.stderr_data ? cut.stderr_len : 0};
		for (int k = 0; k < 2; k++)
			if ((e = escape_stream(-1, data[k], n[k], &esc[k], &h.invalid[k])) < 0)
				return e;
		e = build_json(&cut, &h, &skel, &len);
		if (e < 0)
			return e;
		/* What nsb_json's limit says of the whole record. */
		if (esc[0] + esc[1] <= NSB_JSON_MAX_LEN - len) {
			size_t from = 0;
			for (int k = 0; k < 2; k++) {
				if ((e = write_all(fd, skel + from, h.at[k] - from)) < 0 ||
				    (e = escape_stream(fd, data[k], n[k], &esc[k], &h.invalid[k])) <
					    0)
					return e;
				from = h.at[k];
			}
			return write_all(fd, skel + from, len - from);
		}
		if (cut.stdout_len == 0 && cut.stderr_len == 0)
			return -E2BIG;
		/* As nsb_result_to_json cuts. */
		if (cut.stdout_len >= cut.stderr_len) {
			cut.stdout_len = utf8_floor(cut.stdout_data,
						    cut.stdout_len - cut.stdout_len / 8 - 1);
			cut.stdout_truncated = true;
		} else {
			cut.stderr_len = utf8_floor(cut.stderr_data,
						    cut.stderr_len - cut.stderr_len / 8 - 1);
			cut.stderr_truncated = true;
		}
	}
}

int nsb_result_write(int fd, const struct nsb_result *r)
{
	_cleanup_free_ char *buf = NULL;
	size_t len;

	if (r->captured && r->stdout_len + r->stderr_len >= STREAM_MIN)
		return write_streamed(fd, r);
	int ret = nsb_result_to_json(r, &buf, &len);
	if (ret < 0)
		return ret;
	return write_all(fd, buf, len);
}
