#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Egress proxy (issue 14): ratios in one interleaved run, never absolute
# numbers.  A server this script starts on the host's loopback sends SIZE
# bytes per request; curl inside the sandbox fetches it directly
# (--share-net) and through the proxy (--allow-net 127.0.0.1:PORT),
# alternating, RUNS rounds; the ratio is taken per round from curl's own
# transfer speed (the launch is not in it) and the median is shown.  In the
# same rounds curl fetches it through bench/relay.c, a bare splice(2)
# forwarder on the host's loopback (no sandbox around it, no policy, no
# parsing): the floor of any user-space proxy, whose ratio says what the
# second TCP connection alone costs on this machine.  Then
# RUNS rounds of N small requests each way, interleaved, each on a new
# connection (the server closes it), curl timing each one: the added
# latency per new connection is, per round, the median through the proxy
# minus the median direct, and the median of the rounds is shown.  Last, N connections
# at once through the proxy, checked against the record.  Targets: ≥ 0.8
# of direct throughput, ≤ 1 ms added per connection, 200 served at once.
# Traffic stays on 127.0.0.1; runs as the caller.  Under bench-smoke:
# 4 MiB, 10 connections.
#
# usage: bench/egress.sh [NSBOX_BINARY] [RUNS]   (default build/nsbox, 5)
# env: EGRESS_MIB (default 1024), EGRESS_CONNS (default 200)
# writes build/bench/egress.md
set -euo pipefail
# shellcheck source=bench/lib.sh
. "$(dirname -- "${BASH_SOURCE[0]}")/lib.sh"
bench_title="Egress proxy"
bench_init egress 5 "$@"
bench_need curl curl

size_mib=${EGRESS_MIB:-1024}
n=${EGRESS_CONNS:-200}
if [ "$smoke" = 1 ]; then
	size_mib=4
	n=10
fi

relay=$out/relay
if [ ! -x "$relay" ] || [ "$root/bench/relay.c" -nt "$relay" ]; then
	gcc -std=gnu11 -D_GNU_SOURCE -O2 -Wall -Wextra -Werror -pthread -o "$relay" "$root/bench/relay.c"
fi

cat >"$stage/server.py" <<'PY'
import socket, sys, threading
size = int(sys.argv[1])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', 0)); s.listen(512)
print(s.getsockname()[1], flush=True)
chunk = b'\0' * (1 << 20)
def serve(c):
    buf = b''
    while b'\r\n\r\n' not in buf:
        d = c.recv(65536)
        if not d: c.close(); return
        buf += d
    n = size if buf.startswith(b'GET /big') else 2
    c.sendall(b'HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n' % n)
    while n > 0:
        k = min(n, len(chunk)); c.sendall(chunk[:k]); n -= k
    c.close()
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
coproc SRV { exec python3 "$stage/server.py" $((size_mib << 20)); }
server=$SRV_PID
# shellcheck disable=SC2064 # expand now
trap "kill $server 2>/dev/null; rm -rf -- '$stage'" EXIT
read -r port <&"${SRV[0]}"
# Not a second coproc (bash keeps one at a time): its port through a FIFO.
mkfifo "$stage/relay-port"
"$relay" "$port" >"$stage/relay-port" &
relay_pid=$!
# shellcheck disable=SC2064 # expand now
trap "kill $server $relay_pid 2>/dev/null; rm -rf -- '$stage'" EXIT
read -r relay_port <"$stage/relay-port"

common=(--no-project --result-fd 3)
direct=("$nsbox" "${common[@]}" --share-net --)
proxied=("$nsbox" "${common[@]}" --allow-net "127.0.0.1:$port" --)
# --noproxy '': 127.0.0.1 is in NO_PROXY, the proxied run must not skip it.
big=(curl -sS --noproxy '' -o /dev/null -w '%{speed_download} %{size_download}\n'
	"http://127.0.0.1:$port/big")
