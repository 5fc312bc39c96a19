// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate's policy storage (supervisor, pure): the lists and switches the
 * rules read, filled from the built-in default, a policy file and argv.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "base/macro.h"
#include "gate/gate_policy.h"
#include "gate/policy_ask.h"
#include "gate/gate_tables.h"
#include "gate/gate_shellopt.h"
#include "base/util.h"

/* Name after name, each ended by its NUL, the last by two (nsb_strs_next):
 * no pointer, so no relocation (base/macro.h). */
const char nsb_gate_default_deny[] =
	/* privilege tools: they exist to cross the boundary the sandbox draws */
	"sudo\0su\0doas\0pkexec\0setpriv\0capsh\0nsenter\0unshare\0chroot\0"
	"runuser\0sudoedit\0sg\0newgrp\0"
	/* destructive or system tools */
	"rm\0unlink\0chmod\0chown\0dd\0shred\0wipefs\0mkfs\0mkfs.*\0mkswap\0"
	"fdisk\0sfdisk\0parted\0mount\0umount\0swapon\0swapoff\0insmod\0rmmod\0"
	"modprobe\0kexec\0reboot\0shutdown\0halt\0poweroff\0systemctl\0";

void nsb_gate_policy_init(struct nsb_gate_policy *p)
{
	memset(p, 0, sizeof(*p));
}

static void list_free(char **list, size_t n)
{
	for (size_t i = 0; i < n; i++)
		free(list[i]);
	free(list);
}

void nsb_gate_policy_free(struct nsb_gate_policy *p)
{
	list_free(p->deny_exec, p->n_deny_exec);
	list_free(p->allow_exec, p->n_allow_exec);
	list_free(p->allow_path, p->n_allow_path);
	list_free(p->protect, p->n_protect);
	list_free(p->mask, p->n_mask);
	list_free(p->mask_key, p->n_mask_key);
	nsb_gate_tables_free(p);
	for (size_t i = 0; i < p->n_lazy_tools; i++)
		free(p->lazy_tools[i]);
	nsb_gate_shellopt_free(p);
	free(p->net);
	nsb_ask_free(p);
	nsb_gate_policy_init(p);
}

int nsb_gate_policy_init_default(struct nsb_gate_policy *p)
{
	nsb_gate_policy_init(p);
	for (const char *n = nsb_gate_default_deny; *n; n = nsb_strs_next(n)) {
		int r = nsb_gate_policy_deny_exec(p, n);
		if (r < 0) {
			nsb_gate_policy_free(p);
			return r;
		}
	}
	/* The protected paths and the secrets (core/protect.c). */
	const char *const *lists[] = {nsb_protect_default, nsb_mask_default, nsb_mask_key_default};
	for (size_t k = 0; k < ARRAY_SIZE(lists); k++)
		for (size_t i = 0; lists[k][i]; i++) {
			int r = nsb_gate_policy_glob(p, (enum nsb_glob_list)k, lists[k][i]);
			if (r < 0) {
				nsb_gate_policy_free(p);
				return r;
			}
		}
	/* deny-mode rows now; wrapper and shell-option rows when needed */
	int r = nsb_gate_tables_default(p);
	p->lazy = true;
	if (r < 0)
		nsb_gate_policy_free(p);
	return r;
}

static bool name_valid(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > NSB_GATE_NAME_MAX)
		return false;
	for (const char *s = name; *s; s++)
		if (*s == '/' || *s == ' ' || *s == '\t' || *s == '\n' || *s == '\r')
			return false;
	/* '*' only as the last byte: a prefix pattern, nothing more */
	const char *star = strchr(name, '*');
	return !star || star[1] == '\0';
}

/* Room for 16, then doubled: the capacity follows from the count, so
 * the policy holds no field for it. */
static int list_grow(char ***list, size_t n)
{
	if (n != 0 && (n < 16 || (n & (n - 1)) != 0))
		return 0;
	char **v = reallocarray(*list, n ? 2 * n : 16, sizeof(**list));
	if (!v)
		return -ENOMEM;
	*list = v;
	return 0;
}

static int list_add(char ***list, size_t *n, size_t max, const char *s)
{
	for (size_t i = 0; i < *n; i++)
		if (strcmp((*list)[i], s) == 0)
			return 0;
	if (*n >= max)
		return -E2BIG;
	if (list_grow(list, *n) < 0)
		return -ENOMEM;
	char *copy = strdup(s);
	if (!copy)
		return -ENOMEM;
	(*list)[(*n)++] = copy;
	return 0;
}

int nsb_gate_policy_deny_exec(struct nsb_gate_policy *p, const char *name)
{
	if (!name_valid(name))
		return -EINVAL;
	return list_add(&p->deny_exec, &p->n_deny_exec, NSB_MAX_GATE_OPTS, name);
}

int nsb_gate_policy_allow_exec(struct nsb_gate_policy *p, const char *name)
{
	if (!name_valid(name))
		return -EINVAL;
	return list_add(&p->allow_exec, &p->n_allow_exec, NSB_MAX_GATE_OPTS, name);
}

int nsb_gate_policy_allow_path(struct nsb_gate_policy *p, const char *dir)
{
	if (strlen(dir) > NSB_MAX_PATH || !nsb_path_is_clean_abs(dir))
		return -EINVAL;
	return list_add(&p->allow_path, &p->n_allow_path, NSB_MAX_GATE_PATHS, dir);
}

static bool name_matches(const char *pattern, const char *name)
{
	size_t len = strlen(pattern);
	if (len > 0 && pattern[len - 1] == '*')
		return strncmp(pattern, name, len - 1) == 0;
	return strcmp(pattern, name) == 0;
}

bool nsb_gate_name_denied(const struct nsb_gate_policy *p, const char *name)
{
	if (!name || !*name)
		return false;
	for (size_t i = 0; i < p->n_allow_exec; i++)
		if (name_matches(p->allow_exec[i], name))
			return false;
	for (size_t i = 0; i < p->n_deny_exec; i++)
		if (name_matches(p->deny_exec[i], name))
			return true;
	return false;
}

int nsb_gate_policy_glob(struct nsb_gate_policy *p, enum nsb_glob_list which, const char *glob)
{
	if (nsb_protect_glob_valid(glob) < 0)
		return -EINVAL;
	if (which == NSB_GLOB_PROTECT)
		return list_add(&p->protect, &p->n_protect, NSB_PROTECT_MAX_GLOBS, glob);
	if (which == NSB_GLOB_MASK)
		return list_add(&p->mask, &p->n_mask, NSB_PROTECT_MAX_GLOBS, glob);
	return list_add(&p->mask_key, &p->n_mask_key, NSB_PROTECT_MAX_GLOBS, glob);
}

const char *nsb_gate_metachar_mode(const struct nsb_gate_policy *p)
{
	if (p->allow_metachar)
		return "off";
	return p->metachar_strict ? "strict" : "syntax";
}

int nsb_gate_policy_load_builtin(struct nsb_gate_policy *p)
{
	if (!p->lazy)
		return 0;
	int r = nsb_gate_wrappers_load_all(p);
	if (r == 0)
		r = nsb_gate_shellopt_add_builtin(p);
	if (r == 0)
		p->lazy = false;
	return r;
}
