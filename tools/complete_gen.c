// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * complete_gen: the build step that writes nsbox's shell completions from
 * the option table that feeds --help and the parser (src/core/cli_options.c),
 * so that a new row is completed without anyone editing a script:
 *
 *   complete_gen bash|zsh|fish PROFILEDIR > FILE
 *
 * What an option's value completes to is derived, not listed:
 *   - no metavar: a flag, no value;
 *   - the metavar's first word PATH or FILE: files, DIR: directories;
 *   - lower-case alternatives in the metavar ("N|unlimited"): those words;
 *   - a setter whose usage hint reads "<METAVAR> is a, b or c": those words,
 *     each one kept only if the setter itself accepts it (a word ending in
 *     ":UPPER" is offered as its prefix, "export:"), so a hint that is prose
 *     ("SIZE is bytes with ...") enumerates nothing;
 *   - the few values no metavar can say, keyed by option name (overrides[]):
 *     --seccomp (the built-in profiles, "none", the installed ones, files),
 *     --print-profile (the built-in texts), --cgroup-parent (directories of
 *     the cgroup2 mount).
 * The subcommands are main.c's verbs, listed here with their arguments.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/cli_options.h"
#include "seccomp/builtin.h"
#include "seccomp/profile.h"

enum kind {
	K_FLAG,	   /* no value */
	K_TEXT,	   /* a value nothing can guess */
	K_FILE,	   /* a path */
	K_DIR,	   /* a directory */
	K_WORDS,   /* one of words[] */
	K_PROFILE, /* --seccomp: words[], installed profile names, files */
	K_CGROUP,  /* a directory under the cgroup2 mount */
};

#define MAX_WORDS 16

struct value {
	enum kind kind;
	const char *words[MAX_WORDS];
	size_t n_words;
	char buf[512]; /* the words' storage */
	size_t used;
};

static const struct {
	const char *name;
	enum kind kind;
} overrides[] = {
	{"--seccomp", K_PROFILE},
	{"--print-profile", K_WORDS},
	{"--cgroup-parent", K_CGROUP},
};

static void add_word(struct value *v, const char *w, size_t n)
{
	if (v->n_words == MAX_WORDS || v->used + n + 1 > sizeof(v->buf))
		return;
	memcpy(v->buf + v->used, w, n);
	v->buf[v->used + n] = '\0';
	v->words[v->n_words++] = v->buf + v->used;
	v->used += n + 1;
}

/* Does o's setter take arg?  A fresh config each time: setters append. */
static bool accepts(const struct nsb_cli_option *o, const char *arg)
{
	static struct nsb_config c;
	struct nsb_cli_state s = {.c = &c};
	struct nsb_error e = {0};

	nsb_config_init(&c);
	return nsb_cli_set(o, arg, &s, &e) == 0;
}

/* The setter's hint for a value it refuses: "MODE is a, b or c" gives the
 * words, each checked against the setter; all or nothing. */
static void words_from_hint(const struct nsb_cli_option *o, struct value *v)
{
	static struct nsb_config c;
	struct nsb_cli_state s = {.c = &c};
	struct nsb_error e = {0};
	char lead[64], hint[sizeof(e.hint)];

	nsb_config_init(&c);
	if (nsb_cli_set(o, "\x01", &s, &e) == 0 || !e.hint[0])
		return;
	snprintf(lead, sizeof(lead), "%s is ", o->metavar);
	if (strncmp(e.hint, lead, strlen(lead)) != 0)
		return;
	snprintf(hint, sizeof(hint), "%s", e.hint + strlen(lead));
	hint[strcspn(hint, "(")] = '\0';
	for (char *save = NULL, *w = strtok_r(hint, ", ", &save); w;
	     w = strtok_r(NULL, ", ", &save)) {
		if (strcmp(w, "or") == 0)
			continue;
		char *colon = strchr(w, ':');
		char probe[64];
		size_t n = colon ? (size_t)(colon - w) + 1 : strlen(w);
		/* "export:PATH": the prefix, tried with a path after it */
		snprintf(probe, sizeof(probe), "%.*s%s", (int)n, w, colon ? "/x" : "");
		if (!accepts(o, probe)) {
			v->n_words = 0;
			return;
		}
		add_word(v, w, n);
	}
	if (v->n_words)
		v->kind = K_WORDS;
}

