// SPDX-License-Identifier: GPL-2.0-or-later
/* The request document → struct nsb_config, through the option table's setters (request.h).  Pure (supervisor). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "core/request.h"
#include "core/cli_options.h"
#include "base/fmt.h"
#include "base/macro.h"

enum kind {
	K_STRING, /* a string, the option's value */
	K_SCALAR, /* a string or a number (its text) */
	K_FLAG,	  /* true: the flag; false: nothing (the default) */
	K_LIST,	  /* an array of strings, one option each */
	K_GROUP,  /* an object of further members */
	K_ARGV,	  /* the command */
	K_ENV,	  /* {"NAME": "VALUE" | null} */
	K_PTY,	  /* true --pty, false --no-pty */
	K_META,	  /* actor, reason, side_effect: echoed into the record */
};

enum group {
	G_NONE,
	G_NETWORK,
	G_LIMITS
};

/* No pointer: the tables stay in .rodata, shared (base/macro.h).  A table
 * ends at a row with an empty name. */
struct member {
	char name[24];
	enum kind kind;
	char option[24];  /* the row's name ("--memory"); K_PTY: --pty; "" none */
	char option2[12]; /* K_PTY: --no-pty */
	enum group group; /* K_GROUP: its members (group_members) */
	size_t field;	  /* K_META: offsetof(struct nsb_config, ...) */
};

static const struct member network_members[] _cold_data_ = {
	{"allow", K_LIST, "--allow-net"},	 {"deny", K_LIST, "--deny-net"},
	{"ranges", K_LIST, "--allow-net-range"}, {"proxy_port", K_SCALAR, "--proxy-port"},
	{"share", K_FLAG, "--share-net"},	 {""},
};

static const struct member limits_members[] _cold_data_ = {
	{"memory", K_SCALAR, "--memory"},
	{"pids", K_SCALAR, "--pids"},
	{"cpus", K_SCALAR, "--cpus"},
	{"timeout", K_SCALAR, "--timeout"},
	{"kill_after", K_SCALAR, "--kill-after"},
	{"max_output", K_SCALAR, "--max-output"},
	{"tmp_size", K_SCALAR, "--tmp-size"},
	{""},
};

#define META(n, f)                                                        \
	{                                                                 \
		n, K_META, "", "", G_NONE, offsetof(struct nsb_config, f) \
	}

/* The document's members (nsbox(1), REQUEST DOCUMENT, lists them in this order). */
static const struct member top_members[] _cold_data_ = {
	{"argv", K_ARGV},
	{"cwd", K_STRING, "--chdir"},
	{"project", K_STRING, "--project"},
	{"no_project", K_FLAG, "--no-project"},
	{"ro", K_LIST, "--ro"},
	{"rw", K_LIST, "--rw"},
	{"tmpfs", K_LIST, "--tmpfs"},
	{"rw_git", K_FLAG, "--rw-git"},
	{"no_protect", K_FLAG, "--no-protect"},
	{"mask", K_LIST, "--mask"},
	{"no_mask", K_FLAG, "--no-mask"},
	{"overlay", K_LIST, "--overlay"},
	{"overlay_size", K_SCALAR, "--overlay-size"},
	{"overlay_mode", K_STRING, "--overlay-mode"},
	{"overlay_commit_always", K_FLAG, "--overlay-commit-always"},
	{"overlay_store", K_STRING, "--overlay-store"},
	{"env", K_ENV, "--env"},
	{"hostname", K_STRING, "--hostname"},
	{"network", K_GROUP, "", "", G_NETWORK},
	{"pty", K_PTY, "--pty", "--no-pty"},
	{"limits", K_GROUP, "", "", G_LIMITS},
	{"capture", K_FLAG, "--capture"},
	{"cgroup_parent", K_STRING, "--cgroup-parent"},
	{"require_cgroup", K_FLAG, "--require-cgroup"},
	{"deny_exec", K_LIST, "--deny-exec"},
	{"allow_exec", K_LIST, "--allow-exec"},
	{"allow_inline_code", K_FLAG, "--allow-inline-code"},
	{"allow_metachar", K_FLAG, "--allow-metachar"},
	{"allow_path", K_LIST, "--allow-path"},
	{"policy", K_STRING, "--policy"},
	{"print_policy", K_FLAG, "--print-policy"},
	{"seccomp", K_STRING, "--seccomp"},
	{"seccomp_export", K_STRING, "--seccomp-export"},
	{"print_profile", K_STRING, "--print-profile"},
	{"seccomp_learn", K_STRING, "--seccomp-learn"},
	{"isolation", K_STRING, "--isolation"},
	{"quiet", K_FLAG, "--quiet"},
	META("actor", request_actor),
	META("reason", request_reason),
	META("side_effect", request_side_effect),
	{""},
};

