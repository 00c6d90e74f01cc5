#include "core/output.h"

#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/util.h"

#define OUT_BUF (64u * 1024u)

struct out {
	int fd;
	gzFile gz;
	char *path, *tmp; /* tmp: a named temporary, else NULL */
	bool direct;      /* path is a device or FIFO, written in place */
	bool unnamed;     /* fd is an O_TMPFILE file, linked in at the end */
	bool replace;     /* path exists: the output replaces it */
	char delim;
	bool quoted[256]; /* the bytes that make a field quoted */
	int decimals; /* output_set_decimals; -1: shortest exact */
	size_t col;
	char buf[OUT_BUF];
	size_t len;
};

static void write_error(output *o, const char *msg)
{
	die("%s: write error: %s", o->path ? o->path : "stdout", msg);
}

static void flush(output *o)
{
	if (o->len == 0)
		return;
	if (o->gz) {
		if (gzwrite(o->gz, o->buf, (unsigned)o->len) != (int)o->len) {
			int err;
			const char *msg = gzerror(o->gz, &err);
			write_error(o, err == Z_ERRNO ? strerror(errno) : msg);
		}
	} else {
		const char *p = o->buf;
		size_t left = o->len;
		while (left > 0) {
			ssize_t w = write(o->fd, p, left);
			if (w < 0) {
				if (errno == EINTR)
					continue;
				write_error(o, strerror(errno));
			}
			p += w;
			left -= (size_t)w;
		}
	}
	o->len = 0;
}

static inline void put(output *o, const char *s, size_t n)
{
	if (n <= 16 && o->len + n <= OUT_BUF) { /* most fields: no memcpy call */
		char *d = o->buf + o->len;
		/* Two copies of a fixed size that overlap cover any length
		 * between the size and twice it in a few moves. */
		if (n >= 8) {
			memcpy(d, s, 8);
			memcpy(d + n - 8, s + n - 8, 8);
		} else if (n >= 4) {
			memcpy(d, s, 4);
			memcpy(d + n - 4, s + n - 4, 4);
		} else {
			for (size_t i = 0; i < n; i++)
				d[i] = s[i];
		}
		o->len += n;
		return;
	}
	while (n > 0) {
		if (o->len == OUT_BUF)
			flush(o);
		size_t k = OUT_BUF - o->len < n ? OUT_BUF - o->len : n;
		memcpy(o->buf + o->len, s, k);
		o->len += k;
		s += k;
		n -= k;
	}
}

static inline void putc_(output *o, char c)
{
	if (o->len == OUT_BUF)
		flush(o);
	o->buf[o->len++] = c;
}

/* A name beside PATH for a temporary file: PATH.tmpXXXXXX, the name cut
 * short when the whole would pass the longest name a directory takes. */
static char *temp_name(const char *path)
{
	const char *slash = strrchr(path, '/');
	size_t dirlen = slash ? (size_t)(slash - path) + 1 : 0, base = strlen(path) - dirlen;
	char *dir = slash ? xstrndup(path, dirlen) : xstrdup(".");
	long max = pathconf(dir, _PC_NAME_MAX);
	free(dir);
	size_t room = max > 16 ? (size_t)max - 10 : 245;
	if (base > room)
		base = room;
	size_t n = dirlen + base + 16;
	char *t = xmalloc(n);
	snprintf(t, n, "%.*s.tmpXXXXXX", (int)(dirlen + base), path);
	return t;
}

/* The temporary an atomic output is written to. On Linux an unnamed file
 * in PATH's directory (O_TMPFILE), linked in by output_close, so that not
 * even SIGKILL leaves anything behind; elsewhere, or where the file system
 * cannot, a named one that die() and fatal signals remove. */
static int open_temp(output *o, const char *path)
{
	int fd;
#ifdef O_TMPFILE
	const char *slash = strrchr(path, '/');
	char *dir = slash ? xstrndup(path, slash == path ? 1 : (size_t)(slash - path)) : xstrdup(".");
	fd = open(dir, O_TMPFILE | O_WRONLY | O_CLOEXEC, 0666);
	free(dir);
	if (fd >= 0) {
		o->unnamed = true;
		return fd;
	}
#endif
	o->tmp = temp_name(path);
	fd = mkstemp(o->tmp);
	if (fd < 0)
		return -1;
	util_temp_register(o->tmp);
	/* mkstemp makes the file 0600; a new output gets the usual
	 * permissions under the user's umask. */
	mode_t mask = umask(0);
	umask(mask);
	fchmod(fd, 0666 & ~mask);
	return fd;
}

/* The file the link PATH names, when it does not exist yet but its
 * directory does (a relative target read from the link's directory), so
 * that it is written like any new file: through a temporary, renamed
 * into place at the end. NULL otherwise. */
