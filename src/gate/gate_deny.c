// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deny list's reach (supervisor, pure): a command is refused by the
 * name it is called by, by the name its symlinks resolve to, by being the
 * same file as one a denied name stands for in the sandbox's PATH
 * (mke2fs, which mkfs.ext4 links to), and by a deny-mode rule: an ordinary
 * tool run in a mode that deletes files (find -delete).
 *
 * The same file is looked for in the command's own directory (ids_find
 * says why there): a denied name there that is a link to it, or a hard link
 * of it (Fedora's mkfs.ext4 and mke2fs), by realpath or by device and
 * inode.  Multi-call binaries (the applet wrappers: busybox) are left out,
 * since every applet, ls as much as rm, resolves to the same file.
 */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gate/gate_deny.h"
#include "gate/gate_tables.h"
#include "base/fmt.h"
#include "base/macro.h"
#include "base/sha256.h"

/* The denied name found for the last command judged (the reason quotes it). */
struct nsb_deny_ids {
	char via[NSB_GATE_NAME_MAX + 1];
};

struct nsb_deny_ids *nsb_gate_deny_ids_new(void)
{
	return calloc(1, sizeof(struct nsb_deny_ids));
}

void nsb_gate_deny_ids_free(struct nsb_deny_ids *ids)
{
	free(ids);
}

static bool is_multicall(const struct nsb_gate_policy *p, const char *base)
{
	const struct nsb_wrapper *w = nsb_gate_find_wrapper(p, base);
	return w && w->run == NSB_RUN_APPLET;
}

/* One listing of the command's own directory, looking for a denied name
 * that is the command's file. */
struct listing {
	const struct nsb_gate_ctx *c;
	const char *dir;  /* host */
	const char *real; /* the command's file, realpath'd */
	bool has_id;	  /* its device and inode are known */
	unsigned long long dev, ino;
	char *found; /* out: the denied name, in the ids */
	/* the first two bytes of every deny entry: most names stop here */
	unsigned char pairs[65536 / 8];
};

/* Whether denied name, an entry of the command's directory, is the
 * command's file.  A regular entry is by its inode number alone (it shares
 * the directory's device with the command); a link, or an entry of an
 * unknown type, by what it resolves to. */
static bool same_file(struct listing *l, const char *name, unsigned char type,
		      unsigned long long ino)
{
	const struct nsb_fs_ops *fs = l->c->in->fs;
	char host[PATH_MAX], real[PATH_MAX];
	unsigned long long dev2, ino2;

	if (type == NSB_DT_REG)
		return l->has_id && ino == l->ino;
	if (type != NSB_DT_LNK && type != NSB_DT_UNKNOWN)
		return false;
	if (nsb_format(host, sizeof(host), "%s/%s", l->dir, name) >= (int)sizeof(host))
		return false;
	if (type == NSB_DT_LNK && l->has_id && fs->file_id)
		return fs->file_id(fs->ud, host, &dev2, &ino2) == 0 && dev2 == l->dev &&
		       ino2 == l->ino;
	if (fs->realpath(fs->ud, host, real, sizeof(real)) < 0)
		return false;
	if (strcmp(real, l->real) == 0)
		return true;
	return l->has_id && fs->file_id && fs->file_id(fs->ud, real, &dev2, &ino2) == 0 &&
	       dev2 == l->dev && ino2 == l->ino;
}

/* Whether name is on the deny list (the first two bytes first: most
 * names of a directory stop there). */
static bool keep(void *ud, const char *name)
{
	struct listing *l = ud;

	unsigned pair = (unsigned)(unsigned char)name[0] << 8 | (unsigned char)name[1 - !name[0]];
	if (!(l->pairs[pair / 8] & (1u << (pair % 8))))
		return false;
	/* the whole name against the entries that share its first bytes */
	const struct nsb_gate_policy *p = l->c->p;
	size_t len = strlen(name), i = 0;
	for (; i < p->n_deny_exec; i++) {
		const char *d = p->deny_exec[i];
		size_t dl = strlen(d);
		if (d[0] == name[0] && (dl == len || d[dl - 1] == '*'))
			break;
	}
	return i < p->n_deny_exec && nsb_gate_name_denied(p, name);
}

static int found(void *ud, const char *name, unsigned char type, unsigned long long ino)
{
	struct listing *l = ud;

	if (!same_file(l, name, type, ino))
		return 0;
	nsb_format(l->found, NSB_GATE_NAME_MAX + 1, "%s", name);
	return 1; /* found: stop */
}

static int listed(void *ud, const char *name, unsigned char type, unsigned long long ino)
{
	return keep(ud, name) ? found(ud, name, type, ino) : 0;
}

/* What keep decides by: the deny list (a cache of kept names is kept under it). */
static void deny_key(const struct nsb_gate_policy *p, unsigned char key[NSB_SHA256_LEN])
{
	struct nsb_sha256 h;

	nsb_sha256_init(&h);
	nsb_sha256_update(&h, "nsbox deny-exec 1", 18);
	for (size_t i = 0; i < p->n_deny_exec; i++)
		nsb_sha256_update(&h, p->deny_exec[i], strlen(p->deny_exec[i]) + 1);
	nsb_sha256_final(&h, key);
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

/*
 * The denied name that is the same file as real (the command's), or NULL.
 * Only the command's own directory is listed: that is where a distribution
 * puts a program's other names (mkfs.ext4 -> mke2fs, a hard link beside
 * it), and one listing is a few system calls where listing every PATH
 * directory and resolving each denied name cost two hundred (issue 11).
 */
static const char *ids_find(const struct nsb_gate_ctx *c, struct nsb_deny_ids *ids,
			    const char *real)
{
	const struct nsb_fs_ops *fs = c->in->fs;
	char dir[PATH_MAX];

	if (!ids || !fs->list_dir || nsb_format(dir, sizeof(dir), "%s", real) >= (int)sizeof(dir))
		return NULL;
	char *slash = strrchr(dir, '/');
	if (!slash)
		return NULL;
	*slash = '\0';
	struct listing *l = calloc(1, sizeof(*l));
	if (!l)
		return NULL; /* the names still judge */
	*l = (struct listing){.c = c, .dir = *dir ? dir : "/", .real = real, .found = ids->via};
	for (size_t i = 0; i < c->p->n_deny_exec; i++)
		pairs_mark(l->pairs, c->p->deny_exec[i]);
	l->has_id = fs->file_id && fs->file_id(fs->ud, real, &l->dev, &l->ino) == 0;
	ids->via[0] = '\0';
	if (fs->list_kept) {
		unsigned char key[NSB_SHA256_LEN];
		deny_key(c->p, key);
		fs->list_kept(fs->ud, l->dir, key, keep, found, l);
	} else {
		fs->list_dir(fs->ud, l->dir, listed, l);
	}
	free(l);
	return ids->via[0] ? ids->via : NULL;
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
			nsb_format(words + strlen(words), sizeof(words) - strlen(words), " %s",
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
