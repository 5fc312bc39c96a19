// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Protected paths and secret masks: the patterns (core/protect.c), the
 * policy directives protect/mask/mask-key and their round trip, --mask on
 * the command line, the record members, and the scan (supervisor/
 * protect_scan.c) on real trees made in a temporary directory.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "base/util.h"
#include "core/cli.h"
#include "core/protect.h"
#include "core/result.h"
#include "gate/policy.h"
#include "supervisor/protect_scan.h"
#include "json_check.h"
#include "unit.h"

/* ---- patterns ------------------------------------------------------------ */

Test(protect, glob_validity)
{
	static const char *const good[] = {
		".git",		  "*.pem",	".env.*", ".github/workflows",
		"secrets/*.json", "[a-z]?.key", "a/b/c"};
	static const char *const bad[] = {"",	  "/etc/passwd", "a//b", "./x", "a/./b", "../x",
					  "a/..", "a b",	 "a\tb", "x/",	"\x01"};

	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++)
		cr_expect(eq(int, nsb_protect_glob_valid(good[i]), 0), "%s", good[i]);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect(eq(int, nsb_protect_glob_valid(bad[i]), -EINVAL), "'%s'", bad[i]);

	char longer[NSB_PROTECT_GLOB_MAX + 2];
	memset(longer, 'a', sizeof(longer) - 1);
	longer[sizeof(longer) - 1] = '\0';
	cr_expect(eq(int, nsb_protect_glob_valid(longer), -EINVAL));
	longer[NSB_PROTECT_GLOB_MAX] = '\0';
	cr_expect(eq(int, nsb_protect_glob_valid(longer), 0));
}

