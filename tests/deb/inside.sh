#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# Runs inside the fresh root of tests/deb/check.sh (as root, pid 1's child in
# bwrap's pid namespace): install, the example as root and as a user, purge,
# nothing left.  /tmp/check holds the package and the example.
set -euo pipefail

version=$1
user=nsbox-demo

fail() {
	echo "check-deb: FAIL: $*" >&2
	exit 1
}

# Every path with its type, mode and owner, but for the virtual file systems,
# /tmp (this check's own files) and what a run leaves by design outside the
# package: dpkg's logs and backups, and the front gate's per-user cache
# (~/.cache/nsbox, and ~/.cache made for it: the user's data, which no
# package removes from a home directory).
snapshot() {
	find / -xdev \( -path /tmp -o -path /proc -o -path /sys -o -path /dev -o -path /var/log \
		-o -path /root/.cache -o -path "/home/$user/.cache" \
		-o -path '/var/lib/dpkg/*-old' \) -prune -o -printf '%y %m %u:%g %p\n' | sort
}

useradd --create-home --shell /bin/bash "$user"
snapshot >/tmp/check/before

echo "== dpkg -i nsbox_${version}_amd64.deb"
dpkg -i /tmp/check/nsbox.deb
[ "$(command -v nsbox)" = /usr/bin/nsbox ] || fail "nsbox is not /usr/bin/nsbox"
got=$(nsbox --version)
[ "$got" = "nsbox $version" ] || fail "nsbox --version says '$got', not 'nsbox $version'"
for f in /usr/share/man/man1/nsbox.1.gz /usr/share/man/man5/nsbox-policy.5.gz \
	/usr/share/man/man5/nsbox-profile.5.gz /usr/share/nsbox/seccomp-profiles/default.profile \
	/usr/share/bash-completion/completions/nsbox /usr/share/zsh/vendor-completions/_nsbox \
	/usr/share/fish/vendor_completions.d/nsbox.fish /etc/apparmor.d/nsbox \
	/usr/share/doc/nsbox/copyright; do
	[ -f "$f" ] || fail "$f not installed"
done
echo "== the README's example as root"
cp -R /tmp/check/example /tmp/check/ex-root
bash /tmp/check/ex-root/run-demo.sh /usr/bin/nsbox

echo "== the README's example as $user"
cp -R /tmp/check/example /tmp/check/ex-user
chown -R "$user:" /tmp/check/ex-user
runuser -u "$user" -- env HOME="/home/$user" bash /tmp/check/ex-user/run-demo.sh /usr/bin/nsbox

echo "== dpkg --purge nsbox"
dpkg --purge nsbox
dpkg -s nsbox >/dev/null 2>&1 && fail "dpkg still knows nsbox after the purge"
snapshot >/tmp/check/after
if ! diff -u /tmp/check/before /tmp/check/after; then
	fail "the root differs after the purge (- before the install, + after the purge)"
fi
echo "check-deb: purged: $(wc -l </tmp/check/after) paths as before the install"
