# slurmpast - post-mortem analysis of finished Slurm jobs.
#
#   make               build every program into bin/
#   make check         build and run every test through one prove call
#   make check-asan    the same suite under -fsanitize=address,undefined
#   make check-slurm   only the tests against the real Slurm cluster
#   make check-slurm-versions   those tests against Debian 13's and
#                      unstable's Slurm, each in a chroot, and this
#                      machine's (root, network; SUITES="trixie sid here")
#   make lint          mandoc -T lint on every man page (man1/, man7/)
#   make demo-page     examples/demo-report.html and fig-nodes.svg
#   make install PREFIX=/usr/local DESTDIR=
#
# Objects go to $(O), programs to $(B); check-asan uses its own pair, so
# the two builds never mix.

# A failed link or compile leaves no half-written file that make trusts.
.DELETE_ON_ERROR:

PREFIX ?= /usr/local
MANDIR ?= $(PREFIX)/share/man
CC ?= cc
CFLAGS ?= -O2 -g
O ?= build
B ?= bin

# The library in layers, bottom up (lib/README): each may use those
# before it.  One include path a layer, so a file names a header alone.
LIB_LAYERS := ground formats record rules draw
SP_CFLAGS = -std=c11 -Wall -Wextra -Werror -D_DEFAULT_SOURCE \
	-D_POSIX_C_SOURCE=200809L -pthread -Ilib \
	$(LIB_LAYERS:%=-Ilib/%) -MMD -MP
LDLIBS = -lcsv -lm -pthread

# A file left at the top still builds; t/house.bats says it has no layer.
LIB_SRC := $(wildcard lib/*.c $(LIB_LAYERS:%=lib/%/*.c))
LIB_OBJ := $(LIB_SRC:lib/%.c=$(O)/lib/%.o)
PROG_SRC := $(wildcard src/sp-*.c)
PROGS := $(PROG_SRC:src/%.c=$(B)/%)
UNIT_SRC := $(wildcard t/unit/*.c)
UNITS := $(UNIT_SRC:t/unit/%.c=$(O)/t/%.t)
MAN1 := $(wildcard man1/*.1)
# Section 7: the rules and thresholds every program shares.
MAN7 := $(wildcard man7/*.7)
MANS := $(MAN1) $(MAN7)
BATS := $(wildcard t/*.bats)
SLURM_BATS := $(wildcard t/cluster/*.bats)
# The files that take longest (make check -j2 on two cores), started first.
SLOW_BATS := t/io.bats t/columns.bats t/slurmpast.bats t/sp-show.bats \
	t/hostile.bats
ASAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-omit-frame-pointer \
	-fno-sanitize-recover=all

all: $(PROGS) $(B)/slurmpast

$(O)/lib/%.o: lib/%.c
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/src/%.o: src/%.c
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/libsp.a: $(LIB_OBJ)
	@rm -f $@
	$(AR) rcs $@ $(LIB_OBJ)

# A program is src/sp-NAME.c, plus the files of its own (none of them
# used by another program) in src/sp-NAME/, if it has any.
.SECONDEXPANSION:
# Objects made on the way are kept, not deleted as intermediates.
.PRECIOUS: $(O)/src/%.o
PROG_OWN = $(patsubst src/%.c,$(O)/src/%.o,$(wildcard src/sp-$*/*.c))
$(B)/sp-%: $(O)/src/sp-%.o $$(PROG_OWN) $(O)/libsp.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(filter %.o,$^) $(O)/libsp.a $(LDLIBS)

# The dashboard alone draws through ncurses (Debian's libncursesw).
$(B)/sp-browse: LDLIBS += -lncursesw

