// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --overlay's pure parts and its walker (issue 16): the options, the record's
 * "overlay" member, the export's line format and path rule, and the change
 * set the walker reads from a crafted upper layer (a whiteout, an opaque
 * directory, a copy-up without change, special files) against a lower one.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/xattr.h>
#include <unistd.h>

#include "core/cli.h"
#include "core/overlay_record.h"
#include "json_check.h"
#include "supervisor/overlay_apply.h"
#include "supervisor/overlay_export.h"
#include "supervisor/overlay_walk.h"

#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"
#pragma GCC diagnostic ignored "-Wcast-qual"

static struct nsb_config cfg;

static int parse(const char *const *args, struct nsb_error *e)
{
	char *argv[64];
	int argc = 0;

	argv[argc++] = "nsbox";
	for (; *args && argc < 63; args++)
		argv[argc++] = (char *)*args;
	argv[argc] = NULL;
	return nsb_cli_parse(argc, argv, &cfg, e);
}
#define PARSE(e, ...) parse((const char *const[]){__VA_ARGS__, NULL}, (e))

Test(overlay_cli, options_fill_the_config)
{
	struct nsb_error e = {0};

	cr_assert(eq(int,
		     PARSE(&e, "--overlay", "src:/w", "--overlay", "b", "--overlay-size", "2M",
			   "--overlay-mode", "export:out", "--overlay-commit-always", "true"),
		     0));
	cr_expect(eq(sz, cfg.n_overlays, 2));
	cr_expect(eq(int, cfg.mounts[0].kind, NSB_MOUNT_OVERLAY));
	cr_expect(eq(str, (char *)cfg.mounts[0].dest, "/w"));
	cr_expect(eq(u64, cfg.overlay_size, 2u << 20));
	cr_expect(eq(int, cfg.overlay_mode, NSB_OVERLAY_EXPORT));
	cr_expect(eq(str, (char *)cfg.overlay_export, "out"));
	cr_expect(cfg.overlay_commit_always);
}

Test(overlay_cli, usage_errors)
{
	struct nsb_error e = {0};

	cr_expect(eq(int, PARSE(&e, "--overlay-mode", "commit", "true"), -EINVAL));
	cr_expect(eq(
		str, e.message,
		"--overlay-size, --overlay-mode, --overlay-commit-always and --overlay-store need an --overlay"));
	cr_expect(eq(int, PARSE(&e, "--overlay", "a", "--overlay-mode", "keep", "true"), -EINVAL));
	cr_expect(eq(str, e.message, "--overlay-mode 'keep': invalid mode"));
	cr_expect(
		eq(int, PARSE(&e, "--overlay", "a", "--overlay-mode", "export:", "true"), -EINVAL));
	cr_expect(eq(int, PARSE(&e, "--overlay", "a", "--overlay-size", "512k", "true"), -EINVAL));
	cr_expect(eq(int, PARSE(&e, "--overlay", "a", "--overlay-size", "2T", "true"), -EINVAL));
	const char *many[40];
	int n = 0;
	for (int i = 0; i < 17; i++) {
		many[n++] = "--overlay";
		many[n++] = "d";
	}
	many[n++] = "true";
	many[n] = NULL;
	cr_expect(eq(int, parse(many, &e), -E2BIG));
	cr_expect(eq(str, e.message, "--overlay 'd': too many overlays (at most 16)"));
}

Test(overlay_record, lists_are_bounded_then_counted)
{
	struct nsb_overlay_result o = {.dir = "/w", .dest = "/w", .mode = "discard"};
	struct nsb_json j;
	char *out = NULL;
	size_t len = 0;

	for (int i = 0; i < NSB_OVL_RECORD_MAX + 5; i++) {
		char p[32];
		snprintf(p, sizeof(p), "f%d", i);
		cr_assert(eq(int, nsb_ovl_list_add(&o.added, p, "file", 0644, 1, NULL), 0));
	}
	nsb_ovl_list_add(&o.deleted, "gone\n\"x", "file", 0, 0, NULL);
	nsb_ovl_list_add(&o.skipped, "ff", "fifo", 0, 0, NULL);
	cr_expect(eq(sz, o.added.n, NSB_OVL_RECORD_MAX));
	cr_expect(eq(u64, o.added.count, NSB_OVL_RECORD_MAX + 5));
	nsb_json_init(&j);
	nsb_json_begin_object(&j);
	nsb_overlay_record_put(&j, &o, 1);
	nsb_json_end_object(&j);
	cr_assert(eq(int, nsb_json_finish(&j, &out, &len), 0));
	cr_expect(json_check(out, len), "%s", out);
	cr_expect(strstr(out, "\"added_count\":1005") != NULL);
	cr_expect(strstr(out, "{\"path\":\"f0\",\"type\":\"file\",\"mode\":\"0644\",\"size\":1,"
			      "\"sha256\":null}") != NULL);
	cr_expect(strstr(out, "\"deleted\":[\"gone\\n\\\"x\"],\"deleted_count\":1") != NULL, "%s",
		  out);
	cr_expect(strstr(out, "\"skipped\":[{\"path\":\"ff\",\"why\":\"fifo\"}]") != NULL);
	free(out);
	nsb_json_free(&j);
	nsb_overlay_result_free(&o);
}

