// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Fault injection: strace makes one setup syscall fail (strace -f
 * --inject=SYSCALL:error=E...) and nsbox must fail closed every time: exit
 * 125, a record with status setup_failed and the stage of that step, an
 * "nsbox: " message naming the step, the payload never ran (it would create
 * a marker in an --rw directory), no mount left on the host, no process
 * left.  clone3 failing with ENOSYS must instead fall back to clone and run.
 * Root only (strace needs to trace the setuid-free launcher and its
 * namespaced children).
 */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <fcntl.h>
#include <sys/file.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "harness.h"

struct fault {
	char inject[64]; /* strace --inject value, or "open:SUFFIX" for the shim */
	char stage[24];	 /* setup_error.stage; "" when the run must succeed */
	char words[48];	 /* a word the message must contain */
	bool cgroup;	 /* run with a cgroup under CGROUP_PARENT (--require-cgroup) */
};

/*
 * The writes to /proc/PID/{setgroups,uid_map,gid_map} go through open(3)
 * with a pid strace cannot know in advance: an LD_PRELOAD shim, built here,
 * fails open() of any path ending in $NSB_FAULT_OPEN with EPERM.  A shim
 * reaches only a dynamic binary: with the static build (the Makefile's
 * STATIC=all) these cases run NSBOX_DYN_BIN, the same objects linked
 * against the shared C library.
 */
static const char shim_src[] =
	"#define _GNU_SOURCE\n#include <dlfcn.h>\n#include <errno.h>\n#include <fcntl.h>\n"
	"#include <stdarg.h>\n#include <stdlib.h>\n#include <string.h>\n"
	"int open(const char *path, int flags, ...)\n{\n"
	"\tstatic int (*real)(const char *, int, ...);\n"
	"\tconst char *suf = getenv(\"NSB_FAULT_OPEN\");\n"
	"\tsize_t n = strlen(path), m = suf ? strlen(suf) : 0;\n\tmode_t mode = 0;\n"
	"\tif (flags & (O_CREAT | O_TMPFILE)) {\n\t\tva_list ap;\n\t\tva_start(ap, flags);\n"
	"\t\tmode = va_arg(ap, mode_t);\n\t\tva_end(ap);\n\t}\n"
	"\tif (m && n >= m && strcmp(path + n - m, suf) == 0) {\n"
	"\t\terrno = EPERM;\n\t\treturn -1;\n\t}\n"
	"\tif (!real)\n\t\treal = (int (*)(const char *, int, ...))dlsym(RTLD_NEXT, \"open\");\n"
	"\treturn real(path, flags, mode);\n}\n";

/* A cgroup v2 tree this host has (hybrid: no controllers, but a cgroup). */
#define CGROUP_PARENT "/sys/fs/cgroup/unified"

/* The nsbox-* cgroups under CGROUP_PARENT, as one sorted text. */
static char *cgroups(void)
{
	char *out = NULL;
	size_t len = 0;
	FILE *m = open_memstream(&out, &len);
	FILE *p = popen("ls -d " CGROUP_PARENT "/nsbox-* 2>/dev/null | sort", "r");
	int ch;
	cr_assert(m && p);
	while ((ch = getc(p)) != EOF)
		putc(ch, m);
	pclose(p);
	fclose(m);
	return out;
}

static char *slurp_or_empty(const char *path)
{
	char *s = itest_slurp(path);
	return s ? s : strdup("");
}

/* Mount lines of the host, without the per-mount ids that may be reused. */
static char *mounts(void)
{
	return slurp_or_empty("/proc/self/mountinfo");
}

/*
 * A cgroup in after but not in before whose creator (nsbox-PID-...) is gone:
 * left behind by the run.  Other nsbox runs on the host (their creators
 * alive) are not ours to judge.  Returns a static copy, or NULL.
 */
