#include "core/table.h"

#include <csv.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/strmap.h"
#include "core/utf8.h"
#include "core/util.h"

/* How line numbers are kept while libcsv is fed large blocks: with
 * CSV_REPALL_NL libcsv reports every unquoted CR and LF as a row callback
 * (an empty one for blank lines and for the LF of a CRLF), and line ends
 * in quoted fields are counted in the field callback. A line ends at an
 * LF, a CRLF or a lone CR. So `lines` is exact at every row end, and a row
 * starts on the line after the previous row end.
 * Feeding line by line would need no counting but costs libcsv much of
 * its speed in per-call overhead (tests/bench/NOTES.md). */

/* Input is fed to libcsv in pieces this small so that the rows queued from
 * one piece stay in the first-level caches until they are read. */
#define PIECE (16u * 1024u)

typedef struct {
	size_t off, len;
} field_t;

struct table {
	input_file *in;
	input_conv *conv;
	struct csv_parser csv;
	bool header_done, no_header, at_eof;
	char delim;
	char **cols;
	size_t ncols;
	long header_line;
	/* Completed rows waiting to be read, then the row being assembled:
	 * field bytes back to back in data, each NUL-terminated. */
	char *data;
	size_t dlen, dcap;
	field_t *f;
	size_t nfield, fcap;
	size_t *rfirst; /* first field of queued row r; rfirst[nrows] ends it */
	long *rline;
	size_t nrows, rcap, rnext;
	size_t pending_first;
	long lines;     /* line ends consumed by completed fields and rows */
	bool after_cr;  /* the last row callback was a CR's: an LF right
			 * after it (no field between) ends no line */
	/* A quote in this piece of input or the one before: a field ending
	 * here may be quoted and hold newlines (its closing quote is at
	 * worst the last byte of the previous piece). */
	bool quotes_near, quotes_before;
	long row_start; /* line on which the row being assembled starts */
	size_t max_bytes, max_fields; /* caps on a field or row, and a row */
	size_t cur_first, cur_n;
	long cur_line;
	bool clean_end; /* at the end: no record half read */
};

static int no_space(unsigned char c)
{
	(void)c;
	return 0; /* RFC 4180: spaces are part of a field */
}

static void store_field(table *t, size_t len)
{
	t->f[t->nfield].off = t->dlen;
	t->f[t->nfield].len = len;
	t->nfield++;
	t->dlen += len + 1;
}

/* Every field that is not short and plain: long, in a piece with quotes
 * (it may hold newlines), or arriving when a buffer is full. */
static __attribute__((noinline)) void on_field_slow(table *t, const char *s, size_t len)
{
	if (t->dlen + len + 33 > t->dcap)
		util_grow((void **)&t->data, &t->dcap, t->dlen + len + 33, 1);
	if (t->nfield == t->fcap)
		util_grow((void **)&t->f, &t->fcap, t->nfield + 1, sizeof *t->f);
	memcpy(t->data + t->dlen, s, len);
	t->data[t->dlen + len] = '\0';
	if (t->quotes_near) { /* only quoted fields can hold a line end */
		for (const char *p = s, *e = p + len; (p = memchr(p, '\n', (size_t)(e - p))); p++)
			t->lines++;
		for (const char *p = s, *e = p + len; (p = memchr(p, '\r', (size_t)(e - p))); p++)
			t->lines += p + 1 == e || p[1] != '\n'; /* a lone CR */
	}
	store_field(t, len);
}

static void on_field(void *s, size_t len, void *data)
{
	table *t = data;
	/* The common case makes no call, so it needs no stack frame: a short
	 * field is copied with its NUL by one fixed 32-byte move the compiler
	 * inlines. That reads past the field inside libcsv's entry buffer,
	 * which CSV_APPEND_NULL terminates and which is allocated in blocks
	 * of at least 128 bytes (its size is public in csv.h). */
	if (__builtin_expect(len >= 32 || t->quotes_near || t->csv.entry_size < 32 ||
				     t->dlen + 33 > t->dcap || t->nfield == t->fcap,
			     0)) {
		on_field_slow(t, s, len);
		return;
	}
	memcpy(t->data + t->dlen, s, 32);
	store_field(t, len);
}

