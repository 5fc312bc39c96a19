// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The approval id (approval.h).  Pure (supervisor).
 *
 * The serialisation is a stream of items, each a tag, a NUL, an 8-byte
 * length and the bytes (a NULL string has the length ~0): no value can end
 * early or run into the next, so two requests hash alike only when every
 * field is alike.  Every field of struct nsb_config is either here or named
 * in the list of exclusions below; a field added to the config must be
 * added to one of the two (tests/unit/test_approval.c changes each one).
 *
 * Not hashed, because they do not change what runs: result_fd, quiet,
 * approved (the id itself), policy (the file's name: its content is in
 * policy_sha256), and the modes that never run a command (help, version,
 * print_policy, print_profile, check: --check must print the id of the run
 * it describes).
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "base/macro.h"
#include "core/approval.h"
#include "base/util.h"

/* Bump when the serialisation changes: old ids then no longer match. */
#define APPROVAL_FORMAT "nsbox-approval-1"

static void put_bytes(struct nsb_sha256 *h, const char *tag, const void *data, uint64_t len)
{
	uint8_t n[8];

	for (int i = 0; i < 8; i++)
		n[i] = (uint8_t)(len >> (8 * i));
	nsb_sha256_update(h, tag, strlen(tag) + 1);
	nsb_sha256_update(h, n, sizeof(n));
	if (data && len != UINT64_MAX)
		nsb_sha256_update(h, data, (size_t)len);
}

static void put_str(struct nsb_sha256 *h, const char *tag, const char *s)
{
	put_bytes(h, tag, s, s ? strlen(s) : UINT64_MAX);
}

static void put_u64(struct nsb_sha256 *h, const char *tag, uint64_t v)
{
	uint8_t b[8];

	for (int i = 0; i < 8; i++)
		b[i] = (uint8_t)(v >> (8 * i));
	put_bytes(h, tag, b, sizeof(b));
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(const char *const *)a, *(const char *const *)b);
}

/* A list whose order does not matter: sorted, so any order gives one id. */
static int put_set(struct nsb_sha256 *h, const char *tag, const char *const *v, size_t n)
{
	_cleanup_free_ const char **s = NULL;

	put_u64(h, tag, n);
	if (n == 0)
		return 0;
	s = malloc(n * sizeof(*s));
	if (!s)
		return -ENOMEM;
	memcpy(s, v, n * sizeof(*s));
	qsort(s, n, sizeof(*s), cmp_str);
	for (size_t i = 0; i < n; i++)
		put_str(h, tag, s[i]);
	return 0;
}

struct env_item {
	const char *s;
	size_t name_len, index;
};

/* By NAME, then by position: entries of one NAME keep their order, since
 * the last one wins; entries of different NAMEs commute. */
static int cmp_env(const void *a, const void *b)
{
	const struct env_item *x = a, *y = b;
	size_t n = x->name_len < y->name_len ? x->name_len : y->name_len;
	int c = memcmp(x->s, y->s, n);

	if (c)
		return c;
	if (x->name_len != y->name_len)
		return x->name_len < y->name_len ? -1 : 1;
	return x->index < y->index ? -1 : x->index > y->index;
}

static int put_env(struct nsb_sha256 *h, const struct nsb_approval_in *in)
{
	const struct nsb_config *c = in->cfg;
	_cleanup_free_ struct env_item *v = NULL;

	put_u64(h, "env", c->n_env);
	if (c->n_env == 0)
		return 0;
	v = calloc(c->n_env, sizeof(*v));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < c->n_env; i++)
		v[i] = (struct env_item){c->env[i], nsb_strcspn(c->env[i], "="), i};
	qsort(v, c->n_env, sizeof(*v), cmp_env);
	for (size_t i = 0; i < c->n_env; i++) {
		put_str(h, "env.entry", v[i].s);
		/* --env NAME passes the caller's value: that value runs. */
		if (!v[i].s[v[i].name_len])
			put_str(h, "env.value", in->getenv ? in->getenv(v[i].s) : NULL);
	}
	return 0;
}

/* Mounts in their order: a later one may cover an earlier one. */
static void put_mounts(struct nsb_sha256 *h, const struct nsb_config *c)
{
	put_u64(h, "mounts", c->n_mounts);
	for (size_t i = 0; i < c->n_mounts; i++) {
		const struct nsb_mount_arg *m = &c->mounts[i];
		put_u64(h, "mount.kind", (uint64_t)m->kind);
		put_bytes(h, "mount.src", m->src, m->src ? m->src_len : UINT64_MAX);
		put_str(h, "mount.dest", m->dest);
		put_u64(h, "mount.size", m->size);
	}
}

static void put_argv(struct nsb_sha256 *h, const struct nsb_config *c)
{
	put_u64(h, "argv", (uint64_t)(c->cmd_argv ? c->cmd_argc : 0));
	for (int i = 0; c->cmd_argv && i < c->cmd_argc; i++)
		put_str(h, "argv.arg", c->cmd_argv[i]);
}

