// SPDX-License-Identifier: GPL-2.0-or-later
/* The record's seccomp entries of "violations" (pure): one per syscall and action. */
#include <string.h>

#include "base/json.h"
#include "base/macro.h"
#include "core/result.h"

/* {"kind": "seccomp", "syscall", "nr", "action", "count",
 *  "first": {"pid", "comm", "args", "ms"}} */
static void put_entry(struct nsb_json *j, const struct nsb_seccomp_violation *v)
{
	nsb_json_begin_object(j);
	nsb_json_key(j, "kind");
	nsb_json_string(j, "seccomp");
	nsb_json_put_strn(j, "syscall", v->syscall, sizeof(v->syscall));
	nsb_json_key(j, "nr");
	nsb_json_int(j, v->nr);
	nsb_json_put_strn(j, "action", v->action, sizeof(v->action));
	nsb_json_key(j, "count");
	nsb_json_uint(j, v->count);
	nsb_json_key(j, "first");
	nsb_json_begin_object(j);
	nsb_json_key(j, "pid");
	/* Unknown when the caller was gone before it could be read. */
	if (v->pid > 0) {
		nsb_json_int(j, v->pid);
		nsb_json_put_strn(j, "comm", v->comm, sizeof(v->comm));
	} else {
		nsb_json_null(j);
		nsb_json_key(j, "comm");
		nsb_json_null(j);
	}
	nsb_json_key(j, "args");
	nsb_json_begin_array(j);
	for (size_t i = 0; i < ARRAY_SIZE(v->args); i++)
		nsb_json_uint(j, v->args[i]);
	nsb_json_end_array(j);
	nsb_json_key(j, "ms");
	nsb_json_int(j, v->ms);
	nsb_json_end_object(j);
	nsb_json_end_object(j);
}

void nsb_result_put_seccomp(struct nsb_json *j, const struct nsb_result *r)
{
	for (size_t i = 0; i < r->n_seccomp_violations && i < NSB_RESULT_MAX_SECCOMP; i++)
		put_entry(j, &r->seccomp_violations[i]);
	/* Past the bound: the refused calls of the syscalls not listed. */
	if (r->seccomp_unlisted) {
		nsb_json_begin_object(j);
		nsb_json_key(j, "kind");
		nsb_json_string(j, "seccomp_unlisted");
		nsb_json_key(j, "count");
		nsb_json_uint(j, r->seccomp_unlisted);
		nsb_json_end_object(j);
	}
}