static void value_of(const struct nsb_cli_option *o, struct value *v)
{
	const char *m = o->metavar[0] ? o->metavar : NULL;
	size_t first;

	memset(v, 0, sizeof(*v));
	v->kind = m ? K_TEXT : K_FLAG;
	if (!m)
		return;
	for (size_t i = 0; i < ARRAY_SIZE(overrides); i++)
		if (strcmp(o->name, overrides[i].name) == 0)
			v->kind = overrides[i].kind;
	if (v->kind == K_PROFILE || v->kind == K_WORDS) {
		/* the compiled built-ins (and "none") for --seccomp, every
		 * built-in text for --print-profile */
		for (size_t i = 0; i < nsb_n_builtin_profiles; i++)
			if (v->kind == K_WORDS || nsb_builtin_profiles[i].insns)
				add_word(v, nsb_builtin_profiles[i].name,
					 strlen(nsb_builtin_profiles[i].name));
		if (v->kind == K_PROFILE)
			add_word(v, NSB_SECCOMP_NONE, strlen(NSB_SECCOMP_NONE));
		return;
	}
	if (v->kind == K_CGROUP)
		return;
	first = strcspn(m, "[|");
	if ((first == 4 && (!strncmp(m, "PATH", 4) || !strncmp(m, "FILE", 4))))
		v->kind = K_FILE;
	else if (first == 3 && !strncmp(m, "DIR", 3))
		v->kind = K_DIR;
	for (const char *p = m; *p;) {
		size_t n = strcspn(p, "|");
		char word[64];

		snprintf(word, sizeof(word), "%.*s", (int)n, p);
		if (n && p[0] >= 'a' && p[0] <= 'z' && accepts(o, word))
			add_word(v, p, n);
		p += n + (p[n] == '|');
	}
	if (v->n_words) {
		v->kind = K_WORDS;
		return;
	}
	if (v->kind == K_TEXT)
		words_from_hint(o, v);
}

static const struct {
	const char *name;
	const char *args; /* for the scripts' messages */
	enum kind arg_kind;
	const char *flags; /* its own options, space-separated */
} subcommands[] = {
	{"doctor", "", K_FLAG, "--json"},
	{"apply", "EXPORT DIR", K_DIR, ""},
};

/* ---- the writers ---------------------------------------------------------- */

static const char header[] = "Generated by tools/complete_gen from the option table "
			     "(src/core/cli_options.c): do not edit.";

/* The cgroup2 mount, found when completing (the scripts run anywhere). */
static const char cgroup_mount[] =
	"awk '$3 == \"cgroup2\" { print $2; exit }' /proc/self/mounts 2>/dev/null";

static void put_words(const struct value *v)
{
	for (size_t i = 0; i < v->n_words; i++)
		printf("%s%s", i ? " " : "", v->words[i]);
}

/* The options (of one kind) as a case pattern: --ro|--rw */
static bool put_case(const struct value *values, enum kind kind)
{
	bool any = false;

	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		if (values[i].kind == kind) {
			printf("%s%s", any ? "|" : "\t", nsb_cli_options[i].name);
			any = true;
		}
	return any;
}

