// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The strict JSON reader and the request document.  The first byte picks:
 *   even  the reader alone: a document it accepts must also pass the
 *         independent checker (tests/unit/json_check.h), the tree's counts
 *         and links must agree, and every node's path must be printable;
 *   odd   the rest as a request applied to a fresh config: any outcome but
 *         a crash, and a refusal is a usage error with a message.
 */
#include <errno.h>

#include "../unit/json_check.h"
#include "fuzz.h"
#include "base/json_parse.h"
#include "core/request.h"

/* Links, counts and paths of the tree under v; returns the number of nodes. */
static size_t walk(const struct nsb_jval *v, int depth)
{
	char path[64];
	size_t n = 1, i = 0;

	FUZZ_ASSERT(depth <= NSB_JSON_MAX_DEPTH + 1);
	nsb_jval_path(v, path, sizeof(path));
	FUZZ_ASSERT(path[0] == '$' && strlen(path) < sizeof(path));
	if (v->type == NSB_JSTRING || v->type == NSB_JNUMBER)
		FUZZ_ASSERT(v->str && v->str[v->len] == '\0');
	for (const struct nsb_jval *c = v->first; c; c = c->next, i++) {
		FUZZ_ASSERT(c->parent == v && c->index == i);
		if (v->type == NSB_JOBJECT)
			FUZZ_ASSERT(c->key && c->key[c->key_len] == '\0');
		n += walk(c, depth + 1);
	}
	FUZZ_ASSERT(i == v->n);
	return n;
}

static void reader(const char *s, size_t n)
{
	struct nsb_jdoc d = {0};
	struct nsb_jerror e;
	int r = nsb_json_parse(&d, s, n, NSB_REQUEST_MAX_LEN, &e);

	if (r == 0) {
		/* The checker takes only the writer's one final newline: trailing
		 * whitespace, which RFC 8259 allows, is cut for it. */
		size_t k = n;
		while (k > 0 && strchr(" \t\r\n", s[k - 1]))
			k--;
		FUZZ_ASSERT(json_check(s, k));
		walk(d.root, 0);
	} else {
		FUZZ_ASSERT(r == -EINVAL || r == -E2BIG || r == -ENOMEM);
		FUZZ_ASSERT(e.message[0] && e.path[0] == '$');
	}
	nsb_jdoc_free(&d);
}

static void request(const char *s, size_t n)
{
	static struct nsb_config c;
	struct nsb_jdoc d = {0};
	struct nsb_error e = {0};
	int r;

	nsb_config_init(&c);
	r = nsb_request_apply(&c, &d, s, n, "fuzz", &e);
	if (r < 0)
		FUZZ_ASSERT(e.message[0] && e.stage == NSB_STAGE_USAGE);
	else
		FUZZ_ASSERT(c.from_request &&
			    (c.cmd_argv || c.seccomp_export || c.print_policy || c.print_profile));
	nsb_jdoc_free(&d);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size == 0)
		return 0;
	if (data[0] & 1)
		request((const char *)data + 1, size - 1);
	else
		reader((const char *)data + 1, size - 1);
	return 0;
}