Test(protect, glob_matching)
{
	static const struct {
		const char *glob, *rel, *name;
		bool match;
	} t[] = {
		/* no '/': the name, at any depth */
		{".env", ".env", ".env", true},
		{".env", "a/b/.env", ".env", true},
		{".env", "a/.env.local", ".env.local", false},
		{".env.*", "a/.env.local", ".env.local", true},
		{".env.*", ".env", ".env", false},
		{"*.pem", "certs/server.pem", "server.pem", true},
		{"*.pem", ".pem", ".pem", true}, /* '*' matches a leading dot too */
		{"*.pem", "x.pem.bak", "x.pem.bak", false},
		{"id_*", "home/.ssh/id_rsa", "id_rsa", true},
		{"id_?sa", "id_rsa", "id_rsa", true},
		{"[ab].key", "b.key", "b.key", true},
		{"[ab].key", "c.key", "c.key", false},
		/* with '/': the path from the bind's root, '*' within a component */
		{".github/workflows", ".github/workflows", "workflows", true},
		{".github/workflows", "sub/.github/workflows", "workflows", false},
		{"secrets/*.json", "secrets/db.json", "db.json", true},
		{"secrets/*.json", "secrets/a/db.json", "db.json", false},
		{"*/config", "x/config", "config", true},
		{"*/config", "x/y/config", "config", false},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_expect(
			eq(int, nsb_protect_glob_match(t[i].glob, t[i].rel, t[i].name), t[i].match),
			"%s against %s", t[i].glob, t[i].rel);
}

static const struct nsb_protect_rules default_rules = {
	.protect = nsb_protect_default,
	.n_protect = 34,
	.mask = nsb_mask_default,
	.n_mask = 6,
	.mask_key = nsb_mask_key_default,
	.n_mask_key = 3,
};

Test(protect, default_lists_are_valid_and_counted)
{
	size_t n[3] = {0};
	const char *const *lists[] = {nsb_protect_default, nsb_mask_default, nsb_mask_key_default};

	for (size_t k = 0; k < 3; k++)
		for (; lists[k][n[k]]; n[k]++)
			cr_expect(eq(int, nsb_protect_glob_valid(lists[k][n[k]]), 0), "%s",
				  lists[k][n[k]]);
	cr_expect(eq(sz, n[0], default_rules.n_protect));
	cr_expect(eq(sz, n[1], default_rules.n_mask));
	cr_expect(eq(sz, n[2], default_rules.n_mask_key));
}

Test(protect, classify)
{
	struct nsb_protect_rules git = default_rules;
	static const struct {
		const char *rel, *name;
		bool dir, protect, mask;
		unsigned want;
	} t[] = {
		{".git", ".git", true, true, true, NSB_MATCH_PROTECT},
		{".git", ".git", true, false, true, 0},			  /* a read-only bind */
		{"a/.git", ".git", false, true, true, NSB_MATCH_PROTECT}, /* a worktree's file */
		{".envrc", ".envrc", false, true, true, NSB_MATCH_PROTECT},
		{"sub/.bashrc", ".bashrc", false, true, true, NSB_MATCH_PROTECT},
		{".vscode", ".vscode", true, true, true, NSB_MATCH_PROTECT},
		{".github", ".github", true, true, true, NSB_MATCH_PROTECT},
		{".gitlab-ci.yml", ".gitlab-ci.yml", false, true, true, NSB_MATCH_PROTECT},
		{"src", "src", true, true, true, 0},
		{"main.c", "main.c", false, true, true, 0},
		{".env", ".env", false, true, true, NSB_MATCH_MASK},
		{".env", ".env", false, true, false, 0}, /* --no-mask */
		{"a/.env.production", ".env.production", false, false, true, NSB_MATCH_MASK},
		{".env.example", ".env.example", false, true, true, 0}, /* a template */
		{".env.sample", ".env.sample", false, true, true, 0},
		{"k/server.pem", "server.pem", false, false, true, NSB_MATCH_MASK_KEY},
		{"k/server.pem", "server.pem", true, false, true, 0}, /* keys are files */
		{"id_ed25519", "id_ed25519", false, false, true, NSB_MATCH_MASK_KEY},
		{"id_map.py", "id_map.py", false, false, true, NSB_MATCH_MASK_KEY},
		{".config/git", "git", true, true, true, NSB_MATCH_PROTECT},
		{"x/.config/git", "git", true, true, true, 0}, /* anchored at the root */
		{".aws/credentials", "credentials", false, false, true, NSB_MATCH_MASK},
		{".netrc", ".netrc", false, false, true, NSB_MATCH_MASK},
	};

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++)
		cr_expect(eq(u32,
			     nsb_protect_classify(&default_rules, t[i].rel, t[i].name, t[i].dir,
						  t[i].protect, t[i].mask),
			     t[i].want),
			  "%s", t[i].rel);
	git.rw_git = true;
	cr_expect(eq(u32, nsb_protect_classify(&git, ".git", ".git", true, true, true),
		     NSB_MATCH_GIT));
	/* A .git file (a worktree's link) has no hooks of its own: protected. */
	cr_expect(eq(u32, nsb_protect_classify(&git, ".git", ".git", false, true, true),
		     NSB_MATCH_PROTECT));
}

Test(protect, private_key_sniffing)
{
	static const char *const keys[] = {
		"-----BEGIN OPENSSH PRIVATE KEY-----\nb3Blbn\n",
		"-----BEGIN RSA PRIVATE KEY-----\n",
		"-----BEGIN EC PRIVATE KEY-----\n",
		"-----BEGIN ENCRYPTED PRIVATE KEY-----\n",
		"Bag Attributes\n-----BEGIN PRIVATE KEY-----\n",
		"-----BEGIN CERTIFICATE-----\nMII\n-----END CERTIFICATE-----\n"
		"-----BEGIN PRIVATE KEY-----\n",
	};
	static const char *const not_keys[] = {
		"",
		"-----BEGIN CERTIFICATE-----\nMIIB\n",
		"-----BEGIN PUBLIC KEY-----\n",
		"ssh-ed25519 AAAAC3Nza user@host\n",
		"def id_map(): pass\n",
		"PRIVATE KEY", /* no armour */
	};

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++)
		cr_expect(nsb_looks_private_key(keys[i], strlen(keys[i])), "%s", keys[i]);
	for (size_t i = 0; i < sizeof(not_keys) / sizeof(not_keys[0]); i++)
		cr_expect(eq(int, nsb_looks_private_key(not_keys[i], strlen(not_keys[i])), false),
			  "%s", not_keys[i]);
}