Test(overlay_export, paths_stay_beneath)
{
	cr_expect(nsb_ovl_path_ok("a"));
	cr_expect(nsb_ovl_path_ok("a/b.c/..d"));
	cr_expect(not(nsb_ovl_path_ok("")));
	cr_expect(not(nsb_ovl_path_ok("/a")));
	cr_expect(not(nsb_ovl_path_ok("a/../b")));
	cr_expect(not(nsb_ovl_path_ok("..")));
	cr_expect(not(nsb_ovl_path_ok("a//b")));
	cr_expect(not(nsb_ovl_path_ok("a/")));
	cr_expect(not(nsb_ovl_path_ok("./a")));
}

Test(overlay_export, lines_parse_and_unescape)
{
	char ok[] = "add\tfile\t0644\tabc\t-\tdir/a%09b%25c";
	char *f[6];

	cr_assert(eq(int, nsb_ovl_parse_line(ok, f), 0));
	cr_expect(eq(str, f[0], "add"));
	cr_expect(eq(str, f[2], "0644"));
	cr_expect(eq(str, f[5], "dir/a\tb%c"));
	char nul[] = "add\tfile\t0644\t-\t-\ta%00";
	cr_expect(eq(int, nsb_ovl_parse_line(nul, f), -EINVAL));
	char up[] = "del\tfile\t0\t-\t-\t%2E%2E/x";
	cr_expect(eq(int, nsb_ovl_parse_line(up, f), -EINVAL));
	char few[] = "add\tfile\t0644";
	cr_expect(eq(int, nsb_ovl_parse_line(few, f), -EINVAL));
	char bad[] = "add\tfile\t0644\t-\t-\ta%zz";
	cr_expect(eq(int, nsb_ovl_parse_line(bad, f), -EINVAL));
}

/* ---- the walker on a crafted upper layer --------------------------------- */

static char top[] = "/tmp/nsbox-ovl-unit-XXXXXX";
static char log_buf[8192];

static int log_change(void *ud, const struct nsb_ovl_event *ev)
{
	static const char *const k[] = {"add", "mod", "del", "skip", "end"};
	size_t n = strlen(log_buf);

	snprintf(log_buf + n, sizeof(log_buf) - n, "%s %s%s%s\n", k[ev->kind], ev->path,
		 ev->why ? " " : "", ev->why ? ev->why : "");
	return 0;
}

static void put(const char *rel, const char *content)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", top, rel);
	FILE *f = fopen(p, "w");
	cr_assert(f != NULL, "%s", p);
	fputs(content, f);
	fclose(f);
}

static void dir(const char *rel)
{
	char p[512];
	snprintf(p, sizeof(p), "%s/%s", top, rel);
	cr_assert(eq(int, mkdir(p, 0755), 0), "%s", p);
}

Test(overlay_walk, reads_whiteouts_opaque_dirs_and_copy_ups)
{
	char p[512];
	int up, low;
	struct nsb_error e = {0};

	cr_assert(mkdtemp(top) != NULL);
	dir("lower");
	dir("upper");
	put("lower/same", "s\n");
	put("lower/edited", "old\n");
	put("lower/gone", "g\n");
	dir("lower/merged");
	put("lower/merged/keep", "k\n");
	put("lower/merged/gone2", "g\n");
	dir("lower/replaced");
	put("lower/replaced/old", "o\n");
	put("upper/same", "s\n");     /* copied up, unchanged */
	put("upper/edited", "new\n"); /* modified */
	put("upper/added", "a\n");
	dir("upper/merged");
	dir("upper/replaced");
	put("upper/replaced/fresh", "f\n");
	snprintf(p, sizeof(p), "%s/upper/replaced", top);
	bool xattr_ok = setxattr(p, "user.overlay.opaque", "y", 1, 0) == 0;
	snprintf(p, sizeof(p), "%s/upper/gone", top);
	bool whiteouts = mknod(p, S_IFCHR | 0600, makedev(0, 0)) == 0;
	snprintf(p, sizeof(p), "%s/upper/merged/gone2", top);
	if (whiteouts)
		cr_assert(eq(int, mknod(p, S_IFCHR | 0600, makedev(0, 0)), 0));
	snprintf(p, sizeof(p), "%s/upper/fifo", top);
	cr_assert(eq(int, mkfifo(p, 0600), 0));

	snprintf(p, sizeof(p), "%s/upper", top);
	up = open(p, O_RDONLY | O_DIRECTORY);
	snprintf(p, sizeof(p), "%s/lower", top);
	low = open(p, O_RDONLY | O_DIRECTORY);
	cr_assert(up >= 0 && low >= 0);
	cr_assert(eq(int, nsb_ovl_walk(up, low, true, log_change, NULL, &e), 0), "%s", e.message);
	cr_expect(strstr(log_buf, "add added\n") != NULL, "%s", log_buf);
	cr_expect(strstr(log_buf, "mod edited\n") != NULL, "%s", log_buf);
	cr_expect(strstr(log_buf, "skip fifo fifo\n") != NULL, "%s", log_buf);
	cr_expect(strstr(log_buf, " same\n") == NULL, "a copy-up without change: %s", log_buf);
	if (whiteouts) {
		cr_expect(strstr(log_buf, "del gone\n") != NULL, "%s", log_buf);
		cr_expect(strstr(log_buf, "del merged/gone2\n") != NULL, "%s", log_buf);
	}
	if (xattr_ok)
		cr_expect(strstr(log_buf, "del replaced\nadd replaced\nadd replaced/fresh\nend "
					  "replaced\n") != NULL,
			  "%s", log_buf);
	close(up);
	close(low);
	snprintf(p, sizeof(p), "rm -rf %s", top);
	cr_expect(eq(int, system(p), 0));
}

