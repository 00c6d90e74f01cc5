#include "table.h"

#include <csv.h>
#include <string.h>

#include "input.h"
#include "utf8.h"
#include "util.h"

struct table {
	in_file *in;
	in_conv *conv;
	struct csv_parser csv;
	bool header_done, no_header, at_eof;
	char delim;
	/* Header names. */
	char **cols;
	size_t ncols;
	/* Completed rows waiting to be read, and the one being assembled:
	 * field bytes back to back in data, each NUL-terminated. */
	char *data;
	size_t dlen, dcap;
	size_t *foff, *flen;
	size_t nfield, fcap;
	size_t *rfirst; /* first field of queued row r; rfirst[nrows] ends it */
	long *rline;
	size_t nrows, rcap, rnext;
	size_t pending_first; /* first field of the row being assembled */
	/* Line bookkeeping: the line a new row would start on. */
	long row_start, feeding, header_line;
	/* The current row. */
	size_t cur_first, cur_n;
	long cur_line;
};

static int no_space(unsigned char c)
{
	(void)c;
	return 0; /* RFC 4180: spaces are part of a field */
}

static void on_field(void *s, size_t len, void *data)
{
	table_t *t = data;
	if (len && memchr(s, '\0', len))
		die_at(in_name(t->in), t->feeding, "NUL byte in a field");
	util_grow((void **)&t->data, &t->dcap, t->dlen + len + 1, 1);
	memcpy(t->data + t->dlen, s, len);
	t->data[t->dlen + len] = '\0';
	util_grow((void **)&t->foff, &t->fcap, t->nfield + 1, sizeof *t->foff);
	t->flen = xrealloc(t->flen, t->fcap * sizeof *t->flen);
	t->foff[t->nfield] = t->dlen;
	t->flen[t->nfield] = len;
	t->nfield++;
	t->dlen += len + 1;
}

static void on_row(int term, void *data)
{
	(void)term;
	table_t *t = data;
	size_t n = t->nfield - t->pending_first;
	if (t->header_done && !t->no_header && n != t->ncols)
		die_at(in_name(t->in), t->row_start, "expected %zu fields, found %zu", t->ncols, n);
	util_grow((void **)&t->rfirst, &t->rcap, t->nrows + 2, sizeof *t->rfirst);
	t->rline = xrealloc(t->rline, t->rcap * sizeof *t->rline);
	t->rfirst[t->nrows] = t->pending_first;
	t->rline[t->nrows] = t->row_start;
	t->nrows++;
	t->rfirst[t->nrows] = t->nfield;
	t->pending_first = t->nfield;
	t->row_start = t->feeding + 1;
}

static bool is_blank(const char *line, size_t n)
{
	return n == 0 || line[0] == '\n' || (n == 2 && line[0] == '\r' && line[1] == '\n');
}

static void parse_error(table_t *t)
{
	die_at(in_name(t->in), t->feeding,
	       "malformed quoting: a quote inside an unquoted field or text after a closing quote");
}