static char *link_target(const char *path)
{
	char target[4096];
	ssize_t n = readlink(path, target, sizeof target - 1);
	if (n <= 0)
		return NULL;
	target[n] = '\0';
	const char *slash = strrchr(path, '/');
	size_t dir = target[0] != '/' && slash ? (size_t)(slash - path) + 1 : 0;
	char *full = xmalloc(dir + (size_t)n + 1);
	memcpy(full, path, dir);
	memcpy(full + dir, target, (size_t)n + 1);
	struct stat st;
	if (lstat(full, &st) == 0 || errno != ENOENT) {
		free(full); /* there, but not a regular file; or a loop */
		return NULL;
	}
	return full;
}

/* Dies: cannot VERB PATH (errno says why), having freed O and REAL (PATH
 * may be either's), so that a refused -o leaves nothing allocated. */
static noreturn void open_failed(output *o, char *real, const char *verb, const char *path)
{
	char msg[4096 + 64]; /* a longer path is cut short in the message */
	snprintf(msg, sizeof msg, "cannot %s %s: %s", verb, path, strerror(errno));
	free(o->tmp);
	free(o->path);
	free(o);
	free(real);
	die("%s", msg);
}

output *output_open(const char *path, const output_opts *opts)
{
	output *o = xcalloc(1, sizeof *o);
	output_opts none = {0};
	if (!opts)
		opts = &none;
	o->delim = opts->tsv ? '\t' : ',';
	o->quoted[(unsigned char)o->delim] = o->quoted['"'] = o->quoted['\n'] = o->quoted['\r'] = true;
	o->decimals = -1;
	bool gzip = opts->gzip, exists = true;
	struct stat st;
	char *real = NULL;
	if (path && strcmp(path, "-") != 0 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* Replace what a link points to, not the link; links into /proc
		 * (/dev/stdout and friends) name open descriptors, not files. */
		real = realpath(path, NULL);
		if (real && strncmp(real, "/proc/", 6) != 0 && stat(real, &st) == 0 && S_ISREG(st.st_mode)) {
			path = real;
		} else if (!real && (real = link_target(path)) != NULL) {
			path = real; /* a new file where the link points */
			st.st_mode = S_IFREG;
			exists = false;
		} else {
			st.st_mode = 0; /* write in place */
		}
	} else if (path && strcmp(path, "-") != 0 && stat(path, &st) != 0) {
		st.st_mode = S_IFREG; /* a new file */
		exists = false;
	}
	if (!path || strcmp(path, "-") == 0) {
		o->fd = STDOUT_FILENO;
	} else if (!S_ISREG(st.st_mode)) {
		/* A device, FIFO or descriptor link cannot be replaced by a
		 * rename: write to it directly. */
		gzip = gzip || util_ends_with(path, ".gz");
		o->path = xstrdup(path);
		o->fd = open(path, O_WRONLY | O_TRUNC);
		if (o->fd < 0)
			open_failed(o, real, "open", path);
		o->direct = true;
	} else {
		gzip = gzip || util_ends_with(path, ".gz");
		o->path = xstrdup(path);
		o->fd = open_temp(o, path);
		if (o->fd < 0)
			open_failed(o, real, "create", path);
		o->replace = exists;
		if (exists) { /* the file keeps its mode, and its owner if we may */
			fchmod(o->fd, st.st_mode & 07777);
			if (st.st_uid != geteuid() || st.st_gid != getegid())
				if (fchown(o->fd, st.st_uid, st.st_gid) != 0)
					fchmod(o->fd, st.st_mode & 0777); /* no set-id bits for another owner */
		}
	}
	if (gzip) {
		int fd = dup(o->fd);
		if (fd < 0 || !(o->gz = gzdopen(fd, "wb6")))
			die("cannot start gzip output: %s", strerror(errno));
	}
	free(real);
	if (opts->bom)
		put(o, "\xEF\xBB\xBF", 3);
	return o;
}

void output_text(output *o, const char *s, size_t n)
{
	put(o, s, n);
}

void output_field_n(output *o, const char *s, size_t n)
{
	if (o->col++ > 0)
		putc_(o, o->delim);
	size_t i = 0;
	while (i < n && !o->quoted[(unsigned char)s[i]])
		i++;
	if (i == n) {
		put(o, s, n);
		return;
	}
	putc_(o, '"');
	for (i = 0; i < n; i++) {
		if (s[i] == '"')
			putc_(o, '"');
		putc_(o, s[i]);
	}
	putc_(o, '"');
}

void output_field(output *o, const char *s)
{
	output_field_n(o, s, strlen(s));
}

/* By hand: snprintf costs more than the rest of a big table's row. The
 * digits go straight into the buffer, two at a time. */
static void put_decimal(output *o, uint64_t u, bool negative)
{
	static const char pairs[] = "00010203040506070809101112131415161718192021222324"
				    "25262728293031323334353637383940414243444546474849"
				    "50515253545556575859606162636465666768697071727374"
				    "75767778798081828384858687888990919293949596979899";
	/* A delimiter, a minus and 20 digits at most. */
	if (OUT_BUF - o->len < 22)
		flush(o);
	char *d = o->buf + o->len;
	/* Digits and a minus are never quoted: no scan for the delimiter. */
	if (o->col++ > 0)
		*d++ = o->delim;
	if (negative)
		*d++ = '-';
	int n = 1;
	for (uint64_t t = u; t >= 10 && n < 20; n++)
		t /= 10;
	char *e = d + n;
	for (; u >= 100; u /= 100) {
		e -= 2;
		memcpy(e, pairs + 2 * (u % 100), 2);
	}
	if (u >= 10)
		memcpy(e - 2, pairs + 2 * u, 2);
	else
		e[-1] = (char)('0' + u);
	o->len = (size_t)(d + n - o->buf);
}

