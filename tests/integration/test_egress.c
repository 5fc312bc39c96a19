// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Proxy mode (--allow-net): real clients inside (curl, Python's urllib, a
 * hand-written CONNECT with a TLS ClientHello) through the supervisor's
 * proxy to servers this test starts on the host's loopback, and nowhere
 * else.  Names are mapped by the test itself: each test runs in its own
 * Criterion worker, which unshares a private mount namespace and binds a
 * hosts file of its own over /etc/hosts before it runs nsbox (the
 * supervisor resolves with it); nothing in the binary knows about tests.
 * The names live under .test (RFC 2606) and point at 127.0.0.1 and at the
 * metadata address, which the proxy must refuse before connecting.
 */
#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <fcntl.h>
#include <unistd.h>

#include "harness.h"

#define BODY "hello from the test server\n"

/* ---- a tiny HTTP server on the host's loopback ------------------------------------- */

struct server {
	int fd;
	unsigned short port;
	bool http; /* answer one request; else just count what arrives */
	atomic_int conns;
	atomic_ullong got, sent; /* bytes received and sent, all connections */
	pthread_t th;
};

static void *server_main(void *arg)
{
	struct server *s = arg;

	for (;;) {
		int c = accept4(s->fd, NULL, NULL, SOCK_CLOEXEC);
		char buf[16384];
		size_t have = 0;
		ssize_t n;

		if (c < 0)
			return NULL;
		s->conns++;
		/* Until the blank line (HTTP) or EOF (a raw counter). */
		while ((n = recv(c, buf + have, sizeof(buf) - have - 1, 0)) > 0) {
			s->got += (unsigned long long)n;
			have += (size_t)n;
			buf[have] = '\0';
			if (s->http && strstr(buf, "\r\n\r\n"))
				break;
			if (have >= sizeof(buf) - 1)
				have = 0;
		}
		if (s->http) {
			char resp[256];
			int len = snprintf(resp, sizeof(resp),
					   "HTTP/1.1 200 OK\r\nContent-Length: %zu\r\n"
					   "Connection: close\r\n\r\n%s",
					   strlen(BODY), BODY);
			if (send(c, resp, (size_t)len, MSG_NOSIGNAL) == len)
				s->sent += (unsigned long long)len;
		}
		close(c);
	}
}

/* Listen on 127.0.0.1:port (0: any) and serve on a thread. */
static bool server_start(struct server *s, unsigned short port, bool http)
{
	struct sockaddr_in sa = {.sin_family = AF_INET,
				 .sin_port = htons(port),
				 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	socklen_t len = sizeof(sa);
	int one = 1;

	memset(s, 0, sizeof(*s));
	s->http = http;
	s->fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	cr_assert(s->fd >= 0);
	setsockopt(s->fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(s->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		close(s->fd);
		return false;
	}
	cr_assert(listen(s->fd, 64) == 0);
	cr_assert(getsockname(s->fd, (struct sockaddr *)&sa, &len) == 0);
	s->port = ntohs(sa.sin_port);
	cr_assert(pthread_create(&s->th, NULL, server_main, s) == 0);
	return true;
}

/* ---- names: a hosts file of the test's own ---------------------------------------- */

static void map_names(void)
{
	const char *hosts = itest_path(&itest_cur, "hosts");

	itest_write(&itest_cur, "hosts",
		    "127.0.0.1 localhost\n"
		    "127.0.0.1 pkg.nsbox.test\n"
		    "127.0.0.1 other.nsbox.test\n"
		    "127.0.0.1 xn--bcher-kva.nsbox.test\n"
		    "169.254.169.254 metadata.nsbox.test\n");
	/* This worker only: a private mount namespace (the worker is root). */
	cr_assert(unshare(CLONE_NEWNS) == 0, "unshare: %s", strerror(errno));
	cr_assert(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL) == 0);
	cr_assert(mount(hosts, "/etc/hosts", NULL, MS_BIND, NULL) == 0, "bind hosts: %s",
		  strerror(errno));
}

static char url_buf[8][128];
static int url_i;

/* FMT with its one %u replaced by PORT (a ring of 8 buffers). */
static const char *url(const char *fmt, unsigned short port)
{
	char *u = url_buf[url_i++ % 8];
	const char *at = strstr(fmt, "%u");

	cr_assert(at != NULL);
	snprintf(u, sizeof(url_buf[0]), "%.*s%u%s", (int)(at - fmt), fmt, port, at + 2);
	return u;
}

static char *conns(const struct itest_run *r)
{
	return itest_rec(r, "network.connections");
}

/* ---- allowed ------------------------------------------------------------------------- */

NSB_ITEST(egress, curl_http_forward_through_the_proxy_with_exact_byte_counts)
{
	struct itest_run r;
	struct server s;
	char want[64];

	map_names();
	cr_assert(server_start(&s, 0, true));
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "",
		  url("http://pkg.nsbox.test:%u/simple/", s.port));
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	cr_expect(eq(int, s.conns, 1));
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network.mode"), "proxy");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network.port"), "3128");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"host\":\"pkg.nsbox.test\"");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"http\",\"allowed\":true");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"addresses\":[\"127.0.0.1\"]");
	/* What the server saw, byte for byte, both ways. */
	snprintf(want, sizeof(want), "\"bytes_up\":%llu,", (unsigned long long)s.got);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), want);
	snprintf(want, sizeof(want), "\"bytes_down\":%llu,", (unsigned long long)s.sent);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), want);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "network.more"), "0");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "violations"), "[]");
	itest_run_close(&r);
}

