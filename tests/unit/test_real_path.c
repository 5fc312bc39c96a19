// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_real_path: realpath(3)'s answer and errno for every path of a tree
 * with links of every kind, from every known directory; and the names above
 * a known directory are not asked again.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "base/real_path.h"
#include "unit.h"

static char top[PATH_MAX];

static void at(char *out, const char *rel)
{
	cr_assert(snprintf(out, PATH_MAX, "%s/%s", top, rel) < PATH_MAX);
}

static void mk(const char *rel, int kind, const char *target)
{
	char p[PATH_MAX];

	at(p, rel);
	if (kind == 'd')
		cr_assert(mkdir(p, 0755) == 0, "mkdir %s", p);
	else if (kind == 'f')
		cr_assert(close(open(p, O_CREAT | O_WRONLY | O_CLOEXEC, 0644)) == 0, "%s", p);
	else
		cr_assert(symlink(target, p) == 0, "symlink %s", p);
}

static void tree(void)
{
	char abs_a[PATH_MAX];

	unit_tmpdir("nsb-realpath", top, sizeof(top));
	at(abs_a, "a");
	mk("a", 'd', NULL);
	mk("a/b", 'd', NULL);
	mk("a/b/c", 'f', NULL);
	mk("a/f", 'f', NULL);
	mk("l_abs", 'l', abs_a); /* absolute, to a directory */
	mk("l_rel", 'l', "a/b"); /* relative, two names */
	mk("a/up", 'l', "..");	 /* to its own parent */
	mk("a/b/l_file", 'l', "../f");
	mk("a/l_root", 'l', "/"); /* to the root */
	mk("dangling", 'l', "nowhere");
	mk("loop1", 'l', "loop2");
	mk("loop2", 'l', "loop1");
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];

	if (chdir("/") == 0 && top[0] && strncmp(top, "/tmp/nsb-realpath-", 18) == 0) {
		snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
		cr_expect(eq(int, system(cmd), 0));
	}
}

TestSuite(real_path, .fini = teardown);

static const char *const names[] = {
	"a",	  "b",	      "c",     "f",    "l_abs", "l_rel", "up", "l_file",
	"l_root", "dangling", "loop1", "nope", ".",	"..",	 "",
};
#define N_NAMES (sizeof(names) / sizeof(names[0]))

/* Both answers, compared: the string, or the errno of NULL. */
static void same(const char *path, const char *cwd, const char *known)
{
	errno = 0;
	char *want = realpath(path, NULL);
	int want_errno = want ? 0 : errno;
	errno = 0;
	char *got = nsb_real_path(path, cwd, known);
	int got_errno = got ? 0 : errno;

	char ctx[2 * PATH_MAX + 16];
	snprintf(ctx, sizeof(ctx), "'%s' known '%s'", path, known ? known : "(null)");
	expect_str_at(got, want ? want : "(null)", ctx);
	cr_expect(eq(int, got_errno, want_errno), "%s", ctx);
	free(want);
	free(got);
}

Test(real_path, every_path_of_the_tree_is_answered_as_realpath_does)
{
	char known[5][PATH_MAX], cwd[PATH_MAX];
	const char *knowns[6] = {NULL, "/", top};

	tree();
	at(known[0], "a");
	at(known[1], "a/b");
	knowns[3] = known[0];
	knowns[4] = known[1];
	at(cwd, "a");
	cr_assert(chdir(cwd) == 0);

	size_t tried = 0;
	for (size_t i = 0; i < N_NAMES; i++)
		for (size_t j = 0; j <= N_NAMES; j++)
			for (size_t k = 0; k <= N_NAMES; k++) {
				char rel[PATH_MAX], abs[PATH_MAX];
				snprintf(rel, sizeof(rel), "%s%s%s%s%s", names[i],
					 j < N_NAMES ? "/" : "", j < N_NAMES ? names[j] : "",
					 k < N_NAMES && j < N_NAMES ? "/" : "",
					 k < N_NAMES && j < N_NAMES ? names[k] : "");
				at(abs, rel);
				for (size_t n = 0; n < 5; n++) {
					same(abs, cwd, knowns[n]);
					same(rel, cwd, knowns[n]);
				}
				tried++;
			}
	cr_expect(tried > 3000);
	/* The root, a trailing slash, a double one, a name too long. */
	char longname[NAME_MAX + 8];
	memset(longname, 'x', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	const char *odd[] = {"/", "//", top, longname, "a/", "a//b", "/tmp/", ""};
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		for (size_t n = 0; n < 5; n++)
			same(odd[i], cwd, knowns[n]);
}

/* What makes it cheaper: under a known directory only the names below it
 * are asked.  A link put in place of an ancestor after the answer is seen
 * by realpath, not here (the caller trusts known for one run). */
Test(real_path, the_names_above_a_known_directory_are_not_asked_again)
{
	char a[PATH_MAX], moved[PATH_MAX], path[PATH_MAX], want[PATH_MAX + 8];
	char *got;

	tree();
	at(a, "a");
	at(moved, "a2");
	at(path, "a/b/c");
	got = nsb_real_path(path, "/", NULL);
	expect_str(got, path);
	free(got);
	cr_assert(rename(a, moved) == 0);
	mk("a", 'l', "a2");
	snprintf(want, sizeof(want), "%s/b/c", moved);
	got = realpath(path, NULL);
	expect_str(got, want);
	free(got);
	/* known = a/b: only "c" is asked, which a/b (now through the link)
	 * still holds. */
	char known[PATH_MAX];
	at(known, "a/b");
	got = nsb_real_path(path, "/", known);
	expect_str(got, path);
	free(got);
	/* Without it every name is asked, as realpath does. */
	got = nsb_real_path(path, "/", NULL);
	expect_str(got, want);
	free(got);
	/* A name below known that is missing or a link: realpath answers. */
	at(path, "a/b/nope");
	cr_expect(nsb_real_path(path, "/", known) == NULL);
	cr_expect(eq(int, errno, ENOENT));
	at(path, "a/b/l_file");
	got = nsb_real_path(path, "/", known);
	snprintf(want, sizeof(want), "%s/f", moved);
	expect_str(got, want);
	free(got);
}
