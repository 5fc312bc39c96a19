// SPDX-License-Identifier: GPL-2.0-or-later
/* The plan's environment (plan_env.h): the fixed set, proxy mode's variables,
 * the caller's locale, --env.  Pure (supervisor). */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "base/util.h"
#include "core/netpolicy.h"
#include "core/plan.h"
#include "core/plan_env.h"

/* Set NAME=VALUE in the plan's environment, replacing an earlier NAME. */
static int env_set(struct nsb_plan *p, const char *name, size_t name_len, const char *value,
		   struct nsb_error *e)
{
	char *s;
	size_t vlen = strlen(value);

	s = malloc(name_len + 1 + vlen + 1);
	if (!s)
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_PLAN, "build the environment");
	memcpy(s, name, name_len);
	s[name_len] = '=';
	memcpy(s + name_len + 1, value, vlen + 1);

	for (size_t i = 0; i < p->n_envp; i++) {
		if (strncmp(p->envp[i], name, name_len) == 0 && p->envp[i][name_len] == '=') {
			free(p->envp[i]);
			p->envp[i] = s;
			return 0;
		}
	}
	if (p->n_envp >= NSB_MAX_ENVP) {
		free(s);
		return nsb_error_setx(e, -E2BIG, NSB_STAGE_PLAN,
				      "too many environment variables (at most %d)", NSB_MAX_ENVP);
	}
	p->envp[p->n_envp++] = s;
	p->envp[p->n_envp] = NULL;
	return 0;
}

static bool is_locale_var(const char *s)
{
	return strncmp(s, "LC_", 3) == 0 || strncmp(s, "LANG=", 5) == 0 ||
	       strncmp(s, "LANGUAGE=", 9) == 0 || strncmp(s, "TERM=", 5) == 0;
}

int nsb_plan_proxy_env(struct nsb_plan *p, uint16_t port, bool keep, struct nsb_error *e)
{
	char name[16], value[48];
	int r = 0;

	p->proxy_port = port;
	for (size_t i = 0; r >= 0 && nsb_net_proxy_env(i, port, name, value); i++)
		if (!keep || !nsb_env_get(p->envp, name, strlen(name)))
			r = env_set(p, name, strlen(name), value, e);
	return r;
}

int nsb_plan_build_env(const struct nsb_config *c, const struct nsb_facts *f, struct nsb_plan *p,
		       struct nsb_error *e)
{
	int r;

	/* A fixed PATH: the command is looked up in the sandbox's view, never
	 * with the caller's PATH (which names host directories). */
	r = env_set(p, "PATH", 4, NSB_SANDBOX_PATH, e);
	if (r < 0)
		return r;
	r = env_set(p, "HOME", 4, NSB_SANDBOX_HOME, e);
	if (r < 0)
		return r;

	/* Proxy mode's way out, before --env, which may override it. */
	r = c->net_proxy
		    ? nsb_plan_proxy_env(
			      p, (uint16_t)(c->proxy_port ? c->proxy_port : NSB_DEFAULT_PROXY_PORT),
			      false, e)
		    : 0;
	if (r < 0)
		return r;

	/* Locale and terminal type describe how to talk to the caller. */
	for (size_t i = 0; f->environ && f->environ[i]; i++) {
		const char *s = f->environ[i];
		const char *eq = strchr(s, '=');
		if (!eq || !is_locale_var(s))
			continue;
		r = env_set(p, s, (size_t)(eq - s), eq + 1, e);
		if (r < 0)
			return r;
	}

	for (size_t i = 0; i < c->n_env; i++) {
		const char *s = c->env[i];
		const char *eq = strchr(s, '=');
		if (eq) {
			r = env_set(p, s, (size_t)(eq - s), eq + 1, e);
		} else {
			const char *v = nsb_env_get(f->environ, s, strlen(s));
			if (!v) {
				nsb_error_setx(e, -ENOENT, NSB_STAGE_PLAN,
					       "--env '%s': not set in the caller's environment",
					       s);
				return nsb_error_hint(e, "pass a value explicitly: --env %s=VALUE",
						      s);
			}
			r = env_set(p, s, strlen(s), v, e);
		}
		if (r < 0)
			return r;
	}
	return 0;
}

int nsb_plan_setenv(struct nsb_plan *p, const char *name, const char *value, struct nsb_error *e)
{
	return env_set(p, name, strlen(name), value, e);
}
