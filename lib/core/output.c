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
	char *path, *tmp; /* tmp NULL when writing to stdout or a device */
	bool direct;      /* path is a device or FIFO, written in place */
	char delim;
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
		for (size_t i = 0; i < n; i++)
			d[i] = s[i];
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

output *output_open(const char *path, const output_opts *opts)
{
	output *o = xcalloc(1, sizeof *o);
	output_opts none = {0};
	if (!opts)
		opts = &none;
	o->delim = opts->tsv ? '\t' : ',';
	bool gzip = opts->gzip;
	struct stat st;
	char *real = NULL;
	if (path && strcmp(path, "-") != 0 && lstat(path, &st) == 0 && S_ISLNK(st.st_mode)) {
		/* Replace what a link points to, not the link; links into /proc
		 * (/dev/stdout and friends) name open descriptors, not files. */
		real = realpath(path, NULL);
		if (real && strncmp(real, "/proc/", 6) != 0 && stat(real, &st) == 0 && S_ISREG(st.st_mode))
			path = real;
		else
			st.st_mode = 0; /* write in place */
	} else if (path && strcmp(path, "-") != 0 && stat(path, &st) != 0) {
		st.st_mode = S_IFREG; /* a new file */
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
			die("cannot open %s: %s", path, strerror(errno));
		o->direct = true;
	} else {
		gzip = gzip || util_ends_with(path, ".gz");
		o->path = xstrdup(path);
		size_t n = strlen(path);
		o->tmp = xmalloc(n + 16);
		snprintf(o->tmp, n + 16, "%s.tmpXXXXXX", path);
		o->fd = mkstemp(o->tmp);
		if (o->fd < 0)
			die("cannot create %s: %s", path, strerror(errno));
		util_temp_register(o->tmp);
		free(real);
		real = NULL;
		/* mkstemp makes the file 0600; a finished output gets the usual
		 * permissions under the user's umask. */
		mode_t mask = umask(0);
		umask(mask);
		fchmod(o->fd, 0666 & ~mask);
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

void output_field_n(output *o, const char *s, size_t n)
{
	if (o->col++ > 0)
		putc_(o, o->delim);
	size_t i = 0;
	for (; i < n; i++) {
		char c = s[i];
		if (c == o->delim || c == '"' || c == '\n' || c == '\r')
			break;
	}
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

/* By hand: snprintf costs more than the rest of a big table's row. */
static void put_decimal(output *o, uint64_t u, bool negative)
{
	char b[24], *e = b + sizeof b, *p = e;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (negative)
		*--p = '-';
	output_field_n(o, p, (size_t)(e - p));
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
	} else if (o->tmp) {
		if (fsync(o->fd) != 0 && errno != EINVAL)
			write_error(o, strerror(errno));
		if (close(o->fd) != 0)
			write_error(o, strerror(errno));
		if (rename(o->tmp, o->path) != 0)
			die("cannot rename %s to %s: %s", o->tmp, o->path, strerror(errno));
		util_temp_forget(o->tmp);
		free(o->tmp);
		free(o->path);
	}
	free(o);
}
