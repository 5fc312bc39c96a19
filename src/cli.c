// SPDX-License-Identifier: GPL-2.0-or-later
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <limits.h>
#include <string.h>

#include "cli.h"
#include "util.h"

const char nsb_cli_usage[] =
	"usage: nsbox [OPTIONS] [--] COMMAND [ARG...]\n"
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
	"\n"
	"Environment and identity:\n"
	"  --env NAME[=VALUE]    pass NAME (the caller's value, or VALUE) inside\n"
	"  --hostname NAME       hostname inside (default: nsbox)\n"
	"  --share-net           keep the host network (default: only loopback)\n"
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
	"\n"
	"Hardening:\n"
	"  --seccomp NAME|PATH   seccomp profile (default: default; strict; none)\n"
	"  --seccomp-export FILE write the compiled BPF program to FILE (for bwrap --seccomp)\n"
	"\n"
	"Reporting:\n"
	"  --result-fd FD        write the JSON result record to FD (FD >= 3)\n"
	"  --help                show this help and exit\n"
	"  --version             show the version and exit\n"
	"\n"
	"Exit status: the command's own, 128+N if killed by signal N, 123 refused,\n"
	"124 timed out, 125 nsbox failed, 126 not executable, 127 not found.\n"
	"See nsbox(1).\n";

enum {
	OPT_RO = 0x100,
	OPT_RW,
	OPT_TMPFS,
	OPT_PROJECT,
	OPT_NO_PROJECT,
	OPT_CHDIR,
	OPT_ENV,
	OPT_HOSTNAME,
	OPT_SHARE_NET,
	OPT_RESULT_FD,
	OPT_HELP,
	OPT_VERSION,
	OPT_MEMORY,
	OPT_PIDS,
	OPT_CPUS,
	OPT_TIMEOUT,
	OPT_KILL_AFTER,
	OPT_MAX_OUTPUT,
	OPT_CAPTURE,
	OPT_TMP_SIZE,
	OPT_CGROUP_PARENT,
	OPT_REQUIRE_CGROUP,
	OPT_SECCOMP,
	OPT_SECCOMP_EXPORT,
	OPT_DENY_EXEC,
	OPT_ALLOW_EXEC,
	OPT_ALLOW_INLINE_CODE,
	OPT_ALLOW_METACHAR,
	OPT_ALLOW_PATH,
	OPT_POLICY,
	OPT_PRINT_POLICY,
	OPT_CHECK,
	OPT_PTY,
	OPT_NO_PTY,
};

static const struct option long_options[] = {
	{"ro", required_argument, NULL, OPT_RO},
	{"rw", required_argument, NULL, OPT_RW},
	{"tmpfs", required_argument, NULL, OPT_TMPFS},
	{"project", required_argument, NULL, OPT_PROJECT},
	{"no-project", no_argument, NULL, OPT_NO_PROJECT},
	{"chdir", required_argument, NULL, OPT_CHDIR},
	{"env", required_argument, NULL, OPT_ENV},
	{"hostname", required_argument, NULL, OPT_HOSTNAME},
	{"share-net", no_argument, NULL, OPT_SHARE_NET},
	{"result-fd", required_argument, NULL, OPT_RESULT_FD},
	{"help", no_argument, NULL, OPT_HELP},
	{"version", no_argument, NULL, OPT_VERSION},
	{"memory", required_argument, NULL, OPT_MEMORY},
	{"pids", required_argument, NULL, OPT_PIDS},
	{"cpus", required_argument, NULL, OPT_CPUS},
	{"timeout", required_argument, NULL, OPT_TIMEOUT},
	{"kill-after", required_argument, NULL, OPT_KILL_AFTER},
	{"max-output", required_argument, NULL, OPT_MAX_OUTPUT},
	{"capture", no_argument, NULL, OPT_CAPTURE},
	{"tmp-size", required_argument, NULL, OPT_TMP_SIZE},
	{"cgroup-parent", required_argument, NULL, OPT_CGROUP_PARENT},
	{"require-cgroup", no_argument, NULL, OPT_REQUIRE_CGROUP},
	{"seccomp", required_argument, NULL, OPT_SECCOMP},
	{"seccomp-export", required_argument, NULL, OPT_SECCOMP_EXPORT},
	{"deny-exec", required_argument, NULL, OPT_DENY_EXEC},
	{"allow-exec", required_argument, NULL, OPT_ALLOW_EXEC},
	{"allow-inline-code", no_argument, NULL, OPT_ALLOW_INLINE_CODE},
	{"allow-metachar", no_argument, NULL, OPT_ALLOW_METACHAR},
	{"allow-path", required_argument, NULL, OPT_ALLOW_PATH},
	{"policy", required_argument, NULL, OPT_POLICY},
	{"print-policy", no_argument, NULL, OPT_PRINT_POLICY},
	{"check", no_argument, NULL, OPT_CHECK},
	{"pty", no_argument, NULL, OPT_PTY},
	{"no-pty", no_argument, NULL, OPT_NO_PTY},
	{NULL, 0, NULL, 0},
};