static void bash_value(const struct value *values, const char *profiledir)
{
	puts("_nsbox_value()\n{\n\tlocal opt=$1 cur=$2 m f n\n\tcase $opt in");
	if (put_case(values, K_FILE))
		puts(")\n\t\tcompopt -o filenames\n\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\") ;;");
	if (put_case(values, K_DIR))
		puts(")\n\t\tcompopt -o filenames\n\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;");
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++) {
		const struct value *v = &values[i];
		if (v->kind != K_WORDS)
			continue;
		printf("\t%s)\n", nsb_cli_options[i].name);
		/* a prefix word ("export:") then a path after it */
		for (size_t w = 0; w < v->n_words; w++) {
			const char *word = v->words[w];
			if (word[strlen(word) - 1] != ':')
				continue;
			printf("\t\tif [[ $cur == %s* ]]; then\n"
			       "\t\t\tmapfile -t COMPREPLY < <(compgen -P %s -f -- \"${cur#%s}\")\n"
			       "\t\t\tcompopt -o nospace\n"
			       "\t\t\t! declare -F __ltrim_colon_completions >/dev/null ||\n"
			       "\t\t\t\t__ltrim_colon_completions \"$cur\"\n"
			       "\t\t\treturn\n\t\tfi\n",
			       word, word, word);
		}
		printf("\t\tmapfile -t COMPREPLY < <(compgen -W '");
		put_words(v);
		puts("' -- \"$cur\")\n\t\t[[ ${COMPREPLY[0]-} != *: ]] || compopt -o nospace ;;");
	}
	if (put_case(values, K_PROFILE)) {
		printf(")\n\t\tmapfile -t COMPREPLY < <(compgen -W '");
		for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
			if (values[i].kind == K_PROFILE)
				put_words(&values[i]);
		printf("' -- \"$cur\")\n"
		       "\t\tfor f in '%s'/*.profile; do\n"
		       "\t\t\t[[ -f $f ]] || continue\n"
		       "\t\t\tn=${f##*/}\n\t\t\tn=${n%%.profile}\n"
		       "\t\t\t[[ $n != \"$cur\"* ]] || [[ \" ${COMPREPLY[*]} \" == *\" $n \"* ]] ||\n"
		       "\t\t\t\tCOMPREPLY+=(\"$n\")\n"
		       "\t\tdone\n"
		       "\t\tcompopt -o filenames\n"
		       "\t\tmapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -f -- \"$cur\") ;;\n",
		       profiledir);
	}
	if (put_case(values, K_CGROUP))
		printf(")\n\t\tm=$(%s)\n"
		       "\t\t[[ -n $m ]] || return\n"
		       "\t\t[[ $cur == \"$m\"* ]] || cur=$m/\n"
		       "\t\tcompopt -o filenames\n"
		       "\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;\n",
		       cgroup_mount);
	puts("\tesac\n}\n");
}