NSB_ITEST(egress, curl_connect_tunnel_and_socks5)
{
	struct itest_run r;
	struct server s;

	map_names();
	cr_assert(server_start(&s, 0, true));
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "", "--proxytunnel",
		  url("http://pkg.nsbox.test:%u/", s.port));
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"connect\",\"allowed\":true");
	itest_run_close(&r);

	/* ALL_PROXY is socks5h://: the name travels to the proxy unresolved. */
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "", "--proxy",
		  "socks5h://127.0.0.1:3128", url("http://pkg.nsbox.test:%u/", s.port));
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"socks5\",\"allowed\":true");
	cr_expect(eq(int, s.conns, 2));
	itest_run_close(&r);
}

NSB_ITEST(egress, python_urllib_uses_the_environment)
{
	struct itest_run r;
	struct server s;
	char code[256];

	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/python3 is not installed");
	map_names();
	cr_assert(server_start(&s, 0, true));
	snprintf(
		code, sizeof(code),
		"import urllib.request as u; print(u.urlopen('http://pkg.nsbox.test:%u/').read().decode(), end='')",
		s.port);
	ITEST_RUN(&r, "--allow-net", url("http://pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "/usr/bin/python3", "-c", code);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	itest_run_close(&r);
}

NSB_ITEST(egress, proxy_environment_and_port)
{
	struct itest_run r;

	ITEST_RUN(&r, "--allow-net", "a.nsbox.test", "--proxy-port", "8081", "--", "./probe",
		  "env");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "HTTPS_PROXY"), "http://127.0.0.1:8081");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "http_proxy"), "http://127.0.0.1:8081");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ALL_PROXY"), "socks5h://127.0.0.1:8081");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "NO_PROXY"), "localhost,127.0.0.1");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network.port"), "8081");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network.allow"), "[\"a.nsbox.test:80,443\"]");
	itest_run_close(&r);

	/* Without proxy mode: none of it, and the record keeps "none". */
	ITEST_RUN(&r, "--", "./probe", "env");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "HTTPS_PROXY"), "(missing)");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network"), "none");
	ITEST_EXPECT_STR(&r, itest_rec(&r, "network"), "(missing)");
	itest_run_close(&r);
}

/* ---- refused ----------------------------------------------------------------------- */

/* curl through the proxy to URL: the 403's text reaches the program. */
static void expect_refused(struct itest_run *r, const struct server *s, const char *text,
			   const char *reason)
{
	char want[128];

	ITEST_EXPECT_EXIT(r, 0);
	ITEST_EXPECT_CONTAINS(r, r->out, text);
	cr_expect(eq(int, s->conns, 0), "the server was reached%s", itest_ctx(r));
	ITEST_EXPECT_CONTAINS(r, conns(r), "\"allowed\":false");
	snprintf(want, sizeof(want), "\"reason\":\"%s\"", reason);
	ITEST_EXPECT_CONTAINS(r, conns(r), want);
	ITEST_EXPECT_CONTAINS(r, itest_rec(r, "violations"),
			      "{\"kind\":\"net.denied\",\"count\":1}");
}

NSB_ITEST(egress, host_not_listed_is_refused_with_a_readable_403)
{
	struct itest_run r;
	struct server s;
	char text[160];

	map_names();
	cr_assert(server_start(&s, 0, true));
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "",
		  url("http://other.nsbox.test:%u/", s.port));
	snprintf(text, sizeof(text),
		 "nsbox: blocked by network policy: 'other.nsbox.test:%u' is not in --allow-net\n",
		 s.port);
	expect_refused(&r, &s, text, "not in --allow-net");
	itest_run_close(&r);

	/* The port is part of the entry. */
	ITEST_RUN(&r, "--allow-net", "pkg.nsbox.test", "--allow-net-range", "127.0.0.0/8", "--",
		  "curl", "-sS", "--noproxy", "", url("http://pkg.nsbox.test:%u/", s.port));
	expect_refused(&r, &s, "is not in --allow-net", "not in --allow-net");
	itest_run_close(&r);
}

NSB_ITEST(egress, names_resolving_to_loopback_or_metadata_are_refused)
{
	struct itest_run r;
	struct server s;

	map_names();
	cr_assert(server_start(&s, 0, true));
	/* Listed, but it resolves to the host's loopback (DNS rebinding). */
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--", "curl", "-sS",
		  "--noproxy", "", url("http://pkg.nsbox.test:%u/", s.port));
	expect_refused(&r, &s, "resolves to 127.0.0.1", "address not allowed");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"addresses\":[\"127.0.0.1\"]");
	itest_run_close(&r);

	/* The metadata service: refused before any connection is tried. */
	ITEST_RUN(&r, "--allow-net", "metadata.nsbox.test", "--", "curl", "-sS", "--noproxy", "",
		  "http://metadata.nsbox.test/latest/meta-data/");
	expect_refused(&r, &s, "resolves to 169.254.169.254", "address not allowed");
	itest_run_close(&r);

	/* --allow-net-range lifts it for one range only. */
	ITEST_RUN(&r, "--allow-net", "metadata.nsbox.test", "--allow-net-range", "127.0.0.0/8",
		  "--", "curl", "-sS", "--noproxy", "", "http://metadata.nsbox.test/");
	expect_refused(&r, &s, "resolves to 169.254.169.254", "address not allowed");
	itest_run_close(&r);
}

