# SPDX-License-Identifier: GPL-2.0-or-later
# `make check-slurm`: a single-machine Slurm cluster from Debian's packages
# runs a 50-task array job of examples/slurm/nsbox-array.sbatch and every
# record is checked (tests/slurm/check-slurm.sh; about 30 s).  Included from
# the Makefile.  Runs as root: slurmd starts each job as the user who
# submitted it (the test submits as nsbox-test).  `make deps-slurm` installs
# the packages; check-slurm does so itself as root when one is missing, and
# is skipped, with the reason printed, only where they cannot be installed.
# Installing them on a machine with systemd may start the packaged munge
# service; the test's own daemons use their own key, socket, ports and
# directories under $(BUILD)/slurm, and are all stopped when it ends.

SLURM_DEPS_PKGS := munge slurmctld slurmd slurm-client

.PHONY: check-slurm deps-slurm

deps-slurm:
	@if [ "$$(id -u)" = 0 ]; then \
		$(APT_INSTALL) $(SLURM_DEPS_PKGS) || \
		{ apt-get update -qq && $(APT_INSTALL) $(SLURM_DEPS_PKGS); }; \
	else \
		echo "run as root: apt-get install -y --no-install-recommends $(SLURM_DEPS_PKGS)"; \
	fi

# The packages, installed as root when missing; where they cannot be, the
# target says why and stops there with success ($(1): the target's name).
define slurm_need_pkgs
	missing=; for p in $(SLURM_DEPS_PKGS); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "$(1): SKIPPED: missing$$missing, and only root can install them (make deps-slurm)"; exit 0; \
		fi; \
		echo "$(1): installing$$missing"; \
		if ! $(MAKE) --no-print-directory deps-slurm; then \
			echo "$(1): SKIPPED: apt-get could not install$$missing"; exit 0; \
		fi; \
	fi
endef

check-slurm: $(BUILD)/nsbox
	@$(call slurm_need_pkgs,check-slurm); \
	CHECK_SLURM_DIR=$(abspath $(BUILD))/slurm timeout 300 bash tests/slurm/check-slurm.sh $(abspath $(BUILD)/nsbox)

# make lint checks the example's scripts too (tests/slurm/*.sh already are).
SCRIPTS += $(wildcard examples/slurm/*.sh examples/slurm/*.sbatch)

# `make check-slurm-vm`: what this host cannot show, on the cgroup v2 test VM
# (tests/vm/, KVM or TCG): one slurmd with Slurm's cgroup/v2 plugin, and the
# example's array job submitted as root and as the VM's user; nsbox's cgroup
# must land under the job step's cgroup (tests/slurm/vm-slurm.sh).  The image
# holds the host's Slurm and munge binaries with their libraries and the
# plugin directory.  About a minute under TCG; a step of .ci/run.
SLURM_VM_DIR     := $(BUILD)/slurm-vm
SLURM_PLUGINDIR  := /usr/lib/x86_64-linux-gnu/slurm-wlm
SLURM_VM_BINS    := /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged /usr/bin/munge \
	/usr/bin/unmunge /usr/bin/flock /usr/bin/sbatch /usr/bin/squeue /usr/bin/sinfo /usr/bin/scontrol /bin/bash \
	$(SLURM_PLUGINDIR)/cgroup_v2.so

.PHONY: check-slurm-vm
check-slurm-vm: $(BUILD)/nsbox
	@$(call slurm_need_pkgs,check-slurm-vm); \
	for p in $(VM_DEPS_PKGS); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'ok installed' || \
			{ echo "check-slurm-vm: $$p is missing: make deps-vm" >&2; exit 1; }; \
	done; \
	mkdir -p $(SLURM_VM_DIR); \
	set -e; kernel=$$(sh tests/vm/fetch-kernel.sh $(VM_DIR)/kernel); \
	sh tests/vm/mkinitramfs.sh -o $(SLURM_VM_DIR)/initrd.cpio.gz \
		$(foreach b,$(BUILD)/nsbox $(SLURM_VM_BINS),-b $(b)) -t tests/slurm/vm-slurm.sh \
		-f seccomp-profiles:$(PROFILEDIR) -f $(SLURM_PLUGINDIR)/.:$(SLURM_PLUGINDIR) \
		-f $$(realpath /usr/sbin/slurmstepd):/usr/sbin/slurmstepd \
		-f examples/slurm/nsbox-array.sbatch:/bin/nsbox-array.sbatch; \
	sh tests/vm/run.sh "$$kernel" $(SLURM_VM_DIR)/initrd.cpio.gz $(SLURM_VM_DIR)/serial.log 600
