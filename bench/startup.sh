#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Start-up cost: `nsbox -- /bin/true` against an equivalent bwrap command
# (same namespaces, same kind of read-only system view, a private /proc,
# /dev and /tmp, the project bound read-only), timed by hyperfine in the
# same run.  Prints both means and the ratio nsbox/bwrap.
#
# usage: bench/startup.sh [NSBOX_BINARY] [RUNS]
set -euo pipefail

nsbox=${1:-build/nsbox}
runs=${2:-50}
nsbox=$(realpath "$nsbox")
command -v hyperfine >/dev/null || { echo "needs hyperfine (apt-get install hyperfine)" >&2; exit 2; }
command -v bwrap >/dev/null || { echo "needs bwrap (apt-get install bubblewrap)" >&2; exit 2; }

proj=$(mktemp -d /tmp/nsbox-bench-XXXXXX)
trap 'rm -rf "$proj"' EXIT
cd "$proj"

links=()
for l in bin sbin lib lib32 lib64 libx32; do
	if [ -L "/$l" ]; then
		links+=(--symlink "$(readlink "/$l")" "/$l")
	fi
done
bwrap_cmd="bwrap --unshare-all --die-with-parent --new-session --cap-drop ALL \
--ro-bind /usr /usr ${links[*]} --ro-bind-try /etc/ld.so.cache /etc/ld.so.cache \
--ro-bind-try /etc/passwd /etc/passwd --ro-bind-try /etc/group /etc/group \
--proc /proc --dev /dev --tmpfs /tmp --ro-bind $proj $proj --chdir $proj \
--hostname nsbox /bin/true"

json=$(mktemp)
hyperfine -N --warmup 5 --runs "$runs" --export-json "$json" \
	"$nsbox -- /bin/true" "$bwrap_cmd" >/dev/null
python3 - "$json" <<'PY'
import json, sys
r = json.load(open(sys.argv[1]))["results"]
n, b = r[0]["mean"] * 1000, r[1]["mean"] * 1000
print(f"nsbox  mean {n:7.2f} ms  (stddev {r[0]['stddev']*1000:.2f})")
print(f"bwrap  mean {b:7.2f} ms  (stddev {r[1]['stddev']*1000:.2f})")
print(f"ratio nsbox/bwrap: {n / b:.2f}")
PY
rm -f "$json"
