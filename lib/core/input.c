#include "core/input.h"

#include <errno.h>
#include <stdlib.h>
#include <fcntl.h>
#include <iconv.h>
#include <stdint.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <zlib.h>

#include "core/util.h"

#define IN_CHUNK (256u * 1024u)

struct input_file {
	gzFile gz;
	char *name;
	char *buf;
	size_t cap, start, end;
	long line;
	bool eof, first, line_nul;
	/* Index in buf of the first NUL byte at or after start, or SIZE_MAX:
	 * found once per block read, so lines need no scan of their own. */
	size_t nul;
};

input_file *input_open(const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	input_file *f = xcalloc(1, sizeof *f);
	f->gz = gzdopen(fd, "rb");
	if (!f->gz)
		die("cannot open %s: out of memory", path);
	gzbuffer(f->gz, IN_CHUNK);
	f->name = xstrdup(path);
	f->cap = IN_CHUNK;
	f->buf = xmalloc(f->cap);
	f->first = true;
	f->nul = SIZE_MAX;
	return f;
}

const char *input_name(const input_file *f)
{
	return f->name;
}

bool input_line_has_nul(const input_file *f)
{
	return f->line_nul;
}

long input_lineno(const input_file *f)
{
	return f->line;
}

/* zlib's message without the "<fd:N>: " prefix gzdopen streams carry. */
static const char *gz_message(gzFile gz, int *err)
{
	const char *msg = gzerror(gz, err);
	if (*err == Z_ERRNO)
		return strerror(errno);
	const char *colon = strncmp(msg, "<fd:", 4) == 0 ? strstr(msg, ": ") : NULL;
	return colon ? colon + 2 : msg;
}

static void fill(input_file *f)
{
	if (f->start > 0) { /* keep the partial line, make room behind it */
		memmove(f->buf, f->buf + f->start, f->end - f->start);
		if (f->nul != SIZE_MAX)
			f->nul -= f->start;
		f->end -= f->start;
		f->start = 0;
	}
	if (f->end == f->cap) /* a line longer than the buffer */
		util_grow((void **)&f->buf, &f->cap, f->cap + 1, 1);
	size_t want = f->cap - f->end;
	if (want > (1u << 30))
		want = 1u << 30;
	int got = gzread(f->gz, f->buf + f->end, (unsigned)want);
	if (got < 0) {
		int err;
		die("%s: read error: %s", f->name, gz_message(f->gz, &err));
	}
	if (got == 0) {
		/* zlib reports a truncated gzip stream only as a soft error
		 * beside a normal end of input. */
		int err;
		const char *msg = gz_message(f->gz, &err);
		if (err == Z_BUF_ERROR)
			die("%s: read error: %s", f->name, msg);
		f->eof = true;
	}
	if (f->nul == SIZE_MAX) {
		char *z = memchr(f->buf + f->end, '\0', (size_t)got);
		if (z)
			f->nul = (size_t)(z - f->buf);
	}
	f->end += (size_t)got;
}

/* At the very start of the input, skips a UTF-8 byte order mark among the
 * N bytes at P; returns how many bytes it skipped. */
static size_t skip_bom(input_file *f, const char *p, size_t n)
{
	if (!f->first)
		return 0;
	f->first = false;
	return n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0 ? 3 : 0;
}

const char *input_getline(input_file *f, size_t *len)
{
	size_t scanned = 0; /* bytes of the current line already searched */
	for (;;) {
		char *p = f->buf + f->start;
		size_t avail = f->end - f->start;
		char *nl = memchr(p + scanned, '\n', avail - scanned);
		if (nl || (f->eof && avail > 0)) {
			size_t n = nl ? (size_t)(nl - p) + 1 : avail;
			f->line_nul = f->nul < f->start + n;
			f->start += n;
			if (f->line_nul) {
				char *z = memchr(f->buf + f->start, '\0', f->end - f->start);
				f->nul = z ? (size_t)(z - f->buf) : SIZE_MAX;
			}
			f->line++;
			size_t bom = skip_bom(f, p, n);
			p += bom, n -= bom;
			*len = n;
			return p;
		}
		if (f->eof)
			return NULL;
		scanned = avail;
		fill(f); /* moves the partial line to the front: scanned stays valid */
	}
}

const char *input_block(input_file *f, size_t max, size_t *len)
{
	if (f->start == f->end) {
		if (f->eof)
			return NULL;
		f->start = f->end = 0;
		fill(f);
		if (f->end == 0)
			return NULL;
	}
	f->start += skip_bom(f, f->buf + f->start, f->end - f->start);
	char *p = f->buf + f->start;
	size_t n = f->end - f->start < max ? f->end - f->start : max;
	f->start += n;
	f->nul = SIZE_MAX;
	*len = n;
	return p;
}

void input_close(input_file *f)
{
	if (!f)
		return;
	gzclose(f->gz);
	free(f->buf);
	free(f->name);
	free(f);
}

struct input_conv {
	iconv_t cd;
	char *buf;
	size_t cap;
};

input_conv *input_conv_open(const char *encoding)
{
	if (!strcasecmp(encoding, "UTF-8") || !strcasecmp(encoding, "UTF8"))
		return NULL;
	iconv_t cd = iconv_open("UTF-8", encoding);
	if (cd == (iconv_t)-1)
		die_usage("unknown encoding '%s'", encoding);
	/* Line-by-line conversion needs "\n" to be the byte 0x0A in the
	 * source encoding; check by converting a newline the other way. */
	iconv_t back = iconv_open(encoding, "UTF-8");
	char nl[] = "\n", out[16];
	char *ip = nl, *op = out;
	size_t il = 1, ol = sizeof out;
	bool ok = back != (iconv_t)-1 && iconv(back, &ip, &il, &op, &ol) != (size_t)-1 &&
		  iconv(back, NULL, NULL, &op, &ol) != (size_t)-1 &&
		  op - out == 1 && out[0] == '\n';
	if (back != (iconv_t)-1)
		iconv_close(back);
	if (!ok) {
		iconv_close(cd);
		die_usage("encoding '%s' is not supported: lines must end in the byte 0x0A", encoding);
	}
	input_conv *c = xcalloc(1, sizeof *c);
	c->cd = cd;
	return c;
}

bool input_conv_run(input_conv *c, const char *s, size_t n, const char **out, size_t *outlen)
{
	/* No multibyte text encoding we accept grows more than fourfold. */
	util_grow((void **)&c->buf, &c->cap, n * 4 + 16, 1);
	iconv(c->cd, NULL, NULL, NULL, NULL);
	char *ip = (char *)s, *op = c->buf;
	size_t il = n, ol = c->cap;
	if (iconv(c->cd, &ip, &il, &op, &ol) == (size_t)-1 ||
	    iconv(c->cd, NULL, NULL, &op, &ol) == (size_t)-1)
		return false;
	*out = c->buf;
	*outlen = (size_t)(op - c->buf);
	return true;
}

void input_conv_close(input_conv *c)
{
	if (!c)
		return;
	iconv_close(c->cd);
	free(c->buf);
	free(c);
}
