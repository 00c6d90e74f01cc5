# yomi: small C filters for game-playing experiments.
# CFLAGS and LDFLAGS are yours; what the build needs lives in YOMI_*.

PREFIX ?= /usr/local
DESTDIR ?=
BINDIR = $(PREFIX)/bin
MANDIR = $(PREFIX)/share/man/man1

CC ?= cc
CFLAGS ?= -O2 -g
# The playout loops are built for this machine's instruction set (AVX2,
# BMI2, AVX-512 where present). ARCH=x86-64 (or ARCH= for the compiler's
# default) builds binaries that run on any machine of the family.
ARCH ?= native
YOMI_CFLAGS = -std=c11 -D_GNU_SOURCE -Wall -Wextra -Ilib -MMD -MP $(if $(ARCH),-march=$(ARCH))
YOMI_LIBS = -lcsv -lz -lm

PROGRAMS = wordload chain-greedy chain-lookahead summarize nimtable playout
BINS = $(PROGRAMS:%=bin/%)
LIB_SRC = $(wildcard lib/*/*.c)
LIB_OBJ = $(LIB_SRC:.c=.o)
UNIT_SRC = $(wildcard tests/unit/*.c)
UNIT_BIN = $(UNIT_SRC:.c=)
DEPS = $(LIB_OBJ:.o=.d) $(BINS:=.d) $(UNIT_BIN:=.d) $(BENCH_BIN:=.d)

# The exact test command README.md gives; .ci/run calls it too.
BATS = bats
BATS_FILES = $(wildcard tests/*.bats)

DEBIAN_PACKAGES = build-essential libcsv-dev zlib1g-dev bats bats-assert bats-support \
	skkdic mecab-ipadic wamerican r-base-core parallel time gnuplot-nox

.PHONY: all check unit bats bench bench-full install uninstall clean deps sanitize
all: lib/libyomi.a $(BINS)

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

bats: all
	$(BATS) $(BATS_FILES)

# Unit tests, then every bats file; tests/run prints "tests: N passed, M failed".
check: all $(UNIT_BIN)
	tests/run

BENCH_SRC = $(wildcard tests/bench/*.c)
BENCH_BIN = $(BENCH_SRC:.c=)
tests/bench/%: tests/bench/%.c lib/libyomi.a
	$(CC) $(YOMI_CFLAGS) $(CFLAGS) -o $@ $< lib/libyomi.a $(LDFLAGS) $(YOMI_LIBS)

# Quick figures (a few minutes); bench-full runs the long measurements.
bench: all $(BENCH_BIN)
	tests/bench/run

bench-full: all $(BENCH_BIN)
	tests/bench/run --full

# AddressSanitizer + UBSan build in its own tree, running the whole suite.
sanitize:
	rm -rf build/sanitize && mkdir -p build/sanitize
	tar --exclude=./build --exclude=./.git -cf - . | tar -C build/sanitize -xf -
	$(MAKE) -C build/sanitize clean
	$(MAKE) -C build/sanitize all \
		CFLAGS="-O1 -g -DYOMI_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"
	$(MAKE) -C build/sanitize check \
		CFLAGS="-O1 -g -DYOMI_DEBUG -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer" \
		LDFLAGS="-fsanitize=address,undefined"

install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(MANDIR)
	install -m 755 $(BINS) $(DESTDIR)$(BINDIR)/
	install -m 644 $(PROGRAMS:%=bin/%.1) $(DESTDIR)$(MANDIR)/

uninstall:
	rm -f $(PROGRAMS:%=$(DESTDIR)$(BINDIR)/%) $(PROGRAMS:%=$(DESTDIR)$(MANDIR)/%.1)

clean:
	rm -rf lib/*/*.o lib/*/*.d lib/libyomi.a $(BINS) bin/*.d $(UNIT_BIN) tests/unit/*.d $(BENCH_BIN) tests/bench/*.d build

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
