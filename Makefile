# SPDX-License-Identifier: GPL-2.0-or-later
# nsbox build.  `make` builds build/nsbox; `make check` runs every test.

# The one version number (VERSION): --version, the record's "nsbox" field,
# debian/changelog (make check-version) and the Python/TypeScript packages.
VERSION    := $(strip $(file <VERSION))
ifeq ($(VERSION),)
$(error VERSION: missing or empty (one line, e.g. 0.1.0))
endif
PREFIX     ?= /usr/local
DESTDIR    ?=
BINDIR     ?= $(PREFIX)/bin
MANDIR     ?= $(PREFIX)/share/man
PROFILEDIR ?= $(PREFIX)/share/nsbox/seccomp-profiles
# The AppArmor profile (apparmor/nsbox) goes here when the directory exists.
APPARMORDIR ?= /etc/apparmor.d
# Shell completions (generated into $(BUILD)/completions by make completions).
BASHCOMPDIR ?= $(PREFIX)/share/bash-completion/completions
ZSHCOMPDIR  ?= $(PREFIX)/share/zsh/site-functions
FISHCOMPDIR ?= $(PREFIX)/share/fish/vendor_completions.d
# The source tree, where a profile not installed is looked up second: a
# package builds with SRCDIR pointing at an installed directory, never at its
# scratch build tree.
SRCDIR     ?= $(CURDIR)

CC         ?= gcc
PKG_CONFIG ?= pkg-config
BUILD      ?= build

# Debian packages needed to build and test (make deps installs them, without
# recommended packages).  The VM tests' packages (VM_DEPS_PKGS, tests/vm/vm.mk)
# come with `make deps-vm`, or on demand from `make check-vm` as root, so
# that `make demo` stays light; .ci/run installs both.  ca-certificates is only
# recommended by python3 and git, and the tests load Python's default CAs.
# nodejs and node-undici: test_egress's Node fetch through the proxy (undici's
# ProxyAgent; a NodeSource nodejs already installed is kept, its npm has one).
# The package's and the completions' tools (DEB_DEPS_PKGS: make deb, make
# check-deb; bash-completion, zsh and fish for make check-completions) come
# with `make deps-deb`, which .ci/run calls, so that `make demo` stays light.
# python3-pytest, -setuptools, -wheel, -venv, mypy, node-typescript and npm: the
# Python and TypeScript packages' tests (check-python, check-js); Debian's npm
# only where no npm came with nodejs (NodeSource's conflicts with it).
DEPS_PKGS := build-essential pkg-config libcap-ng-dev libseccomp-dev libmnl-dev \
	libidn2-dev libunistring-dev \
	libcriterion-dev python3 mandoc shellcheck clang clang-format clang-tidy \
	cppcheck llvm libclang-rt-14-dev valgrind strace bubblewrap hyperfine \
	kmod git make gcc passwd util-linux ca-certificates apparmor \
	nodejs node-undici python3-jsonschema \
	python3-pytest python3-setuptools python3-wheel python3-venv mypy node-typescript
DEB_DEPS_PKGS := debhelper devscripts lintian fakeroot mmdebstrap bash-completion zsh fish
APT_INSTALL := DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends

PKGS := libcap-ng libseccomp libmnl libidn2

# pkg-config runs when a recipe first needs its answer, once, never while the
# Makefile is read: on a fresh machine `make demo` reads this file before
# `make deps` has installed pkg-config and the libraries.
lazy_pkg = $(eval $(1) := $$(shell $$(PKG_CONFIG) $(2)))$($(1))
PKG_CFLAGS = $(call lazy_pkg,PKG_CFLAGS,--cflags $(PKGS))
# STATIC says how build/nsbox is linked (the tests and the build tools link
# as with STATIC=1 whatever it says).
# STATIC=all (the default): one self-contained static PIE, glibc and every
# library inside, and no dynamic loader: a copy of the file alone runs on
# any x86-64 Linux (the kernel's features aside), and a launch skips the
# loader's mapping and relocating of libc and libmnl (nsbox -- /bin/true:
# 0.91 of the wall time and 0.90 of the CPU of STATIC=1, interleaved, 150
# rounds, against 1.03 for a second copy of the STATIC=1 binary).  Debian
# 12 ships libmnl shared only: tools/fetch-libmnl.sh fetches Debian 13's
# libmnl-dev (pinned SHA-256) and unpacks its libmnl.a into MNL_DIR, never
# installing it; make deps runs it, and the link does when the archive is
# missing.  glibc's name lookups in a static binary: supervisor/nss.h (the
# linker's warnings about getpwuid, getaddrinfo and libcap-ng's initgroups
# are expected).  A sanitizer build (SANITIZE=1) is linked as STATIC=1.
# STATIC=1: libseccomp and libcap-ng are linked in from Debian's .a files,
# so the dynamic loader maps and relocates two objects less per launch (12
# syscalls, 11 page faults and 7% of the supervisor's instructions for
# nsbox -- /bin/true) and the binary needs neither library where it is
# copied.  libidn2 (UTS #46 for internationalised --allow-net names, with
# libunistring) is linked in the same way: its pages are read only when a
# name is not ASCII.  glibc and libmnl stay shared (the Debian package's
# build, debian/rules).
# STATIC=0 links them all shared (remove build/nsbox when switching).
STATIC ?= all
MNL_DIR := build/third_party/libmnl
MNL_A   := $(MNL_DIR)/libmnl.a
ifneq ($(STATIC),0)
PKG_STATIC := libcap-ng libseccomp libidn2
PKG_LIBS = -Wl,-Bstatic $(call lazy_pkg,PKG_LIBS_A,--static --libs $(PKG_STATIC)) -Wl,-Bdynamic \
	$(call lazy_pkg,PKG_LIBS_SO,--libs $(filter-out $(PKG_STATIC),$(PKGS)))
else
PKG_LIBS = $(call lazy_pkg,PKG_LIBS,--libs $(PKGS))
endif
NSBOX_STATIC := 0
ifeq ($(STATIC),all)
ifneq ($(SANITIZE),1)
NSBOX_STATIC := 1
endif
endif

