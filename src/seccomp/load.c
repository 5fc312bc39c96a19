// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which program a --seccomp value means (supervisor): "none", a built-in
 * profile (compiled at build time, builtin.h), or a profile file compiled
 * here with filter.c.  Its own file so that the build tool that makes the
 * built-in table links filter.c without the table.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>

#include "base/fmt.h"
#include "seccomp/builtin.h"
#include "seccomp/filter.h"

const struct nsb_builtin_profile *nsb_builtin_profile(const char *name)
{
	for (size_t i = 0; i < nsb_n_builtin_profiles; i++)
		if (strcmp(nsb_builtin_profiles[i].name, name) == 0)
			return &nsb_builtin_profiles[i];
	return NULL;
}

/*
 * The built-in program for name, when there is one for this architecture
 * (the table is built for the build machine's: a cross build's table is
 * skipped and the name is looked up as a file).  Returns 1 when *ret was
 * filled, 0 when name has no usable built-in program.
 */
static int load_builtin(const char *name, struct nsb_bpf *ret, struct nsb_error *e)
{
	const struct nsb_builtin_profile *bp = nsb_builtin_profile(name);
	struct nsb_bpf b = {0};

	if (!bp || !bp->insns || bp->arch != nsb_seccomp_arch())
		return 0;
	/* A copy, so that the bpf owns its program whatever its source. */
	b.insns = malloc(bp->n_insns * sizeof(*b.insns));
	if (!b.insns)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "seccomp profile '%s'", name);
	memcpy(b.insns, bp->insns, bp->n_insns * sizeof(*b.insns));
	b.n_insns = bp->n_insns;
	b.profile = strdup(name);
	if (!b.profile) {
		free(b.insns);
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "seccomp profile '%s'", name);
	}
	b.builtin = true;
	nsb_format(b.sha256, sizeof(b.sha256), "%s", bp->sha256);
	nsb_format(b.default_action, sizeof(b.default_action), "%s", bp->default_action);
	nsb_format(b.ids_action, sizeof(b.ids_action), "%s", bp->ids_action);
	b.ids_act = bp->ids_act;
	b.notify = bp->notify;
	*ret = b;
	return 1;
}

int nsb_seccomp_load(const char *name_or_path, struct nsb_bpf *ret, struct nsb_error *e)
{
	struct nsb_bpf b = {0};
	char path[NSB_PROFILE_PATH_MAX];
	int r;

	if (strlen(name_or_path) >= NSB_PROFILE_PATH_MAX)
		return nsb_error_setx(e, -ENAMETOOLONG, NSB_STAGE_PROFILE,
				      "seccomp profile name is too long");
	/* "none" is only ever the literal name, never a file called none. */
	if (strcmp(name_or_path, NSB_SECCOMP_NONE) == 0) {
		b.none = true;
		b.profile = strdup(NSB_SECCOMP_NONE);
		if (!b.profile)
			return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "seccomp profile");
		*ret = b;
		return 0;
	}
	/* A built-in name never reads a file; a path ('/') is always a file. */
	r = load_builtin(name_or_path, ret, e);
	if (r != 0)
		return r < 0 ? r : 0;
	r = nsb_profile_find(name_or_path, path, sizeof(path), e);
	if (r < 0)
		return r;
	_cleanup_(nsb_profile_freep) struct nsb_profile *p = NULL;
	r = nsb_profile_load(path, &p, e);
	if (r < 0)
		return r;
	r = nsb_seccomp_compile(p, &b, e);
	if (r < 0)
		return r;
	b.profile = strdup(name_or_path);
	if (!b.profile) {
		nsb_bpf_free(&b);
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "seccomp profile '%s'",
				     name_or_path);
	}
	*ret = b;
	return 0;
}

int nsb_builtin_text(const char *name, const struct nsb_builtin_profile **ret, struct nsb_error *e)
{
	const struct nsb_builtin_profile *bp = nsb_builtin_profile(name);
	char names[128] = "";
	size_t len = 0;

	if (bp) {
		*ret = bp;
		return 0;
	}
	for (size_t i = 0; i < nsb_n_builtin_profiles && len < sizeof(names); i++) {
		int n = nsb_format(names + len, sizeof(names) - len, "%s%s", i ? ", " : "",
				   nsb_builtin_profiles[i].name);
		if (n < 0)
			break;
		len += (size_t)n;
	}
	nsb_error_setx(e, -EINVAL, NSB_STAGE_USAGE,
		       "--print-profile '%s': no built-in profile of that name", name);
	return nsb_error_hint(e, "the built-in profiles are %s", names);
}
