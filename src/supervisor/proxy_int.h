/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Inside the proxy (proxy.h): its state, shared by proxy.c (the list, the
 * threads) and proxy_serve.c (one connection's protocol and relay). */
#pragma once

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#include "supervisor/proxy.h"

#define NSB_PROXY_RELAY_BUF (64u << 10)
#define NSB_PROXY_PIPE_MAX \
	(1 << 20) /* a bulk transfer's pipe: /proc/sys/fs/pipe-max-size's default */

struct conn {
	struct nsb_proxy *p;
	int client, up; /* -1 when closed; changed under p->lock */
	size_t idx;	/* its entry, or SIZE_MAX past the record's bound */
	int64_t start_ms;
};

struct nsb_proxy {
	const struct nsb_net_policy *pol;
	int sock, lfd, stopfd;
	pthread_t acceptor;
	bool acceptor_started;

	pthread_mutex_t lock;
	pthread_cond_t idle; /* active dropped to 0 */
	bool stopping;
	size_t active;
	struct conn *conns[NSB_PROXY_MAX_CONNS]; /* open ones, for stop */
	struct nsb_net_conn *rec;		 /* the record's list */
	size_t n_rec, room;
	uint64_t more;	 /* connections past NSB_NET_RECORD_MAX */
	uint64_t denied; /* refused by the policy */
};

/* Entries count from here (base/clock.h's nsb_mono_ms). */
extern int64_t nsb_proxy_t0_ms;

/* Fill c's entry in the list, under the lock (nothing past the bound). */
void nsb_proxy_entry_request(struct conn *c, const char *host, uint16_t port, const char *protocol);
/* allowed or not, why (the first reason stays); policy: counts as net.denied */
void nsb_proxy_entry_reason(struct conn *c, bool allowed, const char *reason, bool policy);
void nsb_proxy_entry_addr(struct conn *c, int family, const uint8_t *addr);
void nsb_proxy_entry_bytes(struct conn *c, uint64_t up, uint64_t down);

/* One connection's thread (proxy_serve.c); it ends with nsb_proxy_conn_close. */
/*
 * A socket whose traffic stays on a loopback device (the sandbox's side of
 * every connection; the upstream side where it goes to a loopback address)
 * gets Reno, which never paces: the host's default may be BBR, whose pacing
 * timers send on loopback from softirq context in whichever process runs,
 * for no gain where nothing is lost (1 GiB through the proxy: 0.55 of
 * direct with BBR on both sides, 0.75 with Reno).  Best effort: where it is
 * refused, the host's choice stays and only speed differs.
 */
void nsb_proxy_loopback_tcp(int fd);

void *nsb_proxy_conn_main(void *arg);
/* Close c's sockets, note its duration, release its slot and c. */
void nsb_proxy_conn_close(struct conn *c);