/* A small input must not buy unbounded memory: the field libcsv is
 * assembling and the row being assembled are capped (input_max_line), the
 * number of fields of a row at one per 16 bytes of the cap (each costs an
 * index entry of 16 bytes). Checked at every row end and after every
 * piece, so at most a piece more is ever held; libcsv's own buffer for
 * the field may hold up to twice the cap, as parse grows it by doubling. */
static void check_size(const table *t)
{
	size_t cap = t->max_bytes, maxf = t->max_fields, nf = t->nfield - t->pending_first;
	size_t row = nf ? t->dlen - t->f[t->pending_first].off : 0;
	if (t->csv.entry_pos > cap)
		die_at(input_name(t->in), t->row_start, "field longer than %zu bytes (see --max-line)", cap);
	if (row > cap)
		die_at(input_name(t->in), t->row_start, "row longer than %zu bytes (see --max-line)", cap);
	if (nf > maxf)
		die_at(input_name(t->in), t->row_start, "row of more than %zu fields (see --max-line)", maxf);
}

static void on_row(int term, void *data)
{
	table *t = data;
	size_t n = t->nfield - t->pending_first;
	if (n > 0) { /* zero fields: a blank line or the LF of a CRLF */
		check_size(t);
		if (t->header_done && !t->no_header && n != t->ncols)
			die_at(input_name(t->in), t->row_start, "expected %zu fields, found %zu", t->ncols, n);
		if (t->nrows + 2 > t->rcap) {
			util_grow((void **)&t->rfirst, &t->rcap, t->nrows + 2, sizeof *t->rfirst);
			t->rline = xrealloc(t->rline, t->rcap * sizeof *t->rline);
		}
		t->rfirst[t->nrows] = t->pending_first;
		t->rline[t->nrows] = t->row_start;
		t->nrows++;
		t->rfirst[t->nrows] = t->nfield;
		t->pending_first = t->nfield;
	}
	/* The LF of a CRLF comes as a row of no fields right after the CR's. */
	if (term == '\r' || (term == '\n' && !(t->after_cr && n == 0)))
		t->lines++;
	t->after_cr = term == '\r';
	t->row_start = t->lines + 1;
}

/* 0x80 in each byte of X that equals the byte C repeats, exactly (no
 * borrow runs from one byte into the next). */
static inline uint64_t bytes_equal(uint64_t x, uint64_t c)
{
	const uint64_t low7 = 0x7F7F7F7F7F7F7F7Full;
	uint64_t y = x ^ c;
	return ~((((y & low7) + low7) | y) | low7);
}

/* Rows [S, E) of a piece with no quote, CR or NUL, E just after an LF,
 * split here on the delimiter and LF as libcsv splits them from a row
 * start (no blanks trimmed, an empty line a row of no fields), eight
 * bytes a step, without libcsv's state machine's work for every byte.
 * Short fields are copied as on_field copies them, with bytes after them
 * up to END; the field store's place is kept in locals (stores through
 * the char buffer would otherwise make the compiler reload it). */
