// SPDX-License-Identifier: GPL-2.0-or-later
/* The request document (core/request.h): every option has a member, members
 * go through the options' setters, and mistakes name their JSON path. */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <stdint.h>
#include <string.h>

#include "core/cli.h"
#include "core/request.h"
#include "unit.h"

/* Criterion's eq(str, ...) takes char *; -Wwrite-strings makes literals const. */
#pragma GCC diagnostic ignored "-Wdiscarded-qualifiers"

static struct nsb_config cfg;
static struct nsb_jdoc doc;
static struct nsb_error err;

static void fini(void)
{
	nsb_jdoc_free(&doc);
}

TestSuite(request, .fini = fini);

static int apply(const char *json)
{
	memset(&err, 0, sizeof(err));
	nsb_config_init(&cfg);
	return nsb_request_apply(&cfg, &doc, json, strlen(json), "req.json", &err);
}

/* Options only the command line has: the document itself, the record's
 * descriptor, the dry run, an approval, and --help/--version. */
static bool command_line_only(const char *name)
{
	static const char *const only[] = {"--request",	 "--request-fd", "--result-fd", "--check",
					   "--approved", "--help",	 "--version"};

	for (size_t i = 0; i < sizeof(only) / sizeof(only[0]); i++)
		if (strcmp(name, only[i]) == 0)
			return true;
	return false;
}

Test(request, every_option_has_a_member)
{
	const char *metavar, *name;
	char buf[64];

	for (size_t i = 0; (name = nsb_cli_option(i, &metavar)); i++) {
		const char *m = nsb_request_member_of(name, buf, sizeof(buf));
		if (command_line_only(name))
			cr_expect(m == NULL, "%s has member %s", name, m);
		else
			cr_expect(m != NULL, "option %s has no request member", name);
	}
	expect_str(nsb_request_member_of("--memory", buf, sizeof(buf)), "limits.memory");
	expect_str(nsb_request_member_of("--no-pty", buf, sizeof(buf)), "pty");
	expect_str(nsb_request_member_of("--chdir", buf, sizeof(buf)), "cwd");
}

Test(request, members_reach_the_config)
{
	int r = apply(
		"{\"argv\": [\"ls\", \"-l\"], \"cwd\": \"/data\", \"ro\": [\"in\", \"a:/b\"],"
		" \"rw\": [\"out\"], \"tmpfs\": [\"/scratch:8M\"], \"env\": {\"A\": \"1\", \"B\": null},"
		" \"network\": {\"allow\": [\"example.com:443\"], \"proxy_port\": 8080},"
		" \"limits\": {\"memory\": \"512M\", \"pids\": 64, \"cpus\": 0.5, \"timeout\": 60,"
		" \"max_output\": 1024, \"kill_after\": \"1.5\", \"tmp_size\": \"16M\"},"
		" \"capture\": true, \"pty\": false, \"seccomp\": \"strict\", \"quiet\": true,"
		" \"actor\": \"agent-7\", \"reason\": \"list\", \"side_effect\": \"read_only\"}");

	cr_assert(eq(int, r, 0), "%s", err.message);
	cr_expect(eq(int, cfg.cmd_argc, 2));
	expect_str(cfg.cmd_argv[1], "-l");
	cr_expect(cfg.cmd_argv[2] == NULL);
	expect_str(cfg.chdir, "/data");
	cr_expect(eq(sz, cfg.n_mounts, 4));
	expect_str(cfg.mounts[1].dest, "/b");
	cr_expect(eq(u64, cfg.mounts[3].size, 8u << 20));
	cr_expect(eq(sz, cfg.n_env, 2));
	expect_str(cfg.env[0], "A=1");
	expect_str(cfg.env[1], "B");
	cr_expect(cfg.net_proxy);
	cr_expect(eq(u64, cfg.proxy_port, 8080));
	cr_expect(eq(u64, cfg.memory, 512u << 20));
	cr_expect(eq(u64, cfg.pids, 64));
	cr_expect(eq(u64, cfg.cpus_milli, 500));
	cr_expect(eq(u64, cfg.timeout_ms, 60000));
	cr_expect(eq(u64, cfg.kill_after_ms, 1500));
	cr_expect(eq(u64, cfg.max_output, 1024));
	cr_expect(cfg.capture);
	cr_expect(eq(int, cfg.pty, NSB_PTY_OFF));
	expect_str(cfg.seccomp, "strict");
	expect_str(cfg.request_actor, "agent-7");
	expect_str(cfg.request_side_effect, "read_only");
	cr_expect(cfg.from_request);
}