void nsb_config_init(struct nsb_config *c)
{
	memset(c, 0, sizeof(*c));
	c->result_fd = -1;
	c->kill_after_ms = NSB_DEFAULT_KILL_AFTER_MS;
}

static int usage_err(struct nsb_error *e, int err, const char *hint, const char *fmt, ...)
	_printf_(4, 5);

static int usage_err(struct nsb_error *e, int err, const char *hint, const char *fmt, ...)
{
	va_list ap;
	char msg[NSB_ERR_MESSAGE_MAX];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	nsb_error_setx(e, err, "usage", "%s", msg);
	if (hint)
		nsb_error_hint(e, "%s", hint);
	return -err;
}

/* A mount destination: absolute, no "." or ".." or empty components. */
static int check_dest(const char *opt, const char *dest, struct nsb_error *e)
{
	if (dest[0] != '/')
		return usage_err(
			e, EINVAL,
			"DEST is where the path appears inside the sandbox; write it as an absolute path such as /data",
			"%s: destination '%s' is not an absolute path", opt, dest);
	if (strlen(dest) > NSB_MAX_PATH)
		return usage_err(e, ENAMETOOLONG, NULL, "%s: destination is longer than %d bytes",
				 opt, NSB_MAX_PATH);
	if (!nsb_path_is_clean_abs(dest))
		return usage_err(e, EINVAL, "write DEST without '.', '..', '//' or a trailing '/'",
				 "%s: destination '%s' is not a normalized path", opt, dest);
	if (strcmp(dest, "/") == 0 || nsb_path_is_under(dest, "/proc") ||
	    nsb_path_is_under(dest, "/dev"))
		return usage_err(e, EINVAL, "choose a destination outside /, /proc and /dev",
				 "%s: destination '%s' is reserved by nsbox", opt, dest);
	return 0;
}

static int add_mount(struct nsb_config *c, enum nsb_mount_kind kind, const char *opt,
		     const char *arg, int argv_index, struct nsb_error *e)
{
	struct nsb_mount_arg *m;

	if (c->n_mounts >= NSB_MAX_MOUNTS)
		return usage_err(
			e, E2BIG, "merge binds: bind a common parent directory instead",
			"%s '%s': too many mounts (at most %d --ro, --rw and --tmpfs in total)",
			opt, arg, NSB_MAX_MOUNTS);
	m = &c->mounts[c->n_mounts];
	memset(m, 0, sizeof(*m));
	m->kind = kind;
	m->argv_index = argv_index;

	if (kind == NSB_MOUNT_TMPFS) {
		/* DEST[:SIZE]: the size is after the last ':'. */
		const char *colon = strrchr(arg, ':');
		size_t n = colon ? (size_t)(colon - arg) : strlen(arg);
		int r;

		if (n == 0)
			return usage_err(e, EINVAL, NULL, "%s: empty destination", opt);
		if (n > NSB_MAX_PATH)
			return usage_err(e, ENAMETOOLONG, NULL,
					 "%s: destination is longer than %d bytes", opt,
					 NSB_MAX_PATH);
		memcpy(m->dest_buf, arg, n);
		m->dest_buf[n] = '\0';
		m->dest = m->dest_buf;
		r = check_dest(opt, m->dest, e);
		if (r < 0)
			return r;
		m->size = NSB_DEFAULT_TMPFS_SIZE;
		if (colon) {
			r = nsb_parse_size(colon + 1, NSB_MAX_TMPFS_SIZE, &m->size);
			if (r < 0 || m->size == 0)
				return usage_err(
					e, EINVAL,
					"SIZE is bytes with an optional k, M or G suffix, at most 64G",
					"%s: invalid size '%s'", opt, colon + 1);
		}
		c->n_mounts++;
		return 0;
	}

	/* PATH[:DEST]: PATH ends at the first ':'. */
	const char *colon = strchr(arg, ':');
	m->src = arg;
	m->src_len = colon ? (size_t)(colon - arg) : strlen(arg);
	if (m->src_len == 0)
		return usage_err(e, EINVAL, NULL, "%s '%s': empty source path", opt, arg);
	if (m->src_len > NSB_MAX_PATH)
		return usage_err(e, ENAMETOOLONG, NULL, "%s: source path is longer than %d bytes",
				 opt, NSB_MAX_PATH);
	if (colon) {
		int r;
		m->dest = colon + 1;
		if (!*m->dest)
			return usage_err(e, EINVAL, NULL, "%s '%s': empty destination after ':'",
					 opt, arg);
		r = check_dest(opt, m->dest, e);
		if (r < 0)
			return r;
	}
	c->n_mounts++;
	return 0;
}

