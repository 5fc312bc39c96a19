// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * nsb_cli_parse(): every option in both spellings, where parsing stops, every
 * limit at its boundary and one past it, and the exact message and hint of
 * every usage error.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <criterion/parameterized.h>

#include "core/cli.h"
#include "core/cli_options.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

#define ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

/* The config is large (4096 mounts with their buffers): keep it off the stack. */
static struct nsb_config cfg;
static struct nsb_error err;

static int parse_v(int argc, char **argv)
{
	memset(&err, 0, sizeof(err));
	return nsb_cli_parse(argc, argv, &cfg, &err);
}

static int parse_list(char **args)
{
	int n = 0;

	while (args[n])
		n++;
	return parse_v(n, args);
}

/*
 * PARSE("--ro", "x", "ls"): argv[0] is "nsbox".  The compound literal dies
 * with the block of the assertion macro around PARSE, while the config keeps
 * pointing into argv: copy the pointers to storage that outlives the test.
 */
#define ARGV(...)  ((char *[]){"nsbox", __VA_ARGS__, NULL})
#define PARSE(...) parse_copy(ARGV(__VA_ARGS__))

static char *argv_store[32];

static int parse_copy(char **args)
{
	int n = 0;

	for (; args[n]; n++) {
		cr_assert(n < (int)ARRAY_LEN(argv_store) - 1);
		argv_store[n] = args[n];
	}
	argv_store[n] = NULL;
	return parse_v(n, argv_store);
}

/* A usage error: return value, errno in e, stage, exact message and hint. */
#define EXPECT_USAGE(r, errno_, msg, hint_)                             \
	do {                                                            \
		cr_assert(eq(int, (r), -(errno_)));                     \
		cr_expect(eq(int, err.err, (errno_)));                  \
		cr_expect(eq(str, nsb_stage_name(err.stage), "usage")); \
		cr_expect(eq(str, err.message, (msg)));                 \
		cr_expect(eq(str, err.hint, (hint_)));                  \
	} while (0)

#define HINT_HELP "see nsbox --help"
#define HINT_DEST \
	"DEST is where the path appears inside the sandbox; write it as an absolute path such as /data"
#define HINT_NORM  "write DEST without '.', '..', '//' or a trailing '/'"
#define HINT_RSVD  "choose a destination outside /, /proc and /dev"
#define HINT_SIZE  "SIZE is bytes with an optional k, M or G suffix, at most 64G"
#define HINT_ENV   "NAME is letters, digits and '_', not starting with a digit"
#define HINT_HOST  "use 1-64 letters, digits, '-' and '.'"
#define HINT_FD	   "open another descriptor for the record, e.g. 3>record.json with --result-fd 3"
#define HINT_LARGE "pass large inputs in a file under an --ro directory"
#define HINT_CHDIR "give the directory as it appears inside, e.g. --chdir /data"

/* A string of n copies of ch after prefix, on the heap. */
static char *repeat(const char *prefix, char ch, size_t n)
{
	size_t p = strlen(prefix);
	char *s = malloc(p + n + 1);

	cr_assert_not_null(s);
	memcpy(s, prefix, p);
	memset(s + p, ch, n);
	s[p + n] = '\0';
	return s;
}

/* ---- defaults and the command ------------------------------------------ */

Test(cli, command_alone_gives_defaults)
{
	char **argv = ARGV("ls");

	cr_assert(eq(int, parse_list(argv), 0));
	cr_expect(eq(sz, cfg.n_mounts, 0));
	cr_expect(eq(sz, cfg.n_env, 0));
	cr_expect(eq(ptr, cfg.chdir, NULL));
	cr_expect(eq(ptr, cfg.project, NULL));
	cr_expect(eq(int, cfg.no_project, false));
	cr_expect(eq(int, cfg.share_net, false));
	cr_expect(eq(ptr, cfg.hostname, NULL));
	cr_expect(eq(int, cfg.result_fd, -1));
	cr_expect(eq(int, cfg.help, false));
	cr_expect(eq(int, cfg.version, false));
	cr_expect(eq(int, cfg.cmd_argc, 1));
	/* The command points into argv: nothing is copied. */
	cr_expect(eq(ptr, cfg.cmd_argv, argv + 1));
	cr_expect(eq(str, cfg.cmd_argv[0], "ls"));
	cr_expect(eq(int, err.err, 0));
}

Test(cli, config_init_sets_result_fd_to_none)
{
	memset(&cfg, 0x5a, sizeof(cfg));
	nsb_config_init(&cfg);
	cr_expect(eq(int, cfg.result_fd, -1));
	cr_expect(eq(sz, cfg.n_mounts, 0));
	cr_expect(eq(ptr, cfg.cmd_argv, NULL));
	cr_expect(eq(int, cfg.cmd_argc, 0));
}

Test(cli, stops_at_first_non_option)
{
	/* "-l" and "--ro" belong to ls, not to nsbox. */
	cr_assert(eq(int, PARSE("ls", "-l", "--ro", "x", "--help"), 0));
	cr_expect(eq(int, cfg.cmd_argc, 5));
	cr_expect(eq(str, cfg.cmd_argv[0], "ls"));
	cr_expect(eq(str, cfg.cmd_argv[1], "-l"));
	cr_expect(eq(str, cfg.cmd_argv[2], "--ro"));
	cr_expect(eq(str, cfg.cmd_argv[4], "--help"));
	cr_expect(eq(sz, cfg.n_mounts, 0));
	cr_expect(eq(int, cfg.help, false));
}

Test(cli, options_then_command_with_its_options)
{
	cr_assert(eq(int, PARSE("--share-net", "ls", "-l"), 0));
	cr_expect(eq(int, cfg.share_net, true));
	cr_expect(eq(int, cfg.cmd_argc, 2));
	cr_expect(eq(str, cfg.cmd_argv[0], "ls"));
	cr_expect(eq(str, cfg.cmd_argv[1], "-l"));
}

Test(cli, double_dash_ends_options)
{
	cr_assert(eq(int, PARSE("--share-net", "--", "--ro", "x"), 0));
	cr_expect(eq(sz, cfg.n_mounts, 0));
	cr_expect(eq(int, cfg.cmd_argc, 2));
	cr_expect(eq(str, cfg.cmd_argv[0], "--ro"));
	cr_expect(eq(str, cfg.cmd_argv[1], "x"));
}

Test(cli, double_dash_then_plain_command)
{
	cr_assert(eq(int, PARSE("--", "ls", "-l"), 0));
	cr_expect(eq(int, cfg.cmd_argc, 2));
	cr_expect(eq(str, cfg.cmd_argv[0], "ls"));
	cr_expect(eq(str, cfg.cmd_argv[1], "-l"));
}

Test(cli, second_double_dash_is_the_command)
{
	cr_assert(eq(int, PARSE("--", "--"), 0));
	cr_expect(eq(int, cfg.cmd_argc, 1));
	cr_expect(eq(str, cfg.cmd_argv[0], "--"));
}

Test(cli, lone_dash_is_a_command)
{
	cr_assert(eq(int, PARSE("-"), 0));
	cr_expect(eq(int, cfg.cmd_argc, 1));
	cr_expect(eq(str, cfg.cmd_argv[0], "-"));
}

Test(cli, no_command_is_refused)
{
	char *argv[] = {"nsbox", NULL};

	EXPECT_USAGE(parse_v(1, argv), EINVAL, "no command given",
		     "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]");
}

Test(cli, options_without_command_are_refused)
{
	EXPECT_USAGE(PARSE("--share-net"), EINVAL, "no command given",
		     "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]");
}