/* ---- the policy file ---------------------------------------------------- */

static int parse(const char *text, struct nsb_gate_policy *p, struct nsb_error *e)
{
	FILE *f = fmemopen((void *)(uintptr_t)text, strlen(text), "r");
	cr_assert(f != NULL);
	nsb_error_clear(e);
	int r = nsb_policy_parse(f, "t.policy", p, e);
	fclose(f);
	return r;
}

static bool has(char *const *list, size_t n, const char *s)
{
	for (size_t i = 0; i < n; i++)
		if (strcmp(list[i], s) == 0)
			return true;
	return false;
}

Test(protect, policy_directives)
{
	struct nsb_gate_policy p;
	struct nsb_error e;

	nsb_gate_policy_init(&p);
	cr_assert(eq(int,
		     parse("protect Makefile\n"
			   "  mask\tsecrets/*.json  \n"
			   "mask-key *.p8\n"
			   "protect Makefile\n",
			   &p, &e),
		     0),
		  "%s", e.message);
	cr_expect(eq(sz, p.n_protect, 1));
	cr_expect(has(p.protect, p.n_protect, "Makefile"));
	cr_expect(eq(sz, p.n_mask, 1));
	cr_expect(has(p.mask, p.n_mask, "secrets/*.json"));
	cr_expect(eq(sz, p.n_mask_key, 1));
	cr_expect(has(p.mask_key, p.n_mask_key, "*.p8"));
	nsb_gate_policy_free(&p);

	/* The default policy holds the built-in lists. */
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_expect(eq(sz, p.n_protect, default_rules.n_protect));
	cr_expect(has(p.protect, p.n_protect, ".git"));
	cr_expect(has(p.mask, p.n_mask, ".env"));
	cr_expect(has(p.mask_key, p.n_mask_key, "*.pem"));
	nsb_gate_policy_free(&p);
}

Test(protect, policy_errors)
{
	static const struct {
		const char *text, *message;
	} t[] = {
		{"protect\n", "t.policy:1:8: 'protect' needs exactly one GLOB"},
		{"mask a b\n", "t.policy:1:8: 'mask' needs exactly one GLOB"},
		{"mask /etc/shadow\n",
		 "t.policy:1:6: GLOB must not start with '/' or contain '.', '..' or '//'"},
		{"mask-key ../x\n",
		 "t.policy:1:10: GLOB must not start with '/' or contain '.', '..' or '//'"},
		{"protect a//b\n",
		 "t.policy:1:9: GLOB must not start with '/' or contain '.', '..' or '//'"},
	};
	struct nsb_gate_policy p;
	struct nsb_error e;

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		nsb_gate_policy_init(&p);
		cr_expect(eq(int, parse(t[i].text, &p, &e), -EINVAL), "%s", t[i].text);
		expect_str_at(e.message, t[i].message, t[i].text);
		cr_expect(e.hint[0] != '\0');
		nsb_gate_policy_free(&p);
	}
}

Test(protect, policy_list_is_bounded)
{
	struct nsb_gate_policy p;
	struct nsb_error e;
	char line[64];

	nsb_gate_policy_init(&p);
	for (int i = 0; i < NSB_PROTECT_MAX_GLOBS; i++) {
		snprintf(line, sizeof(line), "mask f%d\n", i);
		cr_assert(eq(int, parse(line, &p, &e), 0));
	}
	cr_expect(eq(int, parse("mask one-more\n", &p, &e), -E2BIG));
	expect_str(e.message, "t.policy:1:6: too many mask entries (at most 128)");
	nsb_gate_policy_free(&p);
}