# The front door composes the others: src/slurmpast.c and its own parts
# in src/slurmpast/, over the same library.
FRONT_OBJ := $(patsubst src/%.c,$(O)/src/%.o,\
	src/slurmpast.c $(wildcard src/slurmpast/*.c))
$(B)/slurmpast: $(FRONT_OBJ) $(O)/libsp.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $(FRONT_OBJ) $(O)/libsp.a $(LDLIBS)

$(O)/t/tap.o: t/lib/tap.c
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) -It/lib $(CFLAGS) -c -o $@ $<

# A unit test t/unit/test_NAME.c is linked with sp-NAME's own files too,
# when that program has any (src/sp-NAME/*.c).
UNIT_OWN = $(patsubst src/%.c,$(O)/src/%.o,\
	$(wildcard src/sp-$(patsubst test_%,%,$*)/*.c))
$(O)/t/%.t: t/unit/%.c $(O)/t/tap.o $$(UNIT_OWN) $(O)/libsp.a
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) -It/lib -Isrc $(CFLAGS) $(LDFLAGS) -o $@ $< \
		$(O)/t/tap.o $(filter $(O)/src/%.o $(O)/t/demo/%.o,$^) \
		$(O)/libsp.a $(LDLIBS)

# The demo is sp-fetch's own (src/sp-fetch/demo*.c): its test links it,
# and its named cases (t/unit/demo/cases.c).
$(O)/t/test_demo.t: $(patsubst src/%.c,$(O)/src/%.o,\
	$(wildcard src/sp-fetch/demo*.c)) $(O)/t/demo/cases.o
$(O)/t/demo/%.o: t/unit/demo/%.c
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) -It/lib -Isrc $(CFLAGS) -c -o $@ $<

units: $(UNITS)

TEST_ENV = SP_BIN=$(abspath $(B)) SP_BUILD=$(abspath $(O)) SP_TOP=$(CURDIR)

# Test files run JOBS at a time (t/suite: one a core by default); the
# slowest are named first so that no long file starts last.
check: all units
	$(TEST_ENV) t/suite $(SLURM_BATS) $(SLOW_BATS) \
		$(filter-out $(SLOW_BATS),$(BATS)) $(UNITS)

check-slurm: all
	$(TEST_ENV) t/suite $(SLURM_BATS)

# Slurm 24.11 (trixie) and 26.05 (sid), each in a debootstrap chroot on
# ports of its own, then this machine's (here); records
# t/fixtures/slurm-VERSION/ (t/cluster/README).
check-slurm-versions:
	t/cluster/versions.sh $(SUITES)

check-asan:
	$(MAKE) O=build-asan B=build-asan/bin CFLAGS="$(ASAN_FLAGS)" \
		LDFLAGS="-fsanitize=address,undefined" check

lint:
	mandoc -T lint -W warning $(MANS)

install: all
	mkdir -p $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(MANDIR)/man1 \
		$(DESTDIR)$(MANDIR)/man7
	cp $(PROGS) $(B)/slurmpast $(DESTDIR)$(PREFIX)/bin/
	cp $(MAN1) $(DESTDIR)$(MANDIR)/man1/
	cp $(MAN7) $(DESTDIR)$(MANDIR)/man7/

demo: all
	$(B)/slurmpast --demo

# The demo's page and the figure in the README, kept in examples/
# (t/sp-plot.bats checks they are current).  The page's status 1 is the
# demo's critical findings, not a failure.
demo-page: all
	$(B)/slurmpast --demo --html >examples/demo-report.html 2>/dev/null || \
		[ $$? -eq 1 ]
	$(B)/sp-fetch --demo 2>/dev/null | $(B)/sp-group 2>/dev/null | \
		$(B)/sp-nodes | $(B)/sp-plot nodes >examples/fig-nodes.svg

clean:
	rm -rf build build-asan build-fuzz build-clang $(PROGS)

.PHONY: all units check check-slurm check-slurm-versions check-asan lint install demo demo-page \
	clean

-include $(LIB_OBJ:.o=.d) $(PROG_SRC:src/%.c=$(O)/src/%.d) \
	$(patsubst src/%.c,$(O)/src/%.d,$(wildcard src/sp-*/*.c)) \
	$(UNIT_SRC:t/unit/%.c=$(O)/t/%.d)