NSB_ITEST(egress, ip_literals_need_an_entry_of_their_own)
{
	struct itest_run r;
	struct server s;

	map_names();
	cr_assert(server_start(&s, 0, true));
	/* A name's entry does not cover its address. */
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "",
		  url("http://127.0.0.1:%u/", s.port));
	expect_refused(&r, &s, "is not in --allow-net", "not in --allow-net");
	itest_run_close(&r);

	/* An IP literal entry lifts the built-in deny for that address. */
	ITEST_RUN(&r, "--allow-net", url("127.0.0.1:%u", s.port), "--", "curl", "-sS", "--noproxy",
		  "", url("http://127.0.0.1:%u/", s.port));
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	itest_run_close(&r);
}

/* --deny-net DENY refuses HOST, which a wildcard --allow-net covers. */
static void deny_wins(struct server *s, const char *deny, const char *host)
{
	struct itest_run r;
	char u[160];

	snprintf(u, sizeof(u), "http://%s:%u/", host, s->port);
	ITEST_RUN(&r, "--allow-net", "*.nsbox.test:*", "--deny-net", deny, "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "", u);
	expect_refused(&r, s, "is in --deny-net", "in --deny-net");
	itest_run_close(&r);
}

NSB_ITEST(egress, deny_wins)
{
	struct server s;

	map_names();
	cr_assert(server_start(&s, 0, true));
	deny_wins(&s, "pkg.nsbox.test:*", "pkg.nsbox.test");
}

NSB_ITEST(egress, socks5_with_an_address_needs_an_ip_entry)
{
	struct itest_run r;
	struct server s;

	map_names();
	cr_assert(server_start(&s, 0, true));
	/* socks5:// (not socks5h): curl resolves (inside: /etc/hosts) and
	 * sends an address, which no name entry covers. */
	ITEST_RUN(&r, "--allow-net", url("localhost:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "", "--proxy",
		  "socks5://127.0.0.1:3128", url("http://localhost:%u/", s.port));
	/* curl's "Can't complete SOCKS5 connection": the proxy's reply 2. */
	ITEST_EXPECT_EXIT(&r, 97);
	cr_expect(eq(int, s.conns, 0));
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"socks5\",\"allowed\":false");
	itest_run_close(&r);
}

/* A CONNECT to port 443 whose ClientHello names another host. */
static const char sni_script[] =
	"import socket, struct, sys\n"
	"def hello(name):\n"
	"    n = name.encode()\n"
	"    sni = struct.pack('!HHHBH', 0, len(n) + 5, len(n) + 3, 0, len(n)) + n\n"
	"    body = b'\\x03\\x03' + b'\\x07' * 32 + b'\\x00' + b'\\x00\\x02\\x13\\x01' + b'\\x01\\x00'\n"
	"    body += struct.pack('!H', len(sni)) + sni\n"
	"    hs = b'\\x01' + struct.pack('!I', len(body))[1:] + body\n"
	"    return b'\\x16\\x03\\x01' + struct.pack('!H', len(hs)) + hs\n"
	"s = socket.create_connection(('127.0.0.1', 3128))\n"
	"s.sendall(b'CONNECT pkg.nsbox.test:443 HTTP/1.1\\r\\n\\r\\n')\n"
	"print(s.recv(100).split(b'\\r\\n')[0].decode())\n"
	"s.sendall(hello(sys.argv[1]))\n"
	"s.settimeout(2)\n"
	"try:\n"
	"    print('closed' if s.recv(100) == b'' else 'answered')\n"
	"except socket.timeout:\n"
	"    print('open')\n";

NSB_ITEST(egress, sni_must_name_the_connect_target)
{
	struct itest_run r;
	struct server s;

	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/python3 is not installed");
	map_names();
	if (!server_start(&s, 443, false))
		cr_skip_test("127.0.0.1:443 is taken on this machine");
	itest_write(&itest_cur, "sni.py", sni_script);
	ITEST_RUN(&r, "--allow-net", "pkg.nsbox.test", "--allow-net-range", "127.0.0.0/8", "--",
		  "/usr/bin/python3", "sni.py", "evil.nsbox.test");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "HTTP/1.1 200 Connection established\nclosed\n");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"reason\":\"SNI does not match\"");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"), "net.denied");
	itest_sleep_ms(100);
	cr_expect(eq(int, (int)s.got, 0), "the hello went upstream%s", itest_ctx(&r));
	itest_run_close(&r);

	/* The same hello naming the target goes through. */
	ITEST_RUN(&r, "--allow-net", "pkg.nsbox.test", "--allow-net-range", "127.0.0.0/8", "--",
		  "/usr/bin/python3", "sni.py", "PKG.nsbox.test");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "HTTP/1.1 200 Connection established\nopen\n");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"connect\",\"allowed\":true");
	itest_sleep_ms(100);
	cr_expect(gt(int, (int)s.got, 0), "nothing went upstream%s", itest_ctx(&r));
	itest_run_close(&r);
}

