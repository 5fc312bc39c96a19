// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The self-contained build (the Makefile's STATIC=all, which the Makefile
 * says in NSBOX_STATIC=1): the binary names no program interpreter and no
 * shared library, and a copy of it runs where there is none to load.  The
 * test hides every library directory (the loader and glibc with them)
 * under an empty tmpfs, in a mount namespace of the test process
 * (Criterion runs each test in a process of its own, already loaded),
 * which nsbox inherits; then nsbox starts, reads its built-in profile, and
 * runs the static probe under its defaults, whose view of the kernel from
 * inside is checked.  As root and as the unprivileged user.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "harness.h"

/* Where Debian's loader and libraries are (/lib and /lib64 lead there). */
static const char *const lib_dirs[] = {"/usr/lib/x86_64-linux-gnu", "/usr/lib64", "/usr/lib"};

static void skip_unless_static(void)
{
	const char *s = getenv("NSBOX_STATIC");

	if (!s || strcmp(s, "1") != 0)
		cr_skip_test("build/nsbox is not the self-contained build (make STATIC=all)");
}

/* The ELF file at path: no PT_INTERP, and no DT_NEEDED in its PT_DYNAMIC. */
static void expect_no_loader(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int dynamics = 0;

	cr_assert(fd >= 0, "open %s: %s", path, strerror(errno));
	cr_assert(pread(fd, &eh, sizeof(eh), 0) == (ssize_t)sizeof(eh));
	cr_assert(memcmp(eh.e_ident, ELFMAG, SELFMAG) == 0 && eh.e_ident[EI_CLASS] == ELFCLASS64);
	for (unsigned i = 0; i < eh.e_phnum; i++) {
		off_t at = (off_t)eh.e_phoff + (off_t)i * eh.e_phentsize;

		cr_assert(pread(fd, &ph, sizeof(ph), at) == (ssize_t)sizeof(ph));
		cr_expect(ph.p_type != PT_INTERP, "%s names a program interpreter", path);
		if (ph.p_type != PT_DYNAMIC)
			continue;
		dynamics++;
		for (Elf64_Xword off = 0; off + sizeof(Elf64_Dyn) <= ph.p_filesz;
		     off += sizeof(Elf64_Dyn)) {
			Elf64_Dyn d;

			cr_assert(pread(fd, &d, sizeof(d), (off_t)(ph.p_offset + off)) ==
				  (ssize_t)sizeof(d));
			if (d.d_tag == DT_NULL)
				break;
			cr_expect(d.d_tag != DT_NEEDED, "%s needs a shared library", path);
		}
	}
	/* A static PIE relocates itself from its own dynamic section. */
	cr_expect(eq(int, dynamics, 1), "PT_DYNAMIC segments of %s", path);
	close(fd);
}

/* An empty read-only tmpfs over each library directory, for this process
 * and what it starts; glibc's loader is gone from every path it has. */
static void hide_libraries(void)
{
	cr_assert(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	cr_assert(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	for (size_t i = 0; i < sizeof(lib_dirs) / sizeof(lib_dirs[0]); i++) {
		struct stat st;

		if (stat(lib_dirs[i], &st) < 0 || !S_ISDIR(st.st_mode))
			continue;
		cr_assert(mount("none", lib_dirs[i], "tmpfs", MS_RDONLY | MS_NOSUID | MS_NODEV,
				"size=4k,mode=755") == 0,
			  "cover %s: %s", lib_dirs[i], strerror(errno));
	}
	cr_assert(access("/lib64/ld-linux-x86-64.so.2", F_OK) < 0 && errno == ENOENT,
		  "the loader is still there");
	cr_assert(access("/lib/x86_64-linux-gnu/libc.so.6", F_OK) < 0 && errno == ENOENT,
		  "libc is still there");
}

NSB_ITEST(static, runs_alone_where_no_library_is)
{
	struct itest_opts bare = {.raw_argv = true, .no_record = true};
	struct itest_run r;
	char uid[16];

	skip_unless_static();
	expect_no_loader(itest_cur.nsbox);
	hide_libraries();

	itest_run(&itest_cur, &bare, ITEST_ARGV("--version"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "nsbox ");
	itest_run_close(&r);

	/* The built-in profile, with no share/ directory to read. */
	itest_run(&itest_cur, &bare, ITEST_ARGV("--print-profile", "default"), &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "\nfcntl errno EPERM if arg1");
	itest_run_close(&r);

	/* A run with the defaults: the kernel's view from inside. */
	ITEST_RUN(&r, "--", "./probe", "status");
	ITEST_ASSERT_EXIT(&r, 0);
	snprintf(uid, sizeof(uid), "%u", (unsigned)itest_cur.uid); /* the caller's, mapped */
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "uid"), uid);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid"), "2");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.NoNewPrivs"), "1");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.Seccomp"), "2");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "self.CapEff"), "0000000000000000");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "pid1.Name"), "nsbox");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.seccomp.profile"), "default");
	itest_run_close(&r);

	/* Loopback is up inside (libmnl's netlink, linked in). */
	ITEST_RUN(&r, "--", "./probe", "ifaces");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "iface.lo"), "up");
	itest_run_close(&r);
}