big_relay=("${big[@]}")
big_relay[${#big_relay[@]} - 1]="http://127.0.0.1:$relay_port/big"
small=(curl -sS --no-progress-meter --noproxy '' -w '%{time_total}\n')
for i in $(seq "$n"); do small+=(-o /dev/null "http://127.0.0.1:$port/s$i"); done
median() { sort -g | awk '{ a[NR] = $1 } END { print (NR % 2) ? a[(NR + 1) / 2] : (a[NR / 2] + a[NR / 2 + 1]) / 2 }'; }
fail() {
	echo "egress.sh: $*" >&2
	exit 1
}

echo "$runs rounds of $size_mib MiB, interleaved ..." >&2
: >"$stage/ratios"
: >"$stage/speeds"
for _ in $(seq "$runs"); do
	read -r sd bd < <("${direct[@]}" "${big[@]}" 3>/dev/null) || fail "direct download failed"
	read -r sr br < <("${direct[@]}" "${big_relay[@]}" 3>/dev/null) || fail "relayed download failed"
	read -r sp bp < <("${proxied[@]}" "${big[@]}" 3>/dev/null) || fail "proxied download failed"
	if [ "$bd" != $((size_mib << 20)) ] || [ "$bp" != "$bd" ] || [ "$br" != "$bd" ]; then
		fail "short download: $bd, $br, $bp bytes"
	fi
	awk -v d="$sd" -v r="$sr" -v p="$sp" 'BEGIN { print p / d, r / d, p / r }' >>"$stage/ratios"
	echo "$sd $sp $sr" >>"$stage/speeds"
done
tp_ratio=$(awk '{ print $1 }' "$stage/ratios" | median)
relay_ratio=$(awk '{ print $2 }' "$stage/ratios" | median)
proxy_relay=$(awk '{ print $3 }' "$stage/ratios" | median)
tp_direct=$(awk '{ print $1 / 1048576 }' "$stage/speeds" | median)
tp_proxy=$(awk '{ print $2 / 1048576 }' "$stage/speeds" | median)
tp_relay=$(awk '{ print $3 / 1048576 }' "$stage/speeds" | median)

echo "$runs rounds of $n new connections each way, interleaved ..." >&2
: >"$stage/lat"
for _ in $(seq "$runs"); do
	ld=$("${direct[@]}" "${small[@]}" 3>/dev/null | median)
	lp=$("${proxied[@]}" "${small[@]}" 3>/dev/null | median)
	echo "$ld $lp" >>"$stage/lat"
done
lat_direct=$(awk '{ print $1 }' "$stage/lat" | median)
lat_proxy=$(awk '{ print $2 }' "$stage/lat" | median)
lat_added=$(awk '{ print $2 - $1 }' "$stage/lat" | median)

echo "$n connections at once ..." >&2
"${proxied[@]}" "${small[@]}" --parallel --parallel-max "$n" 3>"$stage/rec.json" >/dev/null
ok=$(python3 -c 'import json, sys; r = json.load(open(sys.argv[1])); print(sum(c["allowed"] for c in r["network"]["connections"]))' "$stage/rec.json")
[ "$ok" = "$n" ] || fail "$ok of $n parallel connections allowed in the record"

{
	echo "| measure | direct | through the proxy | ratio or difference | target |"
	echo "|---|---|---|---|---|"
	awk -v d="$tp_direct" -v p="$tp_proxy" -v r="$tp_ratio" -v s="$size_mib" -v k="$runs" 'BEGIN {
		printf "| download of %d MiB, MiB/s (median of %d rounds) | %.0f | %.0f | %.2f (median of the rounds) | ≥ 0.8 |\n", s, k, d, p, r }'
	awk -v d="$tp_direct" -v p="$tp_relay" -v r="$relay_ratio" -v s="$size_mib" -v k="$runs" 'BEGIN {
		printf "| the same through a bare splice relay on the host (bench/relay.c: the floor of any user-space proxy), MiB/s | %.0f | %.0f | %.2f (median of the rounds) | - |\n", d, p, r }'
	awk -v r="$proxy_relay" 'BEGIN {
		printf "| nsbox proxy / bare relay, throughput | - | - | %.2f (median of the rounds) | - |\n", r }'
	awk -v d="$lat_direct" -v p="$lat_proxy" -v a="$lat_added" -v n="$n" -v k="$runs" 'BEGIN {
		printf "| new connection, ms (median of %d, median of %d rounds) | %.3f | %.3f | %+.3f ms (median of the rounds) | ≤ 1 ms |\n", n, k, d * 1000, p * 1000, a * 1000 }'
	echo "| connections at once | - | $ok of $n served | - | 200 |"
} >"$stage/table.md"
bench_out "$stage/table.md"
