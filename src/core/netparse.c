// SPDX-License-Identifier: GPL-2.0-or-later
/* The proxy's request parsers: HTTP head, SOCKS5, TLS SNI.  Pure (supervisor). */
#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>

#include "base/util.h"
#include "core/netparse.h"

/* ---- HTTP -------------------------------------------------------------------- */

static const char *find_blank_line(const char *buf, size_t len)
{
	for (size_t i = 0; i + 3 < len; i++)
		if (buf[i] == '\r' && buf[i + 1] == '\n' && buf[i + 2] == '\r' &&
		    buf[i + 3] == '\n')
			return buf + i + 4;
	return NULL;
}

static bool tchar(char ch)
{
	return (ch >= 'A' && ch <= 'Z') || (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') ||
	       strchr("!#$%&'*+-.^_`|~", ch);
}

/* host[:port] (or [v6][:port]) at s[0..n) into req; default port dport. */
static int parse_authority(const char *s, size_t n, uint16_t dport, struct nsb_http_req *req)
{
	const char *hs = s, *he, *colon = NULL;
	uint64_t v;
	char buf[8];

	if (n == 0)
		return -EINVAL;
	if (s[0] == '[') {
		const char *close = memchr(s, ']', n);
		if (!close)
			return -EINVAL;
		hs = s + 1;
		he = close;
		if (close + 1 < s + n) {
			if (close[1] != ':')
				return -EINVAL;
			colon = close + 1;
		}
	} else {
		colon = memchr(s, ':', n);
		he = colon ? colon : s + n;
	}
	if (he == hs || (size_t)(he - hs) > NSB_NET_HOST_MAX)
		return -EINVAL;
	memcpy(req->host, hs, (size_t)(he - hs));
	req->host[he - hs] = '\0';
	req->port = dport;
	if (colon) {
		size_t pl = (size_t)(s + n - colon - 1);
		if (pl == 0 && dport)
			return 0; /* "host:" is the default port */
		if (pl == 0 || pl >= sizeof(buf))
			return -EINVAL;
		memcpy(buf, colon + 1, pl);
		buf[pl] = '\0';
		if (nsb_parse_uint(buf, 65535, &v) < 0 || v == 0)
			return -EINVAL;
		req->port = (uint16_t)v;
	}
	return req->port ? 0 : -EINVAL;
}

/* Long: the request line's three parts, each with its own rule. */
int nsb_http_parse_head(const char *buf, size_t len, struct nsb_http_req *ret)
{
	struct nsb_http_req req = {0};
	const char *end = find_blank_line(buf, len < NSB_HTTP_HEAD_MAX ? len : NSB_HTTP_HEAD_MAX);
	const char *eol, *sp1, *sp2, *uri;
	size_t ulen;
	int r;

	if (!end)
		return len >= NSB_HTTP_HEAD_MAX ? -E2BIG : -EAGAIN;
	if (memchr(buf, '\0', (size_t)(end - buf)))
		return -EINVAL;
	eol = memchr(buf, '\r', (size_t)(end - buf));
	if (!eol || eol[1] != '\n')
		return -EINVAL;
	sp1 = memchr(buf, ' ', (size_t)(eol - buf));
	if (!sp1 || sp1 == buf)
		return -EINVAL;
	for (const char *p = buf; p < sp1; p++)
		if (!tchar(*p))
			return -EINVAL;
	uri = sp1 + 1;
	sp2 = memchr(uri, ' ', (size_t)(eol - uri));
	if (!sp2 || sp2 == uri || eol - sp2 != 9 || strncmp(sp2 + 1, "HTTP/1.", 7) != 0 ||
	    (sp2[8] != '0' && sp2[8] != '1'))
		return -EINVAL;
	for (const char *p = uri; p < sp2; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return -EINVAL;
	ulen = (size_t)(sp2 - uri);
	req.method_len = (size_t)(sp1 - buf);
	req.version_off = (size_t)(sp2 + 1 - buf);
	req.headers_off = (size_t)(eol + 2 - buf);
	req.head_len = (size_t)(end - buf);
	if (req.method_len == 7 && memcmp(buf, "CONNECT", 7) == 0) {
		/* authority-form: host:port, the port required */
		req.connect = true;
		r = parse_authority(uri, ulen, 0, &req);
		if (r < 0)
			return r;
		*ret = req;
		return 0;
	}
	if (ulen < 7 || nsb_strncasecmp(uri, "http://", 7) != 0)
		return -EPROTONOSUPPORT;
	const char *auth = uri + 7, *path = memchr(auth, '/', ulen - 7);
	const char *q = memchr(auth, '?', ulen - 7);
	if (q && (!path || q < path))
		path = q; /* "http://host?x" */
	size_t alen = path ? (size_t)(path - auth) : ulen - 7;
	if (memchr(auth, '@', alen))
		return -EINVAL; /* userinfo: who is the host? refused */
	r = parse_authority(auth, alen, 80, &req);
	if (r < 0)
		return r;
	if (path) {
		req.path_off = (size_t)(path - buf);
		req.path_len = (size_t)(sp2 - path);
	}
	*ret = req;
	return 0;
}

static bool hop_by_hop(const char *line, size_t n)
{
	static const char *const names[] = {
		"connection:", "proxy-connection:", "proxy-authorization:", "keep-alive:"};

	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		size_t k = strlen(names[i]);
		if (n >= k && nsb_strncasecmp(line, names[i], k) == 0)
			return true;
	}
	return false;
}

int nsb_http_rewrite(const char *head, const struct nsb_http_req *req, char *out, size_t size)
{
	size_t o = 0;

#define APPEND(p, n)                      \
	do {                              \
		size_t n_ = (n);          \
		if (o + n_ >= size)       \
			return -E2BIG;    \
		memcpy(out + o, (p), n_); \
		o += n_;                  \
	} while (0)
	APPEND(head, req->method_len);
	APPEND(" ", 1);
	if (req->path_len && head[req->path_off] == '?')
		APPEND("/", 1);
	if (req->path_len)
		APPEND(head + req->path_off, req->path_len);
	else
		APPEND("/", 1);
	APPEND(" ", 1);
	APPEND(head + req->version_off, 8);
	APPEND("\r\n", 2);
	for (size_t at = req->headers_off; at + 2 < req->head_len;) {
		const char *line = head + at;
		const char *eol = memchr(line, '\n', req->head_len - at);
		size_t n = eol ? (size_t)(eol - line) + 1 : req->head_len - at;
		if (!hop_by_hop(line, n))
			APPEND(line, n);
		at += n;
	}
	APPEND("Connection: close\r\n\r\n", 21);
#undef APPEND
	out[o] = '\0';
	return (int)o;
}

/* ---- SOCKS5 (RFC 1928) ---------------------------------------------------------- */

int nsb_socks5_greeting(const uint8_t *buf, size_t len, size_t *ret_used)
{
	if (len < 2)
		return -EAGAIN;
	if (buf[0] != 5 || buf[1] == 0)
		return -EINVAL;
	if (len < 2u + buf[1])
		return -EAGAIN;
	*ret_used = 2u + buf[1];
	return memchr(buf + 2, 0, buf[1]) ? 0 : -EACCES;
}

int nsb_socks5_request(const uint8_t *buf, size_t len, char host[NSB_NET_HOST_MAX + 1],
		       int *ret_atyp, uint16_t *ret_port, size_t *ret_used)
{
	size_t need, alen;
	uint16_t port;

	if (len < 5)
		return -EAGAIN;
	if (buf[0] != 5 || buf[2] != 0)
		return -EINVAL;
	switch (buf[3]) {
	case 1:
		alen = 4;
		need = 4 + 4 + 2;
		break;
	case 4:
		alen = 16;
		need = 4 + 16 + 2;
		break;
	case 3:
		alen = buf[4];
		/* A DNS name is at most NSB_NET_HOST_MAX bytes; the byte allows 255. */
		if (alen == 0 || alen > NSB_NET_HOST_MAX)
			return -EINVAL;
		need = 5 + alen + 2;
		break;
	default:
		return -EINVAL;
	}
	if (len < need)
		return -EAGAIN;
	if (buf[1] != 1)
		return -EOPNOTSUPP;
	port = (uint16_t)(buf[need - 2] << 8 | buf[need - 1]);
	if (port == 0)
		return -EINVAL;
	if (buf[3] == 3) {
		if (memchr(buf + 5, '\0', alen))
			return -EINVAL;
		memcpy(host, buf + 5, alen);
		host[alen] = '\0';
	} else if (!inet_ntop(buf[3] == 1 ? AF_INET : AF_INET6, buf + 4, host,
			      NSB_NET_HOST_MAX + 1)) {
		return -EINVAL;
	}
	*ret_atyp = buf[3];
	*ret_port = port;
	*ret_used = need;
	return 0;
}

/* ---- TLS ClientHello SNI (RFC 8446 4.1.2, RFC 6066 3) ----------------------------- */

struct rd {
	const uint8_t *p;
	size_t n;
};

static bool take(struct rd *r, size_t k, struct rd *ret)
{
	if (r->n < k)
		return false;
	if (ret)
		*ret = (struct rd){r->p, k};
	r->p += k;
	r->n -= k;
	return true;
}

static bool take_vec(struct rd *r, size_t lenbytes, struct rd *ret)
{
	size_t k = 0;

	if (r->n < lenbytes)
		return false;
	for (size_t i = 0; i < lenbytes; i++)
		k = k << 8 | r->p[i];
	r->p += lenbytes;
	r->n -= lenbytes;
	return take(r, k, ret);
}

/* The server_name extension's body: the first host_name entry. */
static int sni_of(struct rd ext, char *host, size_t size)
{
	struct rd list, name;

	if (!take_vec(&ext, 2, &list))
		return -EINVAL;
	while (list.n) {
		uint8_t type = list.p[0];
		take(&list, 1, NULL);
		if (!take_vec(&list, 2, &name))
			return -EINVAL;
		if (type != 0)
			continue;
		if (name.n == 0 || name.n >= size || memchr(name.p, '\0', name.n))
			return -EINVAL;
		memcpy(host, name.p, name.n);
		host[name.n] = '\0';
		return 0;
	}
	return -ENOENT;
}

int nsb_tls_sni(const uint8_t *buf, size_t len, char *host, size_t size)
{
	struct rd rec = {buf, len}, hs = {0}, body = {0}, skip, exts;
	size_t rlen, hlen;

	/* One handshake record: type 22, version 3.x, length. */
	if (len < 5)
		return -EAGAIN;
	if (buf[0] != 22 || buf[1] != 3)
		return -EINVAL;
	rlen = (size_t)buf[3] << 8 | buf[4];
	if (len < 5 + rlen)
		return -EAGAIN;
	take(&rec, 5, NULL);
	take(&rec, rlen, &hs);
	/* ClientHello (1), 24-bit length; a hello split over records is
	 * refused as malformed (no client sends one that way). */
	if (hs.n < 4 || hs.p[0] != 1)
		return -EINVAL;
	hlen = (size_t)hs.p[1] << 16 | (size_t)hs.p[2] << 8 | hs.p[3];
	take(&hs, 4, NULL);
	if (!take(&hs, hlen, &body))
		return -EINVAL;
	/* version, random, session id, cipher suites, compression */
	if (!take(&body, 2 + 32, NULL) || !take_vec(&body, 1, &skip) ||
	    !take_vec(&body, 2, &skip) || !take_vec(&body, 1, &skip))
		return -EINVAL;
	if (body.n == 0)
		return -ENOENT;
	if (!take_vec(&body, 2, &exts))
		return -EINVAL;
	while (exts.n) {
		struct rd ext;
		unsigned type;
		if (exts.n < 4)
			return -EINVAL;
		type = (unsigned)exts.p[0] << 8 | exts.p[1];
		take(&exts, 2, NULL);
		if (!take_vec(&exts, 2, &ext))
			return -EINVAL;
		if (type == 0)
			return sni_of(ext, host, size);
	}
	return -ENOENT;
}