#define EXPECT_ERR(json, msg)                                                                   \
	do {                                                                                    \
		cr_expect(apply(json) < 0, "accepted: %s", json);                               \
		cr_expect(strstr(err.message, msg) != NULL, "got '%s', want '%s'", err.message, \
			  msg);                                                                 \
		expect_str(nsb_stage_name(err.stage), "usage");                                 \
	} while (0)

Test(request, mistakes_name_their_path)
{
	EXPECT_ERR("{\"argv\": [\"true\"], \"limits\": {\"memroy\": \"1M\"}}",
		   "req.json:1:41: $.limits.memroy: unknown member");
	EXPECT_ERR("{\"argv\": [\"true\"], \"limits\": {\"memory\": \"5x\"}}",
		   "$.limits.memory: --memory '5x': invalid size");
	EXPECT_ERR("{\"argv\": [\"true\"], \"ro\": \"x\"}", "$.ro: ro is a string, not an array");
	EXPECT_ERR("{\"argv\": [\"true\"], \"capture\": 1}", "$.capture: capture is a number");
	EXPECT_ERR("{\"argv\": [\"true\", 1]}", "$.argv[1]: the value is a number, not a string");
	EXPECT_ERR("{\"argv\": [\"true\"], \"argv\": [\"false\"]}", "$.argv: duplicate member");
	EXPECT_ERR("{\"argv\": []}", "argv is empty");
	EXPECT_ERR("{\"cwd\": \"/x\"}", "no argv given");
	EXPECT_ERR("[\"true\"]", "$: the request is an array, not an object");
	EXPECT_ERR("{\"argv\": [\"a\\u0000b\"]}", "NUL");
	EXPECT_ERR("{\"argv\": [\"true\"], \"env\": {\"A=B\": \"c\"}}",
		   "$.env[\"A=B\"]: invalid variable name");
	EXPECT_ERR("{\"argv\": [\"true\"], \"side_effect\": \"delete_all\"}",
		   "unknown side effect");
	EXPECT_ERR("{\"argv\": [\"true\"], \"project\": \"p\", \"no_project\": true}",
		   "--project and --no-project cannot be combined");
	EXPECT_ERR("{\"argv\": [\"true\"], \"limits\": {\"pids\": 1e3}}", "--pids '1e3'");
	EXPECT_ERR("{\"argv\": [\"true\"], \"limits\": {\"timeout\": -1}}", "--timeout '-1'");
}

Test(request, metadata_is_bounded)
{
	char json[1024], big[300];

	memset(big, 'a', 257);
	big[257] = '\0';
	snprintf(json, sizeof(json), "{\"argv\": [\"true\"], \"reason\": \"%s\"}", big);
	EXPECT_ERR(json, "reason is longer than 256 bytes");
	big[256] = '\0';
	snprintf(json, sizeof(json), "{\"argv\": [\"true\"], \"reason\": \"%s\"}", big);
	cr_expect(eq(int, apply(json), 0), "%s", err.message);
}

Test(request, false_flags_change_nothing)
{
	cr_assert(eq(int,
		     apply("{\"argv\": [\"true\"], \"capture\": false, \"no_protect\": false}"),
		     0));
	cr_expect(cfg.capture == false);
	cr_expect(cfg.no_protect == false);
	cr_expect(eq(int, cfg.pty, NSB_PTY_AUTO));
}

/* The command line around a request: only --result-fd, --check, --approved. */
Test(request, command_line_holds_only_what_may_join)
{
	char *ok[] = {"nsbox", "--result-fd", "3", "--check", "--request", "r.json", NULL};
	char *bad[] = {"nsbox", "--request", "r.json", "--memory", "1G", NULL};
	char *cmd[] = {"nsbox", "--request-fd", "4", "--", "ls", NULL};
	char *two[] = {"nsbox", "--request", "a", "--request-fd", "4", NULL};

	memset(&err, 0, sizeof(err));
	cr_expect(eq(int, nsb_cli_parse(6, ok, &cfg, &err), 0), "%s", err.message);
	expect_str(cfg.request, "r.json");
	cr_expect(cfg.check);
	cr_expect(nsb_cli_parse(5, bad, &cfg, &err) < 0);
	cr_expect(strstr(err.message, "'--memory' cannot be combined") != NULL, "%s", err.message);
	cr_expect(nsb_cli_parse(5, cmd, &cfg, &err) < 0);
	cr_expect(strstr(err.message, "a command cannot be given") != NULL, "%s", err.message);
	cr_expect(nsb_cli_parse(5, two, &cfg, &err) < 0);
	cr_expect(strstr(err.message, "already given") != NULL, "%s", err.message);
}