/* ---- no other way out --------------------------------------------------------------- */

NSB_ITEST(egress, no_other_route_out)
{
	struct itest_run r;
	struct server s;
	char port[16];

	cr_assert(server_start(&s, 0, true));
	snprintf(port, sizeof(port), "%u", s.port);
	/* The host's loopback is not the sandbox's, proxy or not. */
	ITEST_RUN(&r, "--allow-net", url("127.0.0.1:%u", s.port), "--", "./probe", "connect",
		  "127.0.0.1", port);
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "connect"), "ECONNREFUSED");
	itest_run_close(&r);
	/* Only lo, and no raw sockets. */
	ITEST_RUN(&r, "--allow-net", "a.nsbox.test", "--", "./probe", "ifaces");
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "ifaces"), "lo");
	itest_run_close(&r);
	ITEST_RUN(&r, "--allow-net", "a.nsbox.test", "--", "./probe", "priv");
	ITEST_EXPECT_STR(&r, itest_kv(r.out, "raw_socket"), "EPERM");
	itest_run_close(&r);
	cr_expect(eq(int, s.conns, 0));
}

NSB_ITEST(egress, hostile_clients_leave_the_run_and_its_record_intact)
{
	struct itest_run r;
	struct server s;
	char code[1600];

	if (access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/python3 is not installed");
	map_names();
	cr_assert(server_start(&s, 0, true));
	/* Idle clients holding connections, garbage, a half-close, 2000
	 * connections opened and dropped, then one real request.  While the
	 * proxy still holds NSB_PROXY_MAX_CONNS of the dropped ones (a slow
	 * machine, an ASan build), it closes a new one at once, as it says:
	 * the real request is tried again until the dropped ones are gone,
	 * 5 s at most. */
	snprintf(
		code, sizeof(code),
		"import socket, urllib.request as u\n"
		"idle = [socket.create_connection(('127.0.0.1', 3128)) for _ in range(50)]\n"
		"g = socket.create_connection(('127.0.0.1', 3128)); g.sendall(b'\\x00garbage\\r\\n\\r\\n'); print(g.recv(200).split(b'\\r\\n')[0].decode())\n"
		"h = socket.create_connection(('127.0.0.1', 3128)); h.sendall(b'GET http://pkg.nsbox.test:%u/ HTTP/1.1\\r\\nHost: x\\r\\n\\r\\n'); h.shutdown(socket.SHUT_WR); print(h.recv(200).split(b'\\r\\n')[0].decode())\n"
		"for _ in range(2000): socket.create_connection(('127.0.0.1', 3128)).close()\n"
		"import time\n"
		"for i in range(100):\n"
		"    try:\n"
		"        body = u.urlopen('http://pkg.nsbox.test:%u/').read().decode(); break\n"
		"    except OSError:\n"
		"        time.sleep(0.05)\n"
		"print(body, end='')\n",
		s.port, s.port);
	itest_write(&itest_cur, "hostile.py", code);
	struct itest_opts o = {.timeout_ms = 50000};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
			     "127.0.0.0/8", "--", "/usr/bin/python3", "hostile.py"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "HTTP/1.1 400 Bad Request\nHTTP/1.1 200 OK\n" BODY);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "exited");
	/* 2053 connections and each retry: the first 1024 listed, the rest
	 * counted. */
	long more = atol(itest_rec(&r, "network.more"));
	cr_expect(more >= 1029 && more < 1029 + 100,
		  "network.more is %ld, expected 1029 and the retries%s", more, itest_ctx(&r));
	itest_run_close(&r);
}

/* ---- the policy file and --check ------------------------------------------------------ */

NSB_ITEST(egress, policy_file_lines_and_check_document)
{
	struct itest_run r;
	struct server s;
	char pol[256];
	const char *path;

	map_names();
	cr_assert(server_start(&s, 0, true));
	snprintf(pol, sizeof(pol),
		 "allow-net pkg.nsbox.test:%u\nallow-net-range 127.0.0.0/8\n"
		 "deny-net other.nsbox.test:*\n",
		 s.port);
	itest_write(&itest_cur, "egress.policy", pol);
	path = itest_path(&itest_cur, "egress.policy");
	/* The policy alone turns proxy mode on. */
	ITEST_RUN(&r, "--policy", path, "--", "curl", "-sS", "--noproxy", "",
		  url("http://pkg.nsbox.test:%u/", s.port));
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "enforced.network.deny"), "[\"other.nsbox.test:*\"]");
	itest_run_close(&r);
	/* And adds to the options; --check shows them all, runs nothing. */
	struct itest_opts o = {.no_record = true};
	itest_run(&itest_cur, &o,
		  ITEST_ARGV("--check", "--policy", path, "--allow-net", "a.nsbox.test", "--",
			     "curl", "http://a.nsbox.test/"),
		  &r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out,
			      "\"network\":{\"mode\":\"proxy\",\"port\":3128,\"allow\":"
			      "[\"a.nsbox.test:80,443\",\"pkg.nsbox.test:");
	ITEST_EXPECT_CONTAINS(&r, r.out, "\"ranges\":[\"127.0.0.0/8\"]");
	ITEST_EXPECT_CONTAINS(&r, r.out, "\"HTTPS_PROXY=http://127.0.0.1:3128\"");
	itest_run_close(&r);
	cr_expect(eq(int, s.conns, 1));
	/* Not with --share-net. */
	ITEST_RUN(&r, "--share-net", "--policy", path, "--", "true");
	ITEST_EXPECT_EXIT(&r, 125);
	ITEST_EXPECT_STR(&r, itest_rec(&r, "status"), "usage_error");
	itest_run_close(&r);
}

