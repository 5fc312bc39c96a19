// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The corpus of ordinary agent commands (issue 12, section 3): every command
 * line under tests/gate/corpus/ must pass the built-in policy.  A guardrail
 * that refuses ordinary work is switched off by the people it protects, so a
 * refusal here is a bug in the gate, not in the corpus.
 *
 * Corpus format: one command per line, its argv as a JSON array of strings
 * (exact bytes: quotes, '|', '&', '<' and escapes survive), lines starting
 * with '#' and blank lines skipped.  The gate sees the commands as nsbox's
 * front would for a project at PROJ with the working directory at its root,
 * through an in-memory view of a Debian-like system (gate_fakefs.h): merged
 * /usr, versioned interpreters, alternatives links, a virtualenv whose python
 * links to the system's, node_modules/.bin links.
 */
#include <criterion/criterion.h>
#include <criterion/new/assert.h>
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "base/macro.h"
#include "base/util.h"
#include "gate/gate.h"
#include "gate_fakefs.h"

#define CORPUS_DIR  NSB_SRCDIR "/tests/gate/corpus"
#define PROJ	    "/home/dev/app"
#define MAX_ARGS    64
#define MAX_LINE    4096
#define MAX_FILES   32
#define MIN_CORPUS  300
#define FILE_SUFFIX ".jsonl"

/* ---- the sandbox's view, as the gate sees it ---------------------------- */

#define D(p)	FAKE_DIR(p)
#define F(p)	FAKE_FILE(p)
#define S(p, t) FAKE_LINK(p, t)

/* Programs installed as plain files in /usr/bin (the rest are links below),
 * separated by spaces. */
static const char usr_bin[] =
	"ack ag apt apt-cache ar autoreconf base64 basename bash bats bc black bun "
	"bundle cargo cat clang clang-format clang-tidy cmake cmp column composer "
	"coverage cp ctest curl cut dash date deno df diff dirname dos2unix dotnet dpkg "
	"du echo egrep env expr fdfind file find flake8 free gem git go gofmt "
	"golangci-lint grep gzip head hexdump iconv id isort javac jq ldd less ln locate "
	"ls make man mawk md5sum meson mkdir mv mvn mypy nano nice ninja nm nodejs nox "
	"npm nproc npx objdump od openssl patch perl phpunit pip3 pipx pkg-config pnpm "
	"poetry pre-commit printenv printf ps psql pwd pylint pytest python3.11 realpath "
	"rg rspec ruby ruff rustc sed seq sha256sum shellcheck sleep sort sqlite3 stat "
	"strip tail tar tee test time timeout touch tox tr tree true truncate uname uniq "
	"unzip uv wc wget whereis which whoami xargs x86_64-linux-gnu-gcc-12 "
	"x86_64-linux-gnu-g++-12 xxd yarn yq zip";

