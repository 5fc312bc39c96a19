# SPDX-License-Identifier: GPL-2.0-or-later
# cgroup v2 tests in a qemu VM (`make check-vm`).  Included from the Makefile.
#
# The host's unified cgroup tree has no controllers (hybrid hierarchy) and its
# v1 mounts are off limits, so these tests boot a Debian cloud kernel, fetched
# with apt-get download and unpacked under $(BUILD)/vm (never installed),
# with an initramfs holding busybox, the binaries under test and
# tests/vm/[0-9]*.sh.  Needs VM_DEPS_PKGS: `make deps-vm` installs them, and
# check-vm does so itself as root when one is missing (without recommended
# packages: qemu's GUI is never used; its firmware, seabios and ipxe-qemu,
# are dependencies proper).  tests/vm/run.sh chooses KVM or TCG and watches
# the boot; check-vm-runner tests that logic with a fake qemu.

VM_DEPS_PKGS := qemu-system-x86 busybox-static cpio

VM_DIR      := $(BUILD)/vm
VM_TESTS    := $(sort $(wildcard tests/vm/[0-9]*.sh))
VM_CGTEST   := $(VM_DIR)/cgtest
VM_TIMEOUT  ?= 600
# The launcher joins the image once it can be built (src/main.c exists).
VM_NSBOX    := $(if $(wildcard src/main.c),$(BUILD)/nsbox)
# With it: the static probe (a payload that needs nothing from the image) and
# the seccomp profiles where the build looks for them.
VM_EXTRA    := $(if $(VM_NSBOX),$(PROBE))
VM_FILES    := $(if $(VM_NSBOX),seccomp-profiles:$(PROFILEDIR))
# The AppArmor profile and the host's parser with what it includes
# (40-isolation.sh loads the profile for /bin/nsbox), when the host has it.
VM_AAPARSER := $(firstword $(wildcard /sbin/apparmor_parser /usr/sbin/apparmor_parser))
VM_EXTRA    += $(if $(VM_NSBOX),$(VM_AAPARSER))
VM_FILES    += $(if $(and $(VM_NSBOX),$(VM_AAPARSER)),apparmor:/etc/nsbox-apparmor \
	/etc/apparmor.d/tunables:/etc/apparmor.d/tunables /etc/apparmor.d/abi:/etc/apparmor.d/abi)

.PHONY: check-vm check-vm-runner deps-vm

deps-vm:
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && $(APT_INSTALL) $(VM_DEPS_PKGS); \
	else \
		echo "run as root: apt-get install -y --no-install-recommends $(VM_DEPS_PKGS)"; \
	fi

# Seconds, no VM: the accelerator choice, the KVM fallback, the watchdogs.
check-vm-runner:
	@sh tests/vm/test-run.sh

# Static, so the image needs no libraries for it; only the module under test
# and the error contract are linked.
VM_CGTEST_SRCS := src/supervisor/cgroup.c src/supervisor/cgroup_place.c src/supervisor/cgroup_file.c src/core/cgroup_parse.c src/base/error.c \
	src/base/fmt.c src/base/util.c
$(VM_CGTEST): tests/vm/cgtest.c $(VM_CGTEST_SRCS) src/supervisor/cgroup.h src/supervisor/cgroup_file.h src/base/error.h src/base/macro.h \
	src/base/fmt.h src/base/util.h
	@mkdir -p $(dir $@)
	$(CC) -D_GNU_SOURCE -std=gnu11 -O1 -g $(WARN) -Wno-missing-prototypes -Isrc -static \
		-o $@ tests/vm/cgtest.c $(VM_CGTEST_SRCS) -Wl,--wrap=strtoul

check-vm: $(VM_NSBOX) $(VM_EXTRA) $(VM_CGTEST)
	@missing=; for p in $(VM_DEPS_PKGS); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ]; then echo "check-vm: installing$$missing"; $(MAKE) --no-print-directory deps-vm; \
		else echo "check-vm: missing$$missing: run make deps-vm as root" >&2; exit 1; fi; \
	fi
	@set -e; kernel=$$(sh tests/vm/fetch-kernel.sh $(VM_DIR)/kernel); \
	sh tests/vm/mkinitramfs.sh -o $(VM_DIR)/initrd.cpio.gz \
		$(foreach b,$(VM_NSBOX) $(VM_EXTRA) $(VM_CGTEST),-b $(b)) $(foreach t,$(VM_TESTS),-t $(t)) \
		$(foreach f,$(VM_FILES),-f $(f)); \
	sh tests/vm/run.sh "$$kernel" $(VM_DIR)/initrd.cpio.gz $(VM_DIR)/serial.log $(VM_TIMEOUT)