static void put_limits(struct nsb_sha256 *h, const struct nsb_config *c)
{
	put_u64(h, "memory", c->memory);
	put_u64(h, "pids", c->pids);
	put_u64(h, "cpus_milli", c->cpus_milli);
	put_u64(h, "timeout_ms", c->timeout_ms);
	put_u64(h, "kill_after_ms", c->kill_after_ms);
	put_u64(h, "has_max_output", c->has_max_output);
	put_u64(h, "max_output", c->max_output);
	put_u64(h, "capture", c->capture);
	put_u64(h, "pty", (uint64_t)c->pty);
	put_u64(h, "tmp_size", c->tmp_size);
	put_str(h, "cgroup_parent", c->cgroup_parent);
	put_u64(h, "require_cgroup", c->require_cgroup);
}

static void put_workspace(struct nsb_sha256 *h, const struct nsb_config *c)
{
	put_str(h, "chdir", c->chdir);
	put_str(h, "project", c->project);
	put_u64(h, "no_project", c->no_project);
	put_str(h, "hostname", c->hostname);
	put_u64(h, "no_protect", c->no_protect);
	put_u64(h, "no_mask", c->no_mask);
	put_u64(h, "rw_git", c->rw_git);
	put_u64(h, "isolation", (uint64_t)c->isolation);
	put_u64(h, "overlay_size", c->overlay_size);
	put_u64(h, "overlay_mode", (uint64_t)c->overlay_mode);
	put_str(h, "overlay_export", c->overlay_export);
	put_u64(h, "overlay_commit_always", c->overlay_commit_always);
	put_str(h, "overlay_store", c->overlay_store);
	put_str(h, "seccomp", c->seccomp);
	put_str(h, "seccomp_export", c->seccomp_export);
	put_str(h, "seccomp_learn", c->seccomp_learn);
	put_u64(h, "share_net", c->share_net);
	put_u64(h, "net_proxy", c->net_proxy);
	put_u64(h, "proxy_port", c->proxy_port);
	put_u64(h, "allow_inline_code", c->allow_inline_code);
	put_u64(h, "allow_metachar", c->allow_metachar);
	/* The request's own words: an approval is for what the human read. */
	put_str(h, "request_actor", c->request_actor);
	put_str(h, "request_reason", c->request_reason);
	put_str(h, "request_side_effect", c->request_side_effect);
}

int nsb_approval_id(const struct nsb_approval_in *in, char ret[NSB_SHA256_HEX])
{
	const struct nsb_config *c = in->cfg;
	static const char hex[] = "0123456789abcdef";
	uint8_t d[NSB_SHA256_LEN];
	struct nsb_sha256 h;
	int r;

	nsb_sha256_init(&h);
	put_str(&h, "format", APPROVAL_FORMAT);
	put_str(&h, "cwd", in->cwd);
	put_str(&h, "policy_sha256", in->policy_sha256);
	put_str(&h, "seccomp_sha256", in->seccomp_sha256);
	put_argv(&h, c);
	put_mounts(&h, c);
	put_limits(&h, c);
	put_workspace(&h, c);
	if ((r = put_env(&h, in)) < 0 ||
	    (r = put_set(&h, "deny_exec", c->deny_exec, c->n_deny_exec)) < 0 ||
	    (r = put_set(&h, "allow_exec", c->allow_exec, c->n_allow_exec)) < 0 ||
	    (r = put_set(&h, "allow_path", c->allow_path, c->n_allow_path)) < 0 ||
	    (r = put_set(&h, "mask", c->mask, c->n_mask)) < 0 ||
	    (r = put_set(&h, "allow_net", c->allow_net, c->n_allow_net)) < 0 ||
	    (r = put_set(&h, "deny_net", c->deny_net, c->n_deny_net)) < 0 ||
	    (r = put_set(&h, "allow_net_range", c->allow_net_range, c->n_allow_net_range)) < 0)
		return r;
	nsb_sha256_final(&h, d);
	for (size_t i = 0; i < sizeof(d); i++) {
		ret[2 * i] = hex[d[i] >> 4];
		ret[2 * i + 1] = hex[d[i] & 15];
	}
	ret[NSB_APPROVAL_ID_LEN] = '\0';
	return 0;
}

bool nsb_approval_id_valid(const char *s)
{
	size_t n = nsb_strspn(s, "0123456789abcdefABCDEF");

	return n == NSB_APPROVAL_ID_LEN && s[n] == '\0';
}

bool nsb_approval_id_equal(const char *a, const char *b)
{
	return nsb_approval_id_valid(a) && nsb_approval_id_valid(b) &&
	       nsb_strncasecmp(a, b, NSB_APPROVAL_ID_LEN) == 0;
}
