// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The gate policy file parser on arbitrary text.  Invariants: an error has
 * stage "policy" and a "name:line:col: " message; lists never exceed their
 * limits; every allow-path is clean and absolute; and what the parser
 * accepted prints as a policy that parses back (into an empty policy) to
 * the same printout: nsb_policy_print and nsb_policy_parse round-trip.
 */
#include <errno.h>

#include "fuzz.h"
#include "gate/gate_shellopt.h"
#include "gate/policy.h"
#include "gate/policy_ask.h"
#include "base/util.h"

static char *print(const struct nsb_gate_policy *p, size_t *ret_len)
{
	char *out = NULL;
	FILE *f = open_memstream(&out, ret_len);
	if (!f)
		abort();
	FUZZ_ASSERT(nsb_policy_print(f, p, NULL) == 0);
	if (fclose(f) != 0)
		abort();
	return out;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct nsb_gate_policy p, q;
	struct nsb_error e = {0};
	char empty[1] = "";

	if (nsb_gate_policy_init_default(&p) < 0)
		abort();
	FILE *f = size ? fmemopen((void *)(uintptr_t)data, size, "r") : fmemopen(empty, 1, "r");
	if (!f)
		abort();
	int r = nsb_policy_parse(f, "fuzz.policy", &p, &e);
	fclose(f);
	if (r < 0) {
		FUZZ_ASSERT(e.err > 0);
		FUZZ_ASSERT(strcmp(nsb_stage_name(e.stage), "policy") == 0);
		FUZZ_ASSERT(memchr(e.message, '\0', sizeof(e.message)) != NULL);
		FUZZ_ASSERT(strncmp(e.message, "fuzz.policy:", 12) == 0);
		nsb_gate_policy_free(&p);
		return 0;
	}
	FUZZ_ASSERT(p.n_deny_exec <= NSB_MAX_GATE_OPTS);
	FUZZ_ASSERT(p.n_allow_exec <= NSB_MAX_GATE_OPTS);
	FUZZ_ASSERT(p.n_allow_path <= NSB_MAX_GATE_PATHS);
	FUZZ_ASSERT(p.n_shellopt <= NSB_MAX_GATE_SHELLOPT);
	for (size_t i = 0; i < p.n_allow_path; i++)
		FUZZ_ASSERT(nsb_path_is_clean_abs(p.allow_path[i]));
	FUZZ_ASSERT(p.n_protect <= NSB_PROTECT_MAX_GLOBS && p.n_mask <= NSB_PROTECT_MAX_GLOBS &&
		    p.n_mask_key <= NSB_PROTECT_MAX_GLOBS);
	for (size_t i = 0; i < p.n_mask; i++)
		FUZZ_ASSERT(nsb_protect_glob_valid(p.mask[i]) == 0);
	/* ask rules: bounded, each of its kind's shape */
	for (size_t i = 0; p.ask && i < p.ask->n; i++) {
		const struct nsb_ask_rule *a = &p.ask->rule[i];
		FUZZ_ASSERT(a->n_words >= 1 && a->n_words <= NSB_ASK_MAX_WORDS);
		FUZZ_ASSERT(a->kind == NSB_ASK_ARGV || a->n_words == 1);
		FUZZ_ASSERT(!a->consequence || (a->consequence[0] &&
						strlen(a->consequence) <= NSB_ASK_CONSEQUENCE_MAX));
	}
	FUZZ_ASSERT(!p.ask || p.ask->n <= NSB_ASK_MAX_RULES);

	size_t len1, len2;
	char *out1 = print(&p, &len1);
	nsb_gate_policy_init(&q);
	f = fmemopen(out1, len1 ? len1 : 1, "r");
	if (!f)
		abort();
	memset(&e, 0, sizeof(e));
	r = nsb_policy_parse(f, "printed.policy", &q, &e);
	fclose(f);
	if (r < 0) {
		fprintf(stderr, "printed policy does not parse: %s\n%s", e.message, out1);
		abort();
	}
	char *out2 = print(&q, &len2);
	if (len1 != len2 || memcmp(out1, out2, len1) != 0) {
		fprintf(stderr, "round trip differs:\n%s\n----\n%s", out1, out2);
		abort();
	}
	free(out1);
	free(out2);
	nsb_gate_policy_free(&q);
	nsb_gate_policy_free(&p);
	return 0;
}
