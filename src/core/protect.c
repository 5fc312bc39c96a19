// SPDX-License-Identifier: GPL-2.0-or-later
/* Protected paths and secret masks: the patterns and the decision per entry.  Pure (supervisor). */
#include <errno.h>
#include <fnmatch.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "base/fmt.h"
#include "core/protect.h"
#include "base/util.h"

/*
 * What a payload could plant in a writable bind to run code later on the
 * human's machine: git's hooks and configuration (core.fsmonitor, aliases,
 * hooksPath), shell start-up files, direnv, editor task folders, package
 * managers' configuration (scripts, registries), CI and pre-commit
 * definitions, dev containers.  Whole folders where a folder holds them,
 * so that renaming a child away is no way around (a mount point cannot be
 * renamed, a folder holding one can).
 */
const char *const nsb_protect_default[] = {
	".git", ".envrc", ".bashrc", ".bash_profile", ".bash_login", ".bash_logout", ".profile",
	".zshrc", ".zshenv", ".zprofile", ".zlogin", ".kshrc", ".cshrc", ".tcshrc", ".vscode",
	".idea", ".npmrc", ".yarnrc", ".yarnrc.yml", ".pypirc", ".github", ".gitlab",
	".gitlab-ci.yml", ".circleci", ".travis.yml", ".husky", ".devcontainer",
	".pre-commit-config.yaml",
	/* a home directory bound writable */
	".gitconfig", ".ssh", ".config/git", ".config/fish", ".config/autostart", ".config/systemd",
	NULL};

/* Files that are secrets by name (the last ones in a home directory). */
const char *const nsb_mask_default[] = {
	".env", ".env.*", ".netrc", ".pgpass", ".git-credentials", ".aws/credentials", NULL};

/* Files that are secrets when they hold a private key: certificates and
 * source files with these names stay readable. */
const char *const nsb_mask_key_default[] = {"*.pem", "*.key", "id_*", NULL};

/*
 * --rw-git: git writes lock files, COMMIT_EDITMSG, the index, refs, logs
 * and objects in and under .git itself, so .git stays writable; what runs
 * code does not: hooks, the configuration, and the submodules' git
 * directories (each with hooks and a configuration of its own).
 */
const char *const nsb_git_protected[NSB_N_GIT_PROTECTED + 1] = {"hooks", "config", "modules", NULL};

int nsb_protect_glob_valid(const char *glob)
{
	size_t len = strlen(glob);
	const char *comp = glob;

	if (len == 0 || len > NSB_PROTECT_GLOB_MAX || glob[0] == '/')
		return -EINVAL;
	for (const char *s = glob; *s; s++)
		if ((unsigned char)*s <= ' ' || *s == 0x7f)
			return -EINVAL;
	for (;;) {
		size_t n = nsb_strcspn(comp, "/");
		if (n == 0 || (n == 1 && comp[0] == '.') ||
		    (n == 2 && comp[0] == '.' && comp[1] == '.'))
			return -EINVAL;
		if (!comp[n])
			return 0;
		comp += n + 1;
	}
}

bool nsb_protect_is_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

/*
 * The scan asks this for every entry and every pattern, so the two common
 * shapes are answered without fnmatch (which costs ten times more), with
 * its answers: a pattern that starts with a literal byte fails on any
 * other first byte, and "*SUFFIX" without further special bytes is a
 * suffix comparison ('*' never meets a '/' in a name).
 */
bool nsb_protect_glob_match(const char *glob, const char *rel, const char *name)
{
	const char *s = strchr(glob, '/') ? rel : name;

	if (!strchr("*?[\\", glob[0]) && glob[0] != s[0])
		return false;
	if (glob[0] == '*' && !strpbrk(glob + 1, "*?[\\/")) {
		size_t n = strlen(s), m = strlen(glob + 1);
		return n >= m && memcmp(s + n - m, glob + 1, m) == 0;
	}
	return fnmatch(glob, s, FNM_PATHNAME) == 0;
}

void nsb_protect_compile(const char *const *list, size_t n, struct nsb_glob *out)
{
	for (size_t i = 0; i < n; i++) {
		const char *g = list[i];
		struct nsb_glob *c = &out[i];
		bool special = strpbrk(g, "*?[\\") != NULL;

		*c = (struct nsb_glob){.text = g, .path = strchr(g, '/') != NULL};
		if (!special)
			c->shape = NSB_GLOB_NAME; /* the name, or the path with '/' */
		else if (!c->path && g[0] == '*' && !strpbrk(g + 1, "*?[\\"))
			c->shape = NSB_GLOB_SUFFIX;
		else
			c->shape = NSB_GLOB_OTHER;
		c->len = strlen(g) - (c->shape == NSB_GLOB_SUFFIX);
	}
}