static const char *leaked_cgroup(const char *before, const char *after)
{
	static char line[512];
	for (const char *p = after; *p;) {
		const char *nl = strchrnul(p, '\n');
		snprintf(line, sizeof(line), "%.*s", (int)(nl - p), p);
		p = *nl ? nl + 1 : nl;
		const char *base = strrchr(line, '/');
		long pid = base ? strtol(base + 1 + strlen("nsbox-"), NULL, 10) : 0;
		if (!line[0] || strstr(before, line) || pid <= 0)
			continue;
		if (kill((pid_t)pid, 0) < 0 && errno == ESRCH)
			return line;
	}
	return NULL;
}

static void run_fault(const struct fault *f)
{
	const char *nsbox = getenv("NSBOX_BIN");
	char dir[] = "/tmp/nsbox-fault-XXXXXX", rw[64], marker[96], rec[96], err[96], cmd[2048];

	if (geteuid() != 0)
		cr_skip_test("strace fault injection needs root");
	if (system("strace -V >/dev/null 2>&1") != 0)
		cr_skip_test("strace is not installed");
	cr_assert(nsbox != NULL, "NSBOX_BIN is not set");
	cr_assert(mkdtemp(dir) != NULL);
	snprintf(rw, sizeof(rw), "%s/rw", dir);
	snprintf(marker, sizeof(marker), "%s/marker", rw);
	snprintf(rec, sizeof(rec), "%s/rec.json", dir);
	snprintf(err, sizeof(err), "%s/err.txt", dir);
	cr_assert(mkdir(rw, 0755) == 0);

	if (f->cgroup && access(CGROUP_PARENT "/cgroup.procs", W_OK) != 0)
		cr_skip_test("no writable cgroup v2 tree at " CGROUP_PARENT);
	/* The before/after comparisons see the whole host: one case at a time
	 * even when Criterion runs workers in parallel. */
	int lock = open("/tmp/nsbox-itest-faults.lock", O_RDWR | O_CREAT | O_CLOEXEC, 0600);
	cr_assert(lock >= 0 && flock(lock, LOCK_EX) == 0);
	char *before = mounts(), *cg_before = cgroups();
	/* The payload's command line carries the temp dir name, which makes
	 * it findable by the survivor check below. */
	char how[256];
	if (strncmp(f->inject, "open:", 5) == 0) {
		char src[96];
		const char *dyn = getenv("NSBOX_DYN_BIN");

		if (dyn && dyn[0])
			nsbox = dyn;
		snprintf(src, sizeof(src), "%s/shim.c", dir);
		FILE *sf = fopen(src, "we");
		cr_assert(sf != NULL);
		fputs(shim_src, sf);
		fclose(sf);
		snprintf(cmd, sizeof(cmd), "cc -shared -fPIC -o %s/shim.so %s -ldl", dir, src);
		cr_assert(system(cmd) == 0, "cannot build the open() shim");
		/* under make asan the ASan runtime must let the shim load first */
		snprintf(how, sizeof(how),
			 "env LD_PRELOAD=%s/shim.so NSB_FAULT_OPEN=%s "
			 "ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:verify_asan_link_order=0\"",
			 dir, f->inject + 5);
	} else {
		/* LeakSanitizer cannot run under ptrace (make asan runs this too) */
		snprintf(how, sizeof(how),
			 "env ASAN_OPTIONS=\"${ASAN_OPTIONS:-}:detect_leaks=0\" "
			 "strace -f -qq -o /dev/null --inject=%s",
			 f->inject);
	}
	snprintf(
		cmd, sizeof(cmd),
		"cd %s && %s %s --no-project --rw %s %s "
		"--allow-inline-code --allow-path / --result-fd 3 -- /bin/sh -c 'touch %s; exit 0' "
		"3>%s 2>%s",
		dir, how, nsbox, rw,
		f->cgroup ? "--cgroup-parent " CGROUP_PARENT " --require-cgroup" : "", marker, rec,
		err);
	int st = system(cmd);
	bool exited = WIFEXITED(st);
	cr_assert(exited, "%s: nsbox did not exit", f->inject);
	int code = WEXITSTATUS(st);
	char *after = mounts(), *cg_after = cgroups();
	char *record = slurp_or_empty(rec), *msg = slurp_or_empty(err);
	char val[256];

	if (!f->stage[0]) {
		cr_expect(code == 0, "%s: exit %d, want 0 (fallback); stderr: %s", f->inject, code,
			  msg);
		cr_expect(access(marker, F_OK) == 0, "%s: the payload did not run", f->inject);
	} else {
		cr_expect(code == 125, "%s: exit %d, want 125; stderr: %s", f->inject, code, msg);
		itest_json_get(record, "status", val, sizeof(val));
		cr_expect(strcmp(val, "setup_failed") == 0, "%s: status '%s'", f->inject, val);
		itest_json_get(record, "setup_error.stage", val, sizeof(val));
		cr_expect(strcmp(val, f->stage) == 0, "%s: stage '%s', want '%s'", f->inject, val,
			  f->stage);
		cr_expect(strncmp(msg, "nsbox: ", 7) == 0, "%s: message '%s'", f->inject, msg);
		cr_expect(strstr(msg, f->words) != NULL, "%s: message '%s' lacks '%s'", f->inject,
			  msg, f->words);
		cr_expect(access(marker, F_OK) != 0, "%s: the payload ran", f->inject);
	}
	cr_expect(strcmp(before, after) == 0, "%s: the host's mounts changed", f->inject);
	const char *left = leaked_cgroup(cg_before, cg_after);
	cr_expect(left == NULL, "%s: cgroup '%s' was left behind", f->inject, left);
	pid_t pids[4];
	cr_expect(itest_find_procs(dir, pids, 4) == 0, "%s: a process survived", f->inject);
	close(lock);

	free(before);
	free(after);
	free(cg_before);
	free(cg_after);
	free(record);
	free(msg);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	cr_expect(system(cmd) == 0);
}