/* ---- HTTPS to a local TLS server, with a test certificate ------------------------------- */

/* Run argv to completion; its exit status. */
static int run_tool(const char *const argv[])
{
	int st;
	pid_t pid = fork();

	cr_assert(pid >= 0);
	if (pid == 0) {
		int null_fd = open("/dev/null", O_WRONLY);
		dup2(null_fd, 1);
		dup2(null_fd, 2);
		execv(argv[0], (char *const *)(uintptr_t)argv);
		_exit(127);
	}
	cr_assert(waitpid(pid, &st, 0) == pid);
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128;
}

NSB_ITEST(egress, curl_https_through_connect_with_a_test_ca)
{
	struct itest_run r;
	char crt[512], key[512], port[16], accept_[32];
	unsigned short p;
	pid_t srv;

	if (access("/usr/bin/openssl", X_OK) != 0)
		cr_skip_test("/usr/bin/openssl is not installed");
	map_names();
	snprintf(crt, sizeof(crt), "%s", itest_path(&itest_cur, "tls.crt"));
	snprintf(key, sizeof(key), "%s", itest_path(&itest_cur, "tls.key"));
	cr_assert(eq(int,
		     run_tool((const char *const[]){
			     "/usr/bin/openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt",
			     "ec_paramgen_curve:P-256", "-nodes", "-days", "1", "-subj",
			     "/CN=pkg.nsbox.test", "-addext", "subjectAltName=DNS:pkg.nsbox.test",
			     "-keyout", key, "-out", crt, NULL}),
		     0));
	chmod(crt, 0644);
	/* A free port: bound, read, released, then taken by s_server. */
	struct server probe_port;
	cr_assert(server_start(&probe_port, 0, false));
	p = probe_port.port;
	shutdown(probe_port.fd, SHUT_RDWR);
	close(probe_port.fd);
	pthread_join(probe_port.th, NULL);
	snprintf(accept_, sizeof(accept_), "127.0.0.1:%u", p);
	srv = fork();
	cr_assert(srv >= 0);
	if (srv == 0) {
		int null_fd = open("/dev/null", O_RDWR);
		dup2(null_fd, 0);
		dup2(null_fd, 1);
		dup2(null_fd, 2);
		execl("/usr/bin/openssl", "openssl", "s_server", "-accept", accept_, "-cert", crt,
		      "-key", key, "-www", "-quiet", (char *)NULL);
		_exit(127);
	}
	snprintf(port, sizeof(port), "%u", p);
	/* Until it listens (at most 5 s). */
	for (int i = 0; i < 100; i++) {
		struct sockaddr_in sa = {.sin_family = AF_INET,
					 .sin_port = htons(p),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		bool up = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
		close(fd);
		if (up)
			break;
		itest_sleep_ms(50);
	}
	ITEST_RUN(&r, "--allow-net", url("https://pkg.nsbox.test:%u", p), "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "", "--cacert", "tls.crt",
		  url("https://pkg.nsbox.test:%u/", p));
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, r.out, "s_server");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"connect\",\"allowed\":true");
	itest_run_close(&r);
	/* Not listed: the CONNECT's 403 ends curl's attempt. */
	ITEST_RUN(&r, "--allow-net", "pkg.nsbox.test", "--allow-net-range", "127.0.0.0/8", "--",
		  "curl", "-sS", "--noproxy", "", "--cacert", "tls.crt",
		  url("https://pkg.nsbox.test:%u/", p));
	ITEST_EXPECT_EXIT(&r, 56);
	ITEST_EXPECT_CONTAINS(&r, r.err, "403");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"reason\":\"not in --allow-net\"");
	itest_run_close(&r);
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
}

/* ---- git clone over HTTP (the dumb protocol: static files) ------------------------------- */

