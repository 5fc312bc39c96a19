// SPDX-License-Identifier: GPL-2.0-or-later
/* The seccomp listener: answer, count and name every reported refusal (notify.h).  Supervisor. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <linux/seccomp.h>
#include <seccomp.h>

#include "base/fmt.h"
#include "base/clock.h"
#include "base/errname.h"
#include "base/util.h"
#include "supervisor/notify.h"

/* Notifications answered per call of nsb_notify_serve. */
#define BATCH 64

void nsb_notify_init(struct nsb_notify *nt, const struct nsb_bpf *bpf)
{
	*nt = (struct nsb_notify){.fd = -1, .bpf = bpf};
}

int nsb_notify_take(struct nsb_notify *nt, int fd, struct nsb_error *e)
{
	nt->fd = fd;
	nt->got = true;
	nt->t0_ms = nsb_mono_ms();
	/* Nothing else until the first notification: most runs never get
	 * one, and their launch pays for nothing more.  (No O_NONBLOCK: the
	 * kernel's RECV ignores it; serve polls before each RECV instead.) */
	(void)e;
	return 0;
}

/* Buffers of the kernel's sizes (they may be larger than ours), at the first
 * notification. */
static int prepare(struct nsb_notify *nt, struct nsb_error *e)
{
	struct seccomp_notif_sizes sizes = {0};

	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sizes) < 0)
		return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
				     "ask the kernel for the seccomp notification sizes");
	nt->req_size = sizes.seccomp_notif > sizeof(struct seccomp_notif)
			       ? (size_t)sizes.seccomp_notif
			       : sizeof(struct seccomp_notif);
	nt->resp_size = sizes.seccomp_notif_resp > sizeof(struct seccomp_notif_resp)
				? (size_t)sizes.seccomp_notif_resp
				: sizeof(struct seccomp_notif_resp);
	nt->req = calloc(1, nt->req_size);
	nt->resp = calloc(1, nt->resp_size);
	if (nt->bpf->learn)
		nt->learned = calloc(1, sizeof(*nt->learned));
	if (!nt->req || !nt->resp || (nt->bpf->learn && !nt->learned))
		return nsb_error_set(e, -ENOMEM, NSB_STAGE_SUPERVISE, "seccomp listener");
	return 0;
}

void nsb_notify_parse_status(const char *text, int *ret_pid, char *comm, size_t comm_size)
{
	const char *p;

	*ret_pid = -1;
	if (comm_size)
		comm[0] = '\0';
	p = strstr(text, "Name:\t");
	if (p && comm_size) {
		p += 6;
		size_t len = nsb_strcspn(p, "\n");
		if (len >= comm_size)
			len = comm_size - 1;
		memcpy(comm, p, len);
		comm[len] = '\0';
	}
	/* NStgid: the thread group's id in each PID namespace, the
	 * sandbox's last. */
	p = strstr(text, "\nNStgid:");
	if (!p)
		return;
	p += 8;
	size_t len = nsb_strcspn(p, "\n");
	const char *last = NULL;
	for (size_t i = 0; i < len; i++)
		if ((p[i] >= '0' && p[i] <= '9') && (i == 0 || p[i - 1] == ' ' || p[i - 1] == '\t'))
			last = p + i;
	if (last) {
		long v = nsb_strtol10(last, NULL);
		*ret_pid = v > 0 && v <= INT_MAX ? (int)v : -1;
	}
}

/* The caller as seen inside, read while its id is still valid. */
static void read_caller(struct nsb_notify *nt, const struct seccomp_notif *req,
			struct nsb_seccomp_violation *v)
{
	char path[64], text[2048];
	ssize_t n = -1;
	uint64_t id = req->id;

	v->pid = -1;
	v->comm[0] = '\0';
	nsb_format(path, sizeof(path), "/proc/%u/status", req->pid);
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		n = read(fd, text, sizeof(text) - 1);
		close(fd);
	}
	if (n <= 0)
		return;
	text[n] = '\0';
	/* Only if the caller still waits: its pid was not reused meanwhile. */
	if (ioctl(nt->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) < 0)
		return;
	nsb_notify_parse_status(text, &v->pid, v->comm, sizeof(v->comm));
}

