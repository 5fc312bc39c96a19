// SPDX-License-Identifier: GPL-2.0-or-later
/* The front gate as the supervisor runs it: effective policy, roots, verdict, --check. */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "base/exitcode.h"
#include "core/result.h"
#include "core/result_net.h"
#include "gate/front.h"
#include "gate/gate_fs_cache.h"
#include "base/json.h"
#include "gate/policy.h"
#include "gate/policy_net.h"
#include "gate/gate_tables.h"
#include "gate/gate_which.h"
#include "seccomp/filter.h"
#include "base/util.h"

int nsb_front_policy(const struct nsb_config *c, struct nsb_front *f, struct nsb_error *e)
{
	int r;

	f->policy_source = "builtin";
	r = nsb_gate_policy_init_default(&f->policy);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_POLICY, "build the built-in gate policy");

	if (c->policy) {
		FILE *fp = fopen(c->policy, "re");
		if (!fp) {
			r = nsb_error_set(e, nsb_negerrno(), NSB_STAGE_POLICY, "--policy '%s'",
					  c->policy);
			return r;
		}
		r = nsb_policy_parse(fp, c->policy, &f->policy, e);
		fclose(fp);
		if (r < 0)
			return r;
		f->policy_source = c->policy;
	}

	/* The command line has the last word over the file. */
	for (size_t i = 0; i < c->n_deny_exec; i++) {
		r = nsb_gate_policy_deny_exec(&f->policy, c->deny_exec[i]);
		if (r < 0)
			return nsb_error_setx(e, r, NSB_STAGE_USAGE, "--deny-exec '%s': %s",
					      c->deny_exec[i],
					      r == -E2BIG ? "too many names" : "invalid name");
	}
	for (size_t i = 0; i < c->n_allow_exec; i++) {
		r = nsb_gate_policy_allow_exec(&f->policy, c->allow_exec[i]);
		if (r < 0)
			return nsb_error_setx(e, r, NSB_STAGE_USAGE, "--allow-exec '%s': %s",
					      c->allow_exec[i],
					      r == -E2BIG ? "too many names" : "invalid name");
	}
	for (size_t i = 0; i < c->n_allow_path; i++) {
		char real[PATH_MAX];
		if (!realpath(c->allow_path[i], real)) {
			nsb_error_set(e, nsb_negerrno(), NSB_STAGE_USAGE, "--allow-path '%s'",
				      c->allow_path[i]);
			return nsb_error_hint(e, "the directory must exist on the host");
		}
		r = nsb_gate_policy_allow_path(&f->policy, real);
		if (r < 0)
			return nsb_error_setx(
				e, r, NSB_STAGE_USAGE, "--allow-path '%s': %s", c->allow_path[i],
				r == -E2BIG ? "too many directories" : "invalid directory");
	}
	if (c->allow_inline_code)
		f->policy.allow_inline_code = true;
	if (c->allow_metachar)
		f->policy.allow_metachar = true;
	return 0;
}

/* The project and every user mount are roots: inside path -> host path.
 * 0 or -ENOMEM. */
static int build_roots(const struct nsb_plan *p, struct nsb_front *f)
{
	free(f->roots);
	f->n_roots = 0;
	f->roots = calloc(p->n_ops ? p->n_ops : 1, sizeof(*f->roots));
	if (!f->roots)
		return -ENOMEM;
	for (size_t i = 0; i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		if (!op->user)
			continue;
		struct nsb_gate_root *r = &f->roots[f->n_roots++];
		r->inside = op->dest;
		/* A tmpfs exists only inside: its paths are judged as text. */
		r->host = op->kind == NSB_OP_TMPFS ? op->dest : op->src;
		r->writable = op->kind == NSB_OP_TMPFS || !op->readonly;
	}
	return 0;
}

/*
 * The verdict into the front, which lives in static storage (struct
 * nsb_run), where a page costs memory once written, even with zeros: of
 * each text only the bytes it holds, and none when no text was ever kept
 * (an allowed command), as the front's verdict is zero until its first.
 */