/* Print, parse into q (empty or default), compare the lists, print again. */
static void round_trip(const struct nsb_gate_policy *p, bool into_default)
{
	char *text = NULL, *text2 = NULL;
	size_t len = 0, len2 = 0;
	struct nsb_gate_policy q;
	struct nsb_error e;
	FILE *out = open_memstream(&text, &len);

	cr_assert(eq(int, nsb_policy_print(out, p, NULL), 0));
	fclose(out);
	if (into_default)
		cr_assert(eq(int, nsb_gate_policy_init_default(&q), 0));
	else
		nsb_gate_policy_init(&q);
	cr_assert(eq(int, parse(text, &q, &e), 0), "%s", e.message);
	cr_expect(eq(sz, q.n_protect, p->n_protect));
	cr_expect(eq(sz, q.n_mask, p->n_mask));
	cr_expect(eq(sz, q.n_mask_key, p->n_mask_key));
	for (size_t i = 0; i < p->n_protect; i++)
		cr_expect(eq(str, q.protect[i], p->protect[i]));
	for (size_t i = 0; i < p->n_mask; i++)
		cr_expect(eq(str, q.mask[i], p->mask[i]));
	for (size_t i = 0; i < p->n_mask_key; i++)
		cr_expect(eq(str, q.mask_key[i], p->mask_key[i]));
	out = open_memstream(&text2, &len2);
	cr_assert(eq(int, nsb_policy_print(out, &q, NULL), 0));
	fclose(out);
	expect_str_at(text2, text, "second print");
	nsb_gate_policy_free(&q);
	free(text);
	free(text2);
}

Test(protect, policy_round_trips)
{
	struct nsb_gate_policy p;

	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	round_trip(&p, false);
	round_trip(&p, true);
	cr_assert(eq(int, nsb_gate_policy_glob(&p, NSB_GLOB_PROTECT, "Makefile"), 0));
	cr_assert(eq(int, nsb_gate_policy_glob(&p, NSB_GLOB_MASK, "secrets/*.json"), 0));
	cr_assert(eq(int, nsb_gate_policy_glob(&p, NSB_GLOB_MASK_KEY, "*.p8"), 0));
	round_trip(&p, false);
	round_trip(&p, true);
	nsb_gate_policy_free(&p);
}

Test(protect, print_shows_the_lists)
{
	struct nsb_gate_policy p;
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, nsb_policy_print(out, &p, NULL), 0));
	fclose(out);
	cr_expect(strstr(text, "\nprotect .git\n") != NULL);
	cr_expect(strstr(text, "\nprotect .envrc\n") != NULL);
	cr_expect(strstr(text, "\nmask .env\n") != NULL);
	cr_expect(strstr(text, "\nmask .env.*\n") != NULL);
	cr_expect(strstr(text, "\nmask-key *.pem\n") != NULL);
	free(text);
	nsb_gate_policy_free(&p);
}

/* ---- the command line ---------------------------------------------------- */

static struct nsb_config cfg;

static char argbuf[5][64];

static int cli(const char *a, const char *b, const char *c, struct nsb_error *e)
{
	const char *in[] = {"nsbox", a, b, c, "true"};
	char *argv[6];

	for (int i = 0; i < 5; i++) {
		snprintf(argbuf[i], sizeof(argbuf[i]), "%s", in[i]);
		argv[i] = argbuf[i];
	}
	argv[5] = NULL;
	nsb_config_init(&cfg);
	nsb_error_clear(e);
	return nsb_cli_parse(5, argv, &cfg, e);
}

Test(protect, cli_options)
{
	struct nsb_error e;

	cr_assert(eq(int, cli("--mask", "*.sqlite", "--no-protect", &e), 0), "%s", e.message);
	cr_expect(eq(sz, cfg.n_mask, 1));
	expect_str(cfg.mask[0], "*.sqlite");
	cr_expect(cfg.no_protect);
	cr_expect(eq(int, cfg.no_mask || cfg.rw_git, false));
	cr_assert(eq(int, cli("--mask", "/home/u/.aws/credentials", "--rw-git", &e), 0));
	expect_str(cfg.mask[0], "/home/u/.aws/credentials");
	cr_expect(cfg.rw_git);
	cr_assert(eq(int, cli("--no-mask", "--rw-git", "--no-protect", &e), 0));
	cr_expect(cfg.no_mask && cfg.rw_git && cfg.no_protect);

	cr_expect(eq(int, cli("--mask", "/*.pem", "--no-mask", &e), -EINVAL));
	expect_str(e.message, "--mask '/*.pem': invalid path or pattern");
	cr_expect(e.hint[0] != '\0');
	cr_expect(eq(int, cli("--mask", "", "--no-mask", &e), -EINVAL));
}