static void write_bash(const struct value *values, const char *profiledir)
{
	printf("# bash completion for nsbox(1).  %s\n# shellcheck shell=bash\n\n", header);
	puts("# Does option $1 take a value?\n_nsbox_takes()\n{\n\tcase $1 in");
	for (enum kind k = K_TEXT; k <= K_CGROUP; k++)
		if (put_case(values, k))
			puts(") return 0 ;;");
	puts("\tesac\n\treturn 1\n}\n");
	bash_value(values, profiledir);
	puts("# The command from word $1 on: bash-completion's own completion for it.\n"
	     "_nsbox_command()\n{\n"
	     "\tif declare -F _command_offset >/dev/null; then\n\t\t_command_offset \"$1\"\n"
	     "\telif (($1 == cword)); then\n"
	     "\t\tmapfile -t COMPREPLY < <(compgen -c -- \"$cur\")\n"
	     "\telse\n\t\tcompopt -o filenames\n"
	     "\t\tmapfile -t COMPREPLY < <(compgen -f -- \"$cur\")\n\tfi\n}\n");
	puts("_nsbox()\n{\n\tlocal cur prev words cword i w\n"
	     "\tif declare -F _get_comp_words_by_ref >/dev/null; then\n"
	     "\t\t_get_comp_words_by_ref -n : cur prev words cword\n\telse\n"
	     "\t\tcur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}\n"
	     "\t\twords=(\"${COMP_WORDS[@]}\") cword=$COMP_CWORD\n\tfi\n"
	     "\tCOMPREPLY=()\n"
	     "\t# --opt=VALUE: bash splits the word at '='\n"
	     "\t[[ $cur != = ]] || { cur='' prev=${words[cword - 1]}; }\n"
	     "\t[[ $prev != = ]] || prev=${words[cword - 2]}\n"
	     "\tfor ((i = 1; i < cword; i++)); do\n\t\tw=${words[i]}\n\t\tcase $w in\n"
	     "\t\t--) _nsbox_command $((i + 1)); return ;;\n"
	     "\t\t-*)\n\t\t\tif _nsbox_takes \"$w\"; then\n"
	     "\t\t\t\t[[ ${words[i + 1]-} != = ]] || ((i++))\n\t\t\t\t((i++))\n\t\t\tfi ;;\n"
	     "\t\t*)");
	printf("\t\t\tcase $i:$w in\n");
	for (size_t i = 0; i < ARRAY_SIZE(subcommands); i++) {
		printf("\t\t\t1:%s)\n", subcommands[i].name);
		if (subcommands[i].arg_kind == K_DIR)
			puts("\t\t\t\tcompopt -o filenames\n"
			     "\t\t\t\tmapfile -t COMPREPLY < <(compgen -d -- \"$cur\") ;;");
		else
			printf("\t\t\t\tmapfile -t COMPREPLY < <(compgen -W '%s' -- \"$cur\") ;;\n",
			       subcommands[i].flags);
	}
	puts("\t\t\t*) _nsbox_command \"$i\" ;;\n\t\t\tesac\n\t\t\treturn ;;\n\t\tesac\n\tdone\n"
	     "\t# the loop stepped past the current word: it is the value of prev\n"
	     "\tif _nsbox_takes \"$prev\" && ((i > cword)); then\n"
	     "\t\t_nsbox_value \"$prev\" \"$cur\"\n\telif [[ $cur == -* ]]; then");
	printf("\t\tmapfile -t COMPREPLY < <(compgen -W '");
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		printf("%s%s", i ? " " : "", nsb_cli_options[i].name);
	printf(" --' -- \"$cur\")\n\telse\n\t\t_nsbox_command \"$cword\"\n");
	printf("\t\t((cword != 1)) || mapfile -t -O \"${#COMPREPLY[@]}\" COMPREPLY < <(compgen -W '");
	for (size_t i = 0; i < ARRAY_SIZE(subcommands); i++)
		printf("%s%s", i ? " " : "", subcommands[i].name);
	puts("' -- \"$cur\")\n\tfi\n}\ncomplete -F _nsbox nsbox");
}

/* zsh's _arguments reads ':' and brackets in a message as syntax. */
static void put_zsh_message(const char *s)
{
	for (; *s; s++)
		printf("%s%c", strchr(":[]\\", *s) ? "\\" : "", *s);
}

static void write_zsh(const struct value *values, const char *profiledir)
{
	printf("#compdef nsbox\n# zsh completion for nsbox(1).  %s\n\n", header);
	printf("_nsbox_cgroup() {\n\tlocal m\n\tm=$(%s)\n\t[[ -n $m ]] || return 1\n"
	       "\tif [[ $PREFIX != $m* ]]; then\n\t\tcompadd -S / -- $m\n\telse\n"
	       "\t\t_path_files -/\n\tfi\n}\n\n",
	       cgroup_mount);
	printf("_nsbox_profile() {\n\tlocal -a names\n\tnames=(");
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		if (values[i].kind == K_PROFILE)
			put_words(&values[i]);
	printf(" '%s'/*.profile(N:t:r))\n"
	       "\t_alternative \"profiles:profile:(${(u)names})\" 'files:file:_files'\n}\n\n",
	       profiledir);
	printf("_nsbox_first() {\n\t_alternative 'subcommands:subcommand:(");
	for (size_t i = 0; i < ARRAY_SIZE(subcommands); i++)
		printf("%s%s", i ? " " : "", subcommands[i].name);
	puts(")' 'commands:command:_command_names -e'\n}\n");
	puts("_nsbox() {\n\tcase ${words[2]-} in");
	for (size_t i = 0; i < ARRAY_SIZE(subcommands); i++) {
		printf("\t%s)\n\t\tif (( CURRENT > 2 )); then\n", subcommands[i].name);
		if (subcommands[i].arg_kind == K_DIR)
			puts("\t\t\t_files -/\n\t\t\treturn\n\t\tfi ;;");
		else
			printf("\t\t\tcompadd -- %s\n\t\t\treturn\n\t\tfi ;;\n",
			       subcommands[i].flags);
	}
	puts("\tesac\n\t_arguments -S : \\");
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++) {
		const struct nsb_cli_option *o = &nsb_cli_options[i];
		const struct value *v = &values[i];
		if (v->kind == K_FLAG) {
			printf("\t\t'%s%s' \\\n", o->stop ? "(- *)" : "*", o->name);
			continue;
		}
		printf("\t\t'*%s=:", o->name);
		put_zsh_message(o->metavar);
		switch (v->kind) {
		case K_FILE:
			printf(":_files");
			break;
		case K_DIR:
			printf(":_files -/");
			break;
		case K_PROFILE:
			printf(":_nsbox_profile");
			break;
		case K_CGROUP:
			printf(":_nsbox_cgroup");
			break;
		case K_WORDS:
			printf(":(");
			put_words(v);
			printf(")");
			break;
		default:
			printf(": ");
			break;
		}
		puts("' \\");
	}
	puts("\t\t'(-)1:command:_nsbox_first' \\\n\t\t'*::argument:_normal'\n}\n\n_nsbox \"$@\"");
}

