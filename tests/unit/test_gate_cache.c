// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The deny list's reach, remembered (gate/gate_fs_cache.c), against real
 * directories: what is listed when, what a cache file must be to be
 * believed, and that a directory changed since is listed again.
 *
 * The listing is counted: the function that lists is passed in, so each
 * test sees whether the cache answered or the directory was read.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stdint.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <dirent.h>

#include "gate/gate_fs_cache.h"
#include "gate/gate_input.h"
#include "unit.h"

static char top[128];	      /* realpath of the temporary directory */
static char dir[PATH_MAX];    /* the listed directory (settled) */
static char cache[PATH_MAX];  /* the cache directory */
static unsigned char key[32]; /* the deny list's digest, as the gate makes it */
static int listings;	      /* times the directory was read */

static void touch(const char *d, const char *name, mode_t mode)
{
	char p[PATH_MAX + 300];
	snprintf(p, sizeof(p), "%s/%s", d, name);
	int fd = open(p, O_WRONLY | O_CREAT | O_EXCL, mode);
	cr_assert(fd >= 0, "create %s", p);
	close(fd);
}

/* The test directory: denied names (rm, mkfs.ext4 as a link), others. */
static void make_dir(const char *d)
{
	cr_assert(eq(int, mkdir(d, 0755), 0));
	touch(d, "rm", 0755);
	touch(d, "ls", 0755);
	touch(d, "cat", 0755);
	char p[PATH_MAX + 300];
	snprintf(p, sizeof(p), "%s/mkfs.ext4", d);
	cr_assert(eq(int, symlink("mke2fs", p), 0));
	touch(d, "mke2fs", 0755);
}

static void setup(void)
{
	unit_tmpdir("nsbox-gate-cache", top, sizeof(top));
	snprintf(dir, sizeof(dir), "%s/bin", top);
	snprintf(cache, sizeof(cache), "%s/cache/nsbox", top);
	make_dir(dir);
	memset(key, 0x5a, sizeof(key));
	listings = 0;
	/* The cache believes only a directory unchanged for a second. */
	struct timespec ts = {.tv_sec = 1, .tv_nsec = 100 * 1000 * 1000};
	nanosleep(&ts, NULL);
}

static void teardown(void)
{
	char cmd[PATH_MAX + 16];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", top);
	cr_expect(eq(int, system(cmd), 0));
}

static bool denied(void *ud, const char *name)
{
	(void)ud;
	return strcmp(name, "rm") == 0 || strncmp(name, "mkfs.", 5) == 0;
}

/* Plain readdir, counted. */
static int list(void *ud, const char *d,
		int (*fn)(void *fnud, const char *name, unsigned char type, unsigned long long ino),
		void *fnud)
{
	(void)ud;
	listings++;
	DIR *dp = opendir(d);
	if (!dp)
		return -errno;
	struct dirent *de;
	int r = 0;
	while (!r && (de = readdir(dp)))
		r = fn(fnud, de->d_name, de->d_type, de->d_ino);
	closedir(dp);
	return r < 0 ? r : 0;
}

/* What fn saw: the names, sorted by the test's reading order. */
struct seen {
	char names[512];
	unsigned char lnk_type;
};

static int saw(void *ud, const char *name, unsigned char type, unsigned long long ino)
{
	struct seen *s = ud;
	(void)ino;
	if (strncmp(name, "mkfs.", 5) == 0)
		s->lnk_type = type;
	strncat(s->names, name, sizeof(s->names) - strlen(s->names) - 2);
	strcat(s->names, ",");
	return 0;
}

static bool has(const struct seen *s, const char *name)
{
	char want[300];
	snprintf(want, sizeof(want), "%s,", name);
	return strstr(s->names, want) != NULL;
}

static int run(struct seen *s, const unsigned char *k)
{
	memset(s, 0, sizeof(*s));
	return nsb_gate_list_kept_cached(cache, dir, k, denied, saw, s, list);
}

