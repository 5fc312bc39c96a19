/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Seccomp profile parser (format: nsbox-profile(5)).  Pure: it reads the FILE *
 * it is handed, asks the caller's opener for every `include`, and resolves
 * syscall names with libseccomp's tables (no kernel involved).  It never
 * prints; every error is "file:line:col: message" in a struct nsb_error with
 * stage "profile".
 *
 * The result is a flat list of rules, one per syscall, groups already
 * expanded, each remembering where it was written so that later stages
 * (filter.c) can point at the line too.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "base/error.h"

/* Hard limits on profile input (documented in nsbox-profile(5)). */
#define NSB_PROFILE_MAX_FILE_SIZE (256u * 1024u) /* bytes, per file */
#define NSB_PROFILE_MAX_LINE	  1024u		 /* bytes, without the newline */
#define NSB_PROFILE_MAX_RULES	  4096u		 /* after group expansion */
#define NSB_PROFILE_MAX_GROUPS	  128u
#define NSB_PROFILE_MAX_MEMBERS	  1024u /* syscalls in one group, after expansion */
#define NSB_PROFILE_MAX_DEPTH	  8u	/* include nesting */
#define NSB_PROFILE_MAX_FILES	  32u	/* distinct files in one profile */
#define NSB_PROFILE_MAX_NAME	  64u	/* group and syscall names, NUL included */
#define NSB_PROFILE_MAX_CONDS	  6u	/* one per argument at most */

#define NSB_SECCOMP_NONE     "none" /* the profile name that means "no filter" */
#define NSB_PROFILE_NAME_MAX 64	    /* a profile name (not a path), NUL included */
#define NSB_PROFILE_PATH_MAX 4096

enum nsb_action_kind {
	NSB_ACTION_ALLOW,
	NSB_ACTION_ERRNO,
	NSB_ACTION_KILL, /* the whole process */
	NSB_ACTION_LOG,	 /* allow, and log through audit */
	NSB_ACTION_TRAP, /* SIGSYS */
};

struct nsb_action {
	enum nsb_action_kind kind;
	int errno_value; /* NSB_ACTION_ERRNO only: 0..4095 */
	/* `errno E quiet`: refused in the kernel and never reported (no
	 * notification); false for every other kind. */
	bool quiet;
};

enum nsb_cmp {
	NSB_CMP_EQ,
	NSB_CMP_NE,
	NSB_CMP_LT,
	NSB_CMP_LE,
	NSB_CMP_GT,
	NSB_CMP_GE,
	NSB_CMP_MASKED_EQ, /* (arg & mask) == value */
};

struct nsb_cond {
	unsigned arg; /* 0..5 */
	enum nsb_cmp op;
	uint64_t mask; /* NSB_CMP_MASKED_EQ only */
	uint64_t value;
};

/* Where something was written.  file points into nsb_profile.files. */
struct nsb_origin {
	const char *file;
	unsigned line;
	unsigned col;
};

struct nsb_rule {
	int nr; /* native syscall number */
	char name[NSB_PROFILE_MAX_NAME];
	struct nsb_action action;
	struct nsb_cond conds[NSB_PROFILE_MAX_CONDS];
	unsigned n_conds;
	struct nsb_origin origin;
};

struct nsb_group {
	char name[NSB_PROFILE_MAX_NAME]; /* with the leading '@' */
	int *nrs;			 /* native syscall numbers, no duplicates */
	size_t n_nrs;
	struct nsb_origin origin;
};

struct nsb_profile {
	bool has_default;
	struct nsb_action default_action;
	struct nsb_origin default_origin;
	bool has_badarch; /* false: the compiler's built-in choice */
	struct nsb_action badarch_action;
	/* `unmapped-ids ACTION`: chown and set*id calls naming an id other
	 * than the caller's own (or -1) get this action (ids.c builds the
	 * filter from the caller's ids).  false: no such filter. */
	bool has_unmapped_ids;
	struct nsb_action unmapped_ids_action;
	struct nsb_origin unmapped_ids_origin;

	struct nsb_rule *rules;
	size_t n_rules;
	struct nsb_group *groups;
	size_t n_groups;

	char **files; /* every file read, in order; owned */
	size_t n_files;
};

/*
 * Opener for `include NAME`: open what NAME means when written in the file
 * from_path (the path the parser was given, or one an earlier call returned).
 * On success return >= 0, *ret_f (owned by the parser, which fcloses it) and
 * *ret_path (malloc'd, owned by the parser), the canonical path used for
 * messages and for cycle detection.  On failure return -errno and fill e.
 */
typedef int (*nsb_profile_opener)(const char *name, const char *from_path, void *userdata,
				  FILE **ret_f, char **ret_path, struct nsb_error *e);

/*
 * Parse the profile read from f, named path in messages.  opener may be NULL:
 * then `include` is an error.  On success *ret is a new profile for
 * nsb_profile_free().
 */
int nsb_profile_parse(FILE *f, const char *path, nsb_profile_opener opener, void *userdata,
		      struct nsb_profile **ret, struct nsb_error *e);

void nsb_profile_free(struct nsb_profile *p);

/* Cleanup helper: _cleanup_(nsb_profile_freep) struct nsb_profile *p = NULL; */
static inline void nsb_profile_freep(struct nsb_profile **p)
{
	nsb_profile_free(*p);
}

/* Look a group up by name ("@mount"); NULL when absent. */
const struct nsb_group *nsb_profile_group(const struct nsb_profile *p, const char *name);

/*
 * Format an action the way a profile writes it ("allow", "errno EPERM",
 * "errno 4000", "kill", "log", "trap").  Returns 0 or -ENAMETOOLONG.
 */
int nsb_action_format(const struct nsb_action *a, char *buf, size_t size);

/* ---- on the host (profile_find.c): files, not text ---- */

/*
 * Where the profile name_or_path lives.  A value containing '/' is a path and
 * is used as is; anything else is a name looked up as NAME.profile in
 * NSB_PROFILEDIR, then in NSB_SRCDIR "/seccomp-profiles".  Fills ret_path
 * (size bytes) on success; -ENOENT with a hint listing the places looked in.
 */
int nsb_profile_find(const char *name_or_path, char *ret_path, size_t size, struct nsb_error *e);

/* Open and parse the profile file at path; includes resolve next to the file
 * that names them (nsbox-profile(5)). */
int nsb_profile_load(const char *path, struct nsb_profile **ret, struct nsb_error *e);