static void verdict_keep(struct nsb_front *f, const struct nsb_gate_verdict *v)
{
	bool texts = v->token[0] || v->hint[0] || v->reason[0] || v->resolved[0];
	struct nsb_gate_verdict *k = &f->verdict;

	memcpy(k, v, offsetof(struct nsb_gate_verdict, token));
	if (texts || f->verdict_texts)
		nsb_gate_verdict_copy_texts(k, v);
	f->verdict_texts = texts;
}

int nsb_front_check(const struct nsb_config *c, const struct nsb_plan *p, struct nsb_front *f,
		    struct nsb_error *e)
{
	struct nsb_gate_fs_host host;
	struct nsb_fs_ops ops;
	char cache_dir[PATH_MAX], cmd_path[PATH_MAX];
	struct nsb_gate_verdict v;
	const char *name = p->argv[0];
	const char *path_list = nsb_env_get(p->envp, "PATH", 4);
	int r;

	/* What exists inside: the read-only root holds only the mount points. */
	free(f->view);
	f->n_view = 0;
	f->view = calloc(p->n_ops ? p->n_ops : 1, sizeof(*f->view));
	if (!f->view || build_roots(p, f) < 0)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_GATE, "judge the command");
	for (size_t i = 0; i < p->n_ops; i++)
		f->view[f->n_view++] = p->ops[i].dest;
	host = (struct nsb_gate_fs_host){
		.roots = f->roots,
		.n_roots = f->n_roots,
		.path_list = path_list,
		.cwd = p->cwd,
		.cache_dir = nsb_gate_cache_dir(NSB_CACHE_IN_USE, cache_dir, sizeof(cache_dir)) == 0
				     ? cache_dir
				     : NULL,
	};
	nsb_gate_fs_host_ops(&host, &ops);

	/* Resolve the command the way the payload will: in the sandbox's
	 * view, with the sandbox's PATH. */
	struct nsb_gate_input in = {
		.argv = p->argv,
		.argc = p->argc,
		.cwd = p->cwd,
		.home = getenv("HOME"),
		.roots = f->roots,
		.n_roots = f->n_roots,
		.fs = &ops,
		.path_list = path_list,
		.view = f->view,
		.n_view = f->n_view,
	};
	f->cmd_found = false;
	free(f->cmd_path);
	f->cmd_path = NULL;
	if (strchr(name, '/')) {
		char inside[PATH_MAX], mapped[PATH_MAX];
		if (nsb_path_normalize(p->cwd, name, inside, sizeof(inside)) == 0 &&
		    nsb_gate_map_host(&in, inside, mapped, sizeof(mapped)) == 0 &&
		    ops.realpath(ops.ud, mapped, cmd_path, sizeof(cmd_path)) == 0)
			f->cmd_found = true;
	} else if (nsb_gate_which(&in, NULL, name, cmd_path, sizeof(cmd_path)) == 0) {
		f->cmd_found = true;
	}
	if (f->cmd_found && !(f->cmd_path = strdup(cmd_path)))
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_GATE, "judge the command");
	in.cmd_path = f->cmd_path;
	in.cmd_real_base = f->cmd_found ? nsb_gate_basename(f->cmd_path) : NULL;

	r = nsb_gate_check(&f->policy, &in, &v);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_GATE, "judge the command");
	verdict_keep(f, &v);
	return 0;
}

static const char *op_kind(const struct nsb_mount_op *op)
{
	switch (op->kind) {
	case NSB_OP_BIND:
		if (!op->user)
			return "system";
		if (op->overlay)
			return "overlay";
		return op->readonly ? "ro" : "rw";
	case NSB_OP_SYSLINK:
		return "system";
	case NSB_OP_TMPFS:
		return op->user ? "tmpfs" : "tmp";
	case NSB_OP_PROC:
		return "proc";
	case NSB_OP_DEV:
		return "dev";
	}
	return "unknown";
}

static void put_strv(struct nsb_json *j, const char *k, char *const *v, size_t n)
{
	nsb_json_key(j, k);
	nsb_json_begin_array(j);
	for (size_t i = 0; i < n; i++)
		nsb_json_string(j, v[i]);
	nsb_json_end_array(j);
}