Test(protect, cli_mask_is_bounded)
{
	static char *argv[2 * NSB_MAX_MASK_ARGS + 5]; /* nsbox, 65 pairs, nsbox, NULL */
	static char w[3][8] = {"nsbox", "--mask", "*.db"};
	struct nsb_error e = {0};
	int n = 0;

	argv[n++] = w[0];
	for (int i = 0; i <= NSB_MAX_MASK_ARGS; i++) {
		argv[n++] = w[1];
		argv[n++] = w[2];
	}
	argv[n++] = w[0];
	argv[n] = NULL;
	nsb_config_init(&cfg);
	cr_expect(eq(int, nsb_cli_parse(n, argv, &cfg, &e), -E2BIG));
	expect_str(e.message, "--mask '*.db': too many (at most 64)");
}

/* ---- the record ------------------------------------------------------------ */

Test(protect, record_members)
{
	struct nsb_result r;
	char *out = NULL;
	size_t len = 0;

	nsb_result_init(&r);
	r.has_enforced = true;
	r.enforced.has_covers = true;
	r.enforced.protect_on = true;
	r.enforced.mask_on = false;
	r.enforced.n_protected = 2;
	r.enforced.protected_paths[0] = "/w/.git";
	r.enforced.protected_paths[1] = "/w/.envrc";
	r.enforced.covers_entries = 42;
	cr_assert(eq(int, nsb_result_to_json(&r, &out, &len), 0));
	cr_assert(json_check(out, len), "%s", out);
	cr_expect(strstr(out, "\"protected\":{\"count\":2,\"paths\":[\"/w/.git\",\"/w/.envrc\"],"
			      "\"truncated\":false,\"scanned\":42}") != NULL,
		  "%s", out);
	cr_expect(strstr(out, "\"masked\":null") != NULL, "%s", out);
	free(out);
}

/* ---- the scan ---------------------------------------------------------------- */

static char tree[64];

static void mk(const char *rel, const char *content)
{
	char path[512];
	snprintf(path, sizeof(path), "%s/%s", tree, rel);
	if (!content) {
		cr_assert(eq(int, mkdir(path, 0755), 0), "mkdir %s", path);
		return;
	}
	FILE *f = fopen(path, "we");
	cr_assert(f != NULL, "create %s", path);
	fputs(content, f);
	fclose(f);
}

static void make_tree(void)
{
	snprintf(tree, sizeof(tree), "/tmp/nsbox-protect-XXXXXX");
	cr_assert(mkdtemp(tree) != NULL);
}

static void remove_tree(void)
{
	char cmd[128];
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tree);
	cr_expect(eq(int, system(cmd), 0));
}

static char dest_w[] = "/w";

/* A plan of one user bind of the tree at /w (read-only or not). */
static void one_bind(struct nsb_plan *p, struct nsb_mount_op *op, bool ro)
{
	memset(p, 0, sizeof(*p));
	*op = (struct nsb_mount_op){.kind = NSB_OP_BIND,
				    .src = tree,
				    .dest = dest_w,
				    .readonly = ro,
				    .user = true,
				    .src_is_dir = true};
	p->ops = op;
	p->n_ops = 1;
}

static void free_covers(struct nsb_plan *p)
{
	for (size_t i = 0; i < p->n_covers; i++)
		free(p->covers[i].path);
	free(p->covers);
	p->covers = NULL;
	p->n_covers = 0;
}

static int scan(struct nsb_plan *p, struct nsb_cover_stats *st, struct nsb_error *e)
{
	struct nsb_gate_policy pol;
	int r;

	cr_assert(eq(int, nsb_gate_policy_init_default(&pol), 0));
	memset(st, 0, sizeof(*st));
	nsb_error_clear(e);
	r = nsb_protect_scan(&cfg, &pol, p, st, e);
	nsb_gate_policy_free(&pol);
	return r;
}