/* ---- each member equals its option ---------------------------------------- */

/* The config as text: every field an option can set. */
static void describe(const struct nsb_config *c, char *out, size_t size)
{
	size_t o = 0;
#define S(x)	 (x ? x : "-")
#define ADD(...) o += (size_t)snprintf(out + o, o < size ? size - o : 0, __VA_ARGS__)
	for (size_t i = 0; i < c->n_mounts; i++)
		ADD("m%d:%.*s:%s:%llu ", c->mounts[i].kind, (int)c->mounts[i].src_len,
		    S(c->mounts[i].src), S(c->mounts[i].dest),
		    (unsigned long long)c->mounts[i].size);
	for (size_t i = 0; i < c->n_env; i++)
		ADD("env:%s ", c->env[i]);
	ADD("%s %s %d %d %s ", S(c->chdir), S(c->project), c->no_project, c->share_net,
	    S(c->hostname));
	ADD("%llu %llu %llu %llu %llu %d %llu %d %d %llu %s %d ", (unsigned long long)c->memory,
	    (unsigned long long)c->pids, (unsigned long long)c->cpus_milli,
	    (unsigned long long)c->timeout_ms, (unsigned long long)c->kill_after_ms,
	    c->has_max_output, (unsigned long long)c->max_output, c->capture, c->pty,
	    (unsigned long long)c->tmp_size, S(c->cgroup_parent), c->require_cgroup);
	for (size_t i = 0; i < c->n_deny_exec; i++)
		ADD("de:%s ", c->deny_exec[i]);
	for (size_t i = 0; i < c->n_allow_exec; i++)
		ADD("ae:%s ", c->allow_exec[i]);
	for (size_t i = 0; i < c->n_allow_path; i++)
		ADD("ap:%s ", c->allow_path[i]);
	for (size_t i = 0; i < c->n_mask; i++)
		ADD("mask:%s ", c->mask[i]);
	for (size_t i = 0; i < c->n_allow_net; i++)
		ADD("an:%s ", c->allow_net[i]);
	for (size_t i = 0; i < c->n_deny_net; i++)
		ADD("dn:%s ", c->deny_net[i]);
	for (size_t i = 0; i < c->n_allow_net_range; i++)
		ADD("ar:%s ", c->allow_net_range[i]);
	ADD("%d %d %s %d %s %s %s %s %d %d %d %d %d %s %d ", c->allow_inline_code,
	    c->allow_metachar, S(c->policy), c->print_policy, S(c->seccomp), S(c->seccomp_export),
	    S(c->print_profile), S(c->seccomp_learn), c->isolation, c->quiet, c->no_protect,
	    c->no_mask, c->rw_git, S(c->overlay_store), c->overlay_commit_always);
	ADD("%zu %llu %d %s %llu %d", c->n_overlays, (unsigned long long)c->overlay_size,
	    c->overlay_mode, S(c->overlay_export), (unsigned long long)c->proxy_port, c->net_proxy);
#undef ADD
#undef S
}

struct pair {
	const char *option, *value; /* value NULL: a flag */
	const char *member;	    /* JSON text of the members */
};

