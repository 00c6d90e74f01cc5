#include "core/input.h"

#include <errno.h>
#include <fcntl.h>
#include <iconv.h>
#include <limits.h>
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zlib.h>

#include "core/util.h"

#define IN_CHUNK (256u * 1024u)
#define RAW_CHUNK (256u * 1024u)
#define NONE SIZE_MAX

static const char bom[3] = {'\xEF', '\xBB', '\xBF'};

static size_t max_line; /* 0: not decided yet */
static bool prefetch_wanted; /* input_set_prefetch */

/* A thread that reads (and inflates) ahead: it fills free buffers of the
 * buffer's size, which the reader swaps for its own in input_block, in
 * the same pieces a reader without it would get, so that an error is
 * reported at the same place: after the pieces before it are used up,
 * with the line counted the same way. */
enum { PREFETCH_BUFS = 3 };
typedef struct {
	pthread_t tid;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	char *ready[PREFETCH_BUFS];
	size_t ready_len[PREFETCH_BUFS];
	int nready, head;
	char *spare[PREFETCH_BUFS + 1];
	int nspare;
	bool done, stop, failed;
	char msg[256];
	char *err_buf;  /* the failed piece, its first err_pending bytes made */
	size_t err_pending;
} prefetch;

bool input_parse_size(const char *s, size_t *out)
{
	if (*s < '0' || *s > '9')
		return false;
	errno = 0;
	char *end;
	unsigned long long v = strtoull(s, &end, 10);
	int shift = 0;
	switch (*end) {
	case '\0': break;
	case 'K': case 'k': shift = 10; break;
	case 'M': case 'm': shift = 20; break;
	case 'G': case 'g': shift = 30; break;
	case 'T': case 't': shift = 40; break;
	default: return false;
	}
	if (errno || (*end && end[1]) || v == 0 || v > (1ull << 50) >> shift)
		return false;
	*out = (size_t)(v << shift);
	return true;
}

size_t input_max_line(void)
{
	if (!max_line) {
		const char *env = getenv("YOMI_MAX_LINE");
		max_line = INPUT_MAX_LINE_DEFAULT;
		if (env && *env && !input_parse_size(env, &max_line))
			die_usage("invalid YOMI_MAX_LINE '%s': expected a size such as 64M", env);
	}
	return max_line;
}

void input_set_max_line(size_t n)
{
	max_line = n;
}

struct input_file {
	int fd;
	char *name;
	/* Bytes read from the file: for gzip the inflate stream's input, for
	 * plain input only the few read to look for the magic bytes. */
	unsigned char *raw;
	size_t raw_len, raw_pos;
	bool raw_eof;
	bool gzip;
	bool member_end; /* inflate finished a member: what follows decides */
	bool gz_done;    /* the last member ended, nothing but padding after */
	z_stream z;
	/* Text: buf[start, end) is read and not yet handed out. */
	char *buf;
	size_t cap, start, end;
	size_t pending;  /* bytes inflated behind end, not yet counted in it */
	long line;       /* lines handed out */
	size_t max_line; /* input_max_line() when opened */
	long block_line; /* block readers: the line of the next unread byte */
	bool eof, first, line_nul, blocks;
	/* Index in buf of the first NUL, LF and CR at or after start, or NONE
	 * when there is none in buf[start, end): each byte is searched once,
	 * so lines need no scan of their own. */
	size_t nul, lf, cr;
	/* Plain files: bytes read from the file so far, and with a range
	 * (input_restrict) how many more may be. */
	int64_t pos, left;
	bool ranged;
	prefetch *pf; /* reading ahead, from the first block on */
};

static _Thread_local input_file *producing; /* in the prefetch thread */

/* The line an error found while reading on is on: past the lines handed
 * out and those waiting in the buffer. */
static long error_line(const input_file *f)
{
	long n = f->blocks ? (f->block_line > 0 ? f->block_line : 1) : f->line + 1;
	size_t end = f->end + f->pending;
	for (size_t i = f->start; i < end; i++)
		n += f->buf[i] == '\n' || (f->buf[i] == '\r' && (i + 1 == end || f->buf[i + 1] != '\n'));
	return n;
}