/* "kind:path" of every cover, joined by spaces, in the plan's order. */
static void covers_text(const struct nsb_plan *p, char *buf, size_t size)
{
	static const char kinds[] = {'P', 'M', 'N'};
	size_t at = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < p->n_covers; i++)
		at += (size_t)snprintf(buf + at, size - at, "%s%c:%s", i ? " " : "",
				       kinds[p->covers[i].kind], p->covers[i].path);
}

static void default_tree(void)
{
	mk(".git", NULL);
	mk(".git/hooks", NULL);
	mk(".git/config", "[core]\n");
	mk(".git/objects", NULL);
	mk(".git/objects/secret.pem", "-----BEGIN RSA PRIVATE KEY-----\n");
	mk(".envrc", "export A=1\n");
	mk(".env", "TOKEN=1\n");
	mk(".env.example", "TOKEN=\n");
	mk("src", NULL);
	mk("src/main.c", "int main;\n");
	mk("src/id_map.py", "def f(): pass\n");
	mk("certs", NULL);
	mk("certs/ca.pem", "-----BEGIN CERTIFICATE-----\n");
	mk("certs/server.key", "-----BEGIN PRIVATE KEY-----\n");
	mk(".vscode", NULL);
	mk(".vscode/.env", "X=1\n");
	mk("dotfiles", NULL);
	mk("dotfiles/bashrc", "alias ls=ls\n");
	cr_assert(eq(int,
		     symlink("dotfiles/bashrc", strcat(strcpy((char[600]){0}, tree), "/.bashrc")),
		     0));
}

Test(protect, scan_rw_bind, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char text[1024];

	default_tree();
	nsb_config_init(&cfg);
	one_bind(&p, &op, false);
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	/* Parents first; .git not entered; the link's target covered; the
	 * template, the certificate and the source file left alone. */
	cr_expect(strstr(text, "P:/w/.git") != NULL, "%s", text);
	cr_expect(strstr(text, "P:/w/.envrc") != NULL, "%s", text);
	cr_expect(strstr(text, "P:/w/.vscode") != NULL, "%s", text);
	cr_expect(strstr(text, "M:/w/.env") != NULL, "%s", text);
	cr_expect(strstr(text, "M:/w/certs/server.key") != NULL, "%s", text);
	cr_expect(strstr(text, "M:/w/.vscode/.env") != NULL, "%s", text);
	cr_expect(strstr(text, "P:/w/dotfiles/bashrc") != NULL, "%s", text); /* via .bashrc */
	cr_expect(strstr(text, "example") == NULL, "%s", text);
	cr_expect(strstr(text, "ca.pem") == NULL, "%s", text);
	cr_expect(strstr(text, "id_map") == NULL, "%s", text);
	cr_expect(strstr(text, "objects") == NULL, "%s", text);
	cr_expect(eq(sz, p.n_covers, 7), "%s", text);
	for (size_t i = 1; i < p.n_covers; i++)
		cr_expect(nsb_path_depth(p.covers[i - 1].path) <= nsb_path_depth(p.covers[i].path));
	cr_expect(eq(int, st.truncated, false));
	cr_expect(eq(sz, st.sniffed, 3)); /* ca.pem, server.key, id_map.py */
	free_covers(&p);
}

Test(protect, scan_read_only_bind_masks_only, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char text[1024];

	default_tree();
	nsb_config_init(&cfg);
	one_bind(&p, &op, true);
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	expect_str(text, "M:/w/.env M:/w/certs/server.key M:/w/.vscode/.env");
	free_covers(&p);
}

Test(protect, scan_opt_outs_cost_nothing, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;

	default_tree();
	nsb_config_init(&cfg);
	cfg.no_mask = true;
	one_bind(&p, &op, true);
	cr_assert(eq(int, scan(&p, &st, &e), 0));
	cr_expect(eq(sz, p.n_covers, 0));
	cr_expect(eq(sz, st.entries, 0)); /* not one directory read */
	cfg.no_protect = true;
	one_bind(&p, &op, false);
	cr_assert(eq(int, scan(&p, &st, &e), 0));
	cr_expect(eq(sz, st.entries, 0));
	cfg.no_mask = false;
	cr_assert(eq(int, scan(&p, &st, &e), 0));
	cr_expect(eq(sz, p.n_covers, 3)); /* masks only */
	free_covers(&p);
}