Test(cli, seccomp_export_alone_needs_no_command)
{
	/* --seccomp-export FILE with no command writes the program and stops. */
	cr_assert(eq(int, PARSE("--seccomp", "strict", "--seccomp-export", "/tmp/f.bpf"), 0));
	cr_expect(strcmp(cfg.seccomp_export, "/tmp/f.bpf") == 0);
	cr_expect(cfg.cmd_argv == NULL);
}

Test(cli, print_profile_needs_no_command)
{
	cr_assert(eq(int, PARSE("--print-profile", "strict"), 0));
	cr_expect(strcmp(cfg.print_profile, "strict") == 0);
	cr_expect(cfg.cmd_argv == NULL);
	EXPECT_USAGE(PARSE("--print-profile", ""), EINVAL,
		     "--print-profile '': invalid profile name",
		     "name a built-in profile (default, strict, groups)");
}

Test(cli, double_dash_without_command_is_refused)
{
	EXPECT_USAGE(PARSE("--"), EINVAL, "no command given",
		     "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]");
}

Test(cli, empty_command_is_refused)
{
	EXPECT_USAGE(PARSE("", "x"), EINVAL, "the command name is empty", "");
}

Test(cli, empty_command_after_double_dash_is_refused)
{
	EXPECT_USAGE(PARSE("--", ""), EINVAL, "the command name is empty", "");
}

Test(cli, empty_argument_of_the_command_is_kept)
{
	cr_assert(eq(int, PARSE("echo", ""), 0));
	cr_expect(eq(int, cfg.cmd_argc, 2));
	cr_expect(eq(str, cfg.cmd_argv[1], ""));
}

Test(cli, reparsing_starts_from_a_clean_config)
{
	cr_assert(eq(int, PARSE("--ro", "a", "--env", "X", "--share-net", "ls"), 0));
	cr_assert(eq(int, PARSE("--rw", "b", "true"), 0));
	/* getopt's state and the config were both reset. */
	cr_expect(eq(sz, cfg.n_mounts, 1));
	cr_expect(eq(int, cfg.mounts[0].kind, NSB_MOUNT_RW));
	cr_expect(eq(str, cfg.mounts[0].src, "b"));
	cr_expect(eq(sz, cfg.n_env, 0));
	cr_expect(eq(int, cfg.share_net, false));
	cr_expect(eq(str, cfg.cmd_argv[0], "true"));
}

/* ---- --ro / --rw ------------------------------------------------------- */

Test(cli, ro_without_dest)
{
	cr_assert(eq(int, PARSE("--ro", "input", "ls"), 0));
	cr_assert(eq(sz, cfg.n_mounts, 1));
	struct nsb_mount_arg *m = &cfg.mounts[0];
	cr_expect(eq(int, m->kind, NSB_MOUNT_RO));
	cr_expect(eq(str, m->src, "input"));
	cr_expect(eq(sz, m->src_len, 5));
	cr_expect(eq(ptr, m->dest, NULL));
	cr_expect(eq(u64, m->size, 0));
	/* The index of the argument that holds the value. */
	cr_expect(eq(int, m->argv_index, 2));
}

Test(cli, rw_without_dest)
{
	cr_assert(eq(int, PARSE("--rw", "out", "ls"), 0));
	cr_assert(eq(sz, cfg.n_mounts, 1));
	cr_expect(eq(int, cfg.mounts[0].kind, NSB_MOUNT_RW));
	cr_expect(eq(str, cfg.mounts[0].src, "out"));
	cr_expect(eq(sz, cfg.mounts[0].src_len, 3));
	cr_expect(eq(ptr, cfg.mounts[0].dest, NULL));
}

Test(cli, ro_with_dest)
{
	cr_assert(eq(int, PARSE("--ro", "input:/data/in", "ls"), 0));
	struct nsb_mount_arg *m = &cfg.mounts[0];
	cr_expect(eq(int, m->kind, NSB_MOUNT_RO));
	/* src points at the whole argument; src_len cuts it at ':'. */
	cr_expect(eq(str, m->src, "input:/data/in"));
	cr_expect(eq(sz, m->src_len, 5));
	cr_expect(eq(str, m->dest, "/data/in"));
}

Test(cli, rw_with_dest)
{
	cr_assert(eq(int, PARSE("--rw", "/var/out:/out", "ls"), 0));
	struct nsb_mount_arg *m = &cfg.mounts[0];
	cr_expect(eq(int, m->kind, NSB_MOUNT_RW));
	cr_expect(eq(sz, m->src_len, 8));
	cr_expect(eq(int, strncmp(m->src, "/var/out", m->src_len), 0));
	cr_expect(eq(str, m->dest, "/out"));
}

Test(cli, bind_source_ends_at_first_colon)
{
	cr_assert(eq(int, PARSE("--ro", "a:/b:c", "ls"), 0));
	cr_expect(eq(sz, cfg.mounts[0].src_len, 1));
	cr_expect(eq(str, cfg.mounts[0].dest, "/b:c"));
}

Test(cli, equals_forms_of_bind_options)
{
	cr_assert(eq(int, PARSE("--ro=in", "--rw=out:/o", "ls"), 0));
	cr_assert(eq(sz, cfg.n_mounts, 2));
	cr_expect(eq(int, cfg.mounts[0].kind, NSB_MOUNT_RO));
	cr_expect(eq(str, cfg.mounts[0].src, "in"));
	cr_expect(eq(int, cfg.mounts[0].argv_index, 1));
	cr_expect(eq(int, cfg.mounts[1].kind, NSB_MOUNT_RW));
	cr_expect(eq(sz, cfg.mounts[1].src_len, 3));
	cr_expect(eq(str, cfg.mounts[1].dest, "/o"));
	cr_expect(eq(int, cfg.mounts[1].argv_index, 2));
	cr_expect(eq(str, cfg.cmd_argv[0], "ls"));
}

Test(cli, mounts_keep_command_line_order)
{
	cr_assert(eq(int, PARSE("--rw", "b", "--tmpfs", "/t", "--ro", "a", "ls"), 0));
	cr_assert(eq(sz, cfg.n_mounts, 3));
	cr_expect(eq(int, cfg.mounts[0].kind, NSB_MOUNT_RW));
	cr_expect(eq(int, cfg.mounts[1].kind, NSB_MOUNT_TMPFS));
	cr_expect(eq(int, cfg.mounts[2].kind, NSB_MOUNT_RO));
	cr_expect(eq(int, cfg.mounts[0].argv_index, 2));
	cr_expect(eq(int, cfg.mounts[1].argv_index, 4));
	cr_expect(eq(int, cfg.mounts[2].argv_index, 6));
}

Test(cli, bind_empty_source_is_refused)
{
	EXPECT_USAGE(PARSE("--ro", ":/data", "ls"), EINVAL, "--ro ':/data': empty source path", "");
}

Test(cli, bind_empty_argument_is_refused)
{
	EXPECT_USAGE(PARSE("--rw", "", "ls"), EINVAL, "--rw '': empty source path", "");
}

Test(cli, bind_equals_empty_is_refused)
{
	EXPECT_USAGE(PARSE("--ro=", "ls"), EINVAL, "--ro '': empty source path", "");
}

Test(cli, bind_empty_dest_after_colon_is_refused)
{
	EXPECT_USAGE(PARSE("--ro", "in:", "ls"), EINVAL, "--ro 'in:': empty destination after ':'",
		     "");
}