static void split_plain(table *t, const char *s, const char *e, const char *end)
{
	const uint64_t ones = 0x0101010101010101ull;
	const uint64_t delim = ones * (unsigned char)t->delim, lf = ones * '\n';
	const char *f = s; /* the field's start */
	bool in_row = false;
	char *data = t->data;
	field_t *fl = t->f;
	size_t dlen = t->dlen, nf = t->nfield, dcap = t->dcap, fcap = t->fcap;
	for (const char *p = s; p < e; p += 8) {
		uint64_t m = 0;
		if (end - p >= 8) {
			uint64_t x;
			memcpy(&x, p, 8);
			m = bytes_equal(x, delim) | bytes_equal(x, lf);
		} else {
			for (int k = 0; k < end - p; k++)
				if (p[k] == t->delim || p[k] == '\n')
					m |= 0x80ull << 8 * k;
		}
		for (; m; m &= m - 1) {
			const char *q = p + __builtin_ctzll(m) / 8;
			if (q >= e)
				break;
			bool row_end = *q == '\n';
			if (!row_end || in_row || q > f) {
				size_t len = (size_t)(q - f);
				if (__builtin_expect(len < 32 && end - f >= 32 && dlen + 33 <= dcap && nf < fcap, 1)) {
					memcpy(data + dlen, f, 32);
					data[dlen + len] = '\0';
					fl[nf++] = (field_t){dlen, len};
					dlen += len + 1;
				} else {
					t->dlen = dlen;
					t->nfield = nf;
					on_field_slow(t, f, len);
					data = t->data;
					fl = t->f;
					dlen = t->dlen, nf = t->nfield, dcap = t->dcap, fcap = t->fcap;
				}
			}
			in_row = !row_end;
			f = q + 1;
			if (row_end) {
				t->dlen = dlen;
				t->nfield = nf;
				on_row('\n', t);
			}
		}
	}
	t->dlen = dlen;
	t->nfield = nf;
}

static void parse(table *t, const char *s, size_t len)
{
	/* libcsv grows a field's buffer by a fixed block, 128 bytes unless
	 * set, which makes a long field cost quadratic time in copies: a
	 * block as long as this piece (or as the buffer already is) lets the
	 * buffer grow at most once a piece, and geometrically. */
	size_t have = csv_get_buffer_size(&t->csv);
	csv_set_blk_size(&t->csv, len > have ? (len > 128 ? len : 128) : have);
	if (csv_parse(&t->csv, s, len, on_field, on_row, t) != len)
		die_at(input_name(t->in), t->row_start,
		       "malformed quoting: a quote inside an unquoted field or text after a closing quote");
}

static void feed(table *t, const char *s, size_t n)
{
	const char *nul = memchr(s, '\0', n);
	size_t len = nul ? (size_t)(nul - s) : n;
	/* libcsv trims blanks around unquoted fields unless told that nothing
	 * is a blank, which costs a callback per character; a piece without
	 * blanks parses the same either way, so the callback is set only for
	 * pieces that have them (a tab delimiter is never trimmed). */
	bool blanks = memchr(s, ' ', len) || (t->delim != '\t' && memchr(s, '\t', len));
	csv_set_space_func(&t->csv, blanks ? no_space : NULL);
	bool quotes = memchr(s, '"', len) != NULL;
	t->quotes_near = quotes || t->quotes_before;
	t->quotes_before = quotes;
	/* Without quotes and CRs, what lies between the piece's first LF and
	 * its last is whole rows: libcsv finishes the row it holds, those
	 * rows are split here, libcsv takes the rest. */
	const char *lf = quotes || !t->delim || memchr(s, '\r', len) ? NULL : memchr(s, '\n', len);
	if (lf) {
		const char *last = memrchr(s, '\n', len);
		parse(t, s, (size_t)(lf + 1 - s));
		if (t->csv.pstate == 0 && t->csv.entry_pos == 0 && t->nfield == t->pending_first) {
			split_plain(t, lf + 1, last + 1, s + len);
			parse(t, last + 1, (size_t)(s + len - last - 1));
		} else {
			parse(t, lf + 1, (size_t)(s + len - lf - 1));
		}
	} else {
		parse(t, s, len);
	}
	if (nul)
		die_at(input_name(t->in), t->row_start, "NUL byte in a field");
	check_size(t);
}

/* Next piece of input for libcsv: a whole block, or with an encoding to
 * convert a line (iconv must not see a character split between blocks). */
static const char *next_piece(table *t, size_t *n)
{
	if (!t->conv) {
		input_set_line(t->in, t->lines + 1); /* for errors in gzip data */
		return input_block(t->in, PIECE, n);
	}
	const char *line = input_getline(t->in, n);
	if (line && !input_conv_run(t->conv, line, *n, &line, n))
		die_at(input_name(t->in), input_lineno(t->in), "invalid text in the input encoding");
	return line;
}

