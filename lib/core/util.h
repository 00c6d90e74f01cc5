/* util: program name, the die/warn error family, allocation that cannot
 * fail silently, bounded number parsing for options and data, and removal
 * of temporary files when a program dies. */
#ifndef YOMI_UTIL_H
#define YOMI_UTIL_H

#include <setjmp.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdnoreturn.h>

#define YOMI_VERSION "0.1.0"

/* Exit statuses shared by every program (DESIGN.md). */
enum { EXIT_DATA = 1, EXIT_USAGE = 2 };

extern const char *util_progname;

/* Call first in main: records the program name and restores the default
 * SIGPIPE action so that `| head` ends the program quietly even when the
 * parent shell ignored the signal. */
void util_init(const char *argv0);

/* A worker thread whose failure must not end the program sets its
 * util_die_trap: die, die_at and die_usage then print nothing and
 * longjmp there (value 1) instead, and the caller decides (summarize
 * reruns the work on one thread, which reports the error). */
extern _Thread_local jmp_buf *util_die_trap;

/* "PROG: message" on stderr. die exits 1 (bad data or runtime failure);
 * die_usage exits 2 and points at --help. The *_at forms prefix
 * "FILE:LINE: " so every data error names where it happened. */
noreturn void die(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
noreturn void die_at(const char *file, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
noreturn void die_usage(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* After getopt has printed its own complaint: the --help hint, exit 2. */
noreturn void util_try_help(void);
void warn(const char *fmt, ...) __attribute__((format(printf, 1, 2)));
/* True while stderr ends in a line without its newline (a progress line):
 * the next message starts on a line of its own. */
extern bool util_line_open;
void warn_at(const char *file, long line, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* Prints "PROG (yomi) VERSION", then what util_version_extra prints if a
 * program set it (the vector path in use), and exits 0. */
noreturn void util_version(void);
extern void (*util_version_extra)(void);
/* Flushes stdout; dies with "PROG: stdout: write error: REASON" if that or
 * any earlier write to it failed (--help > /dev/full). */
void util_flush_stdout(void);

void *xmalloc(size_t n);
void *xcalloc(size_t n, size_t size);
void *xrealloc(void *p, size_t n);
/* Grows *p (holding *cap elements of size sz) to hold at least need. */
void util_grow(void **p, size_t *cap, size_t need, size_t sz);
char *xstrdup(const char *s);
char *xstrndup(const char *s, size_t n);
/* NAME_K, newly allocated, for the least K from 2 whose name TAKEN (with
 * CTX) says is free: how a column's name that is taken already becomes
 * unique, wherever a program writes a header. */
char *util_suffixed(const char *name, bool (*taken)(const char *s, void *ctx), void *ctx);

bool util_ends_with(const char *s, const char *suffix);

/* Seconds on the monotonic clock (CLOCK_MONOTONIC, or its coarse form,
 * cheaper and a few milliseconds behind): for intervals and deadlines,
 * never for the time of day. */
double util_seconds(bool coarse);

/* A temporary file that must not survive the program: removed by die()
 * and by SIGINT/SIGTERM/SIGHUP. At most a few are registered at once. */
void util_temp_register(const char *path);
void util_temp_forget(const char *path);

/* Strict parsers: the whole string must be a number within [lo, hi].
 * They return false on syntax errors, overflow and range errors alike. */
bool util_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out);
bool util_parse_u64(const char *s, uint64_t hi, uint64_t *out);
bool util_parse_double(const char *s, double lo, double hi, double *out);

#endif