static void cache_file(char *out, size_t outsz)
{
	DIR *dp = opendir(cache);
	struct dirent *de;
	cr_assert(dp != NULL, "no cache directory %s", cache);
	out[0] = '\0';
	while ((de = readdir(dp)))
		if (strncmp(de->d_name, "deny-", 5) == 0)
			snprintf(out, outsz, "%s/%s", cache, de->d_name);
	closedir(dp);
	bool found = out[0] != '\0';
	cr_assert(found, "no cache file in %s", cache);
}

static bool cache_exists(void)
{
	DIR *dp = opendir(cache);
	struct dirent *de;
	bool any = false;
	while (dp && (de = readdir(dp)))
		any |= strncmp(de->d_name, "deny-", 5) == 0;
	if (dp)
		closedir(dp);
	return any;
}

TestSuite(gate_cache, .init = setup, .fini = teardown);

Test(gate_cache, lists_once_then_answers_from_the_file)
{
	struct seen s;

	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 1));
	cr_expect(has(&s, "rm") && has(&s, "mkfs.ext4"), "saw %s", s.names);
	bool clean = !has(&s, "ls") && !has(&s, "mke2fs");
	cr_expect(clean, "unkept names passed: %s", s.names);

	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 1), "the second run read the directory again");
	cr_expect(has(&s, "rm") && has(&s, "mkfs.ext4"), "from the cache: %s", s.names);
	cr_expect(eq(u8, s.lnk_type, DT_LNK), "the link's type is kept");

	char f[PATH_MAX + 300];
	struct stat st;
	cache_file(f, sizeof(f));
	cr_assert(eq(int, stat(f, &st), 0));
	cr_expect(eq(u32, st.st_mode & 07777, 0600));
	cr_assert(eq(int, stat(cache, &st), 0));
	cr_expect(eq(u32, st.st_mode & 07777, 0700));
}

Test(gate_cache, another_deny_list_lists_again)
{
	struct seen s;
	unsigned char other[32];

	memset(other, 0x11, sizeof(other));
	cr_assert(eq(int, run(&s, key), 0));
	cr_assert(eq(int, run(&s, other), 0));
	cr_expect(eq(int, listings, 2), "a file made under another key was believed");
}

Test(gate_cache, a_new_entry_is_seen)
{
	struct seen s;

	cr_assert(eq(int, run(&s, key), 0));
	touch(dir, "mkfs.xfs", 0755);
	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 2));
	cr_expect(has(&s, "mkfs.xfs"), "the new denied name went unseen: %s", s.names);
}

Test(gate_cache, a_removed_entry_is_gone)
{
	struct seen s;
	char p[PATH_MAX + 300];

	cr_assert(eq(int, run(&s, key), 0));
	snprintf(p, sizeof(p), "%s/rm", dir);
	cr_assert(eq(int, unlink(p), 0));
	cr_assert(eq(int, run(&s, key), 0));
	bool gone = !has(&s, "rm");
	cr_expect(gone, "a removed name came from the cache: %s", s.names);
}

Test(gate_cache, a_directory_changed_just_now_is_not_stored)
{
	struct seen s;

	touch(dir, "fresh", 0644);
	cr_assert(eq(int, run(&s, key), 0));
	bool none = !cache_exists();
	cr_expect(none, "a directory changed within the tick guard was cached");
	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 2));
}

/* Change the cache file's text by a callback, then see it is not believed. */
static void rewrite(void (*edit)(char *text, size_t room))
{
	char f[PATH_MAX + 300], text[4096] = {0};
	FILE *fp;

	cache_file(f, sizeof(f));
	fp = fopen(f, "r");
	cr_assert(fp != NULL);
	size_t n = fread(text, 1, sizeof(text) - 1, fp);
	fclose(fp);
	text[n] = '\0';
	edit(text, sizeof(text));
	fp = fopen(f, "w");
	cr_assert(fp != NULL);
	fputs(text, fp);
	fclose(fp);
}

static void cut_end(char *text, size_t room)
{
	(void)room;
	char *e = strstr(text, "end\n");
	cr_assert(e != NULL);
	*e = '\0';
}

static void bad_line(char *text, size_t room)
{
	char *e = strstr(text, "end\n");
	cr_assert(e != NULL);
	snprintf(e, room - (size_t)(e - text), "8 12 a/b\nend\n");
}