# Fuzzing (t/fuzz/): every t/fuzz/fuzz_<name>.c is one libFuzzer target.
#   make fuzz [FUZZ_SECONDS=60] [FUZZ_TARGETS="record units"]
#       builds them with clang into build-fuzz/ and runs each in turn,
#       seeded from ../shared/fixtures and the demo (t/fuzz/run).
#   make fuzz-regress
#       replays t/fuzz/regress/<name>/ through the same entry points
#       without libFuzzer; make check does the same (t/fuzz.bats).
#   make bench   times every stage on synthetic dumps (t/bench/run), and
#       the dashboard's first screen and keys through a pseudo-terminal.
FUZZ_SECONDS ?= 60
FUZZ_SRC := $(wildcard t/fuzz/fuzz_*.c)
FUZZ_ALL := $(FUZZ_SRC:t/fuzz/fuzz_%.c=%)
FUZZ_TARGETS ?= $(FUZZ_ALL)
REPLAYS := $(FUZZ_ALL:%=$(O)/t/replay_%)
FUZZ_CFLAGS = -O1 -g -fsanitize=fuzzer-no-link,address,undefined \
	-fno-omit-frame-pointer -fno-sanitize-recover=all

$(O)/t/replay.o: t/fuzz/replay.c t/fuzz/fuzz.h
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) $(CFLAGS) -c -o $@ $<

$(O)/t/fuzz_%.o: t/fuzz/fuzz_%.c t/fuzz/fuzz.h
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) $(CFLAGS) -c -o $@ $<

# A target t/fuzz/fuzz_NAME.c is linked with sp-NAME's own files too,
# when that program has any (src/sp-NAME/*.c), as a unit test is.
FUZZ_OWN = $(patsubst src/%.c,$(O)/src/%.o,$(wildcard src/sp-$*/*.c))
$(O)/t/replay_%: $(O)/t/fuzz_%.o $(O)/t/replay.o $$(FUZZ_OWN) $(O)/libsp.a
	$(CC) $(CFLAGS) $(LDFLAGS) -o $@ $< $(O)/t/replay.o \
		$(filter $(O)/src/%.o,$^) $(O)/libsp.a $(LDLIBS)

# The replays are unit tests too: make check builds them.
units: $(REPLAYS)

fuzz-regress: $(REPLAYS)
	@for t in $(FUZZ_ALL); do \
		[ -d t/fuzz/regress/$$t ] || continue; \
		echo "replay $$t"; \
		$(O)/t/replay_$$t t/fuzz/regress/$$t >/dev/null || exit 1; \
	done

# A separate build: every object carries the fuzzer's instrumentation.
$(O)/fuzz/fuzz_%: $(O)/t/fuzz_%.o $$(FUZZ_OWN) $(O)/libsp.a
	@mkdir -p $(@D)
	$(CC) $(CFLAGS) -fsanitize=fuzzer,address,undefined -o $@ $< \
		$(filter $(O)/src/%.o,$^) $(O)/libsp.a $(LDLIBS)

fuzz-targets: $(FUZZ_TARGETS:%=$(O)/fuzz/fuzz_%)

# Keep the objects: both the replays and the fuzzers link them.
.SECONDARY: $(FUZZ_ALL:%=$(O)/t/fuzz_%.o)

fuzz-build:
	$(MAKE) O=build-fuzz B=build-fuzz/bin CC=clang \
		CFLAGS="$(FUZZ_CFLAGS)" fuzz-targets

fuzz: fuzz-build all
	SP_BIN=$(abspath $(B)) t/fuzz/run $(FUZZ_SECONDS) $(FUZZ_TARGETS)

# Types keys into a program on a pseudo-terminal and times each answer
# (the dashboard's line of the bench).
$(O)/t/ptykeys: t/bench/ptykeys.c
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) $(CFLAGS) -o $@ $<

# A history with the run-to-run spread real workloads show, seeded
# (sp-backtest's calibration, t/bench/RESULTS.md); tests read it too.
$(O)/t/history: t/bench/history.c
	@mkdir -p $(@D)
	$(CC) $(SP_CFLAGS) $(CFLAGS) -o $@ $< -lm

units: $(O)/t/history

bench: all $(O)/t/ptykeys
	SP_BIN=$(abspath $(B)) PTYKEYS=$(abspath $(O))/t/ptykeys t/bench/run

.PHONY: fuzz fuzz-build fuzz-targets fuzz-regress bench

-include $(FUZZ_ALL:%=$(O)/t/fuzz_%.d) $(O)/t/replay.d