/* Feeds input lines to libcsv until at least one row is queued. */
static bool fill_rows(table_t *t)
{
	/* Drop the rows already read, keeping the fields of a row still being
	 * assembled (a line can end one row and begin the next through a bare
	 * CR). */
	size_t keep = t->nfield - t->pending_first;
	size_t base = keep ? t->foff[t->pending_first] : t->dlen;
	if (t->dlen > base)
		memmove(t->data, t->data + base, t->dlen - base);
	for (size_t i = 0; i < keep; i++) {
		t->foff[i] = t->foff[t->pending_first + i] - base;
		t->flen[i] = t->flen[t->pending_first + i];
	}
	t->dlen -= base;
	t->nfield = keep;
	t->pending_first = 0;
	t->nrows = t->rnext = 0;
	while (t->nrows == 0 && !t->at_eof) {
		size_t n;
		const char *line = in_getline(t->in, &n);
		if (!line) {
			t->at_eof = true;
			if (csv_fini(&t->csv, on_field, on_row, t) != 0)
				die_at(in_name(t->in), t->row_start, "unterminated quoted field");
			break;
		}
		t->feeding = in_lineno(t->in);
		if (t->conv && !in_conv_run(t->conv, line, n, &line, &n))
			die_at(in_name(t->in), t->feeding, "invalid text in the input encoding");
		/* libcsv skips blank lines; count them so the next row's start
		 * line stays right. */
		if (t->row_start == t->feeding && is_blank(line, n)) {
			t->row_start++;
			continue;
		}
		if (csv_parse(&t->csv, line, n, on_field, on_row, t) != n)
			parse_error(t);
	}
	return t->nrows > 0;
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

table_t *table_open(const char *path, const table_opts *opts)
{
	table_t *t = xcalloc(1, sizeof *t);
	t->in = in_open(path);
	t->row_start = 1;
	if (opts) {
		t->no_header = opts->no_header;
		t->delim = opts->delim;
		if (opts->encoding)
			t->conv = in_conv_open(opts->encoding);
	}
	if (csv_init(&t->csv, CSV_STRICT | CSV_STRICT_FINI | CSV_APPEND_NULL) != 0)
		die("out of memory");
	csv_set_space_func(&t->csv, no_space);
	if (!t->delim) {
		/* Peek at the first line without consuming it: parse it here
		 * and feed the same bytes below. */
		size_t n;
		const char *line;
		while ((line = in_getline(t->in, &n)) && is_blank(line, n))
			t->row_start++;
		if (!line)
			die("%s: empty input, expected a header line", path);
		t->feeding = in_lineno(t->in);
		if (t->conv && !in_conv_run(t->conv, line, n, &line, &n))
			die_at(path, 1, "invalid text in the input encoding");
		t->delim = detect_delim(line, n);
		csv_set_delim(&t->csv, (unsigned char)t->delim);
		if (csv_parse(&t->csv, line, n, on_field, on_row, t) != n)
			parse_error(t);
	} else {
		csv_set_delim(&t->csv, (unsigned char)t->delim);
	}
	if (t->no_header) {
		t->header_done = true;
		return t;
	}
	if (t->nrows == 0 && !fill_rows(t))
		die("%s: empty input, expected a header line", path);
	size_t first = t->rfirst[0], end = t->rfirst[1];
	t->header_line = t->rline[0];
	t->ncols = end - first;
	t->cols = xmalloc(t->ncols * sizeof *t->cols);
	for (size_t i = 0; i < t->ncols; i++)
		t->cols[i] = xstrdup(t->data + t->foff[first + i]);
	t->header_done = true;
	/* Rows completed together with the header (several on one line
	 * through bare CRs) were not checked against its width yet. */
	for (size_t r = 1; r < t->nrows; r++)
		if (t->rfirst[r + 1] - t->rfirst[r] != t->ncols)
			die_at(path, t->rline[r], "expected %zu fields, found %zu", t->ncols,
			       t->rfirst[r + 1] - t->rfirst[r]);
	t->rnext = 1;
	return t;
}

const char *table_name(const table_t *t)
{
	return in_name(t->in);
}

char table_delim(const table_t *t)
{
	return t->delim;
}

size_t table_ncols(const table_t *t)
{
	return t->ncols;
}

const char *table_colname(const table_t *t, size_t i)
{
	return t->cols[i];
}

int table_col(const table_t *t, const char *name)
{
	for (size_t i = 0; i < t->ncols; i++)
		if (strcmp(t->cols[i], name) == 0)
			return (int)i;
	return -1;
}

int table_need_col(const table_t *t, const char *name)
{
	int c = table_col(t, name);
	if (c < 0)
		die_at(table_name(t), t->header_line, "missing column '%s'", name);
	return c;
}

bool table_read_row(table_t *t)
{
	if (t->rnext >= t->nrows && !fill_rows(t))
		return false;
	size_t r = t->rnext++;
	t->cur_first = t->rfirst[r];
	t->cur_n = t->rfirst[r + 1] - t->rfirst[r];
	t->cur_line = t->rline[r];
	return true;
}

size_t table_nfields(const table_t *t)
{
	return t->cur_n;
}

const char *table_field(const table_t *t, size_t i)
{
	return t->data + t->foff[t->cur_first + i];
}

size_t table_field_len(const table_t *t, size_t i)
{
	return t->flen[t->cur_first + i];
}

long table_line(const table_t *t)
{
	return t->cur_line;
}

void table_need_utf8(const table_t *t, size_t i)
{
	if (!utf8_valid(table_field(t, i), table_field_len(t, i)))
		die_at(table_name(t), t->cur_line, "column '%s': invalid UTF-8",
		       i < t->ncols ? t->cols[i] : "?");
}

void table_close(table_t *t)
{
	if (!t)
		return;
	csv_free(&t->csv);
	in_close(t->in);
	in_conv_close(t->conv);
	for (size_t i = 0; i < t->ncols; i++)
		free(t->cols[i]);
	free(t->cols);
	free(t->data);
	free(t->foff);
	free(t->flen);
	free(t->rfirst);
	free(t->rline);
	free(t);
}
