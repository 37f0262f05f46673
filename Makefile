# iobench — fio-compatible storage benchmark engine.
# `make` builds ./iobench; `make check` builds it and runs the unit tests (no root, no
# packages installed); `make run` and `make test` also install missing Debian packages (as root).

VERSION   := 0.1.0
PREFIX    ?= /usr/local
DESTDIR   ?=
BUILD     ?= build
CC        ?= cc
CFLAGS    ?= -O2 -g
PKG_CONFIG ?= pkg-config

DEB_PKGS      := build-essential pkg-config libaio-dev liburing-dev libcjson-dev libcmocka-dev \
                 libisal-dev libxxhash-dev libssl-dev zlib1g-dev
DEB_TEST_PKGS := fio jq python3 python3-pandas python3-yaml util-linux fdisk e2fsprogs chromium \
                 openmpi-bin libopenmpi-dev nasm dpkg-dev file python3-kubernetes \
                 libcurl4 openssl nbdkit libnbd0

PKG_LIBS := liburing libcjson libisal libxxhash libcrypto zlib
# The build's pkg-config modules and the Debian packages that carry them (`make check`'s
# one-line message when one is missing).
PKG_DEBS := liburing:liburing-dev libcjson:libcjson-dev libisal:libisal-dev libxxhash:libxxhash-dev \
            libcrypto:libssl-dev zlib:zlib1g-dev cmocka:libcmocka-dev
override CPPFLAGS += -I. -D_GNU_SOURCE -DIOBENCH_VERSION=\"$(VERSION)\" -MMD -MP
override CFLAGS   += -std=gnu11 -Wall -Wextra -Wshadow -Wno-unused-parameter -Wformat=2 -pthread
ifeq ($(WERROR),1)
override CFLAGS   += -Werror
endif
ifneq ($(CI),)
override CFLAGS   += -Werror
endif
# `make asan test`: SANITIZE is set from the goals and passed on to sub-makes.
ifneq ($(filter asan,$(MAKECMDGOALS)),)
SANITIZE ?= asan
endif
ifneq ($(filter tsan,$(MAKECMDGOALS)),)
SANITIZE ?= tsan
endif
ifneq ($(filter ubsan,$(MAKECMDGOALS)),)
SANITIZE ?= ubsan
endif
export SANITIZE
SAN :=
ifeq ($(SANITIZE),asan)
SAN := -fsanitize=address,undefined -fno-omit-frame-pointer -fno-sanitize-recover=undefined
BUILD := build-asan
endif
ifeq ($(SANITIZE),ubsan)
SAN := -fsanitize=undefined -fno-sanitize-recover=undefined -fno-omit-frame-pointer
BUILD := build-ubsan
endif
ifeq ($(SANITIZE),tsan)
SAN := -fsanitize=thread
BUILD := build-tsan
endif
override CFLAGS  += $(SAN)
override LDFLAGS += $(SAN) -pthread
PKG_CFLAGS = $(shell $(PKG_CONFIG) --cflags $(PKG_LIBS) 2>/dev/null)
PKG_LDLIBS = $(shell $(PKG_CONFIG) --libs $(PKG_LIBS) 2>/dev/null)
# `make static`: Debian's static archives, plus cJSON and ISA-L built under build/static/deps.
STATIC_DEPS := build/static/deps
ifeq ($(STATIC),1)
BUILD      := build/static/obj
PKG_CFLAGS := -I$(STATIC_DEPS)/include
PKG_LDLIBS := $(STATIC_DEPS)/lib/libcjson.a $(STATIC_DEPS)/lib/libisal.a -luring -lxxhash -lcrypto -lz
override LDFLAGS += -static
# Engines whose libraries are loaded at run time (rbd, rados) are compiled out.
override CPPFLAGS += -DIOBENCH_STATIC
endif
# `make mpi`: ./iobench-mpi, the same program built with mpicc and the MPI cluster layer.
ifeq ($(MPI),1)
BUILD    := build/mpi
override CC := mpicc
override CPPFLAGS += -DIOBENCH_MPI
endif
LDLIBS   += $(PKG_LDLIBS) -laio -lm