static noreturn void __attribute__((format(printf, 2, 3))) fail(const input_file *f, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (producing == f) { /* the reader reports it when it gets there */
		memcpy(f->pf->msg, msg, sizeof msg);
		f->pf->err_pending = f->pending;
		longjmp(*util_die_trap, 1);
	}
	die_at(f->name, error_line(f), "%s", msg);
}

/* Reads the next bytes of the file into raw; raw_eof at the end. */
static void raw_read(input_file *f, size_t keep)
{
	ssize_t got;
	do
		got = read(f->fd, f->raw + keep, RAW_CHUNK - keep);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		fail(f, "read error: %s", strerror(errno));
	f->raw_len = keep + (size_t)got;
	f->raw_pos = 0;
	f->pos += got;
	f->raw_eof = got == 0;
}

input_file *input_open(const char *path)
{
	bool is_stdin = strcmp(path, "-") == 0;
	int fd = is_stdin ? dup(STDIN_FILENO) : open(path, O_RDONLY);
	if (fd < 0)
		die("cannot open %s: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) == 0 && S_ISDIR(st.st_mode))
		die("cannot open %s: %s", path, strerror(EISDIR));
	input_file *f = xcalloc(1, sizeof *f);
	f->fd = fd;
	f->name = xstrdup(path);
	f->cap = IN_CHUNK;
	f->buf = xmalloc(f->cap);
	f->first = true;
	f->max_line = input_max_line();
	f->nul = f->lf = f->cr = NONE;
	f->raw = xmalloc(RAW_CHUNK);
	/* The magic bytes decide, however few bytes a pipe hands over. */
	while (f->raw_len < 2 && !f->raw_eof)
		raw_read(f, f->raw_len);
	f->raw_eof = false;
	if (f->raw_len >= 2 && f->raw[0] == 0x1f && f->raw[1] == 0x8b) {
		f->gzip = true;
		if (inflateInit2(&f->z, 16 + MAX_WBITS) != Z_OK)
			die("out of memory");
		f->z.next_in = f->raw;
		f->z.avail_in = (uInt)f->raw_len;
	}
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

void input_set_line(input_file *f, long line)
{
	f->block_line = line;
}

/* After a gzip member's end: true when another member follows (inflate is
 * ready for it), false at the end of the input. Zero bytes after the last
 * member are padding (gzip -d ignores them too); anything else is not. */
static bool next_member(input_file *f)
{
	z_stream *z = &f->z;
	bool padding = false;
	for (;;) {
		if (z->avail_in == 0) {
			raw_read(f, 0);
			if (f->raw_eof)
				return false;
			z->next_in = f->raw;
			z->avail_in = (uInt)f->raw_len;
		}
		if (z->next_in[0] == 0) {
			while (z->avail_in > 0 && z->next_in[0] == 0)
				z->next_in++, z->avail_in--;
			padding = true;
			continue;
		}
		if (!padding && z->avail_in == 1) { /* the magic may be split */
			f->raw[0] = z->next_in[0];
			raw_read(f, 1);
			z->next_in = f->raw;
			z->avail_in = (uInt)f->raw_len;
		}
		if (padding || z->avail_in < 2 || z->next_in[0] != 0x1f || z->next_in[1] != 0x8b)
			fail(f, "data after the end of the gzip stream");
		inflateReset(z);
		return true;
	}
}

/* Up to WANT bytes of decompressed text into DST (the buffer's end); 0
 * only at the end. */
static size_t inflate_some(input_file *f, char *dst, size_t want)
{
	z_stream *z = &f->z;
	if (want > UINT_MAX)
		want = UINT_MAX;
	z->next_out = (Bytef *)dst;
	z->avail_out = (uInt)want;
	while (z->avail_out == want && !f->gz_done) {
		if (f->member_end) {
			f->member_end = false;
			if (!next_member(f)) {
				f->gz_done = true;
				break;
			}
		}
		if (z->avail_in == 0) {
			raw_read(f, 0);
			if (f->raw_eof)
				fail(f, "truncated gzip data: the stream ends early");
			z->next_in = f->raw;
			z->avail_in = (uInt)f->raw_len;
		}
		int rc = inflate(z, Z_NO_FLUSH);
		f->pending = want - z->avail_out;
		if (rc == Z_STREAM_END)
			f->member_end = true;
		else if (rc == Z_DATA_ERROR || rc == Z_NEED_DICT || rc == Z_STREAM_ERROR)
			fail(f, "corrupt gzip data: %s", z->msg ? z->msg : "invalid stream");
		else if (rc == Z_MEM_ERROR)
			die("out of memory");
	}
	f->pending = 0;
	return want - z->avail_out;
}

/* Up to WANT bytes of text into DST; 0 only at the end. */
static size_t produce(input_file *f, char *dst, size_t want)
{
	if (f->gzip)
		return inflate_some(f, dst, want);
	if (f->raw_pos < f->raw_len) { /* the bytes read to look for the magic */
		size_t n = f->raw_len - f->raw_pos < want ? f->raw_len - f->raw_pos : want;
		memcpy(dst, f->raw + f->raw_pos, n);
		f->raw_pos += n;
		return n;
	}
	if (f->ranged && (int64_t)want > f->left)
		want = (size_t)f->left;
	if (!want)
		return 0;
	ssize_t got;
	do
		got = read(f->fd, dst, want);
	while (got < 0 && errno == EINTR);
	if (got < 0)
		fail(f, "read error: %s", strerror(errno));
	f->pos += got;
	f->left -= got;
	return (size_t)got;
}

static void shift(size_t *at, size_t by)
{
	if (*at != NONE)
		*at -= by;
}

/* Finds C in the bytes just read when none was waiting before them. */
static void scan_new(const input_file *f, size_t *at, char c, size_t from)
{
	if (*at == NONE) {
		const char *p = memchr(f->buf + from, c, f->end - from);
		*at = p ? (size_t)(p - f->buf) : NONE;
	}
}

static void fill(input_file *f)
{
	if (f->start > 0) { /* keep the partial line, make room behind it */
		memmove(f->buf, f->buf + f->start, f->end - f->start);
		shift(&f->nul, f->start);
		shift(&f->lf, f->start);
		shift(&f->cr, f->start);
		f->end -= f->start;
		f->start = 0;
	}
	if (f->end == f->cap) /* a line longer than the buffer */
		util_grow((void **)&f->buf, &f->cap, f->cap + 1, 1);
	size_t want = f->cap - f->end;
	if (want > (1u << 30))
		want = 1u << 30;
	size_t from = f->end;
	size_t got = produce(f, f->buf + f->end, want);
	f->end += got;
	if (got == 0)
		f->eof = true;
	if (!f->blocks) {
		scan_new(f, &f->nul, '\0', from);
		scan_new(f, &f->lf, '\n', from);
		scan_new(f, &f->cr, '\r', from);
	}
}

/* At the very start of the input, skips a UTF-8 byte order mark among the
 * N bytes at P; returns how many bytes it skipped. */
static size_t skip_bom(input_file *f, const char *p, size_t n)
{
	if (!f->first)
		return 0;
	f->first = false;
	if (n < 3 || memcmp(p, bom, 3) != 0)
		return 0;
	if (n >= 6 && memcmp(p + 3, bom, 3) == 0)
		die_at(f->name, 1, "a second byte order mark after the first");
	return 3;
}

/* After the start moved: a cached position before it is searched anew. */
static void rescan(const input_file *f, size_t *at, char c)
{
	if (*at != NONE && *at < f->start) {
		const char *p = memchr(f->buf + f->start, c, f->end - f->start);
		*at = p ? (size_t)(p - f->buf) : NONE;
	}
}

/* Where the line at start ends (the index of its last byte), or NONE if
 * more input must be read to know. */
static size_t line_end(const input_file *f)
{
	if (f->cr < f->lf) { /* NONE is the largest index */
		if (f->cr + 1 < f->end)
			return f->buf[f->cr + 1] == '\n' ? f->cr + 1 : f->cr;
		return f->eof ? f->cr : NONE; /* an LF may follow the CR */
	}
	if (f->lf != NONE)
		return f->lf;
	return f->eof && f->end > f->start ? f->end - 1 : NONE;
}

const char *input_getline(input_file *f, size_t *len)
{
	if (f->blocks)
		die("internal error: input_getline after input_block");
	for (;;) {
		size_t last = line_end(f);
		if (last != NONE) {
			char *p = f->buf + f->start;
			size_t n = last + 1 - f->start;
			if (n > f->max_line)
				die_at(f->name, f->line + 1, "line longer than %zu bytes (see --max-line)",
				       f->max_line);
			f->line_nul = f->nul <= last;
			f->start = last + 1;
			rescan(f, &f->nul, '\0');
			rescan(f, &f->lf, '\n');
			rescan(f, &f->cr, '\r');
			f->line++;
			size_t skip = skip_bom(f, p, n);
			*len = n - skip;
			return p + skip;
		}
		if (f->eof)
			return NULL;
		if (f->end - f->start > f->max_line)
			die_at(f->name, f->line + 1, "line longer than %zu bytes (see --max-line)",
			       f->max_line);
		fill(f);
	}
}

static void *prefetch_run(void *arg)
{
	input_file *f = arg;
	prefetch *pf = f->pf;
	jmp_buf trap;
	producing = f;
	util_die_trap = &trap;
	for (;;) {
		pthread_mutex_lock(&pf->mu);
		while (!pf->stop && pf->nspare == 0)
			pthread_cond_wait(&pf->cv, &pf->mu);
		if (pf->stop) {
			pthread_mutex_unlock(&pf->mu);
			break;
		}
		char *buf = pf->spare[--pf->nspare];
		pthread_mutex_unlock(&pf->mu);
		volatile size_t n = 0;
		bool failed = setjmp(trap) != 0;
		if (!failed)
			n = produce(f, buf, f->cap);
		pthread_mutex_lock(&pf->mu);
		if (failed) {
			if (!pf->msg[0])
				snprintf(pf->msg, sizeof pf->msg, "out of memory");
			pf->failed = true;
			pf->err_buf = buf;
		} else if (n == 0) {
			pf->spare[pf->nspare++] = buf;
		} else {
			int at = (pf->head + pf->nready) % PREFETCH_BUFS;
			pf->ready[at] = buf;
			pf->ready_len[at] = n;
			pf->nready++;
		}
		pf->done = failed || n == 0;
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
		if (pf->done)
			break;
	}
	util_die_trap = NULL;
	producing = NULL;
	return NULL;
}

/* Starts the thread reading ahead, if one is wanted and can start. */
static void prefetch_start(input_file *f)
{
	struct stat st;
	if (!f->gzip && fstat(f->fd, &st) == 0 && S_ISREG(st.st_mode))
		return; /* the kernel reads plain files ahead already */
	prefetch *pf = xcalloc(1, sizeof *pf);
	pthread_mutex_init(&pf->mu, NULL);
	pthread_cond_init(&pf->cv, NULL);
	for (int i = 0; i < PREFETCH_BUFS; i++)
		pf->spare[pf->nspare++] = xmalloc(f->cap);
	f->pf = pf;
	if (pthread_create(&pf->tid, NULL, prefetch_run, f) != 0) {
		for (int i = 0; i < pf->nspare; i++)
			free(pf->spare[i]);
		free(pf);
		f->pf = NULL;
	}
}

/* The next piece into buf from the thread reading ahead; as fill. */
static void prefetch_fill(input_file *f)
{
	prefetch *pf = f->pf;
	pthread_mutex_lock(&pf->mu);
	while (pf->nready == 0 && !pf->done)
		pthread_cond_wait(&pf->cv, &pf->mu);
	if (pf->nready) {
		pf->spare[pf->nspare++] = f->buf;
		f->buf = pf->ready[pf->head];
		f->end = pf->ready_len[pf->head];
		pf->head = (pf->head + 1) % PREFETCH_BUFS;
		pf->nready--;
		pthread_cond_broadcast(&pf->cv);
		pthread_mutex_unlock(&pf->mu);
		return;
	}
	pthread_mutex_unlock(&pf->mu);
	if (!pf->failed) {
		f->eof = true;
		return;
	}
	/* As fill would have failed here: the piece's bytes made before the
	 * error count for the line. */
	memcpy(f->buf, pf->err_buf, pf->err_pending);
	f->pending = pf->err_pending;
	die_at(f->name, error_line(f), "%s", pf->msg);
}

static void prefetch_stop(input_file *f)
{
	prefetch *pf = f->pf;
	pthread_mutex_lock(&pf->mu);
	pf->stop = true;
	pthread_cond_broadcast(&pf->cv);
	pthread_mutex_unlock(&pf->mu);
	pthread_join(pf->tid, NULL);
	for (int i = 0; i < pf->nready; i++)
		free(pf->ready[(pf->head + i) % PREFETCH_BUFS]);
	for (int i = 0; i < pf->nspare; i++)
		free(pf->spare[i]);
	free(pf->err_buf);
	pthread_mutex_destroy(&pf->mu);
	pthread_cond_destroy(&pf->cv);
	free(pf);
	f->pf = NULL;
}

void input_set_prefetch(bool on)
{
	prefetch_wanted = on;
}

const char *input_block(input_file *f, size_t max, size_t *len)
{
	f->blocks = true;
	while (f->first && f->end - f->start < 6 && !f->eof)
		fill(f); /* enough to see a second byte order mark */
	if (f->start == f->end) {
		if (f->eof)
			return NULL;
		f->start = f->end = 0;
		if (prefetch_wanted && !f->pf && !f->first && !f->ranged)
			prefetch_start(f);
		if (f->pf)
			prefetch_fill(f);
		else
			fill(f);
		if (f->end == 0)
			return NULL;
	}
	f->start += skip_bom(f, f->buf + f->start, f->end - f->start);
	char *p = f->buf + f->start;
	size_t n = f->end - f->start < max ? f->end - f->start : max;
	f->start += n;
	*len = n;
	return p;
}

int64_t input_offset(const input_file *f)
{
	struct stat st;
	if (f->gzip || f->blocks || fstat(f->fd, &st) != 0 || !S_ISREG(st.st_mode))
		return -1;
	return f->pos - (int64_t)(f->raw_len - f->raw_pos) - (int64_t)(f->end - f->start);
}

bool input_restrict(input_file *f, int64_t start, int64_t end)
{
	if (input_offset(f) < 0 || start > end || lseek(f->fd, (off_t)start, SEEK_SET) != (off_t)start)
		return false;
	f->raw_pos = f->raw_len;
	f->start = f->end = f->pending = 0;
	f->nul = f->lf = f->cr = NONE;
	f->eof = f->first = false;
	f->pos = start;
	f->left = end - start;
	f->ranged = true;
	return true;
}

void input_close(input_file *f)
{
	if (!f)
		return;
	if (f->pf)
		prefetch_stop(f);
	if (f->gzip)
		inflateEnd(&f->z);
	close(f->fd);
	free(f->raw);
	free(f->buf);
	free(f->name);
	free(f);
}

struct input_conv {
	iconv_t cd;
	char *encoding;
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
	c->encoding = xstrdup(encoding);
	return c;
}

bool input_conv_run(input_conv *c, const char *s, size_t n, const char **out, size_t *outlen)
{
	/* Most text grows at most fourfold into UTF-8; some encodings (TSCII
	 * among them, a byte to four characters) grow more, and then the
	 * line is converted again into a larger buffer by a fresh
	 * descriptor: neither going on after E2BIG nor a reset of the old
	 * one is reliable in every iconv module (glibc's TSCII loses
	 * characters). */
	util_grow((void **)&c->buf, &c->cap, n * 4 + 16, 1);
	for (;;) {
		iconv(c->cd, NULL, NULL, NULL, NULL);
		char *ip = (char *)s, *op = c->buf;
		size_t il = n, ol = c->cap;
		if (iconv(c->cd, &ip, &il, &op, &ol) != (size_t)-1 &&
		    iconv(c->cd, NULL, NULL, &op, &ol) != (size_t)-1) {
			*out = c->buf;
			*outlen = (size_t)(op - c->buf);
			return true;
		}
		if (errno != E2BIG)
			return false;
		util_grow((void **)&c->buf, &c->cap, c->cap < n * 16 + 16 ? n * 16 + 16 : c->cap + 1, 1);
		iconv_close(c->cd);
		c->cd = iconv_open("UTF-8", c->encoding);
		if (c->cd == (iconv_t)-1)
			die("cannot convert from %s: %s", c->encoding, strerror(errno));
	}
}

void input_conv_close(input_conv *c)
{
	if (!c)
		return;
	iconv_close(c->cd);
	free(c->encoding);
	free(c->buf);
	free(c);
}