WARN := -Wall -Wextra -Werror -Wformat=2 -Wformat-security -Wshadow \
	-Wstrict-prototypes -Wmissing-prototypes -Wold-style-definition \
	-Wpointer-arith -Wcast-qual -Wwrite-strings -Wundef -Wvla \
	-Wimplicit-fallthrough -Wno-unused-parameter -Wno-missing-field-initializers

HARDEN := -D_FORTIFY_SOURCE=3 -fstack-protector-strong -fstack-clash-protection \
	-fcf-protection -fPIE

ifeq ($(SANITIZE),1)
OPT := -O1 -fno-omit-frame-pointer -fsanitize=address,undefined -fno-sanitize-recover=all
HARDEN := -fstack-protector-strong -fPIE
SANLD := -fsanitize=address,undefined
else
OPT := -O2
SANLD :=
endif

CPPFLAGS += -Isrc -D_GNU_SOURCE -DNSB_VERSION=\"$(VERSION)\" \
	-DNSB_PROFILEDIR=\"$(PROFILEDIR)\" -DNSB_SRCDIR=\"$(SRCDIR)\"
# -ffunction-sections: each function in a section of its own, so that the
# link can gather the ones a launch runs (below, HOT_LD).
CFLAGS   += -std=gnu11 -g -ffunction-sections $(OPT) $(WARN) $(HARDEN) $(PKG_CFLAGS)
# -z pack-relative-relocs (DT_RELR, glibc 2.36, which the new mount API's
# wrappers already require): the 2,253 relative relocations of a PIE take
# 632 bytes instead of 54 KiB of .rela.dyn: nsbox -- /bin/true takes 289
# page faults instead of 294 (perf stat -r 40), 5 of them in the loader.
# -z max-page-size=0x10000: segments aligned to 64 KiB in the file, and so
# (Linux >= 5.10 honours p_align for a PIE) in memory: the kernel's 64 KiB
# fault-around windows then start where the text does, and the launch's
# functions at its start (HOT_LD) take three windows in every launch
# instead of three or four depending on where ASLR put them (supervisor:
# 172-236 -> 192 KiB resident, VmHWM median 1960 -> 1938 KiB; with the
# groups below, 128 KiB).
LDFLAGS  += -pie -Wl,-z,relro,-z,now -Wl,-z,pack-relative-relocs -Wl,--as-needed \
	-Wl,-z,max-page-size=0x10000 $(SANLD)
# --wrap=strtoul: every strtoul call in the link goes to base/util.c's
# __wrap_strtoul (base 10 without the C library's engine); in LDLIBS, not
# LDFLAGS, so that every link that takes the objects (the fuzzers' too)
# resolves the __real_strtoul it refers to.
LDLIBS   += $(PKG_LIBS) -Wl,--wrap=strtoul

SRCS      := $(sort $(wildcard src/*.c src/*/*.c))
LIB_SRCS  := $(filter-out src/main.c,$(SRCS))
OBJS      := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(SRCS))
LIB_OBJS  := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(LIB_SRCS))

