/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Protected paths and secret masks (issue 12, section 4): the patterns, the
 * decision for one directory entry, and the covers the plan carries to init.
 * Pure: the supervisor's scan (supervisor/protect_scan.c) reads the host and
 * asks here what each entry is; init (sandbox/mount_cover.c) mounts the
 * covers.
 *
 * A pattern without '/' is matched against an entry's name at any depth; a
 * pattern with '/' against its path relative to the bind's root.  '*', '?'
 * and '[...]' as in fnmatch(3), '*' never crossing a '/'.
 */
#pragma once

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define NSB_PROTECT_GLOB_MAX	   255	  /* one pattern, in bytes */
#define NSB_PROTECT_MAX_GLOBS	   128	  /* protect, mask and mask-key patterns, each */
#define NSB_MAX_COVERS		   1024	  /* protected and masked paths of one run: more fails */
#define NSB_SCAN_MAX_ENTRIES	   100000 /* directory entries read by one run's scan */
#define NSB_SCAN_MAX_DEPTH	   16	  /* directory levels below a bind's root */
#define NSB_KEY_SNIFF_BYTES	   8192	  /* bytes of a mask-key candidate read */
#define NSB_RECORD_MAX_COVER_PATHS 16	  /* paths listed in the record, per list */

enum nsb_cover_kind {
	NSB_COVER_PROTECT, /* re-bound read-only (recursive) */
	NSB_COVER_MASK,	   /* covered by an empty read-only file or directory */
	NSB_COVER_PIN,	   /* re-bound on itself, writable: cannot be renamed or removed */
};

/* One cover, carried by the plan to init. */
struct nsb_cover {
	size_t op;	 /* the plan's bind operation it lies in */
	char *path;	 /* owned: the path inside the sandbox (op's dest + "/" + rel) */
	const char *rel; /* into path: relative to the bind's root, never empty */
	uint8_t kind;	 /* enum nsb_cover_kind */
	bool is_dir;	 /* as the scan saw it (init checks again) */
};

/* A pattern with its shape worked out once (nsb_protect_compile). */
struct nsb_glob {
	const char *text;
	size_t len;    /* of the literal part: all of it, or what follows a leading '*' */
	uint8_t shape; /* NSB_GLOB_NAME, NSB_GLOB_SUFFIX, NSB_GLOB_OTHER */
	bool path;     /* contains '/': matched against the relative path */
};

enum {
	NSB_GLOB_NAME,	 /* no special byte: the name (the path, with '/') itself */
	NSB_GLOB_SUFFIX, /* '*' then no special byte: a suffix */
	NSB_GLOB_OTHER,	 /* fnmatch(3) */
};

/* The pattern lists a scan applies (borrowed pointers).  The compiled
 * forms (cprotect, ...) are optional: NULL, the texts are matched. */
struct nsb_protect_rules {
	const char *const *protect;
	size_t n_protect;
	const char *const *mask;
	size_t n_mask;
	const char *const *mask_key; /* masked only when the file holds a private key */
	size_t n_mask_key;
	bool rw_git; /* --rw-git: .git stays writable but for its code */
	const struct nsb_glob *cprotect, *cmask, *cmask_key;
};

/* The shape of each of list[0..n) into out[0..n). */
void nsb_protect_compile(const char *const *list, size_t n, struct nsb_glob *out);

/* What nsb_protect_classify says about one entry (bits). */
enum {
	NSB_MATCH_PROTECT = 1 << 0,
	NSB_MATCH_MASK = 1 << 1,
	NSB_MATCH_MASK_KEY = 1 << 2, /* mask if nsb_looks_private_key says so */
	NSB_MATCH_GIT = 1 << 3,	     /* a .git directory under --rw-git: protect its code only */
};

/* The built-in lists (NULL-terminated), which the default policy holds. */
extern const char *const nsb_protect_default[];
extern const char *const nsb_mask_default[];
extern const char *const nsb_mask_key_default[];

/* Inside .git, what --rw-git keeps read-only (relative to .git): hooks,
 * config (both needed), modules. */
#define NSB_N_GIT_PROTECTED 3
extern const char *const nsb_git_protected[NSB_N_GIT_PROTECTED + 1];

/* 0 or -EINVAL: empty, longer than NSB_PROTECT_GLOB_MAX, absolute, a
 * component "", "." or "..", whitespace or a control byte. */
int nsb_protect_glob_valid(const char *glob);

/* True when glob contains '*', '?' or '['. */
bool nsb_protect_is_glob(const char *s);

/* fnmatch(3) with FNM_PATHNAME against name (no '/' in glob) or rel. */
bool nsb_protect_glob_match(const char *glob, const char *rel, const char *name);

/*
 * The bits for the entry rel (relative to a bind's root; name is its last
 * component) with the given type.  protect: the bind is writable and
 * protection is on; mask: masking is on.  Template names (.example,
 * .sample, .template, .dist endings) are never masked by a pattern.
 */
unsigned nsb_protect_classify(const struct nsb_protect_rules *r, const char *rel, const char *name,
			      bool is_dir, bool protect, bool mask);

/* True when buf holds a PEM or OpenSSH private key ("PRIVATE KEY-----"). */
bool nsb_looks_private_key(const char *buf, size_t len);

/*
 * core.hooksPath of a git config file's text (the last one, as git reads
 * it; quotes removed, a trailing comment cut), into out.  1 found, 0 not.
 * Hooks kept there run like .git/hooks, so the scan protects that folder.
 */
#define NSB_PROTECT_HOOKS_PATH_MAX 1024
int nsb_git_hooks_path(const char *config, size_t len, char *out, size_t size);
