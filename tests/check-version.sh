#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0-or-later
#
# One version, from one place: VERSION.  debian/changelog's newest entry must
# carry it (a native package: no Debian revision), and debian/control's
# Build-Depends must all be in the Makefile's DEPS_PKGS or DEB_DEPS_PKGS
# (make deps, make deps-deb).
set -euo pipefail
cd -- "$(dirname -- "${BASH_SOURCE[0]}")/.."

fail=0
version=$(cat VERSION)
if ! [[ $version =~ ^[0-9]+\.[0-9]+\.[0-9]+$ ]] || [ "$(wc -l <VERSION)" -ne 1 ]; then
	echo "check-version: VERSION must be one line x.y.z, not '$version'" >&2
	fail=1
fi
deb=$(dpkg-parsechangelog -l debian/changelog -S Version)
if [ "$deb" != "$version" ]; then
	echo "check-version: debian/changelog says $deb, VERSION says $version" >&2
	echo "check-version: hint: dch -v $version (or edit both)" >&2
	fail=1
fi
# shellcheck disable=SC2016 # make expands $(DEPS_PKGS) and $(DEB_DEPS_PKGS)
deps=" $(make -s --no-print-directory -f - <<<'include Makefile
print-deps: ; @echo $(DEPS_PKGS) $(DEB_DEPS_PKGS)' print-deps) "
for p in $(sed -n '/^Build-Depends:/,/^[A-Z]/p' debian/control | sed 's/^Build-Depends://; /^[A-Z]/d' |
	tr ',' '\n' | sed 's/(.*)//; s/[[:space:]]//g' | sed '/^$/d'); do
	case $p in
	debhelper-compat) p=debhelper ;;
	esac
	if [[ $deps != *" $p "* ]]; then
		echo "check-version: Build-Depends has $p, which neither make deps nor make deps-deb installs" >&2
		fail=1
	fi
done
[ "$fail" -eq 0 ] || exit 1
echo "check-version: $version everywhere; Build-Depends in make deps and deps-deb"
