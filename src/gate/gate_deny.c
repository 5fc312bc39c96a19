// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deny list's reach (supervisor, pure): a command is refused by the
 * name it is called by, by the name its symlinks resolve to, by being the
 * same file as one a denied name stands for in the sandbox's PATH
 * (mke2fs, which mkfs.ext4 links to), and by a deny-mode rule: an ordinary
 * tool run in a mode that deletes files (find -delete).
 *
 * The files are found once per judgement: each directory of the sandbox's
 * PATH is listed (one level) and every name the deny list matches is
 * resolved; a file is the same by realpath, or by device and inode when the
 * fs ops can tell (a hard link: Fedora's mkfs.ext4 and mke2fs).  Multi-call binaries (the applet wrappers: busybox) are left
 * out, since every applet, ls as much as rm, resolves to the same file.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_deny.h"
#include "gate/gate_tables.h"
#include "gate/gate_which.h"
#include "base/macro.h"
#include "core/plan.h" /* NSB_SANDBOX_PATH */

#define MAX_IDS 1024

struct deny_id {
	char *real;
	char *name;
	bool has_id; /* dev and ino known: hard links are the same file too */
	unsigned long long dev, ino;
};

struct nsb_deny_ids {
	bool built;
	struct deny_id *v;
	size_t n;
};

struct nsb_deny_ids *nsb_gate_deny_ids_new(void)
{
	return calloc(1, sizeof(struct nsb_deny_ids));
}

void nsb_gate_deny_ids_free(struct nsb_deny_ids *ids)
{
	if (!ids)
		return;
	for (size_t i = 0; i < ids->n; i++) {
		free(ids->v[i].real);
		free(ids->v[i].name);
	}
	free(ids->v);
	free(ids);
}

static bool is_multicall(const struct nsb_gate_policy *p, const char *base)
{
	const struct nsb_wrapper *w = nsb_gate_find_wrapper(p, base);
	return w && w->run == NSB_RUN_APPLET;
}

static void ids_add(const struct nsb_fs_ops *fs, struct nsb_deny_ids *ids, const char *real,
		    const char *name)
{
	for (size_t i = 0; i < ids->n; i++)
		if (strcmp(ids->v[i].real, real) == 0)
			return;
	if (ids->n >= MAX_IDS)
		return;
	struct deny_id *v = realloc(ids->v, (ids->n + 1) * sizeof(*v));
	if (!v)
		return;
	ids->v = v;
	v[ids->n].real = strdup(real);
	v[ids->n].name = strdup(name);
	if (!v[ids->n].real || !v[ids->n].name) {
		free(v[ids->n].real);
		free(v[ids->n].name);
		return;
	}
	v[ids->n].has_id =
		fs->file_id && fs->file_id(fs->ud, real, &v[ids->n].dev, &v[ids->n].ino) == 0;
	ids->n++;
}

struct listing {
	const struct nsb_gate_ctx *c;
	struct nsb_deny_ids *ids;
	const char *dir; /* host */
	/* the first two bytes of every deny entry: most names stop here */
	unsigned char pairs[65536 / 8];
};

static int listed(void *ud, const char *name)
{
	struct listing *l = ud;
	const struct nsb_fs_ops *fs = l->c->in->fs;
	char host[PATH_MAX], real[PATH_MAX];

	unsigned pair = (unsigned)(unsigned char)name[0] << 8 | (unsigned char)name[1 - !name[0]];
	if (!(l->pairs[pair / 8] & (1u << (pair % 8))))
		return 0;
	/* the whole name against the entries that share its first bytes */
	const struct nsb_gate_policy *p = l->c->p;
	size_t len = strlen(name), i = 0;
	for (; i < p->n_deny_exec; i++) {
		const char *d = p->deny_exec[i];
		size_t dl = strlen(d);
		if (d[0] == name[0] && (dl == len || d[dl - 1] == '*'))
			break;
	}
	if (i == p->n_deny_exec || !nsb_gate_name_denied(p, name))
		return 0;
	if (snprintf(host, sizeof(host), "%s/%s", l->dir, name) >= (int)sizeof(host) ||
	    fs->realpath(fs->ud, host, real, sizeof(real)) < 0 ||
	    is_multicall(l->c->p, nsb_gate_basename(real)))
		return 0;
	ids_add(fs, l->ids, real, name);
	return 0;
}

static void pairs_mark(unsigned char *pairs, const char *entry)
{
	unsigned a = (unsigned char)entry[0], b = (unsigned char)entry[1];
	if (a == '*') {
		memset(pairs, 0xff, 65536 / 8);
		return;
	}
	for (unsigned x = b == '*' ? 0 : b; x <= (b == '*' ? 255u : b); x++) {
		unsigned pair = a << 8 | x;
		pairs[pair / 8] |= (unsigned char)(1u << (pair % 8));
	}
}

/* Every file a denied name stands for in the sandbox's PATH. */
static void ids_build(const struct nsb_gate_ctx *c, struct nsb_deny_ids *ids)
{
	const struct nsb_gate_input *in = c->in;
	const struct nsb_fs_ops *fs = in->fs;
	const char *list = in->path_list ? in->path_list : NSB_SANDBOX_PATH;
	char real[PATH_MAX];

	ids->built = true;
	if (!fs->list_dir) {
		/* no listing: the names without a pattern, looked up */
		for (size_t i = 0; i < c->p->n_deny_exec; i++) {
			const char *name = c->p->deny_exec[i];
			if (strchr(name, '*') || !nsb_gate_name_denied(c->p, name) ||
			    nsb_gate_which(in, list, name, real, sizeof(real)) < 0 ||
			    is_multicall(c->p, nsb_gate_basename(real)))
				continue;
			ids_add(fs, ids, real, name);
		}
		return;
	}
	struct listing l = {.c = c, .ids = ids};
	for (size_t i = 0; i < c->p->n_deny_exec; i++)
		pairs_mark(l.pairs, c->p->deny_exec[i]);
	char seen[8][PATH_MAX]; /* /bin is often /usr/bin: list each directory once */
	size_t n_seen = 0;
	for (const char *d = list, *end;; d = end + 1) {
		char inside[PATH_MAX], host[PATH_MAX], dir[PATH_MAX];
		end = strchrnul(d, ':');
		int n = (int)(end - d);
		int r = n == 0	    ? snprintf(inside, sizeof(inside), "%s", in->cwd)
			: *d == '/' ? snprintf(inside, sizeof(inside), "%.*s", n, d)
				    : snprintf(inside, sizeof(inside), "%s/%.*s", in->cwd, n, d);
		bool dup = false;
		if (r >= 0 && r < (int)sizeof(inside) &&
		    nsb_gate_map_host(in, inside, host, sizeof(host)) == 0 &&
		    fs->realpath(fs->ud, host, dir, sizeof(dir)) == 0) {
			for (size_t k = 0; k < n_seen && !dup; k++)
				dup = strcmp(seen[k], dir) == 0;
			if (!dup && n_seen < 8)
				memcpy(seen[n_seen++], dir, strlen(dir) + 1);
			l.dir = dir;
			if (!dup)
				fs->list_dir(fs->ud, dir, listed, &l);
		}
		if (!*end)
			break;
	}
}

/* The denied name that stands for the file real, or NULL. */
static const char *ids_find(const struct nsb_gate_ctx *c, struct nsb_deny_ids *ids,
			    const char *real)
{
	if (!ids)
		return NULL;
	if (!ids->built)
		ids_build(c, ids);
	for (size_t i = 0; i < ids->n; i++)
		if (strcmp(ids->v[i].real, real) == 0)
			return ids->v[i].name;
	const struct nsb_fs_ops *fs = c->in->fs;
	unsigned long long dev, ino;
	if (ids->n == 0 || !fs->file_id || fs->file_id(fs->ud, real, &dev, &ino) < 0)
		return NULL;
	for (size_t i = 0; i < ids->n; i++)
		if (ids->v[i].has_id && ids->v[i].dev == dev && ids->v[i].ino == ino)
			return ids->v[i].name;
	return NULL;
}

static int refuse_denied(struct nsb_gate_ctx *c, int idx, const char *called, const char *real,
			 const char *via)
{
	const char *name = real ? real : called;
	nsb_gate_refuse(c, NSB_RULE_EXEC_DENYLIST, idx);
	if (via)
		nsb_gate_text(c->v->reason,
			      "'%s' is the file '%s', which '%s' on the exec deny list names too",
			      called, real, via);
	else if (real)
		nsb_gate_text(c->v->reason, "'%s' resolves to '%s', which is on the exec deny list",
			      called, real);
	else
		nsb_gate_text(c->v->reason, "'%s' is on the exec deny list", called);
	if (via)
		name = via;
	nsb_gate_text(c->v->hint,
		      "'%s' is not run in this sandbox: do the job with the language's own file "
		      "and process APIs on paths inside the project or an --rw directory, or ask "
		      "the operator to lift it with --allow-exec %s",
		      name, name);
	return 1;
}

/* One deny-mode WORD against one argument. */
static bool mode_word(const char *w, const char *a)
{
	size_t n = strlen(w);
	if (n > 1 && w[n - 1] == '*')
		return strncmp(w, a, n - 1) == 0;
	if (strcmp(w, a) == 0)
		return true;
	/* -f also matches a cluster of short options holding f (-fdx) */
	return n == 2 && w[0] == '-' && w[1] != '-' && a[0] == '-' && a[1] != '-' && a[1] &&
	       strchr(a + 1, w[1]);
}

static bool tool_lifted(const struct nsb_gate_policy *p, const char *tool)
{
	for (size_t i = 0; i < p->n_allow_exec; i++) {
		const char *a = p->allow_exec[i];
		size_t n = strlen(a);
		if (n > 0 && a[n - 1] == '*' ? strncmp(a, tool, n - 1) == 0 : strcmp(a, tool) == 0)
			return true;
	}
	return false;
}

static int check_modes(struct nsb_gate_ctx *c, int s, int e, const char *called,
		       const char *real_base)
{
	char *const *argv = c->in->argv;

	for (size_t i = 0; i < c->p->n_deny_modes; i++) {
		const struct nsb_deny_mode *m = &c->p->deny_modes[i];
		const char *tool = strcmp(m->tool, called) == 0			  ? called
				   : real_base && strcmp(m->tool, real_base) == 0 ? real_base
										  : NULL;
		if (!tool || tool_lifted(c->p, tool))
			continue;
		size_t k = 0;
		int j = s + 1;
		for (; j < e && k < m->n_words; j++)
			if (mode_word(m->words[k], argv[j]))
				k++;
		if (k < m->n_words)
			continue;
		nsb_gate_refuse(c, NSB_RULE_EXEC_DESTRUCTIVE, j - 1);
		char words[NSB_GATE_TEXT_MAX / 2] = "";
		for (size_t w = 0; w < m->n_words; w++)
			snprintf(words + strlen(words), sizeof(words) - strlen(words), " %s",
				 m->words[w]);
		nsb_gate_text(c->v->reason, "'%s' run as '%s ...%s' deletes files (deny-mode)",
			      called, m->tool, words);
		nsb_gate_text(c->v->hint,
			      "list what it would remove first (find -print, git clean -n); delete "
			      "with the language's own file APIs on paths inside the project or an "
			      "--rw directory; or ask the operator to lift it with --allow-exec %s",
			      m->tool);
		return 1;
	}
	return 0;
}

int nsb_gate_check_denied(struct nsb_gate_ctx *c, int s, int e, const char *called,
			  const char *real_base, const char *real_path, struct nsb_deny_ids *ids)
{
	if (nsb_gate_name_denied(c->p, called))
		return refuse_denied(c, s, called, NULL, NULL);
	if (real_base && nsb_gate_name_denied(c->p, real_base))
		return refuse_denied(c, s, called, real_base, NULL);
	/* an operator's allow-exec of the name called, or of the file's own
	 * name, wins over the names linked to it */
	if (real_path && !is_multicall(c->p, nsb_gate_basename(real_path)) &&
	    !tool_lifted(c->p, called) && !tool_lifted(c->p, nsb_gate_basename(real_path))) {
		const char *via = ids_find(c, ids, real_path);
		if (via)
			return refuse_denied(c, s, called, real_path, via);
	}
	return check_modes(c, s, e, called, real_base);
}