static void write_fish(const struct value *values, const char *profiledir)
{
	printf("# fish completion for nsbox(1).  %s\n\n", header);
	printf("function __nsbox_cgroup\n\tset -l m (%s)\n\ttest -n \"$m\"; or return\n"
	       "\tset -l tok (commandline -ct)\n"
	       "\tstring match -q -- \"$m*\" $tok; or set tok $m/\n"
	       "\t__fish_complete_directories $tok\nend\n\n",
	       cgroup_mount);
	printf("function __nsbox_profiles\n\tprintf '%%s\\n' ");
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		if (values[i].kind == K_PROFILE)
			put_words(&values[i]);
	printf("\n\tfor f in '%s'/*.profile\n\t\tbasename $f .profile\n\tend\nend\n\n", profiledir);
	printf("complete -c nsbox -n __fish_is_first_arg -a '");
	for (size_t i = 0; i < ARRAY_SIZE(subcommands); i++)
		printf("%s%s", i ? " " : "", subcommands[i].name);
	puts("'");
	for (size_t i = 0; i < ARRAY_SIZE(subcommands); i++)
		if (subcommands[i].flags[0])
			printf("complete -c nsbox -n '__fish_seen_subcommand_from %s' -a '%s'\n",
			       subcommands[i].name, subcommands[i].flags);
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++) {
		const struct value *v = &values[i];
		printf("complete -c nsbox -l %s", nsb_cli_options[i].name + 2);
		switch (v->kind) {
		case K_FLAG:
			break;
		case K_FILE:
			printf(" -r -F");
			break;
		case K_DIR:
			printf(" -x -a '(__fish_complete_directories)'");
			break;
		case K_PROFILE:
			printf(" -r -F -a '(__nsbox_profiles)'");
			break;
		case K_CGROUP:
			printf(" -x -a '(__nsbox_cgroup)'");
			break;
		case K_WORDS:
			printf(" -x -a '");
			put_words(v);
			printf("'");
			break;
		default:
			printf(" -x");
			break;
		}
		if (v->kind != K_FLAG)
			printf(" -d '%s'", nsb_cli_options[i].metavar);
		puts("");
	}
}

int main(int argc, char *argv[])
{
	static struct value values[NSB_CLI_N_OPTIONS];

	if (argc != 3) {
		fputs("usage: complete_gen bash|zsh|fish PROFILEDIR\n", stderr);
		return 2;
	}
	for (size_t i = 0; i < NSB_CLI_N_OPTIONS; i++)
		value_of(&nsb_cli_options[i], &values[i]);
	if (strcmp(argv[1], "bash") == 0)
		write_bash(values, argv[2]);
	else if (strcmp(argv[1], "zsh") == 0)
		write_zsh(values, argv[2]);
	else if (strcmp(argv[1], "fish") == 0)
		write_fish(values, argv[2]);
	else {
		fprintf(stderr, "complete_gen: unknown shell '%s'\n", argv[1]);
		return 2;
	}
	if (fflush(stdout) != 0 || ferror(stdout)) {
		perror("complete_gen: write");
		return 1;
	}
	return 0;
}