/* "errno EPERM" (the action as a profile writes it). */
static void format_action(int err, char *buf, size_t size)
{
	const char *name = nsb_errno_name_for(err, NSB_ERRNAME_PROFILE);

	if (name)
		nsb_format(buf, size, "errno %s", name);
	else
		nsb_format(buf, size, "errno %d", err);
}

static struct nsb_seccomp_violation *find(struct nsb_notify *nt, int nr, int err)
{
	for (size_t k = 0; k < nt->n_ent; k++) {
		size_t i = (nt->last + k) % nt->n_ent;
		if (nt->ent[i].nr == nr && nt->ent_err[i] == err) {
			nt->last = i;
			return &nt->ent[i];
		}
	}
	return NULL;
}

/* Count the call; its first occurrence makes a new entry (while there is room). */
static void count(struct nsb_notify *nt, const struct seccomp_notif *req, int err)
{
	struct nsb_seccomp_violation *v;
	int nr = req->data.nr;

	nt->total++;
	v = find(nt, nr, err);
	if (v) {
		v->count++;
		return;
	}
	if (!nt->ent) {
		nt->ent = calloc(NSB_RESULT_MAX_SECCOMP, sizeof(*nt->ent));
		nt->ent_err = calloc(NSB_RESULT_MAX_SECCOMP, sizeof(*nt->ent_err));
	}
	if (!nt->ent || !nt->ent_err || nt->n_ent >= NSB_RESULT_MAX_SECCOMP) {
		nt->unlisted++;
		return;
	}
	nt->last = nt->n_ent++;
	v = &nt->ent[nt->last];
	nt->ent_err[nt->last] = err;
	v->nr = nr;
	v->count = 1;
	char *name = seccomp_syscall_resolve_num_arch(nsb_seccomp_arch(), nr);
	nsb_format(v->syscall, sizeof(v->syscall), "%s", name ? name : "?");
	free(name);
	format_action(err, v->action, sizeof(v->action));
	memcpy(v->args, req->data.args, sizeof(v->args));
	v->ms = nsb_mono_ms() - nt->t0_ms;
	read_caller(nt, req, v);
}

/* The errno the refusing rule carries: the program's answer for this call. */
static int errno_of(const struct nsb_notify *nt, const struct seccomp_data *d)
{
	const struct nsb_bpf *b = nt->bpf;
	uint32_t ret = nsb_bpf_eval(b->insns, b->n_insns, d);

	/* Anything else would be a program that is not the installed one:
	 * refuse all the same. */
	if ((ret & SECCOMP_RET_ACTION_FULL) != SECCOMP_RET_USER_NOTIF)
		return EPERM;
	return (int)(ret & SECCOMP_RET_DATA);
}

/* One notification: receive, count, answer.  1 when one was answered, 0
 * when none was pending, -errno (e set) when the listener failed. */
static int serve_one(struct nsb_notify *nt, struct nsb_error *e)
{
	if (!nt->req) {
		int r = prepare(nt, e);
		if (r < 0)
			return r;
	}
	if (!nt->req || !nt->resp)
		return -ENOMEM; /* (prepare said so already) */
	struct seccomp_notif *req = nt->req;
	struct seccomp_notif_resp *resp = nt->resp;

	memset(req, 0, nt->req_size);
	if (ioctl(nt->fd, SECCOMP_IOCTL_NOTIF_RECV, req) < 0) {
		/* ENOENT: its caller died between the wakeup and now. */
		if (errno == EINTR || errno == ENOENT || errno == EAGAIN)
			return errno == EAGAIN ? 0 : 1;
		nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
			      "receive a seccomp notification");
		return nsb_error_hint(
			e, "the sandbox was stopped: its refused call could not be answered");
	}
	memset(resp, 0, nt->resp_size);
	resp->id = req->id;
	if (nt->learned) {
		/* Learning: seen, counted, run as if no filter were there. */
		if (req->data.nr >= 0 && req->data.nr < NSB_LEARN_MAX_NR) {
			nt->learned->used[req->data.nr] = true;
			nt->learned->counts[req->data.nr]++;
		} else {
			nt->learned->other++;
		}
		resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	} else {
		int err = errno_of(nt, &req->data);
		count(nt, req, err);
		resp->error = -err;
	}
	for (;;) {
		if (ioctl(nt->fd, SECCOMP_IOCTL_NOTIF_SEND, resp) == 0)
			return 1;
		if (errno == EINTR)
			continue;
		/* ENOENT: the caller is gone (killed, or its process exited). */
		if (errno == ENOENT)
			return 1;
		nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
			      "answer a seccomp notification for '%s'",
			      nt->n_ent ? nt->ent[nt->last].syscall : "?");
		return nsb_error_hint(
			e, "the sandbox was stopped: its refused call could not be answered");
	}
}