ParameterizedTestParameters(faults, inject)
{
	static struct fault cases[] = {
		{"clone3:error=EPERM", "userns", "user namespace"},
		{"clone3:error=ENOSYS", "", ""},
		{"fsopen:error=EPERM", "mount", "tmpfs"},
		{"open_tree:error=EPERM", "mount", "bind"},
		{"move_mount:error=EPERM", "mount", "attach"},
		/* the first mount_setattr: the --rw bind's nosuid,nodev; the
		 * third: the system view's, all read-only at once */
		{"mount_setattr:error=EPERM", "mount", "nosuid,nodev"},
		{"mount_setattr:error=EPERM:when=3", "mount", "read-only"},
		{"pivot_root:error=EPERM", "pivot_root", "new root"},
		{"socket:error=EPERM", "net", "loopback"},
		/* init's network namespace (init_build.c) */
		{"unshare:error=EPERM", "net", "network namespace"},
		{"capset:error=EPERM", "caps", "capabilit"},
		{"seccomp:error=EPERM", "seccomp", "seccomp"},
		{"sethostname:error=EPERM", "hostname", "hostname"},
		{"open:/setgroups", "userns", "setgroups"},
		{"open:/uid_map", "userns", "uid_map"},
		{"open:/gid_map", "userns", "gid_map"},
		/* the second fsopen (procfs), the third move_mount */
		{"fsopen:error=ENOMEM:when=2", "mount", "proc"},
		{"move_mount:error=EPERM:when=3", "mount", "attach"},
		/* cgroup creation: the run's cgroup (first mkdirat), its
		 * sandbox leaf (second); a later failure must remove both */
		{"mkdirat:error=EACCES:when=1", "cgroup", "create cgroup", true},
		{"mkdirat:error=EACCES:when=2", "cgroup", "create cgroup", true},
		{"clone3:error=EPERM", "userns", "user namespace", true},
		/* the clone fallback with a cgroup: init waits to be moved in */
		{"clone3:error=ENOSYS", "", "", true},
		{"pivot_root:error=EPERM", "pivot_root", "new root", true},
	};
	return cr_make_param_array(struct fault, cases, sizeof(cases) / sizeof(cases[0]));
}

ParameterizedTest(struct fault *f, faults, inject, .timeout = 60)
{
	run_fault(f);
}
