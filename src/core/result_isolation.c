// SPDX-License-Identifier: GPL-2.0-or-later
/* The record's enforced.isolation, missing and landlock members.  Pure (supervisor). */
#include <string.h>

#include "core/landlock_plan.h"
#include "core/result_isolation.h"

/* enforced.isolation, and for Landlock what is missing and what held. */
void nsb_result_put_isolation(struct nsb_json *j, const struct nsb_enforced *en)
{
	if (!en->isolation)
		return;
	nsb_json_key(j, "isolation");
	nsb_json_string(j, en->isolation);
	if (strcmp(en->isolation, "landlock") != 0)
		return;
	nsb_json_key(j, "missing");
	nsb_json_begin_array(j);
	for (size_t i = 0; nsb_landlock_missing[i]; i++)
		nsb_json_string(j, nsb_landlock_missing[i]);
	nsb_json_end_array(j);
	nsb_json_key(j, "landlock");
	nsb_json_begin_object(j);
	nsb_json_key(j, "abi");
	nsb_json_int(j, en->landlock_abi);
	nsb_json_key(j, "fs");
	nsb_json_bool(j, true);
	nsb_json_key(j, "net_tcp");
	nsb_json_bool(j, en->landlock_net_tcp);
	nsb_json_key(j, "scoped");
	nsb_json_begin_array(j);
	if (en->landlock_scoped & NSB_LL_SCOPE_SIGNAL)
		nsb_json_string(j, "signal");
	if (en->landlock_scoped & NSB_LL_SCOPE_ABSTRACT_UNIX)
		nsb_json_string(j, "abstract_unix_socket");
	nsb_json_end_array(j);
	nsb_json_key(j, "socket_filter");
	nsb_json_bool(j, en->landlock_socket_filter);
	nsb_json_end_object(j);
}