static const struct fake_ent fixed[] = {
	/* merged /usr, as Debian ships it */
	S("/bin", "usr/bin"),
	S("/sbin", "usr/sbin"),
	S("/lib", "usr/lib"),
	D("/usr"),
	D("/usr/bin"),
	D("/usr/sbin"),
	D("/usr/lib"),
	D("/usr/lib/python3"),
	D("/usr/lib/python3/dist-packages"),
	D("/usr/lib/jvm"),
	D("/usr/lib/jvm/java-17-openjdk-amd64"),
	D("/usr/lib/jvm/java-17-openjdk-amd64/bin"),
	F("/usr/lib/jvm/java-17-openjdk-amd64/bin/java"),
	D("/usr/include"),
	F("/usr/include/stdio.h"),
	F("/usr/include/seccomp.h"),
	D("/usr/include/python3.11"),
	D("/usr/local"),
	D("/usr/local/bin"),
	D("/usr/local/lib"),
	/* versioned interpreters and compilers, alternatives */
	S("/usr/bin/python3", "python3.11"),
	S("/usr/bin/python", "python3"),
	S("/usr/bin/pip", "pip3"),
	S("/usr/bin/node", "nodejs"),
	S("/usr/bin/sh", "dash"),
	S("/usr/bin/gcc", "gcc-12"),
	S("/usr/bin/gcc-12", "x86_64-linux-gnu-gcc-12"),
	S("/usr/bin/g++", "g++-12"),
	S("/usr/bin/g++-12", "x86_64-linux-gnu-g++-12"),
	S("/usr/bin/cc", "/etc/alternatives/cc"),
	S("/usr/bin/awk", "/etc/alternatives/awk"),
	S("/usr/bin/java", "/etc/alternatives/java"),
	S("/usr/bin/fd", "fdfind"),
	D("/etc"),
	D("/etc/alternatives"),
	S("/etc/alternatives/cc", "/usr/bin/gcc"),
	S("/etc/alternatives/awk", "/usr/bin/mawk"),
	S("/etc/alternatives/java", "/usr/lib/jvm/java-17-openjdk-amd64/bin/java"),
	F("/etc/passwd"),
	/* the sandbox's private and per-sandbox views */
	D("/tmp"),
	D("/dev"),
	F("/dev/null"),
	D("/proc"),
	F("/proc/cpuinfo"),
	F("/proc/meminfo"),
	/* the caller's home, outside every root */
	D("/home"),
	D("/home/dev"),
	F("/home/dev/.bashrc"),
	/* the project */
	D(PROJ),
	F(PROJ "/README.md"),
	F(PROJ "/Makefile"),
	F(PROJ "/CMakeLists.txt"),
	F(PROJ "/meson.build"),
	F(PROJ "/configure"),
	F(PROJ "/autogen.sh"),
	F(PROJ "/gradlew"),
	F(PROJ "/run_tests.sh"),
	F(PROJ "/package.json"),
	F(PROJ "/package-lock.json"),
	F(PROJ "/tsconfig.json"),
	F(PROJ "/Cargo.toml"),
	F(PROJ "/go.mod"),
	F(PROJ "/pyproject.toml"),
	F(PROJ "/setup.py"),
	F(PROJ "/requirements.txt"),
	F(PROJ "/requirements-dev.txt"),
	F(PROJ "/manage.py"),
	F(PROJ "/main.py"),
	F(PROJ "/main.go"),
	F(PROJ "/main.ts"),
	F(PROJ "/index.js"),
	F(PROJ "/server.js"),
	F(PROJ "/train.py"),
	F(PROJ "/config.yaml"),
	F(PROJ "/config.example.yaml"),
	F(PROJ "/config.ini"),
	F(PROJ "/docker-compose.yml"),
	F(PROJ "/build.log"),
	F(PROJ "/fix.patch"),
	F(PROJ "/changes.diff"),
	F(PROJ "/results.json"),
	F(PROJ "/notes.txt"),
	D(PROJ "/.git"),
	F(PROJ "/.git/config"),
	D(PROJ "/.git/hooks"),
	D(PROJ "/src"),
	F(PROJ "/src/main.c"),
	F(PROJ "/src/parser.c"),
	F(PROJ "/src/util.c"),
	F(PROJ "/src/util.h"),
	F(PROJ "/src/list.c"),
	F(PROJ "/src/app.py"),
	F(PROJ "/src/cli.py"),
	F(PROJ "/src/index.ts"),
	D(PROJ "/src/components"),
	D(PROJ "/include"),
	F(PROJ "/include/types.h"),
	D(PROJ "/tests"),
	F(PROJ "/tests/test_main.py"),
	F(PROJ "/tests/test_api.py"),
	F(PROJ "/tests/test_util.py"),
	F(PROJ "/tests/test_util.c"),
	F(PROJ "/tests/cli.bats"),
	D(PROJ "/scripts"),
	F(PROJ "/scripts/gen.py"),
	F(PROJ "/scripts/build.js"),
	F(PROJ "/scripts/setup.sh"),
	F(PROJ "/scripts/ci.sh"),
	F(PROJ "/scripts/release.sh"),
	F(PROJ "/scripts/deploy.sh"),
	F(PROJ "/scripts/bench.py"),
	D(PROJ "/data"),
	F(PROJ "/data/users.csv"),
	F(PROJ "/data/items.json"),
	D(PROJ "/logs"),
	F(PROJ "/logs/app.log"),
	D(PROJ "/build"),
	F(PROJ "/build/app"),
	F(PROJ "/build/test_util"),
	D(PROJ "/bin"),
	F(PROJ "/bin/server"),
	D(PROJ "/vendor"),
	/* a virtualenv: its python is a link to the system's */
	D(PROJ "/.venv"),
	D(PROJ "/.venv/bin"),
	S(PROJ "/.venv/bin/python", "/usr/bin/python3"),
	S(PROJ "/.venv/bin/python3", "python"),
	F(PROJ "/.venv/bin/pip"),
	F(PROJ "/.venv/bin/pytest"),
	/* node_modules/.bin links into the packages */
	D(PROJ "/node_modules"),
	D(PROJ "/node_modules/.bin"),
	D(PROJ "/node_modules/jest"),
	D(PROJ "/node_modules/jest/bin"),
	F(PROJ "/node_modules/jest/bin/jest.js"),
	S(PROJ "/node_modules/.bin/jest", "../jest/bin/jest.js"),
};