void output_int(output *o, int64_t v)
{
	put_decimal(o, v < 0 ? -(uint64_t)v : (uint64_t)v, v < 0);
}

void output_uint(output *o, uint64_t v)
{
	put_decimal(o, v, false);
}

void output_double(output *o, double v)
{
	char b[40];
	if (isnan(v)) {
		output_field_n(o, "NA", 2);
		return;
	}
	if (isinf(v)) { /* as R writes and reads them */
		output_field(o, v > 0 ? "Inf" : "-Inf");
		return;
	}
	if (v == 0)
		v = 0; /* no "-0" */
	int n = 0;
	if (o->decimals >= 0 && fabs(v) < 1e15) {
		n = snprintf(b, sizeof b, "%.*f", o->decimals, v);
		/* -0.0001 rounds to "-0.000": a zero has no sign here either. */
		bool zero = strspn(b, "-0.") == (size_t)n;
		output_field_n(o, b + (zero && b[0] == '-'), (size_t)n - (zero && b[0] == '-'));
		return;
	}
	for (int prec = 1; prec <= 17; prec++) {
		n = snprintf(b, sizeof b, "%.*g", prec, v);
		if (strtod(b, NULL) == v)
			break;
	}
	double a = fabs(v);
	if (strchr(b, 'e') && a >= 1e-4 && a < 1e15) {
		/* %g chose an exponent only because digits ran short; spreadsheets
		 * and R read plain decimals either way, people read them better. */
		for (int prec = 0; prec <= 20; prec++) {
			n = snprintf(b, sizeof b, "%.*f", prec, v);
			if (strtod(b, NULL) == v)
				break;
		}
	}
	output_field_n(o, b, (size_t)n);
}

void output_set_decimals(output *o, int decimals)
{
	o->decimals = decimals;
}

void output_na(output *o)
{
	output_field_n(o, "", 0);
}

void output_end_row(output *o)
{
	putc_(o, '\n');
	o->col = 0;
}

void output_row(output *o, const char *const *fields, size_t n)
{
	for (size_t i = 0; i < n; i++)
		output_field(o, fields[i]);
	output_end_row(o);
}

/* Gives the unnamed temporary FD the name PATH: directly when PATH is
 * new, else under a free temporary name renamed over PATH (link cannot
 * replace a file), which die() removes while it exists. */
static void link_unnamed(output *o)
{
	char proc[64];
	snprintf(proc, sizeof proc, "/proc/self/fd/%d", o->fd);
	if (!o->replace && (linkat(AT_FDCWD, proc, AT_FDCWD, o->path, AT_SYMLINK_FOLLOW) == 0 ||
			    linkat(o->fd, "", AT_FDCWD, o->path, AT_EMPTY_PATH) == 0))
		return;
	for (unsigned k = 0;; k++) {
		char *t = temp_name(o->path);
		size_t n = strlen(t);
		uint64_t r = (uint64_t)getpid() * 0x9E3779B97F4A7C15u + k * 0xBF58476D1CE4E5B9u;
		for (size_t i = n - 6; i < n; i++, r /= 36)
			t[i] = "abcdefghijklmnopqrstuvwxyz0123456789"[r % 36];
		if (linkat(AT_FDCWD, proc, AT_FDCWD, t, AT_SYMLINK_FOLLOW) == 0 ||
		    linkat(o->fd, "", AT_FDCWD, t, AT_EMPTY_PATH) == 0) {
			o->tmp = t;
			util_temp_register(t);
			return;
		}
		int e = errno;
		free(t);
		if (e != EEXIST || k == 100)
			die("cannot create %s: %s", o->path, strerror(e));
	}
}

void output_close(output *o)
{
	flush(o);
	if (o->gz) {
		int rc = gzclose(o->gz);
		if (rc != Z_OK)
			write_error(o, rc == Z_ERRNO ? strerror(errno) : "gzip stream error");
	}
	if (o->direct) {
		if (close(o->fd) != 0)
			write_error(o, strerror(errno));
		free(o->path);
	} else if (o->path) {
		if (fsync(o->fd) != 0 && errno != EINVAL)
			write_error(o, strerror(errno));
		if (o->unnamed)
			link_unnamed(o);
		if (close(o->fd) != 0)
			write_error(o, strerror(errno));
		if (o->tmp && rename(o->tmp, o->path) != 0)
			die("cannot rename %s to %s: %s", o->tmp, o->path, strerror(errno));
		if (o->tmp)
			util_temp_forget(o->tmp);
		free(o->tmp);
		free(o->path);
	}
	free(o);
}