static void other_dir(char *text, size_t room)
{
	(void)room;
	char *d = strstr(text, "\ndir ");
	cr_assert(d != NULL);
	d[5] = d[5] == '9' ? '1' : '9'; /* another device number */
}

static void expect_not_believed(void (*edit)(char *, size_t))
{
	struct seen s;
	cr_assert(eq(int, run(&s, key), 0));
	rewrite(edit);
	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 2), "an edited cache file was believed");
	cr_expect(has(&s, "rm") && has(&s, "mkfs.ext4"), "saw %s", s.names);
}

Test(gate_cache, a_file_without_its_end_is_not_believed)
{
	expect_not_believed(cut_end);
}

Test(gate_cache, a_malformed_line_is_not_believed)
{
	expect_not_believed(bad_line);
}

Test(gate_cache, another_directory_s_file_is_not_believed)
{
	expect_not_believed(other_dir);
}

Test(gate_cache, a_file_owned_by_someone_else_is_not_believed)
{
	struct seen s;
	char f[PATH_MAX + 300];

	if (geteuid() != 0)
		cr_skip_test("needs root to give the file away");
	cr_assert(eq(int, run(&s, key), 0));
	cache_file(f, sizeof(f));
	cr_assert(eq(int, chown(f, 65534, 65534), 0));
	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 2), "another user's cache file was believed");
}

Test(gate_cache, a_link_in_place_of_the_file_is_not_followed)
{
	struct seen s;
	char f[PATH_MAX + 300], moved[PATH_MAX + 320];

	cr_assert(eq(int, run(&s, key), 0));
	cache_file(f, sizeof(f));
	snprintf(moved, sizeof(moved), "%s.real", f);
	cr_assert(eq(int, rename(f, moved), 0));
	cr_assert(eq(int, symlink(moved, f), 0));
	cr_assert(eq(int, run(&s, key), 0));
	cr_expect(eq(int, listings, 2), "a link to a cache file was followed");
}

Test(gate_cache, no_cache_directory_means_the_caller_lists)
{
	struct seen s;
	memset(&s, 0, sizeof(s));
	cr_expect(
		eq(int, nsb_gate_list_kept_cached(NULL, dir, key, denied, saw, &s, list), -ENOENT));
	cr_expect(eq(int, listings, 0));
}

/* Is path a directory of mode 0700 that we own? */
static bool own_dir_0700(const char *path)
{
	struct stat st;

	return lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == geteuid() &&
	       (st.st_mode & 07777) == 0700;
}

Test(gate_cache, where_the_cache_lives)
{
	char out[PATH_MAX], want[PATH_MAX + 64], xdg[PATH_MAX], home[PATH_MAX];

	snprintf(xdg, sizeof(xdg), "%s/xdg", top);
	snprintf(home, sizeof(home), "%s/home", top);
	cr_assert(eq(int, mkdir(home, 0755), 0));
	setenv("XDG_CACHE_HOME", xdg, 1);
	setenv("HOME", home, 1);
	unsetenv("NSBOX_NO_CACHE");
	/* XDG_CACHE_HOME first; the one in use is made when missing (its
	 * parent too), mode 0700. */
	cr_assert(eq(int, nsb_gate_cache_dir(NSB_CACHE_IN_USE, out, sizeof(out)), 0));
	snprintf(want, sizeof(want), "%s/nsbox", xdg);
	expect_str(out, want);
	cr_expect(own_dir_0700(want), "%s was not made 0700", want);
	/* The guarded places are names only: nothing is made for them. */
	cr_assert(eq(int, nsb_gate_cache_dir(NSB_CACHE_HOME, out, sizeof(out)), 0));
	snprintf(want, sizeof(want), "%s/.cache/nsbox", home);
	expect_str(out, want);
	cr_expect(access(want, F_OK) != 0, "%s was made for a name", want);
	/* A relative XDG_CACHE_HOME is ignored: the home's cache. */
	setenv("XDG_CACHE_HOME", "relative/ignored", 1);
	cr_assert(eq(int, nsb_gate_cache_dir(NSB_CACHE_IN_USE, out, sizeof(out)), 0));
	expect_str(out, want);
	cr_expect(own_dir_0700(want), "%s was not made 0700", want);
	cr_expect(eq(int, nsb_gate_cache_dir(NSB_CACHE_XDG, out, sizeof(out)), -ENOENT));
	setenv("NSBOX_NO_CACHE", "1", 1);
	cr_expect(eq(int, nsb_gate_cache_dir(NSB_CACHE_IN_USE, out, sizeof(out)), -ENOENT));
	cr_expect(eq(int, nsb_gate_cache_dir(NSB_CACHE_HOME, out, sizeof(out)), 0),
		  "the guarded places do not depend on the switch");
	cr_expect(eq(int, nsb_gate_cache_dir(NSB_CACHE_TMP, out, sizeof(out)), 0));
	unsetenv("NSBOX_NO_CACHE");
	unsetenv("XDG_CACHE_HOME");
	snprintf(want, sizeof(want), "/var/tmp/nsbox-%u", (unsigned)geteuid());
	expect_str(out, want);
}