#undef META

/* side_effect's words: what the request says the command will touch. */
static const char *const side_effects[] = {"read_only", "writes_workspace", "network", "other"};

struct ctx {
	struct nsb_config *c;
	struct nsb_jdoc *d;
	const char *src;
	struct nsb_cli_state s;
	struct nsb_error *e;
};

/* "SRC:LINE:COLUMN: $.path: what", the hint as given. */
_printf_(5, 6) static int fail(struct ctx *x, const struct nsb_jval *v, int err, const char *hint,
			       const char *fmt, ...)
{
	char what[NSB_ERR_MESSAGE_MAX], path[128];
	unsigned line, col;
	va_list ap;

	va_start(ap, fmt);
	nsb_vformat(what, sizeof(what), fmt, ap);
	va_end(ap);
	nsb_jval_path(v, path, sizeof(path));
	nsb_jdoc_where(x->d, v, &line, &col);
	return nsb_cli_usage_err(x->e, err, hint, "%s:%u:%u: %s: %s", x->src, line, col, path,
				 what);
}

/* A setter's error, placed at v: its message behind the position, its hint kept. */
static int rewrap(struct ctx *x, const struct nsb_jval *v, int err)
{
	char msg[NSB_ERR_MESSAGE_MAX], hint[NSB_ERR_HINT_MAX];

	memcpy(msg, x->e->message, sizeof(msg));
	memcpy(hint, x->e->hint, sizeof(hint));
	msg[sizeof(msg) - 1] = hint[sizeof(hint) - 1] = '\0';
	return fail(x, v, err, hint[0] ? hint : NULL, "%s", msg);
}

static const struct nsb_cli_option *row(const char *name)
{
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		if (strcmp(nsb_cli_options[i].name, name) == 0)
			return &nsb_cli_options[i];
	return NULL;
}

/* The command line's path: the row's setter with the value as text. */
static int apply_option(struct ctx *x, const struct nsb_jval *v, const char *option,
			const char *arg)
{
	const struct nsb_cli_option *o = row(option);
	int r;

	if (!o)
		return fail(x, v, -EINVAL, NULL, "no option %s", option);
	r = nsb_cli_set(o, arg, &x->s, x->e);
	return r < 0 ? rewrap(x, v, r) : 0;
}

static int want(struct ctx *x, const struct nsb_jval *v, enum nsb_jtype t, const char *what)
{
	if (v->type == t)
		return 0;
	return fail(x, v, -EINVAL, "see nsbox(1), REQUEST DOCUMENT", "%s is %s, not %s", what,
		    nsb_jtype_name(v->type), nsb_jtype_name(t));
}

/* A string for C: a NUL inside would cut it short unseen. */
static int want_text(struct ctx *x, const struct nsb_jval *v)
{
	int r = want(x, v, NSB_JSTRING, "the value");

	if (r < 0)
		return r;
	if (strlen(v->str) != v->len)
		return fail(x, v, -EINVAL, NULL, "the string contains a NUL character");
	return 0;
}

