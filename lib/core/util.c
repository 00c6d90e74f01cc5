#include "core/util.h"

#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

const char *util_progname = "yomi";

#define TEMP_MAX 8
static char *temp_paths[TEMP_MAX];

static void temp_remove_all(void)
{
	for (int i = 0; i < TEMP_MAX; i++)
		if (temp_paths[i])
			unlink(temp_paths[i]);
}

static void on_fatal_signal(int sig)
{
	temp_remove_all(); /* unlink is async-signal-safe */
	signal(sig, SIG_DFL);
	raise(sig);
}

void util_init(const char *argv0)
{
	const char *slash = argv0 ? strrchr(argv0, '/') : NULL;
	if (argv0)
		util_progname = slash ? slash + 1 : argv0;
	signal(SIGPIPE, SIG_DFL);
}

void util_temp_register(const char *path)
{
	for (int i = 0; i < TEMP_MAX; i++) {
		if (!temp_paths[i]) {
			temp_paths[i] = xstrdup(path);
			/* Handlers only while a temporary exists, so a plain run
			 * keeps the default signal behaviour. */
			signal(SIGINT, on_fatal_signal);
			signal(SIGTERM, on_fatal_signal);
			signal(SIGHUP, on_fatal_signal);
			return;
		}
	}
	die("too many temporary files");
}

void util_temp_forget(const char *path)
{
	for (int i = 0; i < TEMP_MAX; i++) {
		if (temp_paths[i] && strcmp(temp_paths[i], path) == 0) {
			free(temp_paths[i]);
			temp_paths[i] = NULL;
		}
	}
}

bool util_line_open;
_Thread_local jmp_buf *util_die_trap;

static void vsay(const char *file, long line, const char *fmt, va_list ap)
{
	if (util_die_trap)
		longjmp(*util_die_trap, 1);
	fflush(stdout);
	if (util_line_open) {
		fputc('\n', stderr);
		util_line_open = false;
	}
	fprintf(stderr, "%s: ", util_progname);
	if (file && line > 0)
		fprintf(stderr, "%s:%ld: ", file, line);
	else if (file)
		fprintf(stderr, "%s: ", file);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
}

noreturn void die(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(NULL, 0, fmt, ap);
	va_end(ap);
	temp_remove_all();
	exit(EXIT_DATA);
}

noreturn void die_at(const char *file, long line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(file, line, fmt, ap);
	va_end(ap);
	temp_remove_all();
	exit(EXIT_DATA);
}

noreturn void util_try_help(void)
{
	if (util_die_trap)
		longjmp(*util_die_trap, 1);
	fprintf(stderr, "Try '%s --help' for more information.\n", util_progname);
	temp_remove_all();
	exit(EXIT_USAGE);
}

noreturn void die_usage(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(NULL, 0, fmt, ap);
	va_end(ap);
	util_try_help();
}

void warn(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(NULL, 0, fmt, ap);
	va_end(ap);
}

void warn_at(const char *file, long line, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsay(file, line, fmt, ap);
	va_end(ap);
}

void (*util_version_extra)(void);

noreturn void util_version(void)
{
	printf("%s (yomi) %s\n", util_progname, YOMI_VERSION);
	if (util_version_extra)
		util_version_extra();
	util_flush_stdout();
	exit(0);
}

void util_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout)) {
		/* A failed earlier write leaves its errno only if nothing since
		 * has changed it; "I/O error" is the honest fallback. */
		die("stdout: write error: %s", strerror(errno ? errno : EIO));
	}
}

void *xmalloc(size_t n)
{
	void *p = malloc(n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void *xcalloc(size_t n, size_t size)
{
	void *p = calloc(n ? n : 1, size ? size : 1);
	if (!p)
		die("out of memory (%zu x %zu bytes)", n, size);
	return p;
}

void *xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (!p)
		die("out of memory (%zu bytes)", n);
	return p;
}

void util_grow(void **p, size_t *cap, size_t need, size_t sz)
{
	if (need <= *cap)
		return;
	size_t c = *cap ? *cap : 16;
	while (c < need) {
		if (c > SIZE_MAX / 2 / sz)
			die("out of memory (array of %zu elements)", need);
		c *= 2;
	}
	*p = xrealloc(*p, c * sz);
	*cap = c;
}

char *xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *util_suffixed(const char *name, bool (*taken)(const char *s, void *ctx), void *ctx)
{
	size_t size = strlen(name) + 24;
	char *s = xmalloc(size);
	for (unsigned k = 2;; k++) {
		snprintf(s, size, "%s_%u", name, k);
		if (!taken(s, ctx))
			return s;
	}
}

char *xstrndup(const char *s, size_t n)
{
	char *d = xmalloc(n + 1);
	memcpy(d, s, n);
	d[n] = '\0';
	return d;
}

double util_seconds(bool coarse)
{
	struct timespec ts;
	clock_gettime(coarse ? CLOCK_MONOTONIC_COARSE : CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

bool util_ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), m = strlen(suffix);
	return n >= m && strcmp(s + n - m, suffix) == 0;
}

bool util_parse_i64(const char *s, int64_t lo, int64_t hi, int64_t *out)
{
	/* strtoimax alone accepts leading blanks, "+", and "" via endptr
	 * tricks; a table cell or option is a number only if it is all digits. */
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (*p < '0' || *p > '9')
		return false;
	errno = 0;
	char *end;
	intmax_t v = strtoimax(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return false;
	*out = (int64_t)v;
	return true;
}

bool util_parse_u64(const char *s, uint64_t hi, uint64_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	char *end;
	uintmax_t v = strtoumax(s, &end, 10);
	if (errno || *end || v > hi)
		return false;
	*out = (uint64_t)v;
	return true;
}

bool util_parse_double(const char *s, double lo, double hi, double *out)
{
	const char *p = s;
	if (*p == '-' || *p == '+')
		p++;
	if (!((*p >= '0' && *p <= '9') || *p == '.'))
		return false; /* no "inf", "nan", hex floats or blanks */
	errno = 0;
	char *end;
	double v = strtod(s, &end);
	if (errno || *end || !isfinite(v) || v < lo || v > hi)
		return false;
	*out = v;
	return true;
}