ifeq ($(V),1)
Q :=
else
Q := @
endif

CORE_SRC    := $(filter-out core/app/main.c core/run/cluster_mpi.c,$(wildcard core/*/*.c))
ENGINE_SRC  := $(wildcard engines/*.c)
REPORT_SRC  := $(wildcard report/*.c)
LIB_SRC     := $(CORE_SRC) $(ENGINE_SRC) $(REPORT_SRC)
ifeq ($(MPI),1)
LIB_SRC     += core/run/cluster_mpi.c
endif
LIB_OBJ     := $(LIB_SRC:%.c=$(BUILD)/%.o)
MAIN_OBJ    := $(BUILD)/core/app/main.o
UNIT_SRC    := $(wildcard tests/unit/test_*.c)
UNIT_BIN    := $(UNIT_SRC:tests/unit/%.c=$(BUILD)/tests/%)

.PHONY: static mpi bench test-ceph test-gluster test-image test-container all run test check unit unit-bins integration build-deps deps test-deps \
	clean install uninstall asan ubsan tsan docs fuzz FORCE
all: iobench

# Each flavour links in its own build folder; ./iobench is a copy of the last one built.
$(BUILD)/iobench: $(LIB_OBJ) $(MAIN_OBJ)
	@echo "  LD    $@"
	$(Q)$(CC) $(LDFLAGS) -o $@ $^ $(LDLIBS)

iobench: $(BUILD)/iobench FORCE
	$(Q)cmp -s $< $@ || cp $< $@

# A new machine without the -dev packages gets build-deps' one line, not a compiler error.
$(BUILD)/.deps-ok:
	@$(MAKE) --no-print-directory build-deps
	@mkdir -p $(dir $@) && touch $@

$(BUILD)/%.o: %.c | $(BUILD)/.deps-ok
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -c -o $@ $<

$(BUILD)/tests/%: tests/unit/%.c $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  CC    $<"
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) $$($(PKG_CONFIG) --cflags cmocka) -o $@ $(filter %.c %.o,$^) \
		$(LDFLAGS) $$($(PKG_CONFIG) --libs cmocka) $(LDLIBS)

# Install the Debian packages that are missing (only as root; otherwise one line says what
# is missing and how to install it).
DEPS = sh tests/deps.sh --for "make $(strip $(or $(MAKECMDGOALS),all))"
deps:
	@$(DEPS) $(DEB_PKGS)
test-deps:
	@$(DEPS) $(DEB_PKGS) $(DEB_TEST_PKGS)

# `make static`: ./iobench-static, statically linked (for scratch/distroless images and for
# copying into a running pod). Needs nasm and dpkg-dev, and deb-src entries (added as root).
static:
	@$(DEPS) $(DEB_PKGS) nasm dpkg-dev
	@sh deploy/static-libs.sh $(STATIC_DEPS)
	@$(MAKE) --no-print-directory STATIC=1 build/static/obj/iobench
	$(Q)cmp -s build/static/obj/iobench iobench-static || cp build/static/obj/iobench iobench-static
	@file iobench-static

# `make run`: the default profile, in the current directory, in fio's normal format.
run: deps
	@$(MAKE) --no-print-directory all
	./iobench jobs/default.fio

# `make test`: unit tests (cmocka), then integration and fio-differential tests; one summary line.
test: test-deps
	@$(MAKE) --no-print-directory all $(UNIT_BIN)
	@BUILD=$(BUILD) sh tests/run.sh $(UNIT_BIN)

# `make check`: ./iobench and the unit tests, a few seconds; as any user, installing nothing.
# It builds on every CPU unless told -jN.
check: build-deps
	@case " $$MAKEFLAGS " in *" -j"*) j= ;; *) j=-j$$(nproc 2>/dev/null || echo 2) ;; esac; \
		$(MAKE) --no-print-directory $$j all unit-bins
	@$(MAKE) --no-print-directory unit
	@if command -v python3 >/dev/null 2>&1; then python3 tests/tools/arch_check.py && \
		echo "ok - docs/architecture.md's rules: the folders' direction, no circle, headers by folder, the engines/ and report/ doors, functions <= 80 lines, files <= 600 lines"; \
	else echo "ok - architecture check # SKIP python3 is not installed"; fi

# `make unit`: the cmocka binaries, one line each, a failing one's output above its line;
# then "N passed, N failed" over their tests.
unit: build-deps
	@$(MAKE) --no-print-directory unit-bins
	@pass=0; fail=0; for t in $(UNIT_BIN); do \
		out=$$(CMOCKA_MESSAGE_OUTPUT=TAP $$t 2>&1); rc=$$?; \
		p=$$(echo "$$out" | grep -c '^ok'); f=$$(echo "$$out" | grep -c '^not ok'); \
		[ $$rc -ne 0 ] && [ $$f -eq 0 ] && f=1; \
		pass=$$((pass + p)); fail=$$((fail + f)); \
		if [ $$f -eq 0 ]; then echo "ok - $$(basename $$t): $$p tests"; \
		else echo "$$out" | sed 's/^/#   /'; echo "not ok - $$(basename $$t): $$f of $$((p + f)) failed"; fi; \
	done; echo "$$pass passed, $$fail failed"; [ $$fail -eq 0 ]

unit-bins: $(UNIT_BIN)
	@:

# `make integration`: tests/integration/t_*.sh alone (TESTS=name for some); as `make test`,
# it installs the packages they need first (as root).
integration: test-deps
	@$(MAKE) --no-print-directory all
	@BUILD=$(BUILD) sh tests/run.sh

# What the build needs, checked without installing anything: one line naming the Debian
# packages that are missing.
build-deps:
	@missing=""; \
	command -v $(firstword $(CC)) >/dev/null 2>&1 || missing="$$missing build-essential"; \
	if command -v $(PKG_CONFIG) >/dev/null 2>&1; then \
		for m in $(PKG_DEBS); do $(PKG_CONFIG) --exists $${m%%:*} || missing="$$missing $${m#*:}"; done; \
	else \
		missing="$$missing pkg-config"; \
	fi; \
	echo '#include <libaio.h>' | $(CC) -E -x c - >/dev/null 2>&1 || missing="$$missing libaio-dev"; \
	if [ -n "$$missing" ]; then \
		echo "iobench: cannot build: missing Debian packages:$$missing (install: apt-get install$$missing)" >&2; \
		exit 1; \
	fi

# `make mpi`: ./iobench-mpi for `mpirun -np N ./iobench-mpi JOB...` (Debian's Open MPI).
mpi:
	@$(DEPS) $(DEB_PKGS) openmpi-bin libopenmpi-dev
	@$(MAKE) --no-print-directory MPI=1 SANITIZE=none build/mpi/iobench
	$(Q)cmp -s build/mpi/iobench iobench-mpi || cp build/mpi/iobench iobench-mpi

# `make bench`: iobench against fio 3.33 side by side (bench/bench.py: A B alternating,
# 5 pairs, medians, ratios; about 5 minutes). See docs/performance.md.
bench: test-deps
	@$(MAKE) --no-print-directory all $(BUILD)/bench/floor
	@/usr/bin/python3 bench/bench.py --floor $(BUILD)/bench/floor $(BENCH_ARGS)

# bench/floor: the least a program does per I/O for the bench's queue-depth jobs (no statistics).
$(BUILD)/bench/floor: bench/floor.c | $(BUILD)/.deps-ok
	@mkdir -p $(@D)
	$(Q)$(CC) $(CPPFLAGS) $(CFLAGS) $(PKG_CFLAGS) -o $@ $< $(LDFLAGS) $(LDLIBS)

# `make test-image`: the Dockerfile's build stage in a debootstrap'd Debian 12 chroot and its
# final stage's files alone in an empty root, run as its USER (no container runtime here).
test-image:
	@$(DEPS) debootstrap file git
	@/usr/bin/python3 tests/image/run.py

# `make test-container`: the Dockerfile built and run with podman (runc) as a restricted pod
# would run it (read-only root, no capabilities, non-root, CPU and memory limits, a loop ext4
# as the PVC, the default seccomp profile); about 3 minutes; not part of `make test`.
test-container:
	@$(DEPS) podman runc debootstrap jq e2fsprogs
	@$(MAKE) --no-print-directory all
	@SUITE=container sh tests/run.sh

# `make test-gluster`: a single-node GlusterFS volume (Debian's glusterfs-server) on a loop
# xfs brick, FUSE-mounted in private namespaces; host-vs-pod read and file-operation jobs on
# it and on a loop ext4, then the gfapi engines against fio 3.33's on the volume (4 to 8
# minutes: every libgfapi client spends up to 10 s ending; not part of `make test`). See
# docs/storage-systems.md.
test-gluster: test-deps
	@$(DEPS) glusterfs-server glusterfs-client xfsprogs iproute2
	@$(MAKE) --no-print-directory all
	@sh tests/gluster/run.sh

# `make test-ceph`: a single-node Ceph (mon, mgr, one bluestore OSD on a loop device, an MDS
# with a CephFS mounted through ceph-fuse, and a RADOS Gateway with an S3 user) in private
# namespaces; the rbd and rados engines against fio 3.33 on it, hostile setups, the bs x rw
# sweep and host-vs-pod jobs on the CephFS, S3 jobs, and iobench/fio figures (about 8 minutes;
# not part of `make test`). See docs/storage-systems.md.
CEPH_DEBS := ceph-mon ceph-osd ceph-mgr ceph-mds ceph-fuse ceph-common radosgw curl s3cmd librbd-dev librados-dev
test-ceph: test-deps
	@$(DEPS) $(CEPH_DEBS)
	@$(MAKE) --no-print-directory all
	@sh tests/ceph/t_ceph.sh

# `make asan test` / `make ubsan test` / `make tsan test`: the same tests on a sanitizer build.
asan ubsan tsan:
	@:

# `make fuzz`: a libFuzzer target for the job-file and option parser (clang), seeded from
# fio's example job files. Run: ./build-fuzz/fuzz_jobfile -max_total_time=600 build-fuzz/corpus
FUZZ_SRC := $(filter-out core/app/main.c,$(LIB_SRC))
fuzz:
	@$(DEPS) clang
	@mkdir -p build-fuzz/corpus
	clang -std=gnu11 -g -O1 -I. -D_GNU_SOURCE -DIOBENCH_VERSION=\"$(VERSION)\" \
		-fsanitize=fuzzer,address,undefined $(PKG_CFLAGS) -o build-fuzz/fuzz_jobfile \
		tests/fuzz/fuzz_jobfile.c $(FUZZ_SRC) $(PKG_LDLIBS) -laio -lm -pthread
	@cp tests/jobs/*.fio build-fuzz/corpus/
	@if [ -d ../shared/fio-examples ]; then cp ../shared/fio-examples/*.fio build-fuzz/corpus/; fi
	@echo "built build-fuzz/fuzz_jobfile; corpus in build-fuzz/corpus"

# docs/options.md and docs/iobench.1 come from the option table (a test checks they match).
docs: iobench
	./iobench --dump-options=markdown > docs/options.md
	./iobench --dump-options=man > docs/iobench.1

install: iobench
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/man/man1
	install -m 0755 iobench $(DESTDIR)$(PREFIX)/bin/iobench
	install -m 0644 docs/iobench.1 $(DESTDIR)$(PREFIX)/share/man/man1/iobench.1

uninstall:
	rm -f $(DESTDIR)$(PREFIX)/bin/iobench $(DESTDIR)$(PREFIX)/share/man/man1/iobench.1

clean:
	rm -rf build build-asan build-ubsan build-tsan build-fuzz iobench iobench-static iobench-mpi

-include $(shell find $(BUILD) -name '*.d' 2>/dev/null)