static const char *const fake_path[] = {"/usr/local/bin", "/usr/bin", "/bin",
					"/usr/sbin",	  "/sbin",    NULL};

static const struct nsb_gate_root roots[] = {
	{PROJ, PROJ, false}, /* the default project bind: at its own path */
};

#define MAX_BIN 256

static struct fake_ent ents[ARRAY_SIZE(fixed) + MAX_BIN];
static char bin_paths[MAX_BIN][64];
static struct fake_fs fs;

static void view_init(void)
{
	size_t n = 0, n_bin = 0;

	for (size_t i = 0; i < ARRAY_SIZE(fixed); i++)
		ents[n++] = fixed[i];
	for (const char *s = usr_bin; *s;) {
		size_t len = strcspn(s, " ");
		cr_assert(n_bin < MAX_BIN && len < 50);
		snprintf(bin_paths[n_bin], sizeof(bin_paths[0]), "/usr/bin/%.*s", (int)len, s);
		ents[n++] = (struct fake_ent)FAKE_FILE(bin_paths[n_bin]);
		n_bin++;
		s += len;
		s += strspn(s, " ");
	}
	fs = (struct fake_fs){.ents = ents, .n_ents = n, .path = fake_path};
}

/* ---- reading the corpus -------------------------------------------------- */

/* One command: its argv (pointers into buf) and where it came from. */
struct cmd {
	char buf[MAX_LINE];
	char *argv[MAX_ARGS + 1];
	int argc;
	char where[PATH_MAX];
};

static int hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

/* One \uXXXX code point (the BMP: the corpus needs no surrogates) as UTF-8. */
static const char *put_u(const char *s, char **out)
{
	unsigned cp = 0;

	for (int i = 0; i < 4; i++) {
		int h = hexval(s[i]);
		if (h < 0)
			return NULL;
		cp = cp * 16 + (unsigned)h;
	}
	if (cp == 0 || (cp >= 0xd800 && cp <= 0xdfff))
		return NULL;
	if (cp < 0x80) {
		*(*out)++ = (char)cp;
	} else if (cp < 0x800) {
		*(*out)++ = (char)(0xc0 | cp >> 6);
		*(*out)++ = (char)(0x80 | (cp & 0x3f));
	} else {
		*(*out)++ = (char)(0xe0 | cp >> 12);
		*(*out)++ = (char)(0x80 | ((cp >> 6) & 0x3f));
		*(*out)++ = (char)(0x80 | (cp & 0x3f));
	}
	return s + 4;
}

/* A JSON string at s (after its opening quote) into out; the byte after the
 * closing quote, or NULL when malformed.  out has room: a string never grows. */
static const char *json_string(const char *s, char *out)
{
	static const char esc_in[] = "\"\\/bfnrt", esc_out[] = "\"\\/\b\f\n\r\t";

	while (*s && *s != '"') {
		if ((unsigned char)*s < 0x20)
			return NULL;
		if (*s != '\\') {
			*out++ = *s++;
			continue;
		}
		s++;
		if (*s == 'u') {
			s = put_u(s + 1, &out);
			if (!s)
				return NULL;
			continue;
		}
		const char *e = *s ? strchr(esc_in, *s) : NULL;
		if (!e)
			return NULL;
		*out++ = esc_out[e - esc_in];
		s++;
	}
	if (*s != '"')
		return NULL;
	*out = '\0';
	return s + 1;
}