static int apply_scalar(struct ctx *x, const struct nsb_jval *v, const char *option)
{
	int r;

	if (v->type == NSB_JNUMBER)
		return apply_option(x, v, option, v->str);
	if (v->type != NSB_JSTRING)
		return fail(x, v, -EINVAL, "see nsbox(1), REQUEST DOCUMENT",
			    "the value is %s, not a string or a number", nsb_jtype_name(v->type));
	r = want_text(x, v);
	return r < 0 ? r : apply_option(x, v, option, v->str);
}

static int apply_argv(struct ctx *x, const struct nsb_jval *v)
{
	char **av;
	size_t i = 0;
	int r = want(x, v, NSB_JARRAY, "argv");

	if (r < 0)
		return r;
	if (v->n == 0)
		return fail(x, v, -EINVAL, "argv[0] is the command", "argv is empty");
	if (v->n > NSB_MAX_ARGS)
		return fail(x, v, -E2BIG, "pass large inputs in a file under an ro directory",
			    "argv has more than %d entries", NSB_MAX_ARGS);
	av = nsb_jdoc_alloc(x->d, (v->n + 1) * sizeof(*av));
	if (!av)
		return fail(x, v, -ENOMEM, NULL, "out of memory");
	for (const struct nsb_jval *a = v->first; a; a = a->next) {
		r = want_text(x, a);
		if (r < 0)
			return r;
		av[i++] = a->str;
	}
	if (!*av[0])
		return fail(x, v->first, -EINVAL, NULL, "the command name is empty");
	x->c->cmd_argv = av;
	x->c->cmd_argc = (int)v->n;
	return 0;
}

/* {"NAME": "VALUE"} is --env NAME=VALUE; {"NAME": null}, --env NAME (the
 * caller's value).  A '=' in NAME would move the split: refused here. */
static int apply_env(struct ctx *x, const struct nsb_jval *v, const char *option)
{
	int r = want(x, v, NSB_JOBJECT, "env");

	if (r < 0)
		return r;
	for (const struct nsb_jval *m = v->first; m; m = m->next) {
		size_t n = m->key_len + 1 + (m->type == NSB_JSTRING ? m->len : 0);
		char *arg;

		if (memchr(m->key, '=', m->key_len) || strlen(m->key) != m->key_len)
			return fail(x, m, -EINVAL,
				    "NAME is letters, digits and '_', not starting with a digit",
				    "invalid variable name");
		if (m->type != NSB_JNULL) {
			r = want_text(x, m);
			if (r < 0)
				return r;
		}
		arg = nsb_jdoc_alloc(x->d, n + 1);
		if (!arg)
			return fail(x, m, -ENOMEM, NULL, "out of memory");
		if (m->type == NSB_JNULL)
			memcpy(arg, m->key, m->key_len + 1);
		else
			nsb_format(arg, n + 1, "%s=%s", m->key, m->str);
		r = apply_option(x, m, option, arg);
		if (r < 0)
			return r;
	}
	return 0;
}

static int apply_meta(struct ctx *x, const struct nsb_jval *v, const struct member *m)
{
	int r = want_text(x, v);
	bool known = false;

	if (r < 0)
		return r;
	if (v->len > NSB_REQUEST_MAX_META)
		return fail(x, v, -E2BIG, "keep it short: the record carries it to an audit log",
			    "%s is longer than %d bytes", m->name, NSB_REQUEST_MAX_META);
	if (strcmp(m->name, "side_effect") == 0) {
		for (size_t i = 0; i < ARRAY_SIZE(side_effects); i++)
			known = known || strcmp(v->str, side_effects[i]) == 0;
		if (!known)
			return fail(x, v, -EINVAL,
				    "one of read_only, writes_workspace, network, other",
				    "unknown side effect '%s'", v->str);
	}
	*(const char **)((char *)x->c + m->field) = v->str;
	return 0;
}

static int apply_members(struct ctx *x, const struct nsb_jval *obj, const struct member *table);

static const struct member *group_members(enum group g)
{
	return g == G_NETWORK ? network_members : g == G_LIMITS ? limits_members : NULL;
}