Test(protect, scan_rw_git, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char text[1024];

	mk(".git", NULL);
	mk(".git/hooks", NULL);
	mk(".git/config", "[core]\n");
	nsb_config_init(&cfg);
	cfg.rw_git = true;
	cfg.no_mask = true;
	one_bind(&p, &op, false);
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	expect_str(text, "N:/w/.git P:/w/.git/hooks P:/w/.git/config");
	cr_expect(eq(int, st.git_fallback, false));
	free_covers(&p);

	/* No hooks/: the payload could make them, so .git stays read-only. */
	char path[600];
	snprintf(path, sizeof(path), "%s/.git/hooks", tree);
	cr_assert(eq(int, rmdir(path), 0));
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	expect_str(text, "P:/w/.git");
	cr_expect(st.git_fallback);
	free_covers(&p);
}

Test(protect, scan_mask_options, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char text[1024], path[600], missing[600];

	mk("data", NULL);
	mk("data/users.sqlite", "x");
	mk("notes.txt", "x");
	snprintf(path, sizeof(path), "%s/notes.txt", tree);
	snprintf(missing, sizeof(missing), "%s/nothing-here", tree);
	nsb_config_init(&cfg);
	cfg.mask[cfg.n_mask++] = "*.sqlite";
	cfg.mask[cfg.n_mask++] = path;
	cfg.mask[cfg.n_mask++] = missing;	 /* nothing there to hide */
	cfg.mask[cfg.n_mask++] = "/usr/bin/env"; /* in no bind: not seen inside */
	one_bind(&p, &op, true);
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	expect_str(text, "M:/w/notes.txt M:/w/data/users.sqlite");
	free_covers(&p);

	cfg.n_mask = 0;
	cfg.mask[cfg.n_mask++] = tree; /* the bind's root itself */
	cr_expect(eq(int, scan(&p, &st, &e), -EINVAL));
	cr_expect(strstr(e.message, "is the root of a bind") != NULL, "%s", e.message);
	free_covers(&p);
}

Test(protect, scan_bounds, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char rel[600] = "";

	/* Deeper than NSB_SCAN_MAX_DEPTH: recorded, not failed; a secret at
	 * the root is still found (breadth first). */
	mk(".env", "A=1\n");
	for (int i = 0; i <= NSB_SCAN_MAX_DEPTH + 1; i++) {
		strcat(rel, i ? "/d" : "d");
		mk(rel, NULL);
	}
	strcat(rel, "/.env");
	mk(rel, "B=1\n");
	nsb_config_init(&cfg);
	one_bind(&p, &op, true);
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	cr_expect(st.truncated);
	expect_str(st.truncated_in, tree);
	cr_expect(eq(sz, p.n_covers, 1));
	expect_str(p.covers[0].path, "/w/.env");
	free_covers(&p);
}

Test(protect, scan_too_many_covers_fails, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char name[64];

	for (int i = 0; i <= NSB_MAX_COVERS; i++) {
		snprintf(name, sizeof(name), "s%d.env", i);
		mk(name, "x");
	}
	nsb_config_init(&cfg);
	cfg.mask[cfg.n_mask++] = "*.env";
	one_bind(&p, &op, true);
	cr_expect(eq(int, scan(&p, &st, &e), -E2BIG));
	cr_expect(strstr(e.message, "too many protected and masked paths") != NULL, "%s",
		  e.message);
	cr_expect(e.hint[0] != '\0');
	free_covers(&p);
}

/* The scan's cost on a tree of 10k files in 500 directories (printed). */
Test(protect, scan_cost_10k_files, .init = make_tree, .fini = remove_tree, .timeout = 120)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char rel[128];
	struct timespec a, b;

	for (int d = 0; d < 500; d++) {
		snprintf(rel, sizeof(rel), "d%d", d);
		mk(rel, NULL);
		for (int f = 0; f < 20; f++) {
			snprintf(rel, sizeof(rel), "d%d/f%d.c", d, f);
			mk(rel, "");
		}
	}
	nsb_config_init(&cfg);
	one_bind(&p, &op, false);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (int i = 0; i < 10; i++) {
		cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
		free_covers(&p);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	cr_expect(eq(sz, st.entries, 10500));
	fprintf(stderr, "protect scan of 10500 entries: %.2f ms\n",
		((double)(b.tv_sec - a.tv_sec) * 1e3 + (double)(b.tv_nsec - a.tv_nsec) / 1e6) / 10);
}

