/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Option syntax for the exec rules (gate_exec.c): each wrapper and
 * interpreter describes its options in a struct optspec, and one parser
 * walks a command's arguments by it to find the first operand, the argument
 * that passes program text, or the option that hides the command.
 */
#pragma once

#include <stdbool.h>

/* A NULL-terminated list of long options, written inline. */
#define L(...) ((const char *const[]){__VA_ARGS__, NULL})

/*
 * How each option behaves.  Short letters not listed are plain flags for an
 * interpreter and a refusal for a strict wrapper (an unknown option might
 * take a value, and then the command it runs is not where we think).
 */
struct optspec {
	const char *arg;      /* takes a value: the rest of the cluster or the next argument */
	const char *optrest;  /* optional value glued to the letter (the rest of the cluster) */
	const char *digits;   /* optional digits glued to the letter (perl -0777) */
	const char *code;     /* the value is program text (perl -e CODE) */
	const char *codeflag; /* a flag that turns the first operand into program text (sh -c) */
	const char *file;     /* the value is a program file (awk -f FILE) */
	const char *stop;     /* the value ends the options (python -m MOD) */
	const char *refuse;   /* wrapper options the gate cannot see through (env -S) */
	const char *noexec;   /* the tool then runs no command (command -v) */
	const char *flags;    /* known plain flags (needed by strict wrappers) */
	const char *const *long_arg;	 /* --opt=V or --opt V */
	const char *const *long_optrest; /* --opt or --opt=V */
	const char *const *long_flag;
	const char *const *long_code;
	const char *const *long_file;
	const char *const *long_refuse;
	bool strict;	  /* wrapper: unknown options are refused */
	bool plus;	  /* '+' also starts a cluster (sh +x) */
	bool dash_is_opt; /* a lone "-" is an option (env -) */
	bool adjustment;  /* -N, --N, -+N are options (nice) */
	/* wrappers (gate_tables.h): substitution strings and split command lines */
	const char *subst;	   /* the value is the substitution string (xargs -I R) */
	const char *subst_opt;	   /* optional glued substitution string (xargs -i[R]) */
	const char *split;	   /* the value is a command line split on blanks (env -S) */
	const char *subst_default; /* what subst_opt means without a value ("{}") */
	const char *const *long_noexec;
	const char *const *long_subst;
	const char *const *long_subst_opt;
	const char *const *long_split;
	/* fail closed: an unknown option at the end of its word takes the next
	 * word as its value unless that starts with '-' (interpreters) */
	bool unknown_value;
};

struct parsed {
	int first;	/* first operand (== end when none) */
	int code_idx;	/* argument that passes program text, or -1 */
	int refuse_idx; /* argument the wrapper cannot be seen through, or -1 */
	int unknown_idx;
	bool has_file;
	bool noexec;
	int stop_idx; /* argument holding the -m value, or -1 */
	const char *stop_value;
	const char *replace; /* the substitution string given (xargs -I/-i/--replace) */
	int split_idx;	     /* argument holding a split command line (env -S), or -1 */
	const char *split_value;
	bool unknown_seen; /* a non-strict parse met an option it does not know */
};

/* Parse the options of argv[s+1..e): returns the first operand and findings. */
void nsb_gate_parse_opts(const struct optspec *o, char *const *argv, int s, int e,
			 struct parsed *ret);