/*
 * Without a home (HOME unset, relative, or no directory), the cache is the
 * caller's own directory in /var/tmp: made 0700 when missing, and refused
 * (no cache at all) when another user made it, when it is a link, or when
 * others may write it.  Run as uid 65534 in a child, whose place that is.
 */
static int cache_as_nobody(const char *xdg, const char *home, char *out, size_t outsz)
{
	int fds[2];
	pid_t pid;
	int st;

	if (pipe(fds) < 0)
		return -1;
	pid = fork();
	if (pid == 0) {
		char got[PATH_MAX];
		close(fds[0]);
		if (setresgid(65534, 65534, 65534) < 0 || setresuid(65534, 65534, 65534) < 0)
			_exit(99);
		unsetenv("NSBOX_NO_CACHE");
		if (xdg)
			setenv("XDG_CACHE_HOME", xdg, 1);
		else
			unsetenv("XDG_CACHE_HOME");
		if (home)
			setenv("HOME", home, 1);
		else
			unsetenv("HOME");
		int r = nsb_gate_cache_dir(NSB_CACHE_IN_USE, got, sizeof(got));
		if (r == 0 && write(fds[1], got, strlen(got)) != (ssize_t)strlen(got))
			_exit(97);
		_exit(r == 0 ? 0 : r == -ENOENT ? 1 : 98);
	}
	close(fds[1]);
	ssize_t n = pid > 0 ? read(fds[0], out, outsz - 1) : -1;
	out[n > 0 ? n : 0] = '\0';
	close(fds[0]);
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* 0 when nobody's cache is its own directory in /var/tmp, 1 when it has
 * none, else what cache_as_nobody says. */
static int tmp_cache_as_nobody(const char *home)
{
	char out[PATH_MAX];
	int r = cache_as_nobody(NULL, home, out, sizeof(out));

	return r == 0 && strcmp(out, "/var/tmp/nsbox-65534") != 0 ? 96 : r;
}

Test(gate_cache, without_a_home_the_cache_is_the_callers_own_in_var_tmp)
{
	const char *nobody = "/var/tmp/nsbox-65534";
	struct stat st;

	/* nobody's place, emptied of any earlier run's */
	cr_assert(eq(int, system("rm -rf /var/tmp/nsbox-65534 /var/tmp/nsbox-65534.t"), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(NULL), 0), "HOME unset");
	cr_assert(eq(int, lstat(nobody, &st), 0));
	cr_expect(eq(u32, (uint32_t)st.st_uid, 65534));
	cr_expect(eq(u32, (uint32_t)(st.st_mode & 07777), 0700));
	cr_expect(eq(int, tmp_cache_as_nobody("relative"), 0), "HOME relative");
	cr_expect(eq(int, tmp_cache_as_nobody("/nonexistent"), 0), "HOME missing");

	/* Others may write it: refused. */
	cr_assert(eq(int, chmod(nobody, 0770), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(NULL), 1));
	/* Made by another user (root here) first: refused. */
	cr_assert(eq(int, rmdir(nobody), 0));
	cr_assert(eq(int, mkdir(nobody, 0700), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(NULL), 1));
	/* A link to a directory that is the caller's: refused, not followed. */
	cr_assert(eq(int, rmdir(nobody), 0));
	cr_assert(eq(int, mkdir("/var/tmp/nsbox-65534.t", 0700), 0));
	cr_assert(eq(int, chown("/var/tmp/nsbox-65534.t", 65534, 65534), 0));
	cr_assert(eq(int, symlink("/var/tmp/nsbox-65534.t", nobody), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(NULL), 1));
	cr_expect(eq(int, system("rm -rf /var/tmp/nsbox-65534 /var/tmp/nsbox-65534.t"), 0));
}

/*
 * A cache the variables name but the caller cannot use leaves it to
 * /var/tmp/nsbox-UID, as no home does: a home it may not enter (a HOME
 * inherited from root), one where the cache cannot be made, and a cache
 * directory that is another user's, a link, or writable by others.  Before,
 * such a caller had no cache at all.  A cache the caller can use is used,
 * made when missing.  Run as nobody, in a child.
 */
Test(gate_cache, a_cache_the_caller_cannot_use_falls_to_var_tmp)
{
	char h[PATH_MAX + 32], c[PATH_MAX + 64], out[PATH_MAX];

	cr_assert(eq(int, system("rm -rf /var/tmp/nsbox-65534"), 0));
	cr_assert(eq(int, chmod(top, 0755), 0), "nobody must reach %s", top);
	/* A home nobody may not enter (root's own, mode 0700). */
	snprintf(h, sizeof(h), "%s/root-home", top);
	cr_assert(eq(int, mkdir(h, 0700), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(h), 0), "a home it may not enter");
	/* A home it may enter but not write, without a cache. */
	cr_assert(eq(int, chmod(h, 0755), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(h), 0), "a home it may not write");
	/* A cache directory that is root's. */
	snprintf(c, sizeof(c), "%s/.cache", h);
	cr_assert(eq(int, mkdir(c, 0755), 0));
	cr_assert(eq(int, chown(c, 65534, 65534), 0));
	snprintf(c, sizeof(c), "%s/.cache/nsbox", h);
	cr_assert(eq(int, mkdir(c, 0700), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(h), 0), "another user's cache directory");
	/* Nobody's, but others may write it. */
	cr_assert(eq(int, chown(c, 65534, 65534), 0));
	cr_assert(eq(int, chmod(c, 0777), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(h), 0), "a cache others may write");
	/* Nobody's alone: used. */
	cr_assert(eq(int, chmod(c, 0700), 0));
	cr_expect(eq(int, cache_as_nobody(NULL, h, out, sizeof(out)), 0));
	expect_str(out, c);
	/* A link in its place, to a directory of nobody's: not followed. */
	char target[PATH_MAX + 32];
	snprintf(target, sizeof(target), "%s/target", top);
	cr_assert(eq(int, mkdir(target, 0700), 0));
	cr_assert(eq(int, chown(target, 65534, 65534), 0));
	cr_assert(eq(int, rmdir(c), 0));
	cr_assert(eq(int, symlink(target, c), 0));
	cr_expect(eq(int, tmp_cache_as_nobody(h), 0), "a link in the cache's place");
	/* XDG_CACHE_HOME where nothing can be made (a file is in the way). */
	snprintf(c, sizeof(c), "%s/file", top);
	touch(top, "file", 0644);
	cr_expect(eq(int, cache_as_nobody(c, NULL, out, sizeof(out)), 0));
	expect_str(out, "/var/tmp/nsbox-65534");
	/* An XDG_CACHE_HOME of nobody's own without the cache: made, used. */
	cr_expect(eq(int, cache_as_nobody(target, h, out, sizeof(out)), 0));
	snprintf(c, sizeof(c), "%s/nsbox", target);
	expect_str(out, c);
	cr_expect(eq(int, system("rm -rf /var/tmp/nsbox-65534"), 0));
}