static const struct pair pairs[] = {
	{"--ro", "in:/data", "\"ro\": [\"in:/data\"]"},
	{"--rw", "out", "\"rw\": [\"out\"]"},
	{"--tmpfs", "/scratch:8M", "\"tmpfs\": [\"/scratch:8M\"]"},
	{"--project", "p", "\"project\": \"p\""},
	{"--no-project", NULL, "\"no_project\": true"},
	{"--chdir", "/data", "\"cwd\": \"/data\""},
	{"--rw-git", NULL, "\"rw_git\": true"},
	{"--no-protect", NULL, "\"no_protect\": true"},
	{"--mask", "*.pem", "\"mask\": [\"*.pem\"]"},
	{"--no-mask", NULL, "\"no_mask\": true"},
	{"--overlay", "w", "\"overlay\": [\"w\"]"},
	{"--overlay-size", "2G", "\"overlay_size\": \"2G\", \"overlay\": [\"w\"]"},
	{"--overlay-mode", "commit", "\"overlay_mode\": \"commit\", \"overlay\": [\"w\"]"},
	{"--overlay-commit-always", NULL, "\"overlay_commit_always\": true, \"overlay\": [\"w\"]"},
	{"--overlay-store", "/var/tmp/s",
	 "\"overlay_store\": \"/var/tmp/s\", \"overlay\": [\"w\"]"},
	{"--env", "A=b c", "\"env\": {\"A\": \"b c\"}"},
	{"--hostname", "h1", "\"hostname\": \"h1\""},
	{"--share-net", NULL, "\"network\": {\"share\": true}"},
	{"--allow-net", "example.com:443", "\"network\": {\"allow\": [\"example.com:443\"]}"},
	{"--deny-net", "x.org", "\"network\": {\"deny\": [\"x.org\"]}"},
	{"--allow-net-range", "10.0.0.0/8", "\"network\": {\"ranges\": [\"10.0.0.0/8\"]}"},
	{"--proxy-port", "8080", "\"network\": {\"proxy_port\": 8080}"},
	{"--pty", NULL, "\"pty\": true"},
	{"--no-pty", NULL, "\"pty\": false"},
	{"--memory", "512M", "\"limits\": {\"memory\": \"512M\"}"},
	{"--pids", "64", "\"limits\": {\"pids\": 64}"},
	{"--cpus", "0.5", "\"limits\": {\"cpus\": 0.5}"},
	{"--timeout", "1.5", "\"limits\": {\"timeout\": 1.5}"},
	{"--kill-after", "3", "\"limits\": {\"kill_after\": 3}"},
	{"--max-output", "1M", "\"limits\": {\"max_output\": \"1M\"}"},
	{"--capture", NULL, "\"capture\": true"},
	{"--tmp-size", "16M", "\"limits\": {\"tmp_size\": \"16M\"}"},
	{"--cgroup-parent", "/sys/fs/cgroup/a", "\"cgroup_parent\": \"/sys/fs/cgroup/a\""},
	{"--require-cgroup", NULL, "\"require_cgroup\": true"},
	{"--deny-exec", "rm", "\"deny_exec\": [\"rm\"]"},
	{"--allow-exec", "curl", "\"allow_exec\": [\"curl\"]"},
	{"--allow-inline-code", NULL, "\"allow_inline_code\": true"},
	{"--allow-metachar", NULL, "\"allow_metachar\": true"},
	{"--allow-path", "/opt", "\"allow_path\": [\"/opt\"]"},
	{"--policy", "p.policy", "\"policy\": \"p.policy\""},
	{"--print-policy", NULL, "\"print_policy\": true"},
	{"--seccomp", "strict", "\"seccomp\": \"strict\""},
	{"--seccomp-export", "f.bpf", "\"seccomp_export\": \"f.bpf\""},
	{"--print-profile", "default", "\"print_profile\": \"default\""},
	{"--seccomp-learn", "l.profile", "\"seccomp_learn\": \"l.profile\""},
	{"--isolation", "auto", "\"isolation\": \"auto\""},
	{"--quiet", NULL, "\"quiet\": true"},
};

/* Each option row (but the command line's own) has a pair below. */
Test(request, each_member_sets_what_its_option_sets)
{
	static char a[16384], b[16384];
	const char *metavar, *name;

	for (size_t i = 0; (name = nsb_cli_option(i, &metavar)); i++) {
		bool found = command_line_only(name);
		for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++)
			found = found || strcmp(pairs[k].option, name) == 0;
		cr_expect(found, "no round trip for %s", name);
	}
	for (size_t k = 0; k < sizeof(pairs) / sizeof(pairs[0]); k++) {
		const struct pair *p = &pairs[k];
		char json[512];
		char *argv[8] = {"nsbox"};
		int argc = 1;
		int r;

		/* The command line: the same option, and --overlay where the member
		 * needs one (it comes first in the document too). */
		if (strstr(p->member, "\"overlay\"") && strcmp(p->option, "--overlay") != 0)
			argv[argc++] = "--overlay", argv[argc++] = "w";
		argv[argc++] = (char *)(uintptr_t)p->option;
		if (p->value)
			argv[argc++] = (char *)(uintptr_t)p->value;
		argv[argc++] = "true";
		memset(&err, 0, sizeof(err));
		r = nsb_cli_parse(argc, argv, &cfg, &err);
		cr_assert(eq(int, r, 0), "%s: %s", p->option, err.message);
		describe(&cfg, a, sizeof(a));
		snprintf(json, sizeof(json), "{\"argv\": [\"true\"], %s}", p->member);
		r = apply(json);
		cr_assert(eq(int, r, 0), "%s: %s", json, err.message);
		describe(&cfg, b, sizeof(b));
		cr_expect(strcmp(a, b) == 0, "%s:\n cli:     %s\n request: %s", p->option, a, b);
		nsb_jdoc_free(&doc);
	}
}
