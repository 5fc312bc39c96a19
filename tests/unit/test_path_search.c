// SPDX-License-Identifier: GPL-2.0-or-later
/* nsb_path_search: the one PATH search, against a probe that answers from a table. */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

#include "base/path_search.h"
#include "unit.h"

struct fact {
	const char *path;
	int answer;
};

static const struct fact facts[] = {
	{"/usr/bin/tool", NSB_PATH_EXEC},
	{"/bin/tool", NSB_PATH_EXEC},
	{"/opt/bin/tool", NSB_PATH_NOEXEC},
	{"/opt/bin/plain", NSB_PATH_NOEXEC},
	{"rel/tool", NSB_PATH_EXEC},
	{"/tool", NSB_PATH_EXEC},
	{NULL, 0},
};

static int probes;
static int cookie; /* the ud handed through */
static char last[PATH_MAX];

static int table_probe(void *ud, const char *cand)
{
	cr_assert(eq(ptr, ud, &cookie));
	probes++;
	snprintf(last, sizeof(last), "%s", cand);
	for (const struct fact *f = facts; f->path; f++)
		if (strcmp(f->path, cand) == 0)
			return f->answer;
	return NSB_PATH_ABSENT;
}

static int search(const char *list, const char *name, char *out, size_t outsz)
{
	probes = 0;
	return nsb_path_search(list, name, table_probe, &cookie, out, outsz);
}

Test(path_search, first_executable_candidate_wins)
{
	char out[PATH_MAX];
	cr_assert(eq(int, search("/nowhere:/usr/bin:/bin", "tool", out, sizeof(out)), 0));
	expect_str(out, "/usr/bin/tool");
	cr_expect(eq(int, probes, 2), "the search stops at the hit");
}

Test(path_search, not_executable_is_remembered_and_the_search_goes_on)
{
	char out[PATH_MAX];
	cr_assert(eq(int, search("/opt/bin:/bin", "tool", out, sizeof(out)), 0));
	expect_str(out, "/bin/tool");
	strcpy(out, "untouched");
	cr_expect(eq(int, search("/opt/bin:/usr/bin", "plain", out, sizeof(out)), -EACCES));
	expect_str(out, "untouched");
}

Test(path_search, nothing_there_is_enoent)
{
	char out[PATH_MAX];
	cr_expect(eq(int, search("/a:/b", "tool", out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, search("", "tool", out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, probes, 1), "an empty PATH is one empty entry: the working directory");
	expect_str(last, "./tool");
	cr_expect(eq(int, search(NULL, "tool", out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, probes, 0), "no PATH asks nothing");
}

Test(path_search, empty_entries_are_the_working_directory)
{
	char out[PATH_MAX];
	/* as for execvp(3): "" is ".", never "/" (which the table calls executable) */
	cr_expect(eq(int, search("::", "tool", out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, probes, 3));
	expect_str(last, "./tool");
	cr_expect(eq(int, search(":/bin:", "tool", out, sizeof(out)), 0));
	expect_str(out, "/bin/tool");
	cr_expect(eq(int, search("/nowhere::/bin", "here", out, sizeof(out)), -ENOENT));
	expect_str(last, "/bin/here");
}

Test(path_search, a_relative_entry_wins_in_its_place)
{
	char out[PATH_MAX];
	cr_assert(eq(int, search("/nowhere:rel:/bin", "tool", out, sizeof(out)), 0));
	expect_str(out, "rel/tool");
}

Test(path_search, kind_is_shared_by_both_probes)
{
	struct stat st = {.st_mode = S_IFREG | 0755};
	cr_expect(eq(int, nsb_path_kind(&st, true), NSB_PATH_EXEC));
	cr_expect(eq(int, nsb_path_kind(&st, false), NSB_PATH_NOEXEC));
	st.st_mode = S_IFDIR | 0755;
	cr_expect(eq(int, nsb_path_kind(&st, true), NSB_PATH_ABSENT));
	st.st_mode = S_IFIFO | 0755; /* execve says EACCES and execvp goes on */
	cr_expect(eq(int, nsb_path_kind(&st, true), NSB_PATH_NOEXEC));
	cr_expect(eq(int, nsb_path_kind(NULL, true), NSB_PATH_ABSENT));
}

Test(path_search, relative_entries_reach_the_probe_as_written)
{
	char out[PATH_MAX];
	cr_expect(eq(int, search("rel", "tool", out, sizeof(out)), 0));
	expect_str(out, "rel/tool");
}

Test(path_search, bad_names_are_einval)
{
	char out[PATH_MAX];
	cr_expect(eq(int, search("/bin", "", out, sizeof(out)), -EINVAL));
	cr_expect(eq(int, search("/bin", "a/tool", out, sizeof(out)), -EINVAL));
	cr_expect(eq(int, search("/bin", NULL, out, sizeof(out)), -EINVAL));
	cr_expect(eq(int, probes, 0));
}

Test(path_search, candidates_too_long_for_out_are_skipped)
{
	char out[10];
	cr_expect(eq(int, search("/usr/bin:/bin", "tool", out, sizeof(out)), 0));
	expect_str(out, "/bin/tool");
	cr_expect(eq(int, probes, 1), "/usr/bin/tool does not fit and is never probed");
	cr_expect(eq(int, search("/usr/bin", "tool", out, 5), -ENOENT));
}