static bool env_name_valid(const char *s, size_t n)
{
	if (n == 0 || n > 255)
		return false;
	if (!((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' && s[0] <= 'z') || s[0] == '_'))
		return false;
	for (size_t i = 1; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '_'))
			return false;
	}
	return true;
}

static bool hostname_valid(const char *s)
{
	size_t n = strlen(s);

	if (n == 0 || n > NSB_MAX_HOSTNAME || s[0] == '-' || s[0] == '.')
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		if (!((ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '.'))
			return false;
	}
	return true;
}

/*
 * getopt_long() returned '?'.  argv[optind - 1] names the culprit only for a
 * long option: inside a cluster such as "-xy" optind has not moved yet and
 * points one argument back, so a short option is named from optopt.  A known
 * long option given a value it does not take ("--share-net=1") comes back
 * with optopt set to its val.
 */
static int unknown_option(struct nsb_error *e, const char *name)
{
	if (optopt >= OPT_RO) {
		for (const struct option *o = long_options; o->name; o++)
			if (o->val == optopt)
				return usage_err(e, EINVAL, "see nsbox --help",
						 "option '--%s' takes no value", o->name);
	}
	if (optopt > 0 && optopt < OPT_RO)
		return usage_err(e, EINVAL, "see nsbox --help", "unknown option '-%c'", optopt);
	return usage_err(e, EINVAL, "see nsbox --help", "unknown option '%s'", name);
}

static int cli_parse(int argc, char *const *argv, struct nsb_config *c, struct nsb_error *e)
{
	const char *max_output_arg = NULL;
	size_t total = 0;
	int opt, r;

	nsb_config_init(c);

	/* Bound the input before looking at it. */
	if (argc > NSB_MAX_ARGS)
		return usage_err(e, E2BIG, "pass large inputs in a file under an --ro directory",
				 "too many arguments (%d; at most %d)", argc, NSB_MAX_ARGS);
	for (int i = 0; i < argc; i++) {
		total += strlen(argv[i]) + 1;
		if (total > NSB_MAX_ARGV_BYTES)
			return usage_err(
				e, E2BIG, "pass large inputs in a file under an --ro directory",
				"arguments too large (more than %u bytes)", NSB_MAX_ARGV_BYTES);
	}

	/*
	 * '+': stop at the first non-option so the command's own options are
	 * never taken for ours; ':' and opterr = 0: getopt prints nothing.
	 */
	opterr = 0;
	optind = 0;
	int li = -1;
	while ((opt = getopt_long(argc, argv, "+:", long_options, &li)) != -1) {
		const char *name = argv[optind - 1];
		int idx = optind - 1;

		/*
		 * getopt_long takes any unambiguous prefix.  Our callers are
		 * programs: "--sh" working today and meaning something else
		 * once a new option shares the prefix would be a silent change
		 * of meaning.  Options are spelt out in full.
		 */
		if (opt >= OPT_RO && li >= 0) {
			/* A separate value: the option word is the one before. */
			const char *tok = argv[optind - 1];
			if (long_options[li].has_arg == required_argument && optind >= 2 &&
			    optarg == argv[optind - 1])
				tok = argv[optind - 2];
			size_t n = strlen(long_options[li].name);
			if (strncmp(tok, "--", 2) != 0 ||
			    strncmp(tok + 2, long_options[li].name, n) != 0 ||
			    (tok[2 + n] != '\0' && tok[2 + n] != '='))
				return usage_err(
					e, EINVAL, "spell options out in full",
					"option '%s' is abbreviated (did you mean '--%s'?)", tok,
					long_options[li].name);
		}
		li = -1;

		switch (opt) {
		case OPT_RO:
			r = add_mount(c, NSB_MOUNT_RO, "--ro", optarg, idx, e);
			if (r < 0)
				return r;
			break;
		case OPT_RW:
			r = add_mount(c, NSB_MOUNT_RW, "--rw", optarg, idx, e);
			if (r < 0)
				return r;
			break;
		case OPT_TMPFS:
			r = add_mount(c, NSB_MOUNT_TMPFS, "--tmpfs", optarg, idx, e);
			if (r < 0)
				return r;
			break;
		case OPT_PROJECT:
			if (!*optarg)
				return usage_err(e, EINVAL, NULL, "--project: empty path");
			if (strlen(optarg) > NSB_MAX_PATH)
				return usage_err(e, ENAMETOOLONG, NULL,
						 "--project: path is longer than %d bytes",
						 NSB_MAX_PATH);
			c->project = optarg;
			break;
		case OPT_NO_PROJECT:
			c->no_project = true;
			break;
		case OPT_CHDIR:
			if (strlen(optarg) > NSB_MAX_PATH || !nsb_path_is_clean_abs(optarg))
				return usage_err(
					e, EINVAL,
					"give the directory as it appears inside, e.g. --chdir /data",
					"--chdir '%s': not a normalized absolute path", optarg);
			c->chdir = optarg;
			break;
		case OPT_ENV: {
			const char *eq = strchr(optarg, '=');
			size_t n = eq ? (size_t)(eq - optarg) : strlen(optarg);
			if (!env_name_valid(optarg, n))
				return usage_err(
					e, EINVAL,
					"NAME is letters, digits and '_', not starting with a digit",
					"--env '%s': invalid variable name", optarg);
			if (c->n_env >= NSB_MAX_ENV)
				return usage_err(e, E2BIG, NULL,
						 "--env '%s': too many --env options (at most %d)",
						 optarg, NSB_MAX_ENV);
			c->env[c->n_env++] = optarg;
			break;
		}
		case OPT_HOSTNAME:
			if (!hostname_valid(optarg))
				return usage_err(e, EINVAL, "use 1-64 letters, digits, '-' and '.'",
						 "--hostname '%s': invalid hostname", optarg);
			c->hostname = optarg;
			break;
		case OPT_SHARE_NET:
			c->share_net = true;
			break;
		case OPT_RESULT_FD: {
			uint64_t fd;
			if (nsb_parse_uint(optarg, INT_MAX, &fd) < 0)
				return usage_err(e, EINVAL, NULL,
						 "--result-fd '%s': not a file descriptor number",
						 optarg);
			if (fd <= 2)
				return usage_err(
					e, EINVAL,
					"open another descriptor for the record, e.g. 3>record.json with --result-fd 3",
					"--result-fd %s: descriptors 0-2 belong to the command",
					optarg);
			c->result_fd = (int)fd;
			break;
		}
		case OPT_MEMORY:
			if (nsb_parse_size(optarg, NSB_MAX_MEMORY, &c->memory) < 0 ||
			    c->memory < NSB_MIN_MEMORY)
				return usage_err(
					e, EINVAL,
					"SIZE is bytes with an optional k, M, G or T suffix, from 1M to 1T",
					"--memory '%s': invalid size", optarg);
			break;
		case OPT_PIDS:
			if (strcmp(optarg, "unlimited") == 0) {
				c->pids = NSB_PIDS_UNLIMITED;
				break;
			}
			if (nsb_parse_uint(optarg, NSB_MAX_PIDS, &c->pids) < 0 || c->pids < 2)
				return usage_err(
					e, EINVAL,
					"N counts nsbox's init too: at least 2, at most 4194304; 'unlimited' lifts the default",
					"--pids '%s': invalid number of processes", optarg);
			break;
		case OPT_CPUS:
			if (nsb_parse_milli(optarg, NSB_MAX_CPUS_MILLI, &c->cpus_milli) < 0 ||
			    c->cpus_milli < 10)
				return usage_err(
					e, EINVAL,
					"FRACTION is a number of CPUs from 0.01 to 1024, e.g. 0.5",
					"--cpus '%s': invalid CPU amount", optarg);
			break;
		case OPT_TIMEOUT:
			if (nsb_parse_milli(optarg, NSB_MAX_TIMEOUT_MS, &c->timeout_ms) < 0 ||
			    c->timeout_ms == 0)
				return usage_err(
					e, EINVAL,
					"SECONDS is a positive number with up to 3 decimals, at most one year",
					"--timeout '%s': invalid duration", optarg);
			break;
		case OPT_KILL_AFTER:
			if (nsb_parse_milli(optarg, NSB_MAX_KILL_AFTER_MS, &c->kill_after_ms) < 0)
				return usage_err(
					e, EINVAL,
					"SECONDS is a number from 0 to 3600 with up to 3 decimals",
					"--kill-after '%s': invalid duration", optarg);
			break;
		case OPT_MAX_OUTPUT:
			if (nsb_parse_size(optarg, NSB_MAX_OUTPUT, &c->max_output) < 0)
				return usage_err(
					e, EINVAL,
					"BYTES is a size with an optional k, M, G or T suffix, at most 1T",
					"--max-output '%s': invalid size", optarg);
			c->has_max_output = true;
			max_output_arg = optarg;
			break;
		case OPT_CAPTURE:
			c->capture = true;
			break;
		case OPT_PTY:
			c->pty = NSB_PTY_ON;
			break;
		case OPT_NO_PTY:
			c->pty = NSB_PTY_OFF;
			break;
		case OPT_TMP_SIZE:
			if (nsb_parse_size(optarg, NSB_MAX_TMPFS_SIZE, &c->tmp_size) < 0 ||
			    c->tmp_size < NSB_MIN_TMP_SIZE)
				return usage_err(
					e, EINVAL,
					"SIZE is bytes with an optional k, M or G suffix, from 1M to 64G",
					"--tmp-size '%s': invalid size", optarg);
			break;
		case OPT_CGROUP_PARENT:
			if (strlen(optarg) > NSB_MAX_PATH || !nsb_path_is_clean_abs(optarg))
				return usage_err(
					e, EINVAL,
					"give the cgroup directory as an absolute path, e.g. /sys/fs/cgroup/user.slice/user-1000.slice/user@1000.service/app.slice",
					"--cgroup-parent '%s': not a normalized absolute path",
					optarg);
			c->cgroup_parent = optarg;
			break;
		case OPT_REQUIRE_CGROUP:
			c->require_cgroup = true;
			break;
		case OPT_DENY_EXEC:
		case OPT_ALLOW_EXEC: {
			bool deny = opt == OPT_DENY_EXEC;
			const char *o = deny ? "--deny-exec" : "--allow-exec";
			size_t *n = deny ? &c->n_deny_exec : &c->n_allow_exec;
			if (!*optarg || strlen(optarg) > 255 || strchr(optarg, '/'))
				return usage_err(
					e, EINVAL,
					"NAME is a command's base name such as rm, without '/'",
					"%s '%s': invalid command name", o, optarg);
			if (*n >= NSB_MAX_GATE_OPTS)
				return usage_err(e, E2BIG, "keep long lists in a --policy file",
						 "%s '%s': too many (at most %d)", o, optarg,
						 NSB_MAX_GATE_OPTS);
			(deny ? c->deny_exec : c->allow_exec)[(*n)++] = optarg;
			break;
		}
		case OPT_ALLOW_INLINE_CODE:
			c->allow_inline_code = true;
			break;
		case OPT_ALLOW_METACHAR:
			c->allow_metachar = true;
			break;
		case OPT_ALLOW_PATH:
			if (!*optarg || strlen(optarg) > NSB_MAX_PATH)
				return usage_err(e, EINVAL, NULL,
						 "--allow-path '%s': invalid directory", optarg);
			if (c->n_allow_path >= NSB_MAX_GATE_PATHS)
				return usage_err(e, E2BIG,
						 "bind and allow a common parent directory instead",
						 "--allow-path '%s': too many (at most %d)", optarg,
						 NSB_MAX_GATE_PATHS);
			c->allow_path[c->n_allow_path++] = optarg;
			break;
		case OPT_POLICY:
			if (!*optarg || strlen(optarg) > NSB_MAX_PATH)
				return usage_err(e, EINVAL, NULL,
						 "--policy '%s': invalid file name", optarg);
			c->policy = optarg;
			break;
		case OPT_PRINT_POLICY:
			c->print_policy = true;
			break;
		case OPT_CHECK:
			c->check = true;
			break;
		case OPT_SECCOMP:
			if (!*optarg || strlen(optarg) > NSB_MAX_PATH)
				return usage_err(
					e, EINVAL,
					"name a shipped profile (default, strict, none) or give a path",
					"--seccomp '%s': invalid profile", optarg);
			c->seccomp = optarg;
			break;
		case OPT_SECCOMP_EXPORT:
			if (!*optarg || strlen(optarg) > NSB_MAX_PATH)
				return usage_err(e, EINVAL, NULL,
						 "--seccomp-export '%s': invalid file name",
						 optarg);
			c->seccomp_export = optarg;
			break;
		case OPT_HELP:
			c->help = true;
			return 0;
		case OPT_VERSION:
			c->version = true;
			return 0;
		case ':':
			return usage_err(e, EINVAL, "see nsbox --help", "option '%s' needs a value",
					 name);
		case '?':
		default:
			return unknown_option(e, name);
		}
	}

	if (c->capture && !c->has_max_output) {
		c->max_output = NSB_DEFAULT_CAPTURE;
		c->has_max_output = true;
	}
	if (c->capture && c->max_output > NSB_MAX_CAPTURE)
		return usage_err(
			e, E2BIG,
			"captured output goes into the record: use at most --max-output 64M with --capture",
			"--max-output '%s': too large for --capture",
			max_output_arg ? max_output_arg : "");
	if (c->project && c->no_project)
		return usage_err(e, EINVAL, NULL, "--project and --no-project cannot be combined");
	/* --seccomp-export and --print-policy need no command. */
	if (optind >= argc && (c->seccomp_export || c->print_policy))
		return 0;
	if (optind >= argc)
		return usage_err(e, EINVAL, "usage: nsbox [OPTIONS] [--] COMMAND [ARG...]",
				 "no command given");
	if (!*argv[optind])
		return usage_err(e, EINVAL, NULL, "the command name is empty");
	c->cmd_argv = argv + optind;
	c->cmd_argc = argc - optind;
	return 0;
}

/* Does the exact option word ARG take a separate value? */
static bool takes_value(const char *arg)
{
	if (strncmp(arg, "--", 2) != 0 || strchr(arg, '='))
		return false;
	for (const struct option *o = long_options; o->name; o++)
		if (strcmp(arg + 2, o->name) == 0)
			return o->has_arg == required_argument;
	return false;
}

/*
 * After a usage error, find --result-fd anyway, so the record reaches the
 * caller even when the bad option came first.  Only nsbox's own options are
 * looked at: the scan stops at "--" and at the command.
 */
static void find_result_fd(int argc, char *const *argv, struct nsb_config *c)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];
		uint64_t fd;

		if (strcmp(a, "--") == 0 || a[0] != '-')
			return;
		if (strcmp(a, "--result-fd") == 0 && i + 1 < argc) {
			if (nsb_parse_uint(argv[i + 1], INT_MAX, &fd) == 0 && fd > 2)
				c->result_fd = (int)fd;
			return;
		}
		if (strncmp(a, "--result-fd=", 12) == 0) {
			if (nsb_parse_uint(a + 12, INT_MAX, &fd) == 0 && fd > 2)
				c->result_fd = (int)fd;
			return;
		}
		if (takes_value(a))
			i++;
	}
}

int nsb_cli_parse(int argc, char *const *argv, struct nsb_config *c, struct nsb_error *e)
{
	int r = cli_parse(argc, argv, c, e);

	if (r < 0 && c->result_fd < 0)
		find_result_fd(argc, argv, c);
	return r;
}