static void put_limit(struct nsb_json *j, const char *k, uint64_t v, enum nsb_via via)
{
	nsb_json_key(j, k);
	if (via == NSB_VIA_NONE) {
		nsb_json_null(j);
		return;
	}
	nsb_json_begin_object(j);
	nsb_json_put_uint(j, "value", v);
	nsb_json_put_str(j, "via", nsb_via_name(via));
	nsb_json_end_object(j);
}

static void put_mounts(struct nsb_json *j, const struct nsb_plan *p)
{
	nsb_json_key(j, "mounts");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < p->n_ops; i++) {
		const struct nsb_mount_op *op = &p->ops[i];
		nsb_json_begin_object(j);
		nsb_json_put_str(j, "kind", op_kind(op));
		nsb_json_put_str(j, "source", op->src[0] ? op->src : NULL);
		nsb_json_put_str(j, "dest", op->dest);
		nsb_json_put_bool(j, "readonly",
				  op->kind == NSB_OP_BIND || op->kind == NSB_OP_SYSLINK
					  ? op->readonly
					  : false);
		nsb_json_put_bool(j, "optional", op->optional);
		if (op->kind == NSB_OP_TMPFS || op->kind == NSB_OP_DEV)
			nsb_json_put_uint(j, "size", op->size);
		nsb_json_end_object(j);
	}
	nsb_json_end_array(j);
}

static void put_limits(struct nsb_json *j, const struct nsb_config *c, const struct nsb_plan *p)
{
	nsb_json_key(j, "limits");
	nsb_json_begin_object(j);
	put_limit(j, "memory", p->limits.memory, p->limits.memory_via);
	put_limit(j, "pids", p->limits.pids, p->limits.pids_via);
	put_limit(j, "millicpus", p->limits.cpus_milli, p->limits.cpus_via);
	nsb_json_key(j, "timeout_ms");
	if (c->timeout_ms)
		nsb_json_uint(j, c->timeout_ms);
	else
		nsb_json_null(j);
	nsb_json_put_uint(j, "kill_after_ms", c->kill_after_ms);
	nsb_json_key(j, "max_output");
	if (c->has_max_output)
		nsb_json_uint(j, c->max_output);
	else
		nsb_json_null(j);
	nsb_json_put_bool(j, "capture", c->capture);
	nsb_json_put_uint(j, "tmp_size", p->tmp_size);
	nsb_json_end_object(j);
}

static void put_seccomp(struct nsb_json *j, const struct nsb_bpf *bpf)
{
	nsb_json_key(j, "seccomp");
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "profile", bpf->none ? NSB_SECCOMP_NONE : bpf->profile);
	nsb_json_put_str(j, "sha256", bpf->none ? NULL : bpf->sha256);
	nsb_json_put_str(j, "default_action", bpf->none ? NULL : bpf->default_action);
	nsb_json_put_str(j, "unmapped_ids",
			 bpf->none || !bpf->ids_action[0] ? NULL : bpf->ids_action);
	nsb_json_end_object(j);
}

static void put_gate(struct nsb_json *j, const struct nsb_front *f)
{
	const struct nsb_gate_verdict *v = &f->verdict;

	nsb_json_key(j, "gate");
	nsb_json_begin_object(j);
	nsb_json_put_bool(j, "allowed", v->allowed);
	nsb_json_put_str(j, "rule", v->rule);
	nsb_json_key(j, "argv_index");
	if (v->allowed)
		nsb_json_null(j);
	else
		nsb_json_int(j, v->argv_index);
	nsb_json_put_str(j, "token", v->allowed ? NULL : v->token);
	nsb_json_put_str(j, "resolved", v->resolved[0] ? v->resolved : NULL);
	nsb_json_put_str(j, "reason", v->allowed ? NULL : v->reason);
	nsb_json_put_str(j, "hint", v->allowed ? NULL : v->hint);
	nsb_json_key(j, "policy");
	nsb_json_begin_object(j);
	nsb_json_put_str(j, "source", f->policy_source);
	put_strv(j, "deny_exec", f->policy.deny_exec, f->policy.n_deny_exec);
	put_strv(j, "allow_exec", f->policy.allow_exec, f->policy.n_allow_exec);
	nsb_json_put_bool(j, "allow_inline_code", f->policy.allow_inline_code);
	nsb_json_put_bool(j, "allow_metachar", f->policy.allow_metachar);
	put_strv(j, "allow_path", f->policy.allow_path, f->policy.n_allow_path);
	nsb_gate_tables_json(j, &f->policy);
	nsb_json_put_str(j, "metachar", nsb_gate_metachar_mode(&f->policy));
	nsb_json_end_object(j);
	nsb_json_put_str(j, "metachar", v->metachar); /* the mode that judged */
	nsb_json_end_object(j);
}