NSB_ITEST(egress, git_clone_over_http)
{
	struct itest_run r;
	char repo[300], cmd[1400], port[16];
	unsigned short p;
	pid_t srv;

	if (access("/usr/bin/git", X_OK) != 0 || access("/usr/bin/python3", X_OK) != 0)
		cr_skip_test("/usr/bin/git or /usr/bin/python3 is not installed");
	map_names();
	snprintf(repo, sizeof(repo), "%s", itest_path(&itest_cur, "srv"));
	snprintf(
		cmd, sizeof(cmd),
		"set -e; mkdir -p %s/src; cd %s/src; git init -q; echo egress > f.txt; git add f.txt;"
		"git -c user.name=t -c user.email=t@t commit -qm one; cd ..; git clone -q --bare src r.git;"
		"cd r.git; git update-server-info",
		repo, repo);
	cr_assert(eq(int, run_tool((const char *const[]){"/bin/sh", "-c", cmd, NULL}), 0));
	struct server probe_port;
	cr_assert(server_start(&probe_port, 0, false));
	p = probe_port.port;
	shutdown(probe_port.fd, SHUT_RDWR);
	close(probe_port.fd);
	pthread_join(probe_port.th, NULL);
	snprintf(port, sizeof(port), "%u", p);
	srv = fork();
	cr_assert(srv >= 0);
	if (srv == 0) {
		int null_fd = open("/dev/null", O_RDWR);
		dup2(null_fd, 0);
		dup2(null_fd, 1);
		dup2(null_fd, 2);
		execl("/usr/bin/python3", "python3", "-m", "http.server", "--bind", "127.0.0.1",
		      "--directory", repo, port, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100; i++) {
		struct sockaddr_in sa = {.sin_family = AF_INET,
					 .sin_port = htons(p),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		bool up = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
		close(fd);
		if (up)
			break;
		itest_sleep_ms(50);
	}
	ITEST_RUN(&r, "--allow-net", url("http://pkg.nsbox.test:%u", p), "--allow-net-range",
		  "127.0.0.0/8", "--chdir", "/tmp", "--", "git", "clone", "-q",
		  url("http://pkg.nsbox.test:%u/r.git", p), "/tmp/c");
	ITEST_EXPECT_EXIT(&r, 0);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"http\",\"allowed\":true");
	itest_run_close(&r);
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
}

/* python3's http.server over DIR on a free port of 127.0.0.1; its pid, the port in *ret. */
static pid_t static_server(const char *dir, unsigned short *ret)
{
	struct server probe_port;
	char port[16];
	pid_t srv;

	cr_assert(server_start(&probe_port, 0, false));
	*ret = probe_port.port;
	shutdown(probe_port.fd, SHUT_RDWR);
	close(probe_port.fd);
	pthread_join(probe_port.th, NULL);
	snprintf(port, sizeof(port), "%u", *ret);
	srv = fork();
	cr_assert(srv >= 0);
	if (srv == 0) {
		int null_fd = open("/dev/null", O_RDWR);
		dup2(null_fd, 0);
		dup2(null_fd, 1);
		dup2(null_fd, 2);
		execl("/usr/bin/python3", "python3", "-m", "http.server", "--bind", "127.0.0.1",
		      "--directory", dir, port, (char *)NULL);
		_exit(127);
	}
	for (int i = 0; i < 100; i++) {
		struct sockaddr_in sa = {.sin_family = AF_INET,
					 .sin_port = htons(*ret),
					 .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
		int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		bool up = connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0;
		close(fd);
		if (up)
			break;
		itest_sleep_ms(50);
	}
	return srv;
}

/* A simple index (PEP 503) with one pure-Python wheel, built here. */
static const char index_script[] =
	"import base64, hashlib, os, sys, zipfile\n"
	"root = sys.argv[1]\n"
	"os.makedirs(root + '/simple/nsboxdemo', exist_ok=True)\n"
	"os.makedirs(root + '/files', exist_ok=True)\n"
	"name = 'nsboxdemo-1.0-py3-none-any.whl'\n"
	"files = {'nsboxdemo/__init__.py': 'VALUE = 14\\n',\n"
	"         'nsboxdemo-1.0.dist-info/METADATA': 'Metadata-Version: 2.1\\nName: nsboxdemo\\nVersion: 1.0\\n',\n"
	"         'nsboxdemo-1.0.dist-info/WHEEL': 'Wheel-Version: 1.0\\nGenerator: t\\nRoot-Is-Purelib: true\\nTag: py3-none-any\\n'}\n"
	"rec = ''\n"
	"with zipfile.ZipFile(root + '/files/' + name, 'w') as z:\n"
	"    for n, t in files.items():\n"
	"        z.writestr(n, t)\n"
	"        d = base64.urlsafe_b64encode(hashlib.sha256(t.encode()).digest()).rstrip(b'=').decode()\n"
	"        rec += '%s,sha256=%s,%d\\n' % (n, d, len(t))\n"
	"    rec += 'nsboxdemo-1.0.dist-info/RECORD,,\\n'\n"
	"    z.writestr('nsboxdemo-1.0.dist-info/RECORD', rec)\n"
	"open(root + '/simple/nsboxdemo/index.html', 'w').write('<a href=\"../../files/%s\">%s</a>' % (name, name))\n";

NSB_ITEST(egress, pip_install_from_a_local_index_into_a_rw_target)
{
	struct itest_run r;
	char dir[300];
	unsigned short p;
	pid_t srv;

	if (access("/usr/bin/python3", X_OK) != 0 ||
	    run_tool((const char *const[]){"/usr/bin/python3", "-m", "pip", "--version", NULL}) !=
		    0)
		cr_skip_test("/usr/bin/python3 has no pip");
	map_names();
	snprintf(dir, sizeof(dir), "%s", itest_path(&itest_cur, "index"));
	itest_write(&itest_cur, "mkindex.py", index_script);
	cr_assert(eq(int,
		     run_tool((const char *const[]){
			     "/usr/bin/python3", itest_path(&itest_cur, "mkindex.py"), dir, NULL}),
		     0));
	itest_mkdir(&itest_cur, "target");
	srv = static_server(dir, &p);
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", p), "--allow-net-range",
		  "127.0.0.0/8", "--rw", "target", "--", "/usr/bin/python3", "-m", "pip", "install",
		  "-q", "--no-cache-dir", "--disable-pip-version-check", "--trusted-host",
		  "pkg.nsbox.test", "--index-url", url("http://pkg.nsbox.test:%u/simple/", p),
		  "--target", "target", "nsboxdemo");
	ITEST_EXPECT_EXIT(&r, 0);
	char *installed = itest_slurp(itest_path(&itest_cur, "target/nsboxdemo/__init__.py"));
	ITEST_EXPECT_STR(&r, installed ? installed : "(none)", "VALUE = 14\n");
	free(installed);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"http\",\"allowed\":true");
	itest_run_close(&r);
	/* The same index, not listed: pip finds nothing, the record says why. */
	ITEST_RUN(&r, "--allow-net", "other.nsbox.test", "--rw", "target", "--", "/usr/bin/python3",
		  "-m", "pip", "install", "-q", "--no-cache-dir", "--disable-pip-version-check",
		  "--retries", "0", "--trusted-host", "pkg.nsbox.test", "--index-url",
		  url("http://pkg.nsbox.test:%u/simple/", p), "--target", "target", "nsboxdemo");
	ITEST_EXPECT_NE_STR(&r, itest_rec(&r, "exit_code"), "0");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"reason\":\"not in --allow-net\"");
	itest_run_close(&r);
	kill(srv, SIGTERM);
	waitpid(srv, NULL, 0);
}