/* ---- the plan: an overlay is a writable bind the gate sees as --rw --------- */

#include "core/plan.h"

static char *plan_cmd[] = {"true", NULL};
static char *plan_env[] = {"PATH=/usr/bin", NULL};

static int plan_with(const char *real, bool is_dir, struct nsb_plan *pl, struct nsb_error *e)
{
	static struct nsb_facts f;
	struct nsb_mount_arg *m = &cfg.mounts[0];

	nsb_config_init(&cfg);
	memset(m, 0, sizeof(*m));
	m->kind = NSB_MOUNT_OVERLAY;
	m->src = "w";
	m->src_len = 1;
	cfg.n_mounts = 1;
	cfg.n_overlays = 1;
	cfg.overlay_size = 4u << 20;
	cfg.cmd_argv = plan_cmd;
	cfg.cmd_argc = 1;
	cfg.no_project = true;
	memset(&f, 0, sizeof(f));
	f.cwd = "/home/u/proj";
	f.uid = 1000;
	f.gid = 1000;
	f.environ = plan_env;
	static const char *src_real[1];
	static bool src_is_dir[1];
	src_real[0] = real;
	src_is_dir[0] = is_dir;
	f.mount_src_real = src_real;
	f.mount_src_is_dir = src_is_dir;
	return nsb_plan_build(&cfg, &f, pl, e);
}

Test(overlay_plan, an_overlay_is_a_writable_user_bind_marked_overlay)
{
	struct nsb_plan pl = {0};
	struct nsb_error e = {0};
	const struct nsb_mount_op *op = NULL;

	cr_assert(eq(int, plan_with("/home/u/w", true, &pl, &e), 0), "%s", e.message);
	for (size_t i = 0; i < pl.n_ops; i++)
		if (strcmp(pl.ops[i].dest, "/home/u/w") == 0)
			op = &pl.ops[i];
	cr_assert(op != NULL);
	cr_expect(eq(int, op->kind, NSB_OP_BIND));
	cr_expect(op->overlay && op->user && !op->readonly);
	cr_expect(eq(str, op->src, "/home/u/w"));
	cr_expect(eq(sz, pl.n_overlays, 1));
	cr_expect(eq(u64, pl.overlay_size, 4u << 20));
	nsb_plan_free(&pl);
}

Test(overlay_plan, a_file_cannot_be_overlaid)
{
	struct nsb_plan pl = {0};
	struct nsb_error e = {0};

	cr_expect(eq(int, plan_with("/home/u/w", false, &pl, &e), -ENOTDIR));
	cr_expect(eq(str, e.message, "--overlay 'w': not a directory"));
}

Test(overlay_plan, a_run_without_overlay_plans_none)
{
	struct nsb_plan pl = {0};
	struct nsb_error e = {0};

	cr_assert(eq(int, plan_with("/home/u/w", true, &pl, &e), 0));
	nsb_plan_free(&pl);
	cfg.mounts[0].kind = NSB_MOUNT_RW;
	cfg.n_overlays = 0;
	static struct nsb_facts f;
	f.cwd = "/home/u/proj";
	f.environ = plan_env;
	static const char *const src_real[] = {"/home/u/w"};
	static const bool src_is_dir[] = {true};
	f.mount_src_real = src_real;
	f.mount_src_is_dir = src_is_dir;
	cr_assert(eq(int, nsb_plan_build(&cfg, &f, &pl, &e), 0), "%s", e.message);
	cr_expect(eq(sz, pl.n_overlays, 0));
	for (size_t i = 0; i < pl.n_ops; i++)
		cr_expect(not(pl.ops[i].overlay));
	nsb_plan_free(&pl);
}