int nsb_notify_serve(struct nsb_notify *nt, struct nsb_error *e)
{
	for (int i = 0; i < BATCH && nt->fd >= 0; i++) {
		struct pollfd p = {.fd = nt->fd, .events = POLLIN};

		if (poll(&p, 1, 0) < 0) {
			if (errno == EINTR)
				continue;
			return nsb_error_set(e, nsb_negerrno(), NSB_STAGE_SUPERVISE,
					     "wait for seccomp notifications");
		}
		if (p.revents & POLLIN) {
			int r = serve_one(nt, e);
			if (r < 0)
				return r;
			continue;
		}
		/* No process left under the filter: nothing more can come. */
		if (p.revents & (POLLHUP | POLLERR | POLLNVAL))
			nsb_closep(&nt->fd);
		break;
	}
	return 0;
}

void nsb_notify_record(const struct nsb_notify *nt, struct nsb_result *res)
{
	res->seccomp_violations = nt->ent;
	res->n_seccomp_violations = nt->n_ent;
	res->seccomp_unlisted = nt->unlisted;
}

/* Append to buf[size] at *len; the text is cut, never overrun. */
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));
static void append(char *buf, size_t size, size_t *len, const char *fmt, ...)
{
	va_list ap;
	int n;

	if (*len >= size)
		return;
	va_start(ap, fmt);
	n = nsb_vformat(buf + *len, size - *len, fmt, ap);
	va_end(ap);
	if (n > 0)
		*len = *len + (size_t)n < size ? *len + (size_t)n : size - 1;
}

int nsb_notify_summary(const struct nsb_notify *nt, char *buf, size_t size)
{
	/* One line: the first few syscalls, the record has them all. */
	const size_t shown = nt->n_ent < 6 ? nt->n_ent : 6;
	uint64_t rest = nt->unlisted;
	size_t len = 0;

	if (!nt->total || size == 0)
		return 0;
	buf[0] = '\0';
	append(buf, size, &len,
	       "nsbox: seccomp refused %llu call%s:", (unsigned long long)nt->total,
	       nt->total == 1 ? "" : "s");
	for (size_t i = 0; i < nt->n_ent; i++) {
		if (i >= shown) {
			rest += nt->ent[i].count;
			continue;
		}
		append(buf, size, &len, "%s %s x%llu (%s)", i ? "," : "", nt->ent[i].syscall,
		       (unsigned long long)nt->ent[i].count, nt->ent[i].action);
	}
	if (rest)
		append(buf, size, &len, ", %llu more", (unsigned long long)rest);
	append(buf, size, &len, " (\"violations\" in the record; --quiet hides this line)");
	return 1;
}

void nsb_notify_close(struct nsb_notify *nt)
{
	nsb_closep(&nt->fd);
	free(nt->req);
	free(nt->resp);
	free(nt->ent);
	free(nt->ent_err);
	free(nt->learned);
	nt->learned = NULL;
	nt->req = nt->resp = NULL;
	nt->ent = NULL;
	nt->ent_err = NULL;
	nt->n_ent = 0;
}