static const char *skip_ws(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* A line holding one JSON array of strings into c; false when malformed. */
static bool parse_line(const char *line, struct cmd *c)
{
	const char *s = skip_ws(line);
	char *out = c->buf;

	c->argc = 0;
	if (*s++ != '[')
		return false;
	s = skip_ws(s);
	while (*s == '"') {
		if (c->argc == MAX_ARGS)
			return false;
		c->argv[c->argc++] = out;
		s = json_string(s + 1, out);
		if (!s)
			return false;
		out += strlen(out) + 1;
		s = skip_ws(s);
		if (*s == ',')
			s = skip_ws(s + 1);
		else
			break;
	}
	c->argv[c->argc] = NULL;
	if (*s++ != ']')
		return false;
	s = skip_ws(s);
	return c->argc > 0 && (*s == '\0' || *s == '\n' || (s[0] == '\r' && s[1] == '\n'));
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* The corpus files, sorted; returns how many. */
static size_t corpus_files(char names[MAX_FILES][NAME_MAX + 1])
{
	char *sorted[MAX_FILES];
	char tmp[MAX_FILES][NAME_MAX + 1];
	struct dirent *de;
	size_t n = 0;
	DIR *d = opendir(CORPUS_DIR);

	cr_assert(d != NULL, "open '%s': %s", CORPUS_DIR, strerror(errno));
	while ((de = readdir(d))) {
		size_t len = strlen(de->d_name);
		if (len <= strlen(FILE_SUFFIX) ||
		    strcmp(de->d_name + len - strlen(FILE_SUFFIX), FILE_SUFFIX) != 0)
			continue;
		cr_assert(n < MAX_FILES, "more than %d corpus files", MAX_FILES);
		snprintf(tmp[n], sizeof(tmp[n]), "%s", de->d_name);
		sorted[n] = tmp[n];
		n++;
	}
	closedir(d);
	qsort(sorted, n, sizeof(sorted[0]), by_name);
	for (size_t i = 0; i < n; i++)
		snprintf(names[i], NAME_MAX + 1, "%s", sorted[i]);
	return n;
}

/* Call fn on every command of the corpus; returns how many there were. */
static size_t for_each_cmd(void (*fn)(const struct cmd *c, void *ud), void *ud)
{
	static struct cmd c;
	char names[MAX_FILES][NAME_MAX + 1];
	char line[MAX_LINE], path[PATH_MAX];
	size_t n_files = corpus_files(names), count = 0;

	cr_assert(n_files > 0, "no *%s file in %s", FILE_SUFFIX, CORPUS_DIR);
	for (size_t i = 0; i < n_files; i++) {
		int lineno = 0;
		snprintf(path, sizeof(path), "%s/%.255s", CORPUS_DIR, names[i]);
		FILE *f = fopen(path, "re");
		cr_assert(f != NULL, "open '%s': %s", path, strerror(errno));
		while (fgets(line, sizeof(line), f)) {
			lineno++;
			cr_assert(strchr(line, '\n') || feof(f), "%s:%d: line too long", names[i],
				  lineno);
			const char *s = skip_ws(line);
			if (*s == '#' || *s == '\n' || *s == '\0')
				continue;
			cr_assert(parse_line(line, &c), "%s:%d: not a JSON array of strings: %s",
				  names[i], lineno, line);
			snprintf(c.where, sizeof(c.where), "%.255s:%d", names[i], lineno);
			fn(&c, ud);
			count++;
		}
		fclose(f);
	}
	return count;
}

/* ---- judging ------------------------------------------------------------ */

/* The command as nsbox's front resolves it: a path is taken from the
 * working directory through the roots, a bare name from PATH. */
static bool resolve(const struct nsb_gate_input *in, const char *name, char *out, size_t outsz)
{
	char inside[PATH_MAX], mapped[PATH_MAX];

	if (!strchr(name, '/'))
		return fake_which(&fs, name, out, outsz) == 0;
	return nsb_path_normalize(in->cwd, name, inside, sizeof(inside)) == 0 &&
	       nsb_gate_map_host(in, inside, mapped, sizeof(mapped)) == 0 &&
	       fake_realpath(&fs, mapped, out, outsz) == 0;
}

/* The inside destinations of the default plan's mounts (the system view,
 * /proc, /dev, /tmp, the project): the gate's view of what exists. */
static const char *const sandbox_view[] = {
	"/usr",	       "/bin",	     "/sbin",	   "/lib",
	"/lib32",      "/lib64",     "/libx32",	   "/etc/ld.so.cache",
	"/etc/passwd", "/etc/group", "/etc/hosts", "/proc",
	"/dev",	       "/tmp",	     PROJ,
};

static void judge(const struct cmd *c, struct nsb_gate_verdict *v, bool *found)
{
	struct nsb_fs_ops ops = fake_fs_ops(&fs);
	struct nsb_gate_policy p;
	char real[PATH_MAX];
	struct nsb_gate_input in = {
		.argv = c->argv,
		.argc = c->argc,
		.cwd = PROJ,
		.home = "/home/dev",
		.roots = roots,
		.n_roots = ARRAY_SIZE(roots),
		.fs = &ops,
		/* what the default plan mounts, as the front passes it */
		.view = sandbox_view,
		.n_view = ARRAY_SIZE(sandbox_view),
	};

	*found = resolve(&in, c->argv[0], real, sizeof(real));
	in.cmd_path = *found ? real : NULL;
	in.cmd_real_base = *found ? nsb_gate_basename(real) : NULL;
	cr_assert(eq(int, nsb_gate_policy_init_default(&p), 0));
	cr_assert(eq(int, nsb_gate_check(&p, &in, v), 0), "%s: the gate failed", c->where);
	nsb_gate_policy_free(&p);
}

/* The argv as one readable line: each argument in single quotes. */
static void show_argv(const struct cmd *c, char *out, size_t outsz)
{
	size_t len = 0;

	out[0] = '\0';
	for (int i = 0; i < c->argc && len < outsz; i++)
		len += (size_t)snprintf(out + len, outsz - len, "%s'%s'", i ? " " : "", c->argv[i]);
}

static void expect_allowed(const struct cmd *c, void *ud)
{
	size_t *refused = ud;
	struct nsb_gate_verdict v;
	char shown[1024];
	bool found;

	judge(c, &v, &found);
	if (v.allowed)
		return;
	(*refused)++;
	show_argv(c, shown, sizeof(shown));
	cr_expect(v.allowed, "%s: %s refused by %s at argv[%d] ('%s'): %s", c->where, shown, v.rule,
		  v.argv_index, v.token, v.reason);
}

static void count_unresolved(const struct cmd *c, void *ud)
{
	size_t *missing = ud;
	struct nsb_gate_verdict v;
	bool found;

	judge(c, &v, &found);
	if (!found)
		(*missing)++;
	cr_expect(found, "%s: '%s' is not in the test's view of the system", c->where, c->argv[0]);
}

static void count_only(const struct cmd *c, void *ud)
{
	(void)c;
	(void)ud;
}

TestSuite(gate_corpus, .init = view_init);

Test(gate_corpus, built_in_policy_allows_every_command)
{
	size_t refused = 0;
	size_t n = for_each_cmd(expect_allowed, &refused);

	cr_assert(eq(sz, refused, 0), "%zu of %zu corpus commands refused", refused, n);
}

Test(gate_corpus, holds_enough_commands)
{
	size_t n = for_each_cmd(count_only, NULL);

	cr_assert(n >= MIN_CORPUS, "only %zu commands (at least %d)", n, MIN_CORPUS);
}

/* Every command is found, so the gate judges the program it would really
 * run (an interpreter by the file it resolves to), not an unknown name. */
Test(gate_corpus, every_command_resolves_in_the_view)
{
	size_t missing = 0;

	for_each_cmd(count_unresolved, &missing);
	cr_assert(eq(sz, missing, 0));
}

/* The parser keeps argv exact. */
Test(gate_corpus, parser_keeps_bytes_exact)
{
	static struct cmd c;

	cr_assert(parse_line("[\"grep\", \"-E\", \"a|b\", \"x\\\"y\\\\z\\u00e9\\t\"]\n", &c));
	cr_assert(eq(int, c.argc, 4));
	cr_expect(strcmp(c.argv[2], "a|b") == 0, "got '%s'", c.argv[2]);
	cr_expect(strcmp(c.argv[3], "x\"y\\z\xc3\xa9\t") == 0, "got '%s'", c.argv[3]);
	cr_expect(c.argv[4] == NULL);

	static const char *const bad[] = {
		"[\"a\" \"b\"]",  /* a missing comma */
		"[]",		  /* an empty argv */
		"[\"a\"] x",	  /* trailing text */
		"[\"a\\u0000\"]", /* a NUL */
		"[\"a\\q\"]",	  /* an unknown escape */
		"[\"unterminated]",
	};
	for (size_t i = 0; i < ARRAY_SIZE(bad); i++) {
		bool ok = parse_line(bad[i], &c);
		cr_expect(ok == false, "accepted %s", bad[i]);
	}
}