/* "none", "host", or proxy mode's policy as the record's enforced.network has it. */
static void put_network(struct nsb_json *j, const struct nsb_config *c, const struct nsb_plan *p,
			const struct nsb_front *f)
{
	_cleanup_free_ struct nsb_net_policy *pol = NULL;
	struct nsb_error ignored = {0};

	/* The options were checked when parsed: the build cannot fail here
	 * but for memory, and then the plan says "proxy" at least. */
	if (p->proxy_port && (pol = calloc(1, sizeof(*pol))) &&
	    nsb_net_policy_build(c, p->proxy_port, pol, &ignored) == 0 &&
	    nsb_gate_net_merge(&f->policy, pol, &ignored) == 0) {
		nsb_result_put_net_policy(j, pol);
		return;
	}
	nsb_json_put_str(j, "network", p->proxy_port ? "proxy" : p->share_net ? "host" : "none");
}

int nsb_front_print_plan(FILE *out, const struct nsb_config *c, const struct nsb_plan *p,
			 const struct nsb_front *f, const struct nsb_bpf *bpf, struct nsb_error *e)
{
	_cleanup_(nsb_json_free) struct nsb_json j;
	_cleanup_free_ char *buf = NULL;
	size_t len;
	int r;

	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_json_key(&j, "schema");
	nsb_json_int(&j, 1);
	nsb_json_put_str(&j, "nsbox", NSB_VERSION);
	nsb_json_put_bool(&j, "check", true);
	/* allowed: the run would go ahead (an ask rule without its approval
	 * holds it like a refusal, exit 123); gate.allowed is the gate's word. */
	nsb_json_put_bool(&j, "allowed", nsb_front_goes_ahead(f));
	nsb_json_key(&j, "exit_code");
	nsb_json_int(&j, nsb_front_goes_ahead(f) ? 0 : NSB_EXIT_DENIED);
	nsb_front_ask_json(&j, c, f);

	nsb_json_key(&j, "command");
	nsb_json_begin_object(&j);
	put_strv(&j, "argv", p->argv, (size_t)p->argc);
	nsb_json_put_bool(&j, "found", f->cmd_found);
	nsb_json_put_str(&j, "realpath", f->cmd_path);
	nsb_json_end_object(&j);

	nsb_json_put_str(&j, "cwd", p->cwd);
	nsb_json_put_str(&j, "project", p->project[0] ? p->project : NULL);

	put_mounts(&j, p);

	put_strv(&j, "env", p->envp, p->n_envp);
	put_network(&j, c, p, f);
	nsb_json_put_str(&j, "hostname", p->hostname);

	put_limits(&j, c, p);
	put_seccomp(&j, bpf);
	put_gate(&j, f);
	nsb_json_put_str(&j, "isolation",
			 p->isolation == NSB_ISO_LANDLOCK ? "landlock" : "namespaces");
	if (c->from_request)
		nsb_request_echo_put(&j, c->request_actor, c->request_reason,
				     c->request_side_effect);
	nsb_json_end_object(&j);
	nsb_json_newline(&j);
	r = nsb_json_finish(&j, &buf, &len);
	if (r < 0)
		return nsb_error_set(e, r, NSB_STAGE_GATE, "--check: write the plan");
	if (fwrite(buf, 1, len, out) != len || fflush(out) != 0)
		return nsb_error_set(e, -EIO, NSB_STAGE_GATE, "--check: write the plan");
	return 0;
}

void nsb_front_free(struct nsb_front *f)
{
	nsb_gate_policy_free(&f->policy);
	free(f->view);
	f->view = NULL;
	f->n_view = 0;
	free(f->roots);
	f->roots = NULL;
	f->n_roots = 0;
	free(f->cmd_path);
	f->cmd_path = NULL;
	f->cmd_found = false;
}
