# yomi: small C filters for game-playing experiments.
# CFLAGS and LDFLAGS are yours; what the build needs lives in YOMI_*.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1
# The pipelines and common.sh, which finds the programs in ../../bin and
# the dictionaries in ../../share/yomi: these three keep their places
# relative to PREFIX.
LIBEXECDIR = $(PREFIX)/libexec/yomi
DATADIR = $(PREFIX)/share/yomi

CC ?= cc
# -O3: best's solvers and playouts take about a tenth less time than at
# -O2 (tests/bench/NOTES.md, "Speed history").
CFLAGS ?= -O3 -g
# The programs run on any x86-64: the vector loops (Othello and
# Calculation playouts) are built for base x86-64, AVX2 and AVX-512 alike
# and pick their path at run time (lib/core/isa.h; YOMI_ISA forces a lower
# one). ARCH=native (or any -march name) builds everything for one fixed
# target instead; ARCH= leaves the choice to the compiler.
ARCH ?= x86-64
YOMI_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Ilib -MMD -MP $(if $(ARCH),-march=$(ARCH))
YOMI_LIBS = -lcsv -lz -lm -lpthread

PROGRAMS = wordload chain-greedy chain-lookahead summarize nimtable playout
BINS = $(PROGRAMS:%=bin/%)
# Each pipeline NAME.sh is run as yomi-NAME: a link in bin/ (and, installed,
# in BINDIR) to the script.
PIPELINES = $(filter-out common,$(patsubst pipelines/%.sh,%,$(wildcard pipelines/*.sh)))
PIPELINE_LINKS = $(PIPELINES:%=bin/yomi-%)
DICTIONARIES = $(wildcard dictionaries/*)
LIB_SRC = $(wildcard lib/*/*.c)
LIB_OBJ = $(LIB_SRC:.c=.o)
UNIT_SRC = $(wildcard tests/unit/*.c)
UNIT_BIN = $(UNIT_SRC:.c=)
DEPS = $(LIB_OBJ:.o=.d) $(BINS:=.d) $(UNIT_BIN:=.d) $(BENCH_BIN:=.d) \
	$(ASAN_OBJ:.o=.d) $(ASAN_BINS:=.d) $(FUZZ_OBJ:.o=.d) $(FUZZ_BINS:=.d)

# The exact test command README.md gives; .ci/run calls it too.
BATS = bats
BATS_FILES = $(wildcard tests/*.bats)

DEBIAN_PACKAGES = build-essential libcsv-dev zlib1g-dev bats bats-assert bats-support \
	skkdic mecab-ipadic wamerican r-base-core parallel time gnuplot-nox clang afl++ valgrind

.PHONY: all check unit bats bench bench-full calc-tables install uninstall clean deps sanitize asan fuzz
all: lib/libyomi.a $(BINS) $(PIPELINE_LINKS)

bin/yomi-%: pipelines/%.sh
	ln -sf ../$< $@

lib/%.o: lib/%.c
	$(CC) $(YOMI_CFLAGS) $(CFLAGS) -c -o $@ $<

lib/libyomi.a: $(LIB_OBJ)
	$(AR) rcs $@ $^

bin/%: bin/%.c lib/libyomi.a
	$(CC) $(YOMI_CFLAGS) $(CFLAGS) -o $@ $< lib/libyomi.a $(LDFLAGS) $(YOMI_LIBS)

tests/unit/%: tests/unit/%.c lib/libyomi.a
	$(CC) $(YOMI_CFLAGS) $(CFLAGS) -o $@ $< lib/libyomi.a $(LDFLAGS) $(YOMI_LIBS)

unit: $(UNIT_BIN)
	@set -e; for t in $(UNIT_BIN); do $$t; done

bats: all asan
	$(BATS) $(BATS_FILES)

# Unit tests, then every bats file; tests/run prints "tests: N passed, M failed".
# tests/contract.bats replays the fuzz corpora and the bad inputs through
# the sanitized programs in CONTRACT_BIN (make sanitize, whose programs are
# sanitized already, points it at bin).
CONTRACT_BIN ?= build/asan/bin
# NO_AVX512_CHECK runs the unit tests once more under valgrind, as on a
# machine without AVX-512 (make sanitize's run leaves it out).
NO_AVX512_CHECK ?= 1
check: all $(UNIT_BIN) $(PROGRAMS:%=$(CONTRACT_BIN)/%)
	CONTRACT_BIN=$(CONTRACT_BIN) NO_AVX512_CHECK=$(NO_AVX512_CHECK) tests/run

# The programs built with AddressSanitizer and UBSan beside the plain ones,
# incrementally (make sanitize rebuilds everything in a copy of the tree).
SAN_FLAGS = -O1 -g -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
ASAN_OBJ = $(LIB_SRC:%.c=build/asan/%.o)
ASAN_BINS = $(PROGRAMS:%=build/asan/bin/%)
asan: $(ASAN_BINS)
build/asan/%.o: %.c
	@mkdir -p $(@D)
	$(CC) $(YOMI_CFLAGS) $(SAN_FLAGS) -c -o $@ $<
build/asan/libyomi.a: $(ASAN_OBJ)
	$(AR) rcs $@ $^
build/asan/bin/%: bin/%.c build/asan/libyomi.a
	@mkdir -p $(@D)
	$(CC) $(YOMI_CFLAGS) $(SAN_FLAGS) -o $@ $< build/asan/libyomi.a $(YOMI_LIBS)

# Fuzzing: the programs instrumented by AFL++ (with ASan and UBSan), one
# target per parser a user reaches in tests/fuzz/targets, seeds and found
# cases in tests/fuzz/corpus/TARGET. tests/fuzz/run TARGET SECONDS fuzzes.
FUZZ_CC = afl-clang-fast
FUZZ_OBJ = $(LIB_SRC:%.c=build/fuzz/%.o)
FUZZ_BINS = $(PROGRAMS:%=build/fuzz/bin/%)
fuzz: $(FUZZ_BINS)
	@echo "fuzz: built build/fuzz/bin; run tests/fuzz/run TARGET SECONDS (targets: tests/fuzz/targets)"
build/fuzz/%.o: %.c
	@mkdir -p $(@D)
	AFL_QUIET=1 $(FUZZ_CC) $(YOMI_CFLAGS) $(SAN_FLAGS) -c -o $@ $<
build/fuzz/libyomi.a: $(FUZZ_OBJ)
	$(AR) rcs $@ $^
build/fuzz/bin/%: bin/%.c build/fuzz/libyomi.a
	@mkdir -p $(@D)
	AFL_QUIET=1 $(FUZZ_CC) $(YOMI_CFLAGS) $(SAN_FLAGS) -o $@ $< build/fuzz/libyomi.a $(YOMI_LIBS)

BENCH_SRC = $(wildcard tests/bench/*.c)
BENCH_BIN = $(BENCH_SRC:.c=)
tests/bench/%: tests/bench/%.c lib/libyomi.a
	$(CC) $(YOMI_CFLAGS) $(CFLAGS) -o $@ $< lib/libyomi.a $(LDFLAGS) $(YOMI_LIBS)

# Quick figures (a few minutes); bench-full runs the long measurements.
bench: all $(BENCH_BIN)
	tests/bench/run

bench-full: all $(BENCH_BIN)
	tests/bench/run --full

# Refits the weighted rule's weights (lib/calc/calcweights.h, shipped)
# from seed 1: a few minutes on one core; the same weights every time.
CALC_TUNE = 1 20000 20
calc-tables: tests/bench/calctune
	tests/bench/calctune $(CALC_TUNE) > lib/calc/calcweights.h.tmp
	mv lib/calc/calcweights.h.tmp lib/calc/calcweights.h

# AddressSanitizer + UBSan build in its own tree, running the whole suite.
sanitize:
	rm -rf build/sanitize && mkdir -p build/sanitize
	tar --exclude=./build --exclude=./.git -cf - . | tar -C build/sanitize -xf -
	$(MAKE) -C build/sanitize clean
	$(MAKE) -C build/sanitize all \
		CFLAGS="-O1 -g -DYOMI_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"
	$(MAKE) -C build/sanitize check CONTRACT_BIN=bin NO_AVX512_CHECK= \
		CFLAGS="-O1 -g -DYOMI_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"

# Everything a user runs: the programs, their manual pages, the pipelines
# (as yomi-NAME in BINDIR) and the dictionaries they read.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DATADIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(PROGRAMS:%=bin/%.1) $(DESTDIR)$(MANDIR)/
	install -m 755 $(PIPELINES:%=pipelines/%.sh) $(DESTDIR)$(LIBEXECDIR)/
	install -m 644 pipelines/common.sh $(DESTDIR)$(LIBEXECDIR)/
	for p in $(PIPELINES); do \
		ln -sfr $(DESTDIR)$(LIBEXECDIR)/$$p.sh $(DESTDIR)$(BINDIR)/yomi-$$p || exit 1; \
	done
	install -m 644 $(DICTIONARIES) $(DESTDIR)$(DATADIR)/

uninstall:
	rm -f $(PROGRAMS:%=$(DESTDIR)$(BINDIR)/%) $(PROGRAMS:%=$(DESTDIR)$(MANDIR)/%.1) \
		$(PIPELINES:%=$(DESTDIR)$(BINDIR)/yomi-%) $(PIPELINES:%=$(DESTDIR)$(LIBEXECDIR)/%.sh) \
		$(DESTDIR)$(LIBEXECDIR)/common.sh $(DICTIONARIES:dictionaries/%=$(DESTDIR)$(DATADIR)/%)
	-rmdir $(DESTDIR)$(LIBEXECDIR) $(DESTDIR)$(DATADIR) 2> /dev/null

clean:
	rm -rf lib/*/*.o lib/*/*.d lib/libyomi.a $(BINS) $(PIPELINE_LINKS) bin/*.d $(UNIT_BIN) tests/unit/*.d $(BENCH_BIN) tests/bench/*.d build

# Installs, only when missing, the Debian packages the project needs.
deps:
	@missing=; for p in $(DEBIAN_PACKAGES); do \
		dpkg-query -W -f='$${Status}' $$p 2>/dev/null | grep -q 'ok installed' || missing="$$missing $$p"; \
	done; \
	if [ -n "$$missing" ]; then \
		echo "installing:$$missing"; \
		if [ "$$(id -u)" = 0 ]; then SUDO=; else SUDO=sudo; fi; \
		$$SUDO apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq --no-install-recommends $$missing; \
	else echo "all Debian packages present"; fi

-include $(DEPS)
