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

check-slurm: $(BUILD)/nsbox
	@missing=; for p in $(SLURM_DEPS_PKGS); do \
		dpkg-query -W -f='$${Status}' "$$p" 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" != 0 ]; then \
			echo "check-slurm: SKIPPED: missing$$missing, and only root can install them (make deps-slurm)"; exit 0; \
		fi; \
		echo "check-slurm: installing$$missing"; \
		if ! $(MAKE) --no-print-directory deps-slurm; then \
			echo "check-slurm: SKIPPED: apt-get could not install$$missing"; exit 0; \
		fi; \
	fi; \
	CHECK_SLURM_DIR=$(abspath $(BUILD))/slurm timeout 300 bash tests/slurm/check-slurm.sh $(abspath $(BUILD)/nsbox)

# make lint checks the example's scripts too (tests/slurm/*.sh already are).
SCRIPTS += $(wildcard examples/slurm/*.sh examples/slurm/*.sbatch)

# `make check-slurm-vm`: what this host cannot show, on the cgroup v2 test VM
# (tests/vm/, KVM or TCG): one slurmd with Slurm's cgroup/v2 plugin, and the
# example's array job submitted as root and as the VM's user; nsbox's cgroup
# must land under the job step's cgroup (tests/slurm/vm-slurm.sh).  The image
# holds the host's Slurm and munge binaries with their libraries and the
# plugin directory.  Not part of `make check` or CI: a few minutes under TCG.
SLURM_VM_DIR     := $(BUILD)/slurm-vm
SLURM_PLUGINDIR  := /usr/lib/x86_64-linux-gnu/slurm-wlm
SLURM_VM_BINS    := /usr/sbin/slurmctld /usr/sbin/slurmd /usr/sbin/munged /usr/bin/munge \
	/usr/bin/unmunge /usr/bin/flock /usr/bin/sbatch /usr/bin/squeue /usr/bin/sinfo /usr/bin/scontrol /bin/bash \
	$(SLURM_PLUGINDIR)/cgroup_v2.so

.PHONY: check-slurm-vm
check-slurm-vm: $(BUILD)/nsbox
	@mkdir -p $(SLURM_VM_DIR)
	@set -e; kernel=$$(sh tests/vm/fetch-kernel.sh $(VM_DIR)/kernel); \
	sh tests/vm/mkinitramfs.sh -o $(SLURM_VM_DIR)/initrd.cpio.gz \
		$(foreach b,$(BUILD)/nsbox $(SLURM_VM_BINS),-b $(b)) -t tests/slurm/vm-slurm.sh \
		-f seccomp-profiles:$(PROFILEDIR) -f $(SLURM_PLUGINDIR)/.:$(SLURM_PLUGINDIR) \
		-f $$(realpath /usr/sbin/slurmstepd):/usr/sbin/slurmstepd \
		-f examples/slurm/nsbox-array.sbatch:/bin/nsbox-array.sbatch; \
	sh tests/vm/run.sh "$$kernel" $(SLURM_VM_DIR)/initrd.cpio.gz $(SLURM_VM_DIR)/serial.log 600
