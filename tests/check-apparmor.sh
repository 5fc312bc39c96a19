#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Parse-check apparmor/nsbox with apparmor_parser, without loading it
# (-Q: no kernel, -K: no cache).  AppArmor 3 parsers (Debian 12) know neither
# abi 4.0 nor the "userns," rule: there the profile is checked with exactly
# those two lines taken out (and both must be present, as written), so that
# everything else in it is still parsed; an AppArmor 4 parser checks the
# file as shipped.
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."

profile=apparmor/nsbox
parser=$(command -v apparmor_parser || true)
if [ -z "$parser" ] && [ -x /sbin/apparmor_parser ]; then
	parser=/sbin/apparmor_parser
fi
if [ -z "$parser" ]; then
	echo "check-apparmor: apparmor_parser not found (apt-get install apparmor, or make deps)" >&2
	exit 1
fi
for line in 'abi <abi/4.0>,' '  userns,'; do
	if ! grep -qxF -- "$line" "$profile"; then
		echo "check-apparmor: $profile lacks the line '$line'" >&2
		exit 1
	fi
done
version=$("$parser" --version | sed -n 's/^AppArmor parser version \([0-9]*\).*/\1/p')
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
if [ "${version:-0}" -ge 4 ]; then
	cp "$profile" "$tmp"
else
	grep -vxF -e 'abi <abi/4.0>,' -e '  userns,' "$profile" >"$tmp"
fi
# The parser's note about the kernel interface is not a finding.
if ! out=$("$parser" -Q -K "$tmp" 2>&1); then
	echo "$out" | grep -v 'Cache read/write disabled' >&2
	echo "check-apparmor: $profile does not parse (apparmor_parser $version)" >&2
	exit 1
fi
echo "check-apparmor: $profile parses (apparmor_parser ${version:-?}$([ "${version:-0}" -ge 4 ] || echo ', AppArmor 4 lines set aside'))"