/* Feeds input until at least one row is queued. */
static bool fill_rows(table *t)
{
	/* Drop the rows already read, keeping the fields of the row still
	 * being assembled. */
	size_t keep = t->nfield - t->pending_first;
	size_t base = keep ? t->f[t->pending_first].off : t->dlen;
	if (t->dlen > base)
		memmove(t->data, t->data + base, t->dlen - base);
	for (size_t i = 0; i < keep; i++) {
		t->f[i] = t->f[t->pending_first + i];
		t->f[i].off -= base;
	}
	t->dlen -= base;
	t->nfield = keep;
	t->pending_first = 0;
	t->nrows = t->rnext = 0;
	while (t->nrows == 0 && !t->at_eof) {
		size_t n;
		const char *s = next_piece(t, &n);
		if (!s) {
			t->at_eof = true;
			/* libcsv's state 0 is "no row begun": nothing half read. */
			t->clean_end = t->csv.pstate == 0 && t->csv.entry_pos == 0 &&
				       t->nfield == t->pending_first;
			if (csv_fini(&t->csv, on_field, on_row, t) != 0)
				die_at(input_name(t->in), t->row_start, "unterminated quoted field");
			break;
		}
		feed(t, s, n);
	}
	return t->nrows > 0;
}

static bool is_blank(const char *line, size_t n)
{
	return n == 0 || line[0] == '\n' || (line[0] == '\r' && (n == 1 || line[1] == '\n'));
}

static char detect_delim(const char *s, size_t n)
{
	size_t commas = 0, tabs = 0;
	bool quoted = false;
	for (size_t i = 0; i < n; i++) {
		if (s[i] == '"')
			quoted = !quoted;
		else if (!quoted && s[i] == ',')
			commas++;
		else if (!quoted && s[i] == '\t')
			tabs++;
	}
	return tabs > commas ? '\t' : ',';
}

/* Columns are found by name, so a name may not repeat (empty names, which
 * no one can ask for, may). */
static void need_unique_names(const table *t)
{
	strmap *seen = strmap_new();
	for (size_t i = 0; i < t->ncols; i++) {
		size_t n = strlen(t->cols[i]);
		bool added;
		uint32_t id = strmap_intern(seen, t->cols[i], n, &added);
		if (n && !added) {
			for (size_t j = 0; j < i; j++)
				if (strcmp(t->cols[j], t->cols[i]) == 0) {
					id = (uint32_t)j;
					break;
				}
			strmap_free(seen); /* die() leaves nothing a leak check would report */
			die_at(table_name(t), t->header_line, "column '%s' appears twice (columns %u and %zu)",
			       t->cols[i], id + 1, i + 1);
		}
	}
	strmap_free(seen);
}

