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