static bool compiled_match(const struct nsb_glob *g, const char *rel, const char *name,
			   size_t name_len)
{
	const char *s = g->path ? rel : name;

	switch (g->shape) {
	case NSB_GLOB_NAME:
		return g->text[0] == s[0] && strcmp(g->text, s) == 0;
	case NSB_GLOB_SUFFIX:
		return name_len >= g->len &&
		       memcmp(name + name_len - g->len, g->text + 1, g->len) == 0;
	default:
		return nsb_protect_glob_match(g->text, rel, name);
	}
}

static bool any_match(const char *const *list, const struct nsb_glob *c, size_t n, const char *rel,
		      const char *name)
{
	size_t name_len = c ? strlen(name) : 0;

	for (size_t i = 0; i < n; i++)
		if (c ? compiled_match(&c[i], rel, name, name_len)
		      : nsb_protect_glob_match(list[i], rel, name))
			return true;
	return false;
}

/* .env.example and friends: templates meant to be read and copied. */
static bool is_template(const char *name)
{
	static const char *const ends[] = {".example", ".sample", ".template", ".dist"};
	size_t len = strlen(name);

	for (size_t i = 0; i < sizeof(ends) / sizeof(ends[0]); i++) {
		size_t n = strlen(ends[i]);
		if (len > n && strcmp(name + len - n, ends[i]) == 0)
			return true;
	}
	return false;
}

unsigned nsb_protect_classify(const struct nsb_protect_rules *r, const char *rel, const char *name,
			      bool is_dir, bool protect, bool mask)
{
	unsigned bits = 0;

	if (protect && any_match(r->protect, r->cprotect, r->n_protect, rel, name)) {
		/* Under --rw-git a .git directory keeps its data writable. */
		if (r->rw_git && is_dir && strcmp(name, ".git") == 0)
			bits |= NSB_MATCH_GIT;
		else
			bits |= NSB_MATCH_PROTECT;
	}
	if (!mask || is_template(name))
		return bits;
	if (any_match(r->mask, r->cmask, r->n_mask, rel, name))
		bits |= NSB_MATCH_MASK;
	else if (!is_dir && any_match(r->mask_key, r->cmask_key, r->n_mask_key, rel, name))
		bits |= NSB_MATCH_MASK_KEY;
	return bits;
}

bool nsb_looks_private_key(const char *buf, size_t len)
{
	/* "-----BEGIN RSA PRIVATE KEY-----", "... OPENSSH PRIVATE KEY-----",
	 * "... ENCRYPTED PRIVATE KEY-----": every PEM private key's armour. */
	return memmem(buf, len, "PRIVATE KEY-----", 16) != NULL;
}

/* One line of a git config: section headers update sec, a core.hooksPath
 * value is copied to out (1).  The value ends at an unquoted '#' or ';'. */
static int hooks_path_line(const char *l, size_t n, char *sec, size_t sec_size, char *out,
			   size_t size)
{
	size_t i = 0, k = 0;
	bool quoted = false;

	while (i < n && nsb_isspace((unsigned char)l[i]))
		i++;
	if (i < n && l[i] == '[') {
		size_t j = ++i;
		while (j < n && l[j] != ']' && !nsb_isspace((unsigned char)l[j]) && l[j] != '"')
			j++;
		nsb_format(sec, sec_size, "%.*s", (int)(j - i), l + i);
		return 0;
	}
	if (nsb_strcasecmp(sec, "core") != 0 || n - i < 9 ||
	    nsb_strncasecmp(l + i, "hookspath", 9) != 0)
		return 0;
	for (i += 9; i < n && nsb_isspace((unsigned char)l[i]); i++)
		;
	if (i == n || l[i] != '=')
		return 0;
	for (i++; i < n && nsb_isspace((unsigned char)l[i]); i++)
		;
	for (; i < n && k + 1 < size; i++) {
		if (l[i] == '"') {
			quoted = !quoted;
			continue;
		}
		if (!quoted && (l[i] == '#' || l[i] == ';'))
			break;
		out[k++] = l[i];
	}
	while (k > 0 && nsb_isspace((unsigned char)out[k - 1]))
		k--;
	out[k] = '\0';
	return k > 0;
}

int nsb_git_hooks_path(const char *config, size_t len, char *out, size_t size)
{
	char sec[32] = "", val[NSB_PROTECT_HOOKS_PATH_MAX + 1];
	int found = 0;

	for (size_t at = 0; at < len;) {
		const char *nl = memchr(config + at, '\n', len - at);
		size_t n = nl ? (size_t)(nl - config - at) : len - at;
		if (hooks_path_line(config + at, n, sec, sizeof(sec), val, sizeof(val)) > 0) {
			nsb_format(out, size, "%s", val); /* the last one wins, as in git */
			found = 1;
		}
		at += n + 1;
	}
	return found;
}