table *table_open(const char *path, const table_opts *opts)
{
	table *t = xcalloc(1, sizeof *t);
	t->in = input_open(path);
	t->row_start = 1;
	t->max_bytes = input_max_line();
	t->max_fields = t->max_bytes / 16 > 16 ? t->max_bytes / 16 : 16;
	if (opts) {
		t->no_header = opts->no_header;
		t->delim = opts->delim;
		if (opts->encoding)
			t->conv = input_conv_open(opts->encoding);
	}
	if (csv_init(&t->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL | CSV_REPALL_NL) != 0)
		die("out of memory");
	if (!t->delim) {
		/* The delimiter is decided by the first non-blank line, which is
		 * then fed like any other input. */
		size_t n;
		const char *line;
		bool blank = true;
		while (blank && (line = input_getline(t->in, &n))) {
			if (t->conv && !input_conv_run(t->conv, line, n, &line, &n))
				die_at(path, input_lineno(t->in), "invalid text in the input encoding");
			blank = is_blank(line, n);
			if (!blank) {
				t->delim = detect_delim(line, n);
				csv_set_delim(&t->csv, (unsigned char)t->delim);
			}
			feed(t, line, n);
		}
		if (blank)
			die_at(path, input_lineno(t->in) + 1, "empty input, expected a header line");
	} else {
		csv_set_delim(&t->csv, (unsigned char)t->delim);
	}
	if (t->no_header) {
		t->header_done = true;
		return t;
	}
	if (t->nrows == 0 && !fill_rows(t))
		die_at(path, t->lines + 1, "empty input, expected a header line");
	t->ncols = t->rfirst[1] - t->rfirst[0];
	t->header_line = t->rline[0];
	t->cols = xmalloc(t->ncols * sizeof *t->cols);
	for (size_t i = 0; i < t->ncols; i++)
		t->cols[i] = xstrdup(t->data + t->f[t->rfirst[0] + i].off);
	need_unique_names(t);
	t->header_done = true;
	/* Rows completed in the same piece as the header were not checked
	 * against its width yet. */
	for (size_t r = 1; r < t->nrows; r++)
		if (t->rfirst[r + 1] - t->rfirst[r] != t->ncols)
			die_at(path, t->rline[r], "expected %zu fields, found %zu", t->ncols,
			       t->rfirst[r + 1] - t->rfirst[r]);
	t->rnext = 1;
	return t;
}

int64_t table_data_offset(const table *t)
{
	/* Only the header row read, nothing of the next one. */
	if (t->conv || t->no_header || t->nrows != 1 || t->rnext != 1 || t->at_eof ||
	    t->nfield != t->pending_first || t->csv.pstate != 0 || t->csv.entry_pos != 0)
		return -1;
	return input_offset(t->in);
}

bool table_restrict(table *t, int64_t start, int64_t end)
{
	if (table_data_offset(t) < 0 || !input_restrict(t->in, start, end))
		return false;
	t->dlen = t->nfield = t->pending_first = 0;
	t->nrows = t->rnext = 0;
	t->after_cr = t->quotes_near = t->quotes_before = false;
	t->lines = 0;
	t->row_start = 1;
	return true;
}

bool table_range_clean(const table *t)
{
	return t->at_eof && t->clean_end;
}

const char *table_name(const table *t)
{
	return input_name(t->in);
}

char table_delim(const table *t)
{
	return t->delim;
}

size_t table_ncols(const table *t)
{
	return t->ncols;
}

const char *table_colname(const table *t, size_t i)
{
	return t->cols[i];
}

int table_col(const table *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	return -1;
}

int table_need_col(const table *t, const char *name)
{
	int c = table_col(t, name);
	if (c < 0)
		die_at(table_name(t), t->header_line, "missing column '%s'", name);
	return c;
}

bool table_read_row(table *t)
{
	if (t->rnext >= t->nrows && !fill_rows(t))
		return false;
	size_t r = t->rnext++;
	t->cur_first = t->rfirst[r];
	t->cur_n = t->rfirst[r + 1] - t->rfirst[r];
	t->cur_line = t->rline[r];
	return true;
}

size_t table_nfields(const table *t)
{
	return t->cur_n;
}

const char *table_field(const table *t, size_t i)
{
	return t->data + t->f[t->cur_first + i].off;
}

size_t table_field_len(const table *t, size_t i)
{
	return t->f[t->cur_first + i].len;
}

long table_line(const table *t)
{
	return t->cur_line;
}

long table_header_line(const table *t)
{
	return t->header_line;
}

long table_end_line(const table *t)
{
	return t->lines + 1;
}

void table_need_utf8(const table *t, size_t i)
{
	if (!utf8_valid(table_field(t, i), table_field_len(t, i)))
		die_at(table_name(t), t->cur_line, "column '%s': invalid UTF-8",
		       i < t->ncols ? t->cols[i] : "?");
}

void table_close(table *t)
{
	if (!t)
		return;
	csv_free(&t->csv);
	input_close(t->in);
	input_conv_close(t->conv);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	free(t->data);
	free(t->f);
	free(t->rfirst);
	free(t->rline);
	free(t);
}
