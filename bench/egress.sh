#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Egress proxy (issue 14): ratios in one interleaved run, never absolute
# numbers.  A server this script starts on the host's loopback sends SIZE
# bytes per request; curl inside the sandbox fetches it directly
# (--share-net) and through the proxy (--allow-net 127.0.0.1:PORT),
# alternating, ROUNDS times; then N small requests each way for the added
# latency per new connection (one nsbox run each way, curl fetching N URLs
# with a fresh connection each).  Traffic stays on 127.0.0.1.
#
# usage: bench/egress.sh [NSBOX_BINARY] [ROUNDS] [SIZE_MIB] [N]
#        (default build/nsbox, 3, 1024, 200)
set -euo pipefail
nsbox=${1:-build/nsbox}
rounds=${2:-3}
size_mib=${3:-1024}
n=${4:-200}
nsbox=$(realpath -- "$nsbox")
work=$(mktemp -d)
trap 'kill "$server" 2>/dev/null; rm -rf -- "$work"' EXIT

cat >"$work/server.py" <<'PY'
import socket, sys, threading
size = int(sys.argv[1])
s = socket.socket(); s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
s.bind(('127.0.0.1', 0)); s.listen(256)
print(s.getsockname()[1], flush=True)
chunk = b'\0' * (1 << 20)
def serve(c):
    buf = b''
    while b'\r\n\r\n' not in buf:
        d = c.recv(65536)
        if not d: c.close(); return
        buf += d
    big = buf.startswith(b'GET /big')
    n = size if big else 2
    c.sendall(b'HTTP/1.1 200 OK\r\nContent-Length: %d\r\nConnection: close\r\n\r\n' % n)
    while n > 0:
        k = min(n, len(chunk)); c.sendall(chunk[:k]); n -= k
    c.close()
while True:
    c, _ = s.accept(); threading.Thread(target=serve, args=(c,), daemon=True).start()
PY
coproc SRV { exec python3 "$work/server.py" $((size_mib << 20)); }
server=$SRV_PID
read -r port <&"${SRV[0]}"
cd "$work"
# --allow-path /: the front gate reads a URL as a path argument.
common=(--no-project --allow-path / --result-fd 3)
direct=("$nsbox" "${common[@]}" --share-net --)
proxied=("$nsbox" "${common[@]}" --allow-net "127.0.0.1:$port" --)
now() { date +%s%N; }

echo "download of $size_mib MiB, $rounds rounds, interleaved" >&2
td=0 tp=0
for _ in $(seq "$rounds"); do
	s=$(now); "${direct[@]}" curl -sS -o /dev/null "http://127.0.0.1:$port/big" 3>/dev/null; e=$(now); td=$((td + e - s))
	s=$(now); "${proxied[@]}" curl -sS --noproxy '' -o /dev/null "http://127.0.0.1:$port/big" 3>/dev/null; e=$(now); tp=$((tp + e - s))
done
echo "throughput through the proxy / direct: $(awk -v d="$td" -v p="$tp" 'BEGIN { printf "%.2f", d / p }')"

urls=()
for i in $(seq "$n"); do urls+=("http://127.0.0.1:$port/s$i"); done
s=$(now); "${direct[@]}" curl -sS -o /dev/null "${urls[@]}" 3>/dev/null; e=$(now); td=$((e - s))
s=$(now); "${proxied[@]}" curl -sS --noproxy '' -o /dev/null "${urls[@]}" 3>/dev/null; e=$(now); tp=$((e - s))
echo "added time per new connection: $(awk -v d="$td" -v p="$tp" -v n="$n" 'BEGIN { printf "%.3f ms", (p - d) / n / 1e6 }') (mean over $n, launch included in both)"

# Concurrency: 200 connections at once through the proxy.
s=$(now)
"${proxied[@]}" curl -sS --noproxy '' --parallel --parallel-max 200 -o /dev/null "${urls[@]}" 3>"$work/rec.json"
e=$(now)
ok=$(python3 -c "import json; r = json.load(open('$work/rec.json')); print(sum(c['allowed'] for c in r['network']['connections']))")
echo "$n parallel connections through the proxy: $ok allowed, $(( (e - s) / 1000000 )) ms"
