// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Command line → config → plan.  The input is split on NUL bytes into
 * argv[1..]; when the parser accepts it, the plan is built from fake facts
 * the way main.c gathers them (each source "resolved" lexically against a
 * fixed working directory, odd mounts are files).  Invariants: an error
 * always carries stage and message; a plan never exceeds its arrays; every
 * destination is a clean absolute path.
 */
#include <errno.h>
#include <linux/limits.h>

#include "core/cli.h"
#include "fuzz.h"
#include "core/plan.h"
#include "base/util.h"

static struct nsb_config cfg;
static struct nsb_plan plan;
static char real[NSB_MAX_MOUNTS][PATH_MAX];
/* facts points at these: one per config mount, as the supervisor resolves them */
static const char *src_real[NSB_MAX_MOUNTS];
static bool src_is_dir[NSB_MAX_MOUNTS];

static char env_path[] = "PATH=/usr/bin:/bin", env_home[] = "HOME=/home/u",
	    env_lang[] = "LANG=C.UTF-8", env_term[] = "TERM=xterm", env_foo[] = "FOO=bar",
	    env_empty[] = "EMPTY=";
static char *caller_env[] = {env_path, env_home, env_lang, env_term, env_foo, env_empty, NULL};

static void check_error(const struct nsb_error *e)
{
	FUZZ_ASSERT(e->err > 0);
	FUZZ_ASSERT(e->stage == NSB_STAGE_USAGE || e->stage == NSB_STAGE_PLAN);
	FUZZ_ASSERT(memchr(e->message, '\0', sizeof(e->message)) != NULL);
	FUZZ_ASSERT(e->message[0] != '\0');
	FUZZ_ASSERT(memchr(e->hint, '\0', sizeof(e->hint)) != NULL);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const lead[] = {"nsbox"};
	char *buf, **argv;
	struct nsb_error e = {0};
	struct nsb_facts facts = {0};

	int argc = fuzz_split_argv(data, size, lead, 1, 8192, &buf, &argv);
	int r = nsb_cli_parse(argc, argv, &cfg, &e);
	if (r < 0) {
		FUZZ_ASSERT(r == -EINVAL || r == -E2BIG || r == -ENAMETOOLONG);
		check_error(&e);
		goto out;
	}
	FUZZ_ASSERT(cfg.n_mounts <= NSB_MAX_MOUNTS);
	FUZZ_ASSERT(cfg.n_env <= NSB_MAX_ENV);
	if (cfg.help || cfg.version)
		goto out;
	/* --seccomp-export, --print-policy and --print-profile run without a
	 * command; with --request or --request-fd the document brings it. */
	if (!cfg.cmd_argv && (cfg.seccomp_export || cfg.print_policy || cfg.print_profile ||
			      cfg.request || cfg.has_request_fd))
		goto out;
	FUZZ_ASSERT(cfg.cmd_argc >= 1 && cfg.cmd_argv && cfg.cmd_argv[0]);
	FUZZ_ASSERT(cfg.cmd_argv[cfg.cmd_argc] == NULL);

	facts.cwd = "/home/u/proj";
	facts.home = "/home/u";
	facts.uid = 1000;
	facts.gid = 1000;
	facts.environ = caller_env;
	facts.mount_src_real = src_real;
	facts.mount_src_is_dir = src_is_dir;
	if (cfg.project) {
		static char project[PATH_MAX];
		if (nsb_path_normalize(facts.cwd, cfg.project, project, sizeof(project)) < 0)
			goto out;
		facts.project_real = project;
	}
	for (size_t i = 0; i < cfg.n_mounts; i++) {
		const struct nsb_mount_arg *m = &cfg.mounts[i];
		char src[NSB_MAX_PATH + 1];
		src_real[i] = NULL, src_is_dir[i] = false; /* the last input's are still here */
		if (m->kind == NSB_MOUNT_TMPFS)
			continue;
		snprintf(src, sizeof(src), "%.*s", (int)m->src_len, m->src);
		if (nsb_path_normalize(facts.cwd, src, real[i], sizeof(real[i])) < 0)
			goto out;
		src_real[i] = real[i];
		src_is_dir[i] = (i % 2) == 0;
	}

	memset(&e, 0, sizeof(e));
	r = nsb_plan_build(&cfg, &facts, &plan, &e);
	if (r < 0) {
		check_error(&e);
		goto out;
	}
	FUZZ_ASSERT(plan.n_ops <= NSB_MAX_OPS);
	FUZZ_ASSERT(plan.n_envp <= NSB_MAX_ENVP);
	FUZZ_ASSERT(plan.envp[plan.n_envp] == NULL);
	for (size_t i = 0; i < plan.n_envp; i++)
		FUZZ_ASSERT(strchr(plan.envp[i], '=') != NULL);
	for (size_t i = 0; i < plan.n_ops; i++)
		FUZZ_ASSERT(nsb_path_is_clean_abs(plan.ops[i].dest));
	FUZZ_ASSERT(nsb_path_is_clean_abs(plan.cwd));
	FUZZ_ASSERT(plan.argc == cfg.cmd_argc);
	nsb_plan_free(&plan);
out:
	free(argv);
	free(buf);
	return 0;
}