/* ---- Node's fetch ------------------------------------------------------------------------- */

/*
 * Node 20's fetch does not read HTTP_PROXY: the documented way is undici's
 * ProxyAgent as the global dispatcher (Node's fetch is undici's and shares
 * it).  undici comes from `require('undici')` (a project's or NODE_PATH's),
 * else the copy npm ships beside node, else Debian's node-undici.  argv:
 * URL, or "check" to only find the module.
 */
static const char node_script[] =
	"const path = require('path');\n"
	"const where = ['undici',\n"
	"  path.join(path.dirname(process.execPath), '../lib/node_modules/npm/node_modules/undici'),\n"
	"  '/usr/share/nodejs/undici'];\n"
	"let u = null;\n"
	"for (const w of where) { try { u = require(w); break; } catch (e) {} }\n"
	"if (!u || !u.ProxyAgent || !u.setGlobalDispatcher) process.exit(3);\n"
	"const url = process.argv[2];\n"
	"if (url === 'check') process.exit(typeof fetch === 'function' ? 0 : 3);\n"
	"const proxy = url.startsWith('https:') ? process.env.HTTPS_PROXY : process.env.HTTP_PROXY;\n"
	"u.setGlobalDispatcher(new u.ProxyAgent(proxy));\n"
	"fetch(url).then(async (r) => process.stdout.write(r.status + ' ' + (await r.text())))\n"
	"  .catch((e) => { console.log('fetch failed: ' + (e.cause ? e.cause.message : e.message));\n"
	"    process.exit(1); });\n";

NSB_ITEST(egress, node_fetch_with_undicis_proxy_agent)
{
	struct itest_run r;
	struct server s;

	if (access("/usr/bin/node", X_OK) != 0)
		cr_skip_test("/usr/bin/node is not installed");
	itest_write(&itest_cur, "fetch.js", node_script);
	if (run_tool((const char *const[]){"/usr/bin/node", itest_path(&itest_cur, "fetch.js"),
					   "check", NULL}) != 0)
		cr_skip_test("no undici for Node's fetch (npm's bundled copy or node-undici)");
	map_names();
	cr_assert(server_start(&s, 0, true));
	ITEST_RUN(&r, "--allow-net", url("pkg.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "/usr/bin/node", "fetch.js",
		  url("http://pkg.nsbox.test:%u/", s.port));
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "200 " BODY);
	cr_expect(eq(int, s.conns, 1));
	/* ProxyAgent tunnels plain http:// too. */
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"connect\",\"allowed\":true");
	itest_run_close(&r);

	/* Not listed: undici reports the refused CONNECT (it keeps the 403's
	 * body to itself); the record says why. */
	ITEST_RUN(&r, "--allow-net", url("other.nsbox.test:%u", s.port), "--allow-net-range",
		  "127.0.0.0/8", "--", "/usr/bin/node", "fetch.js",
		  url("http://pkg.nsbox.test:%u/", s.port));
	ITEST_EXPECT_EXIT(&r, 1);
	ITEST_EXPECT_CONTAINS(&r, r.out, "fetch failed");
	cr_expect(eq(int, s.conns, 1), "the server was reached%s", itest_ctx(&r));
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"protocol\":\"connect\",\"allowed\":false");
	ITEST_EXPECT_CONTAINS(&r, conns(&r), "\"reason\":\"not in --allow-net\"");
	ITEST_EXPECT_CONTAINS(&r, itest_rec(&r, "violations"),
			      "{\"kind\":\"net.denied\",\"count\":1}");
	itest_run_close(&r);
}

/* ---- names as browsers write them, URLs without a project ----------------------------- */

/* With OPTION (or none) and --allow-net ALLOW, curl fetches HOST's page. */
static void fetch_ok(struct server *s, const char *option, const char *allow, const char *host)
{
	struct itest_run r;
	char u[160], want[160];

	snprintf(u, sizeof(u), "http://%s:%u/simple/", host, s->port);
	snprintf(want, sizeof(want), "\"host\":\"%s\"", host);
	ITEST_RUN(&r, option ? option : "--quiet", "--allow-net", allow, "--allow-net-range",
		  "127.0.0.0/8", "--", "curl", "-sS", "--noproxy", "", u);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, BODY);
	ITEST_EXPECT_CONTAINS(&r, conns(&r), want);
	itest_run_close(&r);
}

