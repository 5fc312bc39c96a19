// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Seccomp profile parser, the reader (pure, supervisor): nsb_profile_parse()
 * reads a profile and the files it includes, line by line, hands each line
 * to the grammar (profile.c) and runs the checks that need everything read.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <seccomp.h>

#include "base/fmt.h"
#include "base/lines.h"
#include "seccomp/profile_parser.h"

int nsb_profile_err(struct nsb_profile_parser *ps, const struct nsb_origin *o, const char *fmt, ...)
{
	char where[NSB_ERR_MESSAGE_MAX];
	va_list ap;

	nsb_format(where, sizeof(where), "%s:%u:%u", o->file, o->line, o->col);
	va_start(ap, fmt);
	int r = nsb_error_vsetx(ps->e, -EINVAL, NSB_STAGE_PROFILE, where, fmt, ap);
	va_end(ap);
	return r;
}

static int read_file(struct nsb_profile_parser *ps, FILE *f, const char *path);

/* Read the file an `include` names: once, however often it is included, and
 * never while it is being read already (a cycle). */
static int read_include(struct nsb_profile_parser *ps, const struct nsb_origin *line,
			const struct nsb_profile_include *inc)
{
	struct nsb_profile *p = ps->p;
	const struct nsb_origin *o = &inc->origin;

	if (!ps->opener)
		return nsb_profile_err(
			ps, o, "cannot include '%s': includes are not available here", inc->name);
	if (ps->depth >= NSB_PROFILE_MAX_DEPTH)
		return nsb_profile_err(ps, o, "include '%s': includes are nested deeper than %u",
				       inc->name, NSB_PROFILE_MAX_DEPTH);

	FILE *f = NULL;
	char *resolved = NULL;
	struct nsb_error oe = {0};
	int r = ps->opener(inc->name, line->file, ps->userdata, &f, &resolved, &oe);
	if (r < 0) {
		nsb_error_setx(ps->e, r, NSB_STAGE_PROFILE, "%s:%u:%u: include '%s': %s", o->file,
			       o->line, o->col, inc->name, oe.message);
		return -ps->e->err;
	}
	for (unsigned i = 0; i < ps->depth; i++)
		if (strcmp(ps->stack[i], resolved) == 0) {
			fclose(f);
			r = nsb_profile_err(ps, o, "include cycle: '%s' is already being read",
					    resolved);
			free(resolved);
			return r;
		}
	/* Including a file a second time (two includes of a shared group file)
	 * would redefine its groups: read every file once. */
	for (size_t i = 0; i < p->n_files; i++)
		if (strcmp(p->files[i], resolved) == 0) {
			fclose(f);
			free(resolved);
			return 0;
		}
	if (p->n_files >= NSB_PROFILE_MAX_FILES) {
		fclose(f);
		free(resolved);
		return nsb_profile_err(ps, o, "more than %u files in one profile",
				       NSB_PROFILE_MAX_FILES);
	}
	char **files = realloc(p->files, (p->n_files + 1) * sizeof(*files));
	if (!files) {
		fclose(f);
		free(resolved);
		return nsb_error_set(ps->e, -ENOMEM, NSB_STAGE_PROFILE, "include '%s'", inc->name);
	}
	p->files = files;
	p->files[p->n_files++] = resolved;
	r = read_file(ps, f, resolved);
	fclose(f);
	return r;
}

/* Every line of one file; a group must end in the file that opens it. */
static int read_lines(struct nsb_profile_parser *ps, struct nsb_lines *lr, const char *path)
{
	char line[NSB_PROFILE_MAX_LINE + 1];
	int r;

	while ((r = nsb_lines_next(lr, line)) > 0) {
		struct nsb_origin o = {path, lr->line, 1};
		struct nsb_profile_include inc;

		r = nsb_profile_line(ps, &o, line, &inc);
		if (r > 0)
			r = read_include(ps, &o, &inc);
		if (r < 0)
			return r;
	}
	struct nsb_origin o = {path, lr->line, lr->col};
	if (r == -E2BIG)
		return nsb_profile_err(ps, &o, "line is longer than %u bytes",
				       NSB_PROFILE_MAX_LINE);
	if (r == -EILSEQ)
		return nsb_profile_err(ps, &o, "NUL byte in profile");
	if (ps->open_group)
		return nsb_profile_err(ps, &ps->open_group->origin, "group '%s' has no 'end'",
				       ps->open_group->name);
	return 0;
}

static int read_file(struct nsb_profile_parser *ps, FILE *f, const char *path)
{
	_cleanup_(nsb_lines_free) struct nsb_lines lr;
	int r = nsb_lines_open(&lr, f, NSB_PROFILE_MAX_FILE_SIZE, NSB_PROFILE_MAX_LINE);

	if (r == -EFBIG) {
		struct nsb_origin o = {path, lr.line, lr.col};
		return nsb_profile_err(ps, &o, "profile is larger than %u bytes",
				       NSB_PROFILE_MAX_FILE_SIZE);
	}
	if (r < 0)
		return nsb_error_set(ps->e, r, NSB_STAGE_PROFILE, "read '%s'", path);

	ps->stack[ps->depth++] = path;
	struct nsb_group *outer_group = ps->open_group;
	ps->open_group = NULL;
	r = read_lines(ps, &lr, path);
	ps->open_group = outer_group;
	ps->depth--;
	return r;
}

/* ---- entry points ------------------------------------------------------ */

void nsb_profile_free(struct nsb_profile *p)
{
	if (!p)
		return;
	for (size_t i = 0; i < p->n_groups; i++)
		free(p->groups[i].nrs);
	free(p->groups);
	free(p->rules);
	for (size_t i = 0; i < p->n_files; i++)
		free(p->files[i]);
	free(p->files);
	free(p);
}

int nsb_profile_parse(FILE *f, const char *path, nsb_profile_opener opener, void *userdata,
		      struct nsb_profile **ret, struct nsb_error *e)
{
	_cleanup_(nsb_profile_freep) struct nsb_profile *p = calloc(1, sizeof(*p));
	if (!p)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "parse '%s'", path);
	p->files = calloc(1, sizeof(*p->files));
	if (!p->files)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "parse '%s'", path);
	p->files[0] = strdup(path);
	if (!p->files[0])
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PROFILE, "parse '%s'", path);
	p->n_files = 1;

	struct nsb_profile_parser ps = {
		.p = p,
		.opener = opener,
		.userdata = userdata,
		.e = e,
		.arch = seccomp_arch_native(),
	};
	int r = read_file(&ps, f, p->files[0]);
	if (r < 0)
		return r;
	if (!p->has_default) {
		struct nsb_origin o = {p->files[0], 1, 1};
		return nsb_profile_err(
			&ps, &o, "no 'default' action (add a line such as 'default errno EPERM')");
	}
	r = nsb_profile_check_rules(&ps);
	if (r < 0)
		return r;
	*ret = TAKE_PTR(p);
	return 0;
}
