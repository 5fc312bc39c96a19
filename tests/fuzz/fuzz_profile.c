// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The seccomp profile parser on arbitrary text read through fmemopen.  The
 * opener serves a few fixed in-memory includes (one valid, one that includes
 * itself, one with an error) and refuses every other name, so include paths,
 * cycles and errors in children are all reachable.  Invariants: an error
 * carries stage "profile" and a message; a profile has a default action,
 * every rule a valid argument index and at most six conditions; the action
 * formatter never overflows.
 */
#include <errno.h>

#include "fuzz.h"
#include "seccomp/profile.h"

static const struct {
	const char *name, *text;
} includes[] = {
	{"common", "group @basic\n\tread write close\nend\n@basic allow\nexit_group allow\n"},
	{"self", "include self\n"},
	{"bad", "read errno EPERM if arg9 == 1\n"},
	{"groups", "group @io\n\tread write\nend\ngroup @more\n\t@io pread64\nend\n"},
	{"dflt", "default errno EPERM\n"},
};

static int mem_opener(const char *name, const char *from, void *userdata, FILE **ret_f,
		      char **ret_path, struct nsb_error *e)
{
	for (size_t i = 0; i < sizeof(includes) / sizeof(includes[0]); i++) {
		if (strcmp(name, includes[i].name) != 0)
			continue;
		FILE *f = fmemopen((void *)(uintptr_t)includes[i].text, strlen(includes[i].text),
				   "r");
		char *path = strdup(name);
		if (!f || !path)
			abort();
		*ret_f = f;
		*ret_path = path;
		return 0;
	}
	return nsb_error_setx(e, -ENOENT, NSB_STAGE_PROFILE, "no include '%s'", name);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nsb_profile *p = NULL;
	struct nsb_error e = {0};
	char empty[1] = "";

	/* fmemopen refuses a zero-length buffer: give it a one-byte empty string. */
	FILE *f = size ? fmemopen((void *)(uintptr_t)data, size, "r") : fmemopen(empty, 1, "r");
	if (!f)
		abort();
	int r = nsb_profile_parse(f, "fuzz.profile", mem_opener, NULL, &p, &e);
	fclose(f);
	if (r < 0) {
		FUZZ_ASSERT(p == NULL);
		FUZZ_ASSERT(e.err > 0);
		FUZZ_ASSERT(strcmp(nsb_stage_name(e.stage), "profile") == 0);
		FUZZ_ASSERT(memchr(e.message, '\0', sizeof(e.message)) && e.message[0]);
		return 0;
	}
	FUZZ_ASSERT(p != NULL);
	FUZZ_ASSERT(p->has_default);
	FUZZ_ASSERT(p->n_rules <= NSB_PROFILE_MAX_RULES);
	FUZZ_ASSERT(p->n_groups <= NSB_PROFILE_MAX_GROUPS);
	FUZZ_ASSERT(p->n_files >= 1 && p->n_files <= NSB_PROFILE_MAX_FILES);
	char buf[64];
	FUZZ_ASSERT(nsb_action_format(&p->default_action, buf, sizeof(buf)) == 0);
	for (size_t i = 0; i < p->n_rules; i++) {
		const struct nsb_rule *rule = &p->rules[i];
		FUZZ_ASSERT(rule->n_conds <= NSB_PROFILE_MAX_CONDS);
		FUZZ_ASSERT(memchr(rule->name, '\0', sizeof(rule->name)) != NULL);
		FUZZ_ASSERT(rule->origin.file && rule->origin.line >= 1);
		for (unsigned c = 0; c < rule->n_conds; c++)
			FUZZ_ASSERT(rule->conds[c].arg <= 5);
		if (rule->action.kind == NSB_ACTION_ERRNO)
			FUZZ_ASSERT(rule->action.errno_value >= 0 &&
				    rule->action.errno_value <= 4095);
		FUZZ_ASSERT(nsb_action_format(&rule->action, buf, sizeof(buf)) == 0);
	}
	for (size_t i = 0; i < p->n_groups; i++) {
		FUZZ_ASSERT(p->groups[i].name[0] == '@');
		FUZZ_ASSERT(p->groups[i].n_nrs <= NSB_PROFILE_MAX_MEMBERS);
		FUZZ_ASSERT(nsb_profile_group(p, p->groups[i].name) != NULL);
	}
	nsb_profile_free(p);
	return 0;
}