NSB_ITEST(egress, names_and_urls_as_clients_write_them)
{
	struct server s;

	map_names();
	cr_assert(server_start(&s, 0, true));
	/* Fullwidth B, U+00DC: UTS #46 maps them to "bücher". */
	fetch_ok(&s, NULL, url("\xef\xbc\xa2\xc3\x9c\x43HER.nsbox.test:%u", s.port),
		 "xn--bcher-kva.nsbox.test");

	/* The same spelling in --deny-net denies what a wildcard allowed. */
	s.conns = 0;
	deny_wins(&s, "\xef\xbc\xa2\xc3\x9c\x43HER.nsbox.test:*", "xn--bcher-kva.nsbox.test");

	/* No project, so the working directory is outside every root: the
	 * "PORT/simple/" after the URL's colon is no relative path. */
	fetch_ok(&s, "--no-project", url("pkg.nsbox.test:%u", s.port), "pkg.nsbox.test");
}

/* ss(8)'s lines for the TCP connections of PID's network namespace. */
static char *ss_lines(pid_t pid)
{
	char cmd[96];
	static char out[16384];
	size_t n = 0;
	FILE *f;

	snprintf(cmd, sizeof(cmd), "nsenter -t %d -n ss -tinH 2>&1", (int)pid);
	f = popen(cmd, "r");
	cr_assert(f != NULL);
	n = fread(out, 1, sizeof(out) - 1, f);
	out[n] = '\0';
	pclose(f);
	return out;
}

/* ss's LINES name PORT (":N") as a whole port, at a column's end. */
static bool has_port(const char *lines, const char *port)
{
	size_t n = strlen(port);

	for (const char *at = strstr(lines, port); at; at = strstr(at + 1, port))
		if (at[n] == ' ' || at[n] == '\n' || at[n] == '\0')
			return true;
	return false;
}

static bool same_netns(pid_t pid)
{
	char path[64], a[64] = "", b[64] = "";

	snprintf(path, sizeof(path), "/proc/%d/ns/net", (int)pid);
	return readlink(path, a, sizeof(a) - 1) > 0 &&
	       readlink("/proc/self/ns/net", b, sizeof(b) - 1) > 0 && strcmp(a, b) == 0;
}

NSB_ITEST(egress, loopback_hops_do_not_pace)
{
	static const char hold[] = "import socket, sys, time\n"
				   "s = socket.create_connection(('127.0.0.1', 3128))\n"
				   "s.sendall(('CONNECT 127.0.0.1:%s HTTP/1.1\\r\\n\\r\\n'"
				   " % sys.argv[1]).encode())\n"
				   "print(s.recv(200).split(b'\\r\\n')[0].decode(), flush=True)\n"
				   "time.sleep(4)\n";
	struct itest_run r;
	struct server s;
	char port[8];
	pid_t pid = 0;
	char *lines = NULL;

	char script[48];

	cr_assert(server_start(&s, 0, false));
	/* A name of this worker's own: the root and user variants run side by
	 * side, and the payload is found by its command line. */
	snprintf(script, sizeof(script), "nsbox-hold-conn-%d.py", (int)getpid());
	itest_write(&itest_cur, script, hold);
	snprintf(port, sizeof(port), "%u", s.port);
	itest_start(&itest_cur, NULL,
		    ITEST_ARGV("--allow-net", url("127.0.0.1:%u", s.port), "--", "python3", script,
			       port),
		    &r);
	/* The payload (not nsbox, whose argv names the script too), once its
	 * tunnel is up: the client's end shows first, and the proxy's end, the
	 * one whose algorithm is checked, may come a moment later. */
	for (int i = 0; i < 300 && (!lines || !strstr(lines, ":3128") || !strstr(lines, "reno"));
	     i++) {
		pid_t pids[4];
		int n = itest_find_procs(script, pids, 4);

		itest_sleep_ms(10);
		for (int k = 0; k < n && k < 4; k++)
			if (!same_netns(pids[k])) {
				pid = pids[k];
				lines = ss_lines(pid);
			}
	}
	cr_assert(pid > 0 && lines && strstr(lines, ":3128"), "no connection inside: %s",
		  lines ? lines : "(no payload)");
	/* The proxy's end, in the sandbox's namespace: Reno, not the host's BBR. */
	cr_expect(strstr(lines, "reno") != NULL, "inside: %s", lines);
	/* Its upstream end, in the host's namespace, to a loopback address
	 * (which the proxy may still be opening). */
	snprintf(port, sizeof(port), ":%u", s.port);
	lines = ss_lines(getpid());
	for (int i = 0; i < 300 && !(has_port(lines, port) && strstr(lines, "reno")); i++) {
		itest_sleep_ms(10);
		lines = ss_lines(getpid());
	}
	cr_expect(has_port(lines, port) && strstr(lines, "reno"), "host side: %s", lines);
	itest_wait(&r);
	ITEST_ASSERT_EXIT(&r, 0);
	ITEST_EXPECT_STR(&r, r.out, "HTTP/1.1 200 Connection established\n");
	itest_run_close(&r);
}