/* A bind nested in another hides what lies under its destination: the outer
 * scan leaves it to the inner one's. */
Test(protect, scan_nested_binds, .init = make_tree, .fini = remove_tree)
{
	static char dest_sub[] = "/w/sub";
	char sub[600], text[1024];
	struct nsb_plan p;
	struct nsb_mount_op ops[2];
	struct nsb_cover_stats st;
	struct nsb_error e;

	mk(".env", "A=1\n");
	mk("sub", NULL);
	mk("sub/.env", "B=1\n");
	snprintf(sub, sizeof(sub), "%s/sub", tree);
	nsb_config_init(&cfg);
	one_bind(&p, &ops[0], true);
	ops[1] = (struct nsb_mount_op){.kind = NSB_OP_BIND,
				       .src = sub,
				       .dest = dest_sub,
				       .readonly = true,
				       .user = true,
				       .src_is_dir = true};
	p.ops = ops;
	p.n_ops = 2;
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	expect_str(text, "M:/w/.env M:/w/sub/.env");
	cr_expect(eq(sz, p.covers[0].op, 0));
	cr_expect(eq(sz, p.covers[1].op, 1));
	free_covers(&p);
}

Test(protect, git_hooks_path)
{
	static const struct {
		const char *config, *want;
	} t[] = {
		{"[core]\n\thooksPath = .githooks\n", ".githooks"},
		{"[core]\n\tbare = false\n[core]\n  HOOKSPATH=\"my hooks\" # c\n", "my hooks"},
		{"[core]\nhooksPath = a\nhooksPath = /abs/b ; c\n", "/abs/b"}, /* the last */
		{"[alias]\n\thooksPath = x\n", ""},			       /* another section */
		{"[core]\n\thooksPathX = x\n", ""},
		{"[core]\n\thooksPath =\n", ""},
		{"", ""},
	};
	char out[NSB_PROTECT_HOOKS_PATH_MAX + 1];

	for (size_t i = 0; i < sizeof(t) / sizeof(t[0]); i++) {
		out[0] = '\0';
		int found = nsb_git_hooks_path(t[i].config, strlen(t[i].config), out, sizeof(out));
		cr_expect(eq(int, found, t[i].want[0] != '\0'), "%s", t[i].config);
		expect_str_at(found ? out : "", t[i].want, t[i].config);
	}
}

Test(protect, scan_protects_the_hooks_path, .init = make_tree, .fini = remove_tree)
{
	struct nsb_plan p;
	struct nsb_mount_op op;
	struct nsb_cover_stats st;
	struct nsb_error e;
	char text[1024];

	mk(".git", NULL);
	mk(".git/hooks", NULL);
	mk(".git/config", "[core]\n\thooksPath = tools/hooks\n");
	mk("tools", NULL);
	mk("tools/hooks", NULL);
	nsb_config_init(&cfg);
	cfg.no_mask = true;
	one_bind(&p, &op, false);
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	expect_str(text, "P:/w/.git P:/w/tools/hooks");
	free_covers(&p);
	cfg.rw_git = true;
	cr_assert(eq(int, scan(&p, &st, &e), 0), "%s", e.message);
	covers_text(&p, text, sizeof(text));
	/* Parents first; siblings of one depth in any order. */
	cr_expect(strncmp(text, "N:/w/.git ", 10) == 0, "%s", text);
	cr_expect(strstr(text, "P:/w/.git/hooks") && strstr(text, "P:/w/.git/config") &&
			  strstr(text, "P:/w/tools/hooks"),
		  "%s", text);
	cr_expect(eq(sz, p.n_covers, 4));
	free_covers(&p);
}