# The built-in seccomp profiles (src/seccomp/builtin.h): a host tool compiles
# seccomp-profiles/ with the project's own parser and libseccomp into a C
# table linked into everything that links the seccomp code.  The tool links
# the compiler without load.c, the one user of the table.
BUILTIN_PROFILES := default strict
BUILTIN_TEXTS    := groups
EMBED_TOOL   := $(BUILD)/tools/profile_embed
EMBED_OBJS   := $(patsubst src/%.c,$(BUILD)/obj/%.o,$(wildcard src/base/*.c) \
	$(filter-out src/seccomp/load.c,$(wildcard src/seccomp/*.c)))
GEN_BUILTIN  := $(BUILD)/gen/seccomp_builtin.c
GEN_OBJS     := $(BUILD)/obj/gen/seccomp_builtin.o
OBJS         += $(GEN_OBJS)
LIB_OBJS     += $(GEN_OBJS)

# The functions a default launch runs, listed in tools/hot-functions.txt
# (written by `make hot-functions`), are laid out together at the start of
# nsbox's text by a linker script that only adds that one output section to
# the default layout (INSERT).  The kernel maps a file's text 64 KiB around
# each page fault (fault-around), so scattered hot functions bring in nearly
# all of the 392 KiB text: gathered in 146 KiB, the supervisor's and
# init's resident text at the clone is 156 KiB instead of 392 (VmHWM too;
# gdb at clone3), and a launch takes 5-9 fewer page faults.  The list
# comes in three groups, laid out in its order: the supervisor's alone
# (after main and the C runtime's start), both processes' (with the
# _waiting_ code and libc_nonshared), init's and the payload's alone (with
# libcap-ng, which only init calls).  With the 64 KiB segment alignment
# (LDFLAGS) the supervisor's text then takes two windows and no more
# (128 KiB resident; 192 before the groups, 172-236 before the alignment).
# HOTPROF=1 is the build that finds them: every function entry and exit
# marked by tools/hotprof.c (-finstrument-functions), never shipped.
HOT_LIST := tools/hot-functions.txt
HOT_LD   := $(BUILD)/hot.ld
# In the static build, the members of libc.a and libmnl.a a launch runs
# (tools/hot-archive.txt, written by make hot-functions from a single-stepped
# launch, tools/hotstep.c) join the same three groups: glibc's start-up, its
# malloc, stdio and string functions were scattered over 1 MiB of text.
# Gathered (293 KiB of hot text in all), a launch as root takes 131 page
# faults instead of 147, and nsbox -- /bin/true 0.958-0.959 of the time
# (paired, 120 interleaved rounds as root and as nsbox-test; a copy of the
# binary 0.99-1.01).  In a dynamic link the members' patterns match nothing.
HOT_ARCHIVE := tools/hot-archive.txt
HOTSTEP     := $(BUILD)/hotprof/hotstep
ifeq ($(HOTPROF),1)
CFLAGS += -finstrument-functions
# main.c ends a run with exit, not _exit: hotprof writes its marks from a
# destructor.
CPPFLAGS += -DNSB_HOTPROF=1
OBJS   += $(BUILD)/obj/tools/hotprof.o
endif

UNIT_SRCS  := $(sort $(wildcard tests/unit/test_*.c))
UNIT_BINS  := $(patsubst tests/unit/%.c,$(BUILD)/tests/unit/%,$(UNIT_SRCS))
INTEG_SRCS := $(sort $(wildcard tests/integration/test_*.c))
INTEG_BINS := $(patsubst tests/integration/%.c,$(BUILD)/tests/integration/%,$(INTEG_SRCS))
INTEG_HELPERS := $(filter-out $(INTEG_SRCS),$(wildcard tests/integration/*.c))
PROBE      := $(BUILD)/probe
ESCAPE     := $(BUILD)/escape
NOUSERNS   := $(BUILD)/nouserns

# Builds use every core (tests-build, below); test runs stay one binary at a
# time, each with CRITERION_FLAGS' jobs.
NPROC      := $(shell nproc 2>/dev/null || echo 1)

CRITERION_CFLAGS = $(call lazy_pkg,CRITERION_CFLAGS,--cflags criterion 2>/dev/null)
CRITERION_LIBS   = $(call lazy_pkg,CRITERION_LIBS,--libs criterion 2>/dev/null)

# Criterion prints its "Synthesis:" line per binary; keep it in the log.
CRITERION_FLAGS ?= --jobs 2

.PHONY: all check check-schemas unit integration asan lint install deps demo clean distclean format check-user \
	fuzz fuzz-build check-valgrind lint-cppcheck lint-tidy tests-build check-run hot-functions \
	check-hot-list

all: $(BUILD)/nsbox

$(BUILD)/obj/%.o: src/%.c $(wildcard src/*.h src/*/*.h) Makefile VERSION
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -MMD -c -o $@ $<

$(EMBED_TOOL): tools/profile_embed.c $(EMBED_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $^ $(LDLIBS)

$(GEN_BUILTIN): $(EMBED_TOOL) $(wildcard seccomp-profiles/*.profile)
	@mkdir -p $(dir $@)
	@echo "  EMBED   $(BUILTIN_PROFILES) $(BUILTIN_TEXTS)"
	@$(EMBED_TOOL) $@ seccomp-profiles $(BUILTIN_PROFILES) --text $(BUILTIN_TEXTS)

$(BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(wildcard src/*/*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -c -o $@ $<

# STATIC=all: -static-pie, and every library from its archive (no -Bdynamic,
# which would bring libc.so back).  build/nsbox-dyn is the same objects
# linked as STATIC=1, for memcheck (check-valgrind): it replaces the C
# library's malloc and string functions, which a static binary holds inside;
# and for test_faults' LD_PRELOAD shim, which only a dynamic binary loads.
# The link map (build/nsbox.map) says which archive member each input
# section came from: make hot-functions and check-hot-list read it.
ifeq ($(NSBOX_STATIC),1)
NSBOX_LDFLAGS = $(filter-out -pie,$(LDFLAGS)) -static-pie -Wl,-Map=$(BUILD)/nsbox.map
NSBOX_LIBS    = $(call lazy_pkg,PKG_LIBS_A,--static --libs $(PKG_STATIC)) $(MNL_A) \
	-Wl,--wrap=strtoul
NSBOX_NEEDS   := $(MNL_A)
VALGRIND_NSBOX := $(BUILD)/nsbox-dyn
INTEG_DYN      := $(BUILD)/nsbox-dyn
else
NSBOX_LDFLAGS = $(LDFLAGS)
NSBOX_LIBS    = $(LDLIBS)
NSBOX_NEEDS   :=
VALGRIND_NSBOX := $(BUILD)/nsbox
INTEG_DYN      :=
endif

$(BUILD)/nsbox: $(OBJS) $(HOT_LD) $(NSBOX_NEEDS)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) $(NSBOX_LDFLAGS) -Wl,-T,$(HOT_LD) -o $@ $(OBJS) $(NSBOX_LIBS)

$(BUILD)/nsbox-dyn: $(OBJS) $(HOT_LD)
	@echo "  LD      $@"
	@$(CC) $(CFLAGS) $(LDFLAGS) -Wl,-T,$(HOT_LD) -o $@ $(OBJS) $(LDLIBS)

$(MNL_A): tools/fetch-libmnl.sh
	@bash tools/fetch-libmnl.sh $(MNL_DIR)

# One input pattern per listed name, its compiler clones (.part.N,
# .constprop.N, .isra.N) included; '#' lines are comments.  Ahead of them:
# the code that runs while a sandbox waits (_waiting_, .text.hot), first,
# so that it shares the first 64 KiB with the PLT and is all that faults
# back after a trim; main (.text.startup); and what every launch runs from
# objects compiled without -ffunction-sections: the C start file, .fini,
# libc_nonshared's pthread_atfork (libcap-ng's constructor) and libcap-ng
# (13 KiB; init drops the capabilities with it).
# The constants get the same treatment the other way round: the static
# libraries' tables (libunistring's and libidn2's Unicode data, libseccomp's
# syscall tables: 320 KiB that a launch with an ASCII --allow-net and a
# built-in profile never reads) go to an output section of their own after
# .rodata, .rodata.nsb_cold, with the few of nsbox's own that only --help,
# --print-profile and --seccomp-learn read (the help text and the
# profiles' texts, 26 KiB: _cold_data_ in base/macro.h).  Besides leaving
# nsbox's other 86 KiB of constants together, this keeps the linker from
# merging nsbox's short string literals into the tails of libunistring's
# script names ("su" into "Lisu"), which made a window of Unicode tables
# resident in every launch: nsbox's resident constants at the clone
# 228 -> 148 KiB (tests/check-hot-list.sh checks the section is there).
# glibc's constants in a static link (STATIC=all: its locale, ctype and
# printf tables, 126 KiB) go there too, which keeps .rodata in two
# windows; page faults of nsbox -- /bin/true: 150 either way (perf stat -r
# 40), and no difference in time (150 interleaved rounds: 0.99).
$(HOT_LD): $(HOT_LIST) $(HOT_ARCHIVE) Makefile
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@awk 'BEGIN { while ((getline l < "$(HOT_ARCHIVE)") > 0) { \
			if (l ~ /^# (supervisor|both|init)$$/) { g = substr(l, 3); continue } \
			if (l ~ /^(#.*)?$$/) continue; \
			if (g == "" || l !~ /^lib[a-z0-9-]+\.a:[A-Za-z0-9_.+-]+\.o$$/) { \
				printf "%s: not ARCHIVE:MEMBER in a group: %s\n", "$(HOT_ARCHIVE)", l > "/dev/stderr"; \
				bad = 1; exit 1 } \
			split(l, am, ":"); libs[g] = libs[g] "    *" am[1] ":" am[2] "(.text .text.*)\n" } \
		print "SECTIONS\n{\n  .text.nsb_hot :\n  {"; \
		print "    *(.text.startup .text.startup.*)\n    *Scrt1.o(.text)\n    *rcrt1.o(.text)\n    *crtbegin*.o(.text)\n    KEEP(*(SORT_NONE(.fini)))" } \
		function shared() { if (!done) printf "%s    *(.text.hot .text.hot.*)\n    *libc_nonshared.a:*(.text .text.*)\n", libs["supervisor"]; done = 1 } \
		function init() { if (!idone) printf "%s    *libcap-ng.a:*(.text .text.*)\n", libs["both"]; idone = 1 } \
		/^# both$$/ { shared(); next } \
		/^# init$$/ { shared(); init(); next } \
		/^[A-Za-z_][A-Za-z0-9_]*$$/ { printf "    *(.text.%s .text.%s.*)\n", $$1, $$1; next } \
		/^(#.*)?$$/ { next } \
		{ printf "%s:%d: not a function name: %s\n", FILENAME, FNR, $$0 > "/dev/stderr"; bad = 1; exit 1 } \
		END { if (bad) exit 1; shared(); init(); printf "%s", libs["init"]; print "  }\n}\nINSERT BEFORE .text;"; \
			print "SECTIONS\n{\n  .rodata.nsb_cold :\n  {"; \
			print "    *libunistring.a:*(.rodata .rodata.*)\n    *libidn2.a:*(.rodata .rodata.*)"; \
			print "    *libseccomp.a:*(.rodata .rodata.*)\n    *libc.a:*(.rodata .rodata.*)"; \
			print "    *(.rodata.nsb_cold)\n  }\n}\nINSERT AFTER .rodata;" }' $< > $@.tmp && mv $@.tmp $@

$(BUILD)/obj/tools/hotprof.o: tools/hotprof.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC      $<"
	@$(CC) $(CPPFLAGS) $(filter-out -finstrument-functions,$(CFLAGS)) -c -o $@ $<

# Rewrite tools/hot-functions.txt from default launches of the profiling
# build (as root and, when we are root, as nsbox-test): after a change that
# renames, adds or inlines functions a launch runs (check-hot-list says so).
# In the static build it rewrites tools/hot-archive.txt too, from one
# single-stepped launch as root and as nsbox-test (a minute or two).
hot-functions: $(BUILD)/nsbox check-user
	@$(MAKE) --no-print-directory BUILD=$(BUILD)/hotprof HOTPROF=1 $(BUILD)/hotprof/nsbox
	bash tools/hot-functions.sh $(BUILD)/hotprof/nsbox $(BUILD)/nsbox $(HOT_LIST)
ifeq ($(NSBOX_STATIC),1)
	@mkdir -p $(dir $(HOTSTEP))
	$(CC) -O2 -Wall -Wextra -Werror -o $(HOTSTEP) tools/hotstep.c
	bash tools/hot-archive.sh $(HOTSTEP) $(BUILD)/nsbox $(BUILD)/nsbox.map $(HOT_ARCHIVE)
endif

# Every listed name is still a function of nsbox, and the hot section holds
# them (and, in the static build, every listed archive member).
check-hot-list: $(BUILD)/nsbox
	bash tests/check-hot-list.sh $(BUILD)/nsbox $(HOT_LIST) \
		$(if $(filter 1,$(NSBOX_STATIC)),$(BUILD)/nsbox.map $(HOT_ARCHIVE))

$(BUILD)/tests/unit/%: tests/unit/%.c $(LIB_OBJS) $(wildcard tests/unit/*.h)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes $(CRITERION_CFLAGS) -Isrc -Itests/unit \
		$(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS) $(CRITERION_LIBS)

# test_prefault's helper: prefault.c in a static PIE, the layout nsbox runs
# in by default, whatever this build's own flags (a sanitizer's cannot link
# it).
$(BUILD)/tests/unit/prefault_static_pie: tests/unit/prefault_static_pie.c tests/unit/prefault_heap.h \
		src/base/prefault.c src/base/prefault.h src/base/macro.h
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@gcc -D_GNU_SOURCE -std=gnu11 -O2 -Wall -Wextra -Werror -Isrc -Itests/unit -static-pie -o $@ \
		tests/unit/prefault_static_pie.c src/base/prefault.c
$(BUILD)/tests/unit/test_prefault: $(BUILD)/tests/unit/prefault_static_pie

$(BUILD)/tests/integration/%: tests/integration/%.c $(INTEG_HELPERS) $(wildcard tests/integration/*.h) $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes $(CRITERION_CFLAGS) -Isrc -Itests/integration \
		$(LDFLAGS) -o $@ $< $(INTEG_HELPERS) $(LIB_OBJS) $(LDLIBS) $(CRITERION_LIBS) -lutil

# The probe runs inside the sandbox, where only the system view exists: link
# it statically so it needs nothing from the sandbox's /usr.
$(PROBE): $(wildcard tests/probe/*.c) $(wildcard tests/probe/*.h)
	@mkdir -p $(dir $@)
	gcc -D_GNU_SOURCE -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -static -o $@ $(wildcard tests/probe/*.c)

# The hostile payload of the escape tests: static for the same reason.  Its
# own file, so that the probe's single main() stays the only one there.
$(ESCAPE): tests/escape/escape.c
	@mkdir -p $(dir $@)
	gcc -D_GNU_SOURCE -std=gnu11 -O1 -g -Wall -Wextra -Werror -Wno-unused-parameter -static -o $@ $<

# Runs a command under a seccomp filter that refuses user namespaces as a
# container runtime does (test_isolation): static for the same reason.
$(NOUSERNS): tests/nouserns/nouserns.c
	@mkdir -p $(dir $@)
	gcc -D_GNU_SOURCE -std=gnu11 -O1 -g -Wall -Wextra -Werror -static -o $@ $<

unit: $(UNIT_BINS)
	@fail=0; for t in $(UNIT_BINS); do echo "== $$t"; s=$$(date +%s); \
		$$t $(CRITERION_FLAGS) || fail=1; echo "   $$(( $$(date +%s) - s )) s"; done; exit $$fail

# Integration tests run the real binary as root and as an unprivileged user
# (created by tests/ensure-user.sh when we are root).
check-user:
	@bash tests/ensure-user.sh

integration: $(BUILD)/nsbox $(INTEG_DYN) $(PROBE) $(ESCAPE) $(NOUSERNS) $(INTEG_BINS) check-user
	@fail=0; for t in $(INTEG_BINS); do echo "== $$t"; s=$$(date +%s); \
		NSBOX_BIN=$(abspath $(BUILD)/nsbox) NSBOX_PROBE=$(abspath $(PROBE)) \
		NSBOX_ESCAPE=$(abspath $(ESCAPE)) NSBOX_NOUSERNS=$(abspath $(NOUSERNS)) \
		NSBOX_SRCDIR=$(CURDIR) NSBOX_STATIC=$(NSBOX_STATIC) \
		NSBOX_DYN_BIN=$(if $(INTEG_DYN),$(abspath $(INTEG_DYN))) $$t $(CRITERION_FLAGS) || fail=1; \
		echo "   $$(( $$(date +%s) - s )) s"; done; exit $$fail

# Everything the test runs need.  check and asan build it NPROC at a time
# in a make of its own that ends before the runs start, so that no two makes
# ever build the same file (a plain `make check` would build it one file at a
# time).
tests-build: $(BUILD)/nsbox $(INTEG_DYN) $(PROBE) $(ESCAPE) $(NOUSERNS) $(UNIT_BINS) $(INTEG_BINS)

check:
	@$(MAKE) --no-print-directory -j$(NPROC) tests-build
	@$(MAKE) --no-print-directory check-run

check-run: all check-hot-list unit integration check-schemas check-vm-runner check-vm

# Real records, --check documents and requests against schemas/ (issue 17).
# As root, again as the test user (with a copy of the binary it can reach).
check-schemas: $(BUILD)/nsbox
	python3 tests/check-schemas.py $(BUILD)/nsbox $(CURDIR)
	@if [ "$$(id -u)" = 0 ]; then bash tests/ensure-user.sh && d=$$(mktemp -d) && \
		cp $(BUILD)/nsbox $$d/ && chmod 755 $$d $$d/nsbox && \
		runuser -u nsbox-test -- python3 tests/check-schemas.py $$d/nsbox $(CURDIR); \
		rc=$$?; rm -rf $$d; exit $$rc; fi

# The whole suite under AddressSanitizer + UBSan.  Reports go to files so that
# a report in a Criterion worker or in a sandbox child is never lost: any
# file there fails the target, leaks included.
ASAN_LOGDIR := $(abspath build/asan-logs)
asan:
	rm -rf $(ASAN_LOGDIR) && mkdir -p $(ASAN_LOGDIR) && chmod 1777 $(ASAN_LOGDIR)
	@$(MAKE) --no-print-directory BUILD=build/asan SANITIZE=1 -j$(NPROC) tests-build
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1:log_path=$(ASAN_LOGDIR)/asan:log_exe_name=1 \
	LSAN_OPTIONS=suppressions=$(abspath tests/lsan.supp):print_suppressions=0 \
	UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1:log_path=$(ASAN_LOGDIR)/ubsan \
		$(MAKE) BUILD=build/asan SANITIZE=1 unit integration
	@if [ -n "$$(ls -A $(ASAN_LOGDIR))" ]; then echo "sanitizer reports:"; cat $(ASAN_LOGDIR)/*; exit 1; fi
	@echo "asan: no sanitizer reports"

# libFuzzer targets (tests/fuzz/fuzz_*.c), one per parser and pure decision,
# built with clang and ASan + UBSan into build/fuzz.  `make fuzz` runs each
# for FUZZ_SECONDS on a scratch copy of its seed corpus (tests/fuzz/corpus/
# <target>, never modified) and fails on the first crash, leak or failed
# invariant; the reproducer is left in build/fuzz/artifacts/.
FUZZ_CC      ?= clang
FUZZ_SECONDS ?= 60
FUZZ_BUILD   := build/fuzz
FUZZ_SRCS    := $(sort $(wildcard tests/fuzz/fuzz_*.c))
FUZZ_TARGETS := $(patsubst tests/fuzz/%.c,%,$(FUZZ_SRCS))
FUZZ_BINS    := $(addprefix $(FUZZ_BUILD)/,$(FUZZ_TARGETS))
FUZZ_LIB_OBJS := $(patsubst src/%.c,$(FUZZ_BUILD)/obj/%.o,$(LIB_SRCS)) \
	$(FUZZ_BUILD)/obj/gen/seccomp_builtin.o
FUZZ_CFLAGS  = -std=gnu11 -g -O1 -fno-omit-frame-pointer $(WARN) -Wno-error=unused-command-line-argument \
	-fsanitize=address,undefined -fno-sanitize-recover=all \
	$(PKG_CFLAGS)

$(FUZZ_BUILD)/obj/%.o: src/%.c $(wildcard src/*.h src/*/*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	@$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/obj/gen/%.o: $(BUILD)/gen/%.c $(wildcard src/*/*.h) Makefile
	@mkdir -p $(dir $@)
	@echo "  FUZZCC  $<"
	@$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -fsanitize=fuzzer-no-link -c -o $@ $<

$(FUZZ_BUILD)/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/fuzz.h tests/unit/json_check.h tests/unit/gate_fakefs.h $(FUZZ_LIB_OBJS)
	@mkdir -p $(dir $@)
	$(FUZZ_CC) $(CPPFLAGS) $(FUZZ_CFLAGS) -Isrc -fsanitize=fuzzer -o $@ $< $(FUZZ_LIB_OBJS) $(LDLIBS)

# keep the objects between builds (make would delete them as intermediates)
.SECONDARY: $(FUZZ_LIB_OBJS)

fuzz-build: $(FUZZ_BINS)

# The targets run FUZZ_JOBS at a time (each is one process on one core),
# every one to its end even when another failed; make -O keeps each one's
# lines together in the log.
FUZZ_JOBS ?= $(NPROC)
fuzz:
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz-build
	@$(MAKE) --no-print-directory -k -O -j$(FUZZ_JOBS) $(addprefix fuzz-run/,$(FUZZ_TARGETS))

fuzz-run/%: FORCE
	@t=$*; echo "== $$t ($(FUZZ_SECONDS)s)"; \
	rm -rf $(FUZZ_BUILD)/corpus/$$t && mkdir -p $(FUZZ_BUILD)/corpus/$$t $(FUZZ_BUILD)/artifacts; \
	ASAN_OPTIONS=detect_leaks=1:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
	$(FUZZ_BUILD)/$$t -max_total_time=$(FUZZ_SECONDS) -timeout=10 -rss_limit_mb=2048 \
		-print_final_stats=1 -artifact_prefix=$(FUZZ_BUILD)/artifacts/$$t- \
		$(FUZZ_BUILD)/corpus/$$t tests/fuzz/corpus/$$t 2>$(FUZZ_BUILD)/$$t.log; rc=$$?; \
	grep -E '^(#[0-9]+ +DONE|stat::number_of_executed_units|stat::average_exec_per_sec|INFO: seed corpus|==[0-9]+==ERROR|SUMMARY)' $(FUZZ_BUILD)/$$t.log; \
	echo "   corpus: $$(ls tests/fuzz/corpus/$$t | wc -l) seeds, $$(ls $(FUZZ_BUILD)/corpus/$$t | wc -l) new"; \
	if [ $$rc -ne 0 ]; then tail -n 60 $(FUZZ_BUILD)/$$t.log; echo "FAIL: $$t (exit $$rc)"; exit 1; fi

FORCE:

# memcheck over the unit tests and the launcher's supervisor path.  Criterion
# runs each test in a re-executed worker, so --trace-children=yes puts every
# worker under memcheck; each process logs to its own file and any memcheck
# report there (an invalid access, a definite leak) fails the target.
# (memcheck's "unhandled syscall" warnings are not reports.)
# The launcher runs with --trace-children=no: the payload it execs runs
# natively.  Its sandbox child (a fork-like clone) stays under memcheck, but
# memcheck 3.19 does not know the new mount API (open_tree, fsopen: ENOSYS),
# so a sandboxed run ends in setup_failed there: the supervisor's paths for
# usage errors, missing paths, setup failure, the record and --capture are
# what this checks; the payload path itself is covered by make asan.
VALGRIND_LOGDIR := $(abspath build/valgrind)
# --vgdb=no: no gdbserver pipes in /tmp, which a test's child that has
# changed its uid (test_gate_cache runs one as nobody) cannot remove, and
# says so in its log.
VALGRIND := valgrind -q --vgdb=no --leak-check=full --errors-for-leak-kinds=definite \
	--show-leak-kinds=definite --error-exitcode=99 --suppressions=$(CURDIR)/tests/valgrind.supp
# Not every unit binary runs under memcheck, each for a reason:
# - every Criterion worker pays memcheck's start-up (1-3 s), so the
#   table-driven binaries (cli 192, gate 366, gate_interp 335, gate_paths2
#   155, gate_exec2 147, util 154, profile 85, plan 70 cases) would take most
#   of an hour (gate_interp alone 6 minutes, gate_exec2 3, on a 2-core PVM
#   guest whose page faults cost 10 us); their code runs instead in-process
#   through the fuzz targets' replay (tests/fuzz/replay.c) of the corpora,
#   which hold every profile fixture and reach cli, plan, gate, policy,
#   profile and the number parsers with hundreds of inputs per process;
# - test_seccomp and test_sys_kernel load seccomp filters, probe int 0x80 and
#   use the new mount API, which memcheck 3.19 does not implement (ENOSYS,
#   SIGILL): they test the kernel, not memory, and make asan covers them;
# - test_result's short-write/EINTR tests are timing-driven and time out
#   under memcheck; the record builder itself runs under memcheck in every
#   launcher invocation below.
# test_protect: valgrind 3.19 (Debian 12) has no openat2, which the scan
# walks with (and now fails on, rather than skipping a directory).
# test_overlay: the change-set walker, commit and export open every path with
# openat2 too.  test_notify: compiling a kill rule makes libseccomp ask the
# kernel which actions exist (seccomp(2)), which memcheck does not pass on.
# test_bpf_opt compiles every fixture profile with libseccomp, kill rules
# among them, for the same reason (make asan runs it).
# test_trim checks the kernel's Rss of the binary's text and of [stack]:
# under memcheck the code that runs is memcheck's translation and the
# client's stack is not the kernel's [stack] mapping, so those counts say
# nothing there (make asan runs it).
VALGRIND_SKIP := test_cli test_gate test_gate_interp test_gate_paths2 test_gate_exec2 \
	test_util test_profile test_plan \
	test_seccomp test_sys_kernel test_result test_protect test_overlay test_notify test_trim \
	test_bpf_opt
VALGRIND_UNIT_BINS ?= $(filter-out $(addprefix $(BUILD)/tests/unit/,$(VALGRIND_SKIP)),$(UNIT_BINS))
REPLAY_BINS := $(addprefix $(BUILD)/replay/,$(FUZZ_TARGETS))

$(BUILD)/replay/fuzz_%: tests/fuzz/fuzz_%.c tests/fuzz/replay.c tests/fuzz/fuzz.h tests/unit/json_check.h tests/unit/gate_fakefs.h $(LIB_OBJS)
	@mkdir -p $(dir $@)
	$(CC) $(CPPFLAGS) $(CFLAGS) -Wno-missing-prototypes -Isrc $(LDFLAGS) -o $@ $< tests/fuzz/replay.c \
		$(LIB_OBJS) $(LDLIBS)

check-valgrind:
	@$(MAKE) --no-print-directory -j$(NPROC) $(VALGRIND_NSBOX) $(VALGRIND_UNIT_BINS) $(REPLAY_BINS)
	@rm -rf $(VALGRIND_LOGDIR) && mkdir -p $(VALGRIND_LOGDIR)
	@fail=0; for t in $(VALGRIND_UNIT_BINS); do echo "== valgrind $$t"; s=$$(date +%s); \
		n=$$(basename $$t); \
		$(VALGRIND) --trace-children=yes --log-file=$(VALGRIND_LOGDIR)/$$n.%p \
			$$t $(CRITERION_FLAGS) || fail=1; echo "   $$(( $$(date +%s) - s )) s"; done; \
	for t in $(FUZZ_TARGETS); do echo "== valgrind replay $$t"; s=$$(date +%s); \
		$(VALGRIND) --log-file=$(VALGRIND_LOGDIR)/replay-$$t.%p $(BUILD)/replay/$$t \
			tests/fuzz/corpus/$$t $$(ls -d $(FUZZ_BUILD)/corpus/$$t 2>/dev/null) || fail=1; \
		echo "   $$(( $$(date +%s) - s )) s"; done; \
	s=$$(date +%s); \
	bash tests/valgrind-launcher.sh $(abspath $(VALGRIND_NSBOX)) $(VALGRIND_LOGDIR) "$(VALGRIND)" || fail=1; \
	echo "   launcher: $$(( $$(date +%s) - s )) s"; \
	if grep -hE '^==[0-9]+== ' $(VALGRIND_LOGDIR)/* 2>/dev/null | grep -v WARNING | grep -q .; then \
		echo "memcheck reports:"; grep -lE '^==[0-9]+== ' $(VALGRIND_LOGDIR)/* | xargs head -n 60; fail=1; fi; \
	if [ $$fail -ne 0 ]; then echo "check-valgrind: FAILED"; exit 1; fi; \
	echo "check-valgrind: no memcheck reports"

CLANG_FORMAT ?= clang-format
FORMAT_FILES = $(wildcard src/*.c src/*.h src/*/*.c src/*/*.h tests/unit/*.c tests/unit/*.h \
	tests/integration/*.c tests/integration/*.h tests/probe/*.c tests/probe/*.h \
	tests/escape/*.c tests/fuzz/*.c tests/fuzz/*.h tools/*.c tests/nouserns/*.c)
SCRIPTS = .ci/run $(wildcard tests/*.sh tests/*/*.sh examples/*.sh bench/*.sh tools/*.sh)

# Static analysis flags: the build's defines (no -Isrc needed: the sources
# include "x.h" next to themselves, and no project header is named like a
# system one).
LINT_CPPFLAGS := -Isrc -D_GNU_SOURCE -DNSB_VERSION=\"$(VERSION)\" -DNSB_PROFILEDIR=\"/x\" -DNSB_SRCDIR=\"/x\"

# cppcheck: warning, portability and performance (not style: its
# unreadVariable does not see that cleanup attributes read TAKE_FD'd
# variables, and variableScope is taste).  Suppressions, each justified, in
# .cppcheck-suppressions (comments stripped: cppcheck does not read them).
lint-cppcheck:
	@mkdir -p build
	@grep -v '^#' .cppcheck-suppressions | grep -v '^$$' > build/cppcheck.supp
	cppcheck --quiet --error-exitcode=1 --enable=warning,portability,performance \
		-j $(NPROC) --inline-suppr --std=c11 $(LINT_CPPFLAGS) \
		--suppressions-list=build/cppcheck.supp $(SRCS)

# clang-tidy with the committed .clang-tidy (every finding is an error).
lint-tidy:
	@printf '%s\n' $(SRCS) | xargs -P $(NPROC) -I{} sh -c \
		'clang-tidy --quiet {} -- -std=gnu11 $(LINT_CPPFLAGS) $(PKG_CFLAGS) \
			2>/dev/null || { echo "clang-tidy: {}"; exit 1; }'

lint: lint-cppcheck lint-tidy
	$(CLANG_FORMAT) --dry-run --Werror $(FORMAT_FILES)
	mandoc -Tlint -Wwarning man/*.[1-8]
	shellcheck $(SCRIPTS)
	bash tests/check-layers.sh
	bash tests/check-funclen.sh
	bash tests/check-filelen.sh
	bash tests/check-apparmor.sh
	bash tests/check-version.sh

format:
	$(CLANG_FORMAT) -i $(FORMAT_FILES)

install: $(BUILD)/nsbox completions
	install -D -m 0755 $(BUILD)/nsbox $(DESTDIR)$(BINDIR)/nsbox
	install -D -m 0644 $(BUILD)/completions/nsbox.bash $(DESTDIR)$(BASHCOMPDIR)/nsbox
	install -D -m 0644 $(BUILD)/completions/_nsbox $(DESTDIR)$(ZSHCOMPDIR)/_nsbox
	install -D -m 0644 $(BUILD)/completions/nsbox.fish $(DESTDIR)$(FISHCOMPDIR)/nsbox.fish
	install -d $(DESTDIR)$(MANDIR)/man1 $(DESTDIR)$(MANDIR)/man5
	install -m 0644 man/*.1 $(DESTDIR)$(MANDIR)/man1/
	if ls man/*.5 >/dev/null 2>&1; then install -m 0644 man/*.5 $(DESTDIR)$(MANDIR)/man5/; fi
	install -d $(DESTDIR)$(PROFILEDIR)
	if ls seccomp-profiles/*.profile >/dev/null 2>&1; then \
		install -m 0644 seccomp-profiles/*.profile $(DESTDIR)$(PROFILEDIR)/; fi
	@# The profile names the installed binary; loading it is the operator's
	@# call (apparmor_parser -r $(APPARMORDIR)/nsbox), said here.
	if [ -d $(DESTDIR)$(APPARMORDIR) ]; then \
		sed 's|^profile nsbox /usr/local/bin/nsbox |profile nsbox $(BINDIR)/nsbox |' apparmor/nsbox \
			>$(DESTDIR)$(APPARMORDIR)/nsbox && chmod 0644 $(DESTDIR)$(APPARMORDIR)/nsbox && \
		echo "AppArmor profile installed: load it with apparmor_parser -r $(APPARMORDIR)/nsbox"; fi

# Benchmarks (bench/, issue 11): measurements, never pass/fail on a number.
# `make bench` runs every bench/*.sh with its default counts (about 5 minutes
# on 2 cores) and writes build/bench/report.md, CSV and SVG plots;
# `make bench-smoke` runs each once with tiny counts so that none rots (CI);
# `make bench-publish` copies the plots and the report to bench/results/ and
# the summary table into README.md.  The plots need gnuplot: `make deps-bench`.
BENCH_DEPS_PKGS := gnuplot-nox
.PHONY: bench bench-smoke bench-publish deps-bench

bench: $(BUILD)/nsbox check-user
	bash bench/run-all.sh $(abspath $(BUILD)/nsbox)

bench-smoke: $(BUILD)/nsbox check-user
	BENCH_SMOKE=1 bash bench/run-all.sh $(abspath $(BUILD)/nsbox)

bench-publish:
	bash bench/publish.sh

deps-bench:
	@if [ "$$(id -u)" = 0 ]; then \
		$(APT_INSTALL) $(BENCH_DEPS_PKGS) || \
		{ apt-get update -qq && $(APT_INSTALL) $(BENCH_DEPS_PKGS); }; \
	else \
		echo "run as root: apt-get install -y --no-install-recommends $(BENCH_DEPS_PKGS)"; \
	fi

deps:
	@if [ "$$(id -u)" = 0 ]; then \
		apt-get update -qq && $(APT_INSTALL) $(DEPS_PKGS) && \
		{ command -v npm >/dev/null || $(APT_INSTALL) npm; }; \
	else \
		echo "run as root: apt-get install -y --no-install-recommends $(DEPS_PKGS) npm"; \
	fi
	@if [ "$(STATIC)" = all ] && [ ! -f $(MNL_A) ]; then bash tools/fetch-libmnl.sh $(MNL_DIR); fi

deps-deb:
	@if [ "$$(id -u)" = 0 ]; then \
		$(APT_INSTALL) $(DEB_DEPS_PKGS) || \
		{ apt-get update -qq && $(APT_INSTALL) $(DEB_DEPS_PKGS); }; \
	else \
		echo "run as root: apt-get install -y --no-install-recommends $(DEB_DEPS_PKGS)"; \
	fi

# A second make reads the Makefile again once the dependencies are there
# (and keeps -j from building before deps is done).
demo: deps
	@$(MAKE) --no-print-directory all
	@bash examples/run-demo.sh $(abspath $(BUILD)/nsbox)

# clean keeps build/third_party (what tools/fetch-libmnl.sh downloaded);
# distclean removes it too.
clean:
	find build -mindepth 1 -maxdepth 1 ! -name third_party -exec rm -rf {} + 2>/dev/null || true

distclean:
	rm -rf build

# The Python and TypeScript packages (python/, js/), against the real binary,
# as root and as the test user: the wheel is built offline and installed in
# build/pyvenv; check-js is skipped, with the reason, where node is missing.
PYTHON ?= $(if $(wildcard /usr/bin/python3),/usr/bin/python3,python3)
.PHONY: check-python check-js
check-run: check-python check-js

check-python: $(BUILD)/nsbox check-user
	@BUILD=$(abspath $(BUILD)) PYTHON=$(PYTHON) bash tests/check-packages.sh python $(BUILD)/nsbox

check-js: $(BUILD)/nsbox check-user
	@BUILD=$(abspath $(BUILD)) bash tests/check-packages.sh js $(BUILD)/nsbox

include tests/vm/vm.mk
include tests/slurm/slurm.mk

-include $(wildcard $(BUILD)/obj/*.d)

# ---- packaging (issue 18): completions, the Debian package, one version ----
# The shell completions, generated from the option table (tools/complete_gen.c
# links the option table and the built-in profiles), never edited by hand.
COMPLETE_GEN := $(BUILD)/tools/complete_gen
COMPLETIONS  := $(BUILD)/completions/nsbox.bash $(BUILD)/completions/_nsbox \
	$(BUILD)/completions/nsbox.fish
.PHONY: completions check-completions deb check-deb check-version deps-deb

$(COMPLETE_GEN): tools/complete_gen.c $(LIB_OBJS)
	@mkdir -p $(dir $@)
	@echo "  LD      $@"
	@$(CC) $(CPPFLAGS) $(CFLAGS) $(LDFLAGS) -o $@ $< $(LIB_OBJS) $(LDLIBS)

$(BUILD)/completions/nsbox.%: $(COMPLETE_GEN)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@$(COMPLETE_GEN) $* $(PROFILEDIR) >$@.tmp && mv $@.tmp $@

$(BUILD)/completions/_nsbox: $(COMPLETE_GEN)
	@mkdir -p $(dir $@)
	@echo "  GEN     $@"
	@$(COMPLETE_GEN) zsh $(PROFILEDIR) >$@.tmp && mv $@.tmp $@

completions: $(COMPLETIONS)

# Every option in all three scripts, bash's completion function on partial
# command lines (with Debian's bash-completion), zsh -n and fish -n.
check-completions: $(COMPLETIONS) $(BUILD)/nsbox
	bash tests/check-completions.sh $(abspath $(BUILD)) $(abspath $(BUILD)/nsbox)

# debian/changelog's version is VERSION's.
check-version:
	bash tests/check-version.sh

# build/nsbox_<version>_amd64.deb, built by dpkg-buildpackage in a scratch
# copy of the tree (build/deb-src) so that the tree stays clean.
deb:
	bash tests/deb/build.sh $(abspath $(BUILD))

# The package installed into a fresh Debian root (mmdebstrap), the README's
# example run there as root and as a user, then purged: nothing may be left.
check-deb: deb
	bash tests/deb/check.sh $(abspath $(BUILD))