static int apply_member(struct ctx *x, const struct nsb_jval *v, const struct member *m)
{
	int r;

	switch (m->kind) {
	case K_STRING:
		r = want_text(x, v);
		return r < 0 ? r : apply_option(x, v, m->option, v->str);
	case K_SCALAR:
		return apply_scalar(x, v, m->option);
	case K_FLAG:
		r = want(x, v, NSB_JBOOL, m->name);
		return r < 0 || !v->boolean ? r : apply_option(x, v, m->option, NULL);
	case K_PTY:
		r = want(x, v, NSB_JBOOL, m->name);
		return r < 0 ? r : apply_option(x, v, v->boolean ? m->option : m->option2, NULL);
	case K_LIST:
		r = want(x, v, NSB_JARRAY, m->name);
		for (const struct nsb_jval *a = v->first; r == 0 && a; a = a->next) {
			r = want_text(x, a);
			if (r == 0)
				r = apply_option(x, a, m->option, a->str);
		}
		return r;
	case K_GROUP:
		r = want(x, v, NSB_JOBJECT, m->name);
		return r < 0 ? r : apply_members(x, v, group_members(m->group));
	case K_ARGV:
		return apply_argv(x, v);
	case K_ENV:
		return apply_env(x, v, m->option);
	case K_META:
		return apply_meta(x, v, m);
	}
	return fail(x, v, -EINVAL, NULL, "unhandled member");
}

static int apply_members(struct ctx *x, const struct nsb_jval *obj, const struct member *table)
{
	for (const struct nsb_jval *v = obj->first; v; v = v->next) {
		const struct member *m = table;
		int r;

		while (m->name[0] &&
		       !(strlen(m->name) == v->key_len && strcmp(m->name, v->key) == 0))
			m++;
		if (!m->name[0])
			return fail(x, v, -EINVAL,
				    "the members are listed in nsbox(1), REQUEST DOCUMENT",
				    "unknown member");
		r = apply_member(x, v, m);
		if (r < 0)
			return r;
	}
	return 0;
}

int nsb_request_apply(struct nsb_config *c, struct nsb_jdoc *d, const char *buf, size_t len,
		      const char *src, struct nsb_error *e)
{
	struct ctx x = {.c = c, .d = d, .src = src, .s = {.c = c, .argv_index = -1}, .e = e};
	struct nsb_jerror je;
	int r;

	r = nsb_json_parse(d, buf, len, NSB_REQUEST_MAX_LEN, &je);
	if (r < 0)
		return nsb_cli_usage_err(
			e, r,
			"the request is one JSON object (RFC 8259; nsbox(1), REQUEST DOCUMENT)",
			"%s:%u:%u: %s: %s", src, je.line, je.column, je.path, je.message);
	r = want(&x, d->root, NSB_JOBJECT, "the request");
	if (r < 0)
		return r;
	r = apply_members(&x, d->root, top_members);
	if (r < 0)
		return r;
	/* The command line's rules between options, on the document's. */
	r = nsb_cli_check_rules(&x.s, e);
	if (r < 0)
		return rewrap(&x, d->root, r);
	if (!c->cmd_argv && !c->seccomp_export && !c->print_policy && !c->print_profile)
		return fail(&x, d->root, -EINVAL, "argv is the command and its arguments",
			    "no argv given");
	c->from_request = true;
	return 0;
}

static const char *member_in(const struct member *t, const char *prefix, const char *option,
			     char *buf, size_t size)
{
	for (; t->name[0]; t++) {
		if (t->kind == K_GROUP) {
			char pre[64];
			nsb_format(pre, sizeof(pre), "%s.", t->name);
			if (member_in(group_members(t->group), pre, option, buf, size))
				return buf;
			continue;
		}
		if ((t->option[0] && strcmp(t->option, option) == 0) ||
		    (t->option2[0] && strcmp(t->option2, option) == 0)) {
			nsb_format(buf, size, "%s%s", prefix, t->name);
			return buf;
		}
	}
	return NULL;
}

const char *nsb_request_member_of(const char *option, char *buf, size_t size)
{
	return member_in(top_members, "", option, buf, size);
}