Test(cli, bind_relative_dest_is_refused)
{
	EXPECT_USAGE(PARSE("--ro", "in:data", "ls"), EINVAL,
		     "--ro: destination 'data' is not an absolute path", HINT_DEST);
}

Test(cli, rw_relative_dest_is_refused)
{
	EXPECT_USAGE(PARSE("--rw", "in:./data", "ls"), EINVAL,
		     "--rw: destination './data' is not an absolute path", HINT_DEST);
}

struct dest_case {
	char dest[24];
};

ParameterizedTestParameters(cli, bind_unnormalized_dest_is_refused)
{
	static struct dest_case cases[] = {
		{"/data/"},  {"//data"}, {"/a//b"}, {"/a/./b"},
		{"/a/../b"}, {"/a/.."},	 {"/."},    {"/.."},
	};
	return cr_make_param_array(struct dest_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct dest_case *c, cli, bind_unnormalized_dest_is_refused)
{
	char arg[64], msg[128];

	snprintf(arg, sizeof(arg), "in:%s", c->dest);
	snprintf(msg, sizeof(msg), "--rw: destination '%s' is not a normalized path", c->dest);
	EXPECT_USAGE(PARSE("--rw", arg, "ls"), EINVAL, msg, HINT_NORM);
}

ParameterizedTestParameters(cli, reserved_dest_is_refused)
{
	static struct dest_case cases[] = {
		{"/"},	  {"/proc"},	{"/proc/sys"},	{"/proc/1/root"},
		{"/dev"}, {"/dev/shm"}, {"/dev/pts/0"},
	};
	return cr_make_param_array(struct dest_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct dest_case *c, cli, reserved_dest_is_refused)
{
	char arg[64], msg[128];

	snprintf(arg, sizeof(arg), "in:%s", c->dest);
	snprintf(msg, sizeof(msg), "--ro: destination '%s' is reserved by nsbox", c->dest);
	EXPECT_USAGE(PARSE("--ro", arg, "ls"), EINVAL, msg, HINT_RSVD);

	/* The same rule for --tmpfs. */
	snprintf(arg, sizeof(arg), "%s:1M", c->dest);
	snprintf(msg, sizeof(msg), "--tmpfs: destination '%s' is reserved by nsbox", c->dest);
	EXPECT_USAGE(PARSE("--tmpfs", arg, "ls"), EINVAL, msg, HINT_RSVD);
}

ParameterizedTestParameters(cli, lookalikes_of_reserved_dests_are_allowed)
{
	static struct dest_case cases[] = {
		{"/devices"},	{"/dev2"},     {"/procfs"},
		{"/data/proc"}, {"/data/dev"}, {"/usr/local/x"},
	};
	return cr_make_param_array(struct dest_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct dest_case *c, cli, lookalikes_of_reserved_dests_are_allowed)
{
	char arg[64];

	snprintf(arg, sizeof(arg), "in:%s", c->dest);
	cr_assert(eq(int, PARSE("--ro", arg, "ls"), 0), "dest %s", c->dest);
	cr_expect(eq(str, cfg.mounts[0].dest, c->dest));
}

Test(cli, bind_source_at_path_max_is_accepted)
{
	char *src = repeat("", 'a', NSB_MAX_PATH);

	cr_assert(eq(int, PARSE("--ro", src, "ls"), 0));
	cr_expect(eq(sz, cfg.mounts[0].src_len, 4095));
	free(src);
}

Test(cli, bind_source_past_path_max_is_refused)
{
	char *src = repeat("", 'a', NSB_MAX_PATH + 1);

	EXPECT_USAGE(PARSE("--ro", src, "ls"), ENAMETOOLONG,
		     "--ro: source path is longer than 4095 bytes", "");
	free(src);
}

Test(cli, bind_dest_at_path_max_is_accepted)
{
	char *arg = repeat("in:/", 'd', NSB_MAX_PATH - 1);

	cr_assert(eq(int, PARSE("--rw", arg, "ls"), 0));
	cr_expect(eq(sz, strlen(cfg.mounts[0].dest), 4095));
	free(arg);
}

Test(cli, bind_dest_past_path_max_is_refused)
{
	char *arg = repeat("in:/", 'd', NSB_MAX_PATH);

	EXPECT_USAGE(PARSE("--rw", arg, "ls"), ENAMETOOLONG,
		     "--rw: destination is longer than 4095 bytes", "");
	free(arg);
}

/* ---- --tmpfs ----------------------------------------------------------- */

Test(cli, tmpfs_without_size_gets_default)
{
	cr_assert(eq(int, PARSE("--tmpfs", "/scratch", "ls"), 0));
	struct nsb_mount_arg *m = &cfg.mounts[0];
	cr_expect(eq(int, m->kind, NSB_MOUNT_TMPFS));
	cr_expect(eq(ptr, m->src, NULL));
	cr_expect(eq(str, m->dest, "/scratch"));
	/* The destination is a copy, cut before any ':'. */
	cr_expect(eq(ptr, m->dest, m->dest_buf));
	cr_expect(eq(u64, m->size, 64ull << 20));
	cr_expect(eq(int, m->argv_index, 2));
}

Test(cli, tmpfs_equals_form)
{
	cr_assert(eq(int, PARSE("--tmpfs=/t:1M", "ls"), 0));
	cr_expect(eq(str, cfg.mounts[0].dest_buf, "/t"));
	cr_expect(eq(u64, cfg.mounts[0].size, 1ull << 20));
	cr_expect(eq(int, cfg.mounts[0].argv_index, 1));
}

Test(cli, tmpfs_size_is_after_last_colon)
{
	cr_assert(eq(int, PARSE("--tmpfs", "/a:b:2k", "ls"), 0));
	cr_expect(eq(str, cfg.mounts[0].dest_buf, "/a:b"));
	cr_expect(eq(u64, cfg.mounts[0].size, 2048));
}

struct size_case {
	char size[24];
	uint64_t bytes;
};

ParameterizedTestParameters(cli, tmpfs_size_suffixes)
{
	static struct size_case cases[] = {
		{"1", 1},
		{"4096", 4096},
		{"100B", 100},
		{"1k", 1024},
		{"1K", 1024},
		{"4kB", 4096},
		{"4KiB", 4096},
		{"3m", 3ull << 20},
		{"3M", 3ull << 20},
		{"3MB", 3ull << 20},
		{"3MiB", 3ull << 20},
		{"2g", 2ull << 30},
		{"2G", 2ull << 30},
		{"2GiB", 2ull << 30},
		{"64G", 64ull << 30},
		{"68719476736", 64ull << 30},
		{"65536M", 64ull << 30},
	};
	return cr_make_param_array(struct size_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct size_case *c, cli, tmpfs_size_suffixes)
{
	char arg[48];

	snprintf(arg, sizeof(arg), "/t:%s", c->size);
	cr_assert(eq(int, PARSE("--tmpfs", arg, "ls"), 0), "size %s", c->size);
	cr_expect(eq(u64, cfg.mounts[0].size, c->bytes), "size %s", c->size);
}

ParameterizedTestParameters(cli, tmpfs_invalid_size_is_refused)
{
	static struct size_case cases[] = {
		{""},
		{"0"},
		{"0M"},
		{"0T"},
		{"65G"},
		{"68719476737"},
		{"1T"},
		{"x"},
		{"-1M"},
		{"1.5M"},
		{"1 M"},
		{"M"},
		{"1MiBB"},
		{"1iB"},
		{"1P"},
		{"0x10"},
		{"99999999999999999999999"},
	};
	return cr_make_param_array(struct size_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct size_case *c, cli, tmpfs_invalid_size_is_refused)
{
	char arg[48], msg[96];

	snprintf(arg, sizeof(arg), "/t:%s", c->size);
	snprintf(msg, sizeof(msg), "--tmpfs: invalid size '%s'", c->size);
	EXPECT_USAGE(PARSE("--tmpfs", arg, "ls"), EINVAL, msg, HINT_SIZE);
	cr_expect(eq(sz, cfg.n_mounts, 0));
}

Test(cli, tmpfs_empty_dest_is_refused)
{
	EXPECT_USAGE(PARSE("--tmpfs", ":1M", "ls"), EINVAL, "--tmpfs: empty destination", "");
	EXPECT_USAGE(PARSE("--tmpfs", "", "ls"), EINVAL, "--tmpfs: empty destination", "");
}

Test(cli, tmpfs_relative_dest_is_refused)
{
	EXPECT_USAGE(PARSE("--tmpfs", "scratch:1M", "ls"), EINVAL,
		     "--tmpfs: destination 'scratch' is not an absolute path", HINT_DEST);
}

Test(cli, tmpfs_unnormalized_dest_is_refused)
{
	EXPECT_USAGE(PARSE("--tmpfs", "/scratch/", "ls"), EINVAL,
		     "--tmpfs: destination '/scratch/' is not a normalized path", HINT_NORM);
}

Test(cli, tmpfs_dest_at_path_max_is_accepted)
{
	char *arg = repeat("/", 't', NSB_MAX_PATH - 1);

	cr_assert(eq(int, PARSE("--tmpfs", arg, "ls"), 0));
	cr_expect(eq(sz, strlen(cfg.mounts[0].dest_buf), 4095));
	free(arg);
}

Test(cli, tmpfs_dest_past_path_max_is_refused)
{
	char *arg = repeat("/", 't', NSB_MAX_PATH);

	EXPECT_USAGE(PARSE("--tmpfs", arg, "ls"), ENAMETOOLONG,
		     "--tmpfs: destination is longer than 4095 bytes", "");
	free(arg);
}

/* Free the values between argv[1] and the final "ls" made by *_argv(). */
static void free_pairs(char **argv, int argc)
{
	for (int i = 2; i < argc - 1; i += 2)
		free(argv[i]);
	free(argv);
}

/* ---- mount count limit ------------------------------------------------- */

/* argv: nsbox, then n mount options (each "--opt" "value"), then "ls". */
static char **mount_argv(int n, int *ret_argc)
{
	static char *const opts[] = {"--ro", "--rw", "--tmpfs"};
	int argc = 1 + 2 * n + 1;
	char **argv = calloc((size_t)argc + 1, sizeof(*argv));

	cr_assert_not_null(argv);
	argv[0] = "nsbox";
	for (int i = 0; i < n; i++) {
		char *v;
		cr_assert(asprintf(&v, "/m%d", i) > 0);
		argv[1 + 2 * i] = opts[i % 3];
		argv[2 + 2 * i] = v;
	}
	argv[argc - 1] = "ls";
	*ret_argc = argc;
	return argv;
}

Test(cli, mounts_at_limit_are_accepted)
{
	int argc;
	char **argv = mount_argv(NSB_MAX_MOUNTS, &argc);

	cr_assert(eq(int, parse_v(argc, argv), 0));
	cr_expect(eq(sz, cfg.n_mounts, 4096));
	cr_expect(eq(int, cfg.mounts[4095].kind, NSB_MOUNT_RO)); /* 4095 % 3 == 0 */
	cr_expect(eq(str, cfg.mounts[4095].src, "/m4095"));
	cr_expect(eq(int, cfg.mounts[4094].kind, NSB_MOUNT_TMPFS));
	cr_expect(eq(str, cfg.mounts[4094].dest_buf, "/m4094"));
	cr_expect(eq(int, cfg.mounts[4093].kind, NSB_MOUNT_RW));
	cr_expect(eq(str, cfg.mounts[4093].src, "/m4093"));
	cr_expect(eq(str, cfg.cmd_argv[0], "ls"));
	free_pairs(argv, argc);
}

Test(cli, mounts_past_limit_are_refused)
{
	int argc;
	char **argv = mount_argv(NSB_MAX_MOUNTS + 1, &argc);

	/* The 4097th is mount index 4096: 4096 % 3 == 1, a --rw. */
	EXPECT_USAGE(
		parse_v(argc, argv), E2BIG,
		"--rw '/m4096': too many mounts (at most 4096 --ro, --rw and --tmpfs in total)",
		"merge binds: bind a common parent directory instead");
	cr_expect(eq(sz, cfg.n_mounts, 4096));
	free_pairs(argv, argc);
}

/* ---- argv limits ------------------------------------------------------- */

/* nsbox, ls, and one argument sized so that all of argv is total bytes. */
static void parse_argv_of_bytes(size_t total)
{
	size_t fixed = sizeof("nsbox") + sizeof("ls") + 1; /* NULs included */
	char *big = repeat("", 'x', total - fixed);
	char *argv[] = {"nsbox", "ls", big, NULL};
	int r = parse_v(3, argv);

	if (total <= NSB_MAX_ARGV_BYTES) {
		cr_assert(eq(int, r, 0), "total %zu", total);
		cr_expect(eq(int, cfg.cmd_argc, 2));
		cr_expect(eq(sz, strlen(cfg.cmd_argv[1]), total - fixed));
	} else {
		EXPECT_USAGE(r, E2BIG, "arguments too large (more than 1048576 bytes)", HINT_LARGE);
	}
	free(big);
}

Test(cli, argv_bytes_at_limit_are_accepted)
{
	parse_argv_of_bytes(NSB_MAX_ARGV_BYTES);
}

Test(cli, argv_bytes_one_past_limit_are_refused)
{
	parse_argv_of_bytes(NSB_MAX_ARGV_BYTES + 1);
}

Test(cli, argv_bytes_count_before_options_are_read)
{
	/* Nothing is parsed when argv is too large, but --result-fd is still
	 * found so the usage_error record reaches the caller. */
	char *big = repeat("", 'x', NSB_MAX_ARGV_BYTES);
	char *argv[] = {"nsbox", "--result-fd", "3", "ls", big, NULL};

	EXPECT_USAGE(parse_v(5, argv), E2BIG, "arguments too large (more than 1048576 bytes)",
		     HINT_LARGE);
	cr_expect(eq(int, cfg.result_fd, 3));
	free(big);
}

static char **many_args(int argc)
{
	char **argv = calloc((size_t)argc + 1, sizeof(*argv));

	cr_assert_not_null(argv);
	argv[0] = "nsbox";
	argv[1] = "true";
	for (int i = 2; i < argc; i++)
		argv[i] = "a";
	return argv;
}

Test(cli, args_at_limit_are_accepted)
{
	char **argv = many_args(NSB_MAX_ARGS);

	cr_assert(eq(int, parse_v(NSB_MAX_ARGS, argv), 0));
	cr_expect(eq(int, cfg.cmd_argc, NSB_MAX_ARGS - 1));
	free(argv);
}

Test(cli, args_past_limit_are_refused)
{
	char **argv = many_args(NSB_MAX_ARGS + 1);

	EXPECT_USAGE(parse_v(NSB_MAX_ARGS + 1, argv), E2BIG,
		     "too many arguments (16385; at most 16384)", HINT_LARGE);
	free(argv);
}

/* ---- --project, --no-project, --chdir ---------------------------------- */

Test(cli, project_is_taken_as_given)
{
	cr_assert(eq(int, PARSE("--project", "../src", "ls"), 0));
	cr_expect(eq(str, cfg.project, "../src"));
	cr_expect(eq(int, cfg.no_project, false));
}

Test(cli, project_equals_form)
{
	cr_assert(eq(int, PARSE("--project=/srv/p", "ls"), 0));
	cr_expect(eq(str, cfg.project, "/srv/p"));
}

Test(cli, project_empty_is_refused)
{
	EXPECT_USAGE(PARSE("--project", "", "ls"), EINVAL, "--project: empty path", "");
}

Test(cli, project_at_path_max_is_accepted)
{
	char *p = repeat("/", 'p', NSB_MAX_PATH - 1);

	cr_assert(eq(int, PARSE("--project", p, "ls"), 0));
	cr_expect(eq(sz, strlen(cfg.project), 4095));
	free(p);
}

Test(cli, project_past_path_max_is_refused)
{
	char *p = repeat("/", 'p', NSB_MAX_PATH);

	EXPECT_USAGE(PARSE("--project", p, "ls"), ENAMETOOLONG,
		     "--project: path is longer than 4095 bytes", "");
	free(p);
}

Test(cli, no_project)
{
	cr_assert(eq(int, PARSE("--no-project", "ls"), 0));
	cr_expect(eq(int, cfg.no_project, true));
	cr_expect(eq(ptr, cfg.project, NULL));
}

Test(cli, project_with_no_project_is_refused)
{
	EXPECT_USAGE(PARSE("--project", "/p", "--no-project", "ls"), EINVAL,
		     "--project and --no-project cannot be combined", "");
}

Test(cli, no_project_with_project_is_refused)
{
	EXPECT_USAGE(PARSE("--no-project", "--project=/p", "ls"), EINVAL,
		     "--project and --no-project cannot be combined", "");
}

Test(cli, chdir_is_kept)
{
	cr_assert(eq(int, PARSE("--chdir", "/work/sub", "ls"), 0));
	cr_expect(eq(str, cfg.chdir, "/work/sub"));
	cr_assert(eq(int, PARSE("--chdir=/", "ls"), 0));
	cr_expect(eq(str, cfg.chdir, "/"));
}

ParameterizedTestParameters(cli, chdir_unnormalized_is_refused)
{
	static struct dest_case cases[] = {
		{""}, {"work"}, {"./work"}, {"/work/"}, {"/a//b"}, {"/a/./b"}, {"/a/../b"}, {"/.."},
	};
	return cr_make_param_array(struct dest_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct dest_case *c, cli, chdir_unnormalized_is_refused)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "--chdir '%s': not a normalized absolute path", c->dest);
	EXPECT_USAGE(PARSE("--chdir", c->dest, "ls"), EINVAL, msg, HINT_CHDIR);
}

Test(cli, chdir_past_path_max_is_refused)
{
	char *p = repeat("/", 'c', NSB_MAX_PATH);

	cr_assert(eq(int, PARSE("--chdir", p, "ls"), -EINVAL));
	cr_expect(eq(str, nsb_stage_name(err.stage), "usage"));
	/* The message quotes the path, cut to the message buffer. */
	cr_expect(eq(int, strncmp(err.message, "--chdir '/ccc", 13), 0));
	cr_expect(eq(sz, strlen(err.message), NSB_ERR_MESSAGE_MAX - 1));
	cr_expect(eq(str, err.hint, HINT_CHDIR));
	free(p);
}

Test(cli, chdir_at_path_max_is_accepted)
{
	char *p = repeat("/", 'c', NSB_MAX_PATH - 1);

	cr_assert(eq(int, PARSE("--chdir", p, "ls"), 0));
	cr_expect(eq(sz, strlen(cfg.chdir), 4095));
	free(p);
}

/* ---- --env ------------------------------------------------------------- */

Test(cli, env_name_and_name_value)
{
	cr_assert(eq(
		int,
		PARSE("--env", "TOKEN", "--env", "MODE=fast", "--env=_x1=", "--env", "A=b=c", "ls"),
		0));
	cr_assert(eq(sz, cfg.n_env, 4));
	cr_expect(eq(str, cfg.env[0], "TOKEN"));
	cr_expect(eq(str, cfg.env[1], "MODE=fast"));
	cr_expect(eq(str, cfg.env[2], "_x1="));
	cr_expect(eq(str, cfg.env[3], "A=b=c"));
}

Test(cli, env_name_of_255_bytes_is_accepted)
{
	char *name = repeat("", 'N', 255);

	cr_assert(eq(int, PARSE("--env", name, "ls"), 0));
	cr_expect(eq(sz, cfg.n_env, 1));
	free(name);
}

struct env_case {
	char arg[32];
};

ParameterizedTestParameters(cli, env_invalid_name_is_refused)
{
	static struct env_case cases[] = {
		{""},	 {"=x"},       {"1A"}, {"9=1"}, {"A-B"},  {"A B=1"},
		{"A.B"}, {"\xc3\x84"}, {"A$"}, {"-A"},	{"A\tB"},
	};
	return cr_make_param_array(struct env_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct env_case *c, cli, env_invalid_name_is_refused)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "--env '%s': invalid variable name", c->arg);
	EXPECT_USAGE(PARSE("--env", c->arg, "ls"), EINVAL, msg, HINT_ENV);
	cr_expect(eq(sz, cfg.n_env, 0));
}

Test(cli, env_name_of_256_bytes_is_refused)
{
	char *name = repeat("", 'N', 256);
	char msg[512];

	snprintf(msg, sizeof(msg), "--env '%s': invalid variable name", name);
	EXPECT_USAGE(PARSE("--env", name, "ls"), EINVAL, msg, HINT_ENV);
	free(name);
}

static char **env_argv(int n, int *ret_argc)
{
	int argc = 1 + 2 * n + 1;
	char **argv = calloc((size_t)argc + 1, sizeof(*argv));

	cr_assert_not_null(argv);
	argv[0] = "nsbox";
	for (int i = 0; i < n; i++) {
		char *v;
		cr_assert(asprintf(&v, "V%d=%d", i, i) > 0);
		argv[1 + 2 * i] = "--env";
		argv[2 + 2 * i] = v;
	}
	argv[argc - 1] = "ls";
	*ret_argc = argc;
	return argv;
}

Test(cli, env_at_limit_is_accepted)
{
	int argc;
	char **argv = env_argv(NSB_MAX_ENV, &argc);

	cr_assert(eq(int, parse_v(argc, argv), 0));
	cr_expect(eq(sz, cfg.n_env, 128));
	cr_expect(eq(str, cfg.env[127], "V127=127"));
	free_pairs(argv, argc);
}

Test(cli, env_past_limit_is_refused)
{
	int argc;
	char **argv = env_argv(NSB_MAX_ENV + 1, &argc);

	EXPECT_USAGE(parse_v(argc, argv), E2BIG,
		     "--env 'V128=128': too many --env options (at most 128)", "");
	cr_expect(eq(sz, cfg.n_env, 128));
	free_pairs(argv, argc);
}

/* ---- --hostname, --share-net ------------------------------------------- */

Test(cli, hostname_is_kept)
{
	cr_assert(eq(int, PARSE("--hostname", "build-01.ci", "ls"), 0));
	cr_expect(eq(str, cfg.hostname, "build-01.ci"));
	cr_assert(eq(int, PARSE("--hostname=a", "ls"), 0));
	cr_expect(eq(str, cfg.hostname, "a"));
}

Test(cli, hostname_of_64_bytes_is_accepted)
{
	char *h = repeat("", 'h', 64);

	cr_assert(eq(int, PARSE("--hostname", h, "ls"), 0));
	cr_expect(eq(sz, strlen(cfg.hostname), 64));
	free(h);
}

Test(cli, hostname_of_65_bytes_is_refused)
{
	char *h = repeat("", 'h', 65);
	char msg[128];

	snprintf(msg, sizeof(msg), "--hostname '%s': invalid hostname", h);
	EXPECT_USAGE(PARSE("--hostname", h, "ls"), EINVAL, msg, HINT_HOST);
	cr_expect(eq(ptr, cfg.hostname, NULL));
	free(h);
}

ParameterizedTestParameters(cli, hostname_invalid_is_refused)
{
	static struct env_case cases[] = {
		{""},	    {"-box"},  {".box"},       {"my_box"},
		{"my box"}, {"box/1"}, {"b\xc3\xb6x"}, {"box\n"},
	};
	return cr_make_param_array(struct env_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct env_case *c, cli, hostname_invalid_is_refused)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "--hostname '%s': invalid hostname", c->arg);
	EXPECT_USAGE(PARSE("--hostname", c->arg, "ls"), EINVAL, msg, HINT_HOST);
}

Test(cli, share_net)
{
	cr_assert(eq(int, PARSE("--share-net", "ls"), 0));
	cr_expect(eq(int, cfg.share_net, true));
}

/* ---- --result-fd ------------------------------------------------------- */

Test(cli, result_fd_is_kept)
{
	cr_assert(eq(int, PARSE("--result-fd", "3", "ls"), 0));
	cr_expect(eq(int, cfg.result_fd, 3));
	cr_assert(eq(int, PARSE("--result-fd=42", "ls"), 0));
	cr_expect(eq(int, cfg.result_fd, 42));
	cr_assert(eq(int, PARSE("--result-fd", "2147483647", "ls"), 0));
	cr_expect(eq(int, cfg.result_fd, INT_MAX));
}

Test(cli, result_fd_last_one_wins)
{
	cr_assert(eq(int, PARSE("--result-fd", "3", "--result-fd", "4", "ls"), 0));
	cr_expect(eq(int, cfg.result_fd, 4));
}

ParameterizedTestParameters(cli, result_fd_standard_streams_are_refused)
{
	static struct env_case cases[] = {{"0"}, {"1"}, {"2"}, {"00"}};
	return cr_make_param_array(struct env_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct env_case *c, cli, result_fd_standard_streams_are_refused)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "--result-fd %s: descriptors 0-2 belong to the command", c->arg);
	EXPECT_USAGE(PARSE("--result-fd", c->arg, "ls"), EINVAL, msg, HINT_FD);
	cr_expect(eq(int, cfg.result_fd, -1));
}

ParameterizedTestParameters(cli, result_fd_not_a_number_is_refused)
{
	static struct env_case cases[] = {
		{""},	 {"x"},		 {"3x"},
		{"-1"},	 {"+3"},	 {" 3"},
		{"0x3"}, {"2147483648"}, {"99999999999999999999"},
	};
	return cr_make_param_array(struct env_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct env_case *c, cli, result_fd_not_a_number_is_refused)
{
	char msg[96];

	snprintf(msg, sizeof(msg), "--result-fd '%s': not a file descriptor number", c->arg);
	EXPECT_USAGE(PARSE("--result-fd", c->arg, "ls"), EINVAL, msg, "");
	cr_expect(eq(int, cfg.result_fd, -1));
}

/* main writes a usage_error record when the fd was known before the error. */
Test(cli, result_fd_stays_set_when_later_option_fails)
{
	EXPECT_USAGE(PARSE("--result-fd", "7", "--hostname", "-bad", "ls"), EINVAL,
		     "--hostname '-bad': invalid hostname", HINT_HOST);
	cr_expect(eq(int, cfg.result_fd, 7));
}

Test(cli, result_fd_stays_set_on_unknown_option)
{
	EXPECT_USAGE(PARSE("--result-fd=9", "--bogus", "ls"), EINVAL, "unknown option '--bogus'",
		     HINT_HELP);
	cr_expect(eq(int, cfg.result_fd, 9));
}

Test(cli, result_fd_stays_set_when_command_is_missing)
{
	EXPECT_USAGE(PARSE("--result-fd", "5"), EINVAL, "no command given",
		     "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]");
	cr_expect(eq(int, cfg.result_fd, 5));
}

Test(cli, result_fd_stays_set_on_conflicting_project)
{
	EXPECT_USAGE(PARSE("--result-fd", "5", "--no-project", "--project", "/p", "ls"), EINVAL,
		     "--project and --no-project cannot be combined", "");
	cr_expect(eq(int, cfg.result_fd, 5));
}

Test(cli, result_fd_after_the_error_is_still_found)
{
	EXPECT_USAGE(PARSE("--bogus", "--result-fd", "7", "ls"), EINVAL, "unknown option '--bogus'",
		     HINT_HELP);
	cr_expect(eq(int, cfg.result_fd, 7));
	EXPECT_USAGE(PARSE("--bogus", "--result-fd=8", "ls"), EINVAL, "unknown option '--bogus'",
		     HINT_HELP);
	cr_expect(eq(int, cfg.result_fd, 8));
}

Test(cli, result_fd_scan_skips_option_values_and_stops_at_the_command)
{
	/* "--result-fd" as the value of --hostname is not the option... */
	EXPECT_USAGE(PARSE("--hostname", "--result-fd", "--bogus", "ls"), EINVAL,
		     "--hostname '--result-fd': invalid hostname",
		     "use 1-64 letters, digits, '-' and '.'");
	cr_expect(eq(int, cfg.result_fd, -1));
	/* ...nor is the command's own option. */
	EXPECT_USAGE(PARSE("--ro", "", "ls", "--result-fd", "9"), EINVAL,
		     "--ro '': empty source path", "");
	cr_expect(eq(int, cfg.result_fd, -1));
}

Test(cli, abbreviated_options_are_refused)
{
	EXPECT_USAGE(PARSE("--share", "ls"), EINVAL,
		     "option '--share' is abbreviated (did you mean '--share-net'?)",
		     "spell options out in full");
	EXPECT_USAGE(PARSE("--host", "x", "ls"), EINVAL,
		     "option '--host' is abbreviated (did you mean '--hostname'?)",
		     "spell options out in full");
	EXPECT_USAGE(PARSE("--result=3", "ls"), EINVAL,
		     "option '--result=3' is abbreviated (did you mean '--result-fd'?)",
		     "spell options out in full");
}

/* ---- --help, --version ------------------------------------------------- */

Test(cli, help_needs_no_command)
{
	cr_assert(eq(int, PARSE("--help"), 0));
	cr_expect(eq(int, cfg.help, true));
	cr_expect(eq(int, cfg.version, false));
	cr_expect(eq(int, cfg.cmd_argc, 0));
}

Test(cli, version_needs_no_command)
{
	cr_assert(eq(int, PARSE("--version"), 0));
	cr_expect(eq(int, cfg.version, true));
	cr_expect(eq(int, cfg.help, false));
}

Test(cli, help_stops_parsing)
{
	/* Whatever follows --help is not looked at. */
	cr_assert(eq(int, PARSE("--ro", "a", "--help", "--bogus", "--ro"), 0));
	cr_expect(eq(int, cfg.help, true));
	cr_expect(eq(sz, cfg.n_mounts, 1));
}

Test(cli, error_before_help_wins)
{
	EXPECT_USAGE(PARSE("--bogus", "--help"), EINVAL, "unknown option '--bogus'", HINT_HELP);
	cr_expect(eq(int, cfg.help, false));
}

Test(cli, help_after_the_command_belongs_to_it)
{
	cr_assert(eq(int, PARSE("ls", "--help"), 0));
	cr_expect(eq(int, cfg.help, false));
	cr_expect(eq(int, cfg.cmd_argc, 2));
}

Test(cli, usage_names_every_option)
{
	static const char *const opts[] = {
		"--ro PATH[:DEST]",   "--rw PATH[:DEST]", "--tmpfs DEST[:SIZE]",
		"--project DIR",      "--no-project",	  "--chdir DIR",
		"--env NAME[=VALUE]", "--hostname NAME",  "--share-net",
		"--result-fd FD",     "--help",		  "--version",
	};

	cr_expect(eq(int,
		     strncmp(nsb_cli_usage, "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]\n", 45),
		     0));
	for (size_t i = 0; i < ARRAY_LEN(opts); i++)
		cr_expect(not(eq(ptr, strstr(nsb_cli_usage, opts[i]), NULL)), "usage lacks %s",
			  opts[i]);
}

/* ---- unknown options and missing values -------------------------------- */

Test(cli, unknown_long_option_is_refused)
{
	EXPECT_USAGE(PARSE("--bogus", "ls"), EINVAL, "unknown option '--bogus'", HINT_HELP);
}

Test(cli, unknown_long_option_with_value_is_refused)
{
	EXPECT_USAGE(PARSE("--bogus=1", "ls"), EINVAL, "unknown option '--bogus=1'", HINT_HELP);
}

Test(cli, unknown_short_option_is_refused)
{
	EXPECT_USAGE(PARSE("-x", "ls"), EINVAL, "unknown option '-x'", HINT_HELP);
}

Test(cli, unknown_short_option_cluster_names_the_option)
{
	/* Regression: this named the previous argument ('--share-net'). */
	EXPECT_USAGE(PARSE("--share-net", "-xy", "ls"), EINVAL, "unknown option '-x'", HINT_HELP);
	EXPECT_USAGE(PARSE("-vh", "ls"), EINVAL, "unknown option '-v'", HINT_HELP);
}

struct flag_case {
	char arg[24];
	char msg[48];
};

ParameterizedTestParameters(cli, flag_given_a_value_is_refused)
{
	static struct flag_case cases[] = {
		{"--share-net=1", "option '--share-net' takes no value"},
		{"--no-project=", "option '--no-project' takes no value"},
		{"--help=x", "option '--help' takes no value"},
		{"--version=2", "option '--version' takes no value"},
	};
	return cr_make_param_array(struct flag_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct flag_case *c, cli, flag_given_a_value_is_refused)
{
	EXPECT_USAGE(PARSE(c->arg, "ls"), EINVAL, c->msg, HINT_HELP);
}

ParameterizedTestParameters(cli, missing_value_is_refused)
{
	static struct env_case cases[] = {
		{"--ro"},    {"--rw"},	{"--tmpfs"},	{"--project"},
		{"--chdir"}, {"--env"}, {"--hostname"}, {"--result-fd"},
	};
	return cr_make_param_array(struct env_case, cases, ARRAY_LEN(cases));
}

ParameterizedTest(struct env_case *c, cli, missing_value_is_refused)
{
	char msg[64];
	char *argv[] = {"nsbox", c->arg, NULL};

	snprintf(msg, sizeof(msg), "option '%s' needs a value", c->arg);
	EXPECT_USAGE(parse_v(2, argv), EINVAL, msg, HINT_HELP);
}

Test(cli, option_value_may_look_like_an_option)
{
	/* A required value is taken as is, even when it starts with "--". */
	cr_assert(eq(int, PARSE("--env", "--share-net", "ls"), -EINVAL));
	cr_expect(eq(str, err.message, "--env '--share-net': invalid variable name"));
	cr_expect(eq(int, cfg.share_net, false));
}

/* ---- terminal ------------------------------------------------------------ */

Test(cli, pty_and_no_pty_last_one_wins)
{
	cr_assert(eq(int, PARSE("ls"), 0));
	cr_expect(eq(int, cfg.pty, NSB_PTY_AUTO));
	cr_assert(eq(int, PARSE("--pty", "ls"), 0));
	cr_expect(eq(int, cfg.pty, NSB_PTY_ON));
	cr_assert(eq(int, PARSE("--no-pty", "ls"), 0));
	cr_expect(eq(int, cfg.pty, NSB_PTY_OFF));
	cr_assert(eq(int, PARSE("--no-pty", "--pty", "ls"), 0));
	cr_expect(eq(int, cfg.pty, NSB_PTY_ON));
	cr_assert(eq(int, PARSE("--pty", "--no-pty", "ls"), 0));
	cr_expect(eq(int, cfg.pty, NSB_PTY_OFF));
	/* After the command it belongs to the command. */
	cr_assert(eq(int, PARSE("ls", "--pty"), 0));
	cr_expect(eq(int, cfg.pty, NSB_PTY_AUTO));
}

/* ---- the option table and --help ---------------------------------------- */

/*
 * The --help text as it was when the option table replaced the switch
 * (issue 10): byte for byte.  Change both together, on purpose.
 */
static const char usage_before_the_table[] =
	"usage: nsbox [OPTIONS] [--] COMMAND [ARG...]\n"
	"       nsbox doctor [--json]   what this host supports, and what to change\n"
	"\n"
	"Run COMMAND in fresh user, mount, PID, network, IPC, UTS and cgroup\n"
	"namespaces on an otherwise empty, read-only root.\n"
	"\n"
	"Filesystem:\n"
	"  --ro PATH[:DEST]      bind PATH read-only (at its own real path, or at DEST)\n"
	"  --rw PATH[:DEST]      bind PATH read-write\n"
	"  --tmpfs DEST[:SIZE]   mount an empty tmpfs at DEST (default size 64M)\n"
	"  --project DIR         project root, bound read-only and the working\n"
	"                        directory inside (default: the current directory)\n"
	"  --no-project          bind no project root; the working directory is /\n"
	"  --chdir DIR           working directory inside (absolute path)\n"
	"  --rw-git              let git commit in a protected .git (hooks and config\n"
	"                        stay read-only)\n"
	"  --no-protect          leave .git, .envrc, shell rc files, ... writable in --rw binds\n"
	"  --mask PATH|GLOB      cover PATH, or what GLOB matches in the binds, with an\n"
	"                        empty read-only file or directory (repeatable)\n"
	"  --no-mask             mask nothing, not even .env files and private keys\n"
	"  --overlay DIR[:DEST]  DIR writable; changes kept aside, listed in the record\n"
	"  --overlay-size SIZE   bound each overlay's upper layer (default 1G)\n"
	"  --overlay-mode MODE   discard (default), commit (on exit 0) or export:PATH\n"
	"  --overlay-commit-always  commit whatever the exit status\n"
	"  --overlay-store PATH  upper layers on disk under PATH, not in memory\n"
	"\n"
	"Environment and identity:\n"
	"  --env NAME[=VALUE]    pass NAME (the caller's value, or VALUE) inside\n"
	"  --hostname NAME       hostname inside (default: nsbox)\n"
	"  --share-net           keep the host network (default: only loopback)\n"
	"  --allow-net HOST[:PORT] reach HOST (a name, *.SUFFIX, an IP or an origin; ports\n"
	"                        80 and 443 by default) through a proxy on 127.0.0.1 inside\n"
	"  --deny-net HOST[:PORT] refuse HOST even where --allow-net lets it\n"
	"  --allow-net-range CIDR let allowed names reach private addresses in CIDR\n"
	"  --proxy-port PORT     the proxy's port inside (default 3128)\n"
	"\n"
	"Terminal:\n"
	"  --pty                 give the command a pseudo-terminal of its own (default\n"
	"                        when stdin and stdout are both terminals)\n"
	"  --no-pty              never allocate a pseudo-terminal\n"
	"\n"
	"Limits and lifetime:\n"
	"  --memory SIZE         memory limit (k/M/G/T suffixes; at least 1M)\n"
	"  --pids N|unlimited    at most N processes, nsbox's init included (default\n"
	"                        4096 where a pids cgroup or RLIMIT_NPROC can enforce it)\n"
	"  --cpus FRACTION       CPU time as a number of CPUs, e.g. 0.5 or 2 (cgroup v2 only)\n"
	"  --timeout SECONDS     SIGTERM at the deadline, then SIGKILL (fractions allowed)\n"
	"  --kill-after SECONDS  grace between SIGTERM and SIGKILL (default 2)\n"
	"  --max-output BYTES    pass at most BYTES per stream, count and drain the rest\n"
	"  --capture             put stdout and stderr into the record (default 1M each)\n"
	"  --tmp-size SIZE       size of /tmp and of /dev/shm (default 256M)\n"
	"  --cgroup-parent DIR   create the run's cgroup under DIR (a cgroup v2 directory)\n"
	"  --require-cgroup      fail instead of falling back to rlimits\n"
	"\n"
	"Front gate (checked before anything is created):\n"
	"  --deny-exec NAME      refuse the command NAME (also through wrappers)\n"
	"  --allow-exec NAME     lift NAME from the deny list\n"
	"  --allow-inline-code   let interpreters take code inline (-c, -e, ...)\n"
	"  --allow-metachar      let arguments contain shell metacharacters\n"
	"  --allow-path DIR      let path arguments resolve under DIR too\n"
	"  --policy FILE         read gate settings from FILE (nsbox-policy(5))\n"
	"  --print-policy        print the effective gate policy and exit\n"
	"  --check               dry run: print the plan and the verdict as JSON, run nothing\n"
	"  --approved ID         run a command an ask rule holds, approved as ID (--check)\n"
	"\n"
	"Hardening:\n"
	"  --seccomp NAME|PATH   seccomp profile (default: default; strict; none)\n"
	"  --seccomp-export FILE write the compiled BPF program to FILE (for bwrap --seccomp)\n"
	"  --print-profile NAME  print the text of the built-in profile NAME and exit\n"
	"  --seccomp-learn FILE  allow and count every syscall, then write a profile to FILE\n"
	"  --isolation MODE      namespaces (default); landlock: no namespaces, Landlock\n"
	"                        and seccomp only (weaker, see nsbox(1)); auto: landlock\n"
	"                        only where user namespaces are refused\n"
	"\n"
	"Reporting:\n"
	"  --result-fd FD        write the JSON result record to FD (FD >= 3)\n"
	"  --quiet               no summary line of refused syscalls on stderr\n"
	"  --request FILE|-      read the options and the command from one JSON document\n"
	"                        (nsbox(1), REQUEST DOCUMENT); only --result-fd,\n"
	"                        --check and --approved may be given with it\n"
	"  --request-fd N        the same, read from descriptor N\n"
	"  --help                show this help and exit\n"
	"  --version             show the version and exit\n"
	"\n"
	"Exit status: the command's own, 128+N if killed by signal N, 123 refused,\n"
	"124 timed out, 125 nsbox failed, 126 not executable, 127 not found.\n"
	"See nsbox(1).\n";

Test(cli, usage_is_unchanged)
{
	cr_expect(eq(str, nsb_cli_usage, usage_before_the_table));
}

/*
 * Every row of the option table has its line in --help, "  --name METAVAR"
 * followed by a space, in the table's order, and --help lists no other
 * option.
 */
Test(cli, usage_lists_the_option_table_in_order)
{
	const char *metavar, *name, *at = nsb_cli_usage;
	size_t rows = 0, listed = 0;

	for (size_t i = 0; (name = nsb_cli_option(i, &metavar)); i++) {
		char line[64];
		const char *hit;

		snprintf(line, sizeof(line), "\n  %s%s%s ", name, metavar ? " " : "",
			 metavar ? metavar : "");
		hit = strstr(at, line);
		cr_expect(hit != NULL, "usage lacks '%s' after the row before", line + 1);
		if (hit)
			at = hit + 1;
		rows++;
	}
	for (const char *p = nsb_cli_usage; (p = strstr(p, "\n  --")); p++)
		listed++;
	cr_expect(eq(sz, rows, listed));
	cr_expect(eq(sz, rows, 54));
}

/* ---- --isolation ------------------------------------------------------------ */

Test(cli, isolation_modes)
{
	static struct nsb_config c;
	char *av[] = {"nsbox", "--isolation", "landlock", "--", "true", NULL};

	cr_assert(eq(int, nsb_cli_parse(5, av, &c, &err), 0));
	cr_expect(eq(int, c.isolation, NSB_ISO_LANDLOCK));
	av[2] = "auto";
	cr_assert(eq(int, nsb_cli_parse(5, av, &c, &err), 0));
	cr_expect(eq(int, c.isolation, NSB_ISO_AUTO));
	av[2] = "namespaces";
	cr_assert(eq(int, nsb_cli_parse(5, av, &c, &err), 0));
	cr_expect(eq(int, c.isolation, NSB_ISO_NAMESPACES));
	char *def[] = {"nsbox", "true", NULL};
	cr_assert(eq(int, nsb_cli_parse(2, def, &c, &err), 0));
	cr_expect(eq(int, c.isolation, NSB_ISO_NAMESPACES));
	av[2] = "chroot";
	cr_expect(eq(int, nsb_cli_parse(5, av, &c, &err), -EINVAL));
	cr_expect(eq(str, err.message, "--isolation 'chroot': unknown isolation mode"));
	cr_expect(eq(str, err.hint, "MODE is namespaces, landlock or auto"));
}

/* The table's strings are arrays (no pointer, cli_options.h): C lets a
 * string of exactly an array's size in without its NUL, so each must have
 * one inside its array.  And each row's setter is one of the setters. */
Test(cli, every_option_row_is_terminated_and_has_a_setter)
{
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++) {
		const struct nsb_cli_option *o = &nsb_cli_options[i];
		bool ok = strnlen(o->name, sizeof(o->name)) < sizeof(o->name) &&
			  strnlen(o->metavar, sizeof(o->metavar)) < sizeof(o->metavar) &&
			  strnlen(o->what, sizeof(o->what)) < sizeof(o->what) &&
			  strnlen(o->hint, sizeof(o->hint)) < sizeof(o->hint);
		cr_expect(ok, "row %zu", i);
		cr_expect(eq(int, strncmp(o->name, "--", 2), 0), "row %zu", i);
	}
	/* A flag's metavar reads NULL, a value's its spelling. */
	const char *mv = "x";
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++) {
		const char *name = nsb_cli_option(i, &mv);
		if (strcmp(name, "--quiet") == 0)
			cr_expect(mv == NULL);
		if (strcmp(name, "--ro") == 0)
			cr_expect(eq(int, strcmp(mv, "PATH[:DEST]"), 0));
	}
}
