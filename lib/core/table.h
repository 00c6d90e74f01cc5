/* table: reading CSV and TSV tables with a header row.
 *
 * Parsing is libcsv in strict mode, fed one input line at a time so that
 * every row and every error carries the line number where it starts. The
 * delimiter is a comma or a tab, whichever the header line has more of
 * outside quotes; TSV follows the same quoting rules as CSV (what R's
 * read.delim accepts). Fields are NUL-terminated; LF, CRLF and lone CR
 * line ends are accepted; a field containing a NUL byte is an error, as
 * is a header naming a column twice. A field, a row and a line may be at
 * most input_max_line() bytes (lib/core/input.h), a row at most a
 * sixteenth of that many fields. */
#ifndef YOMI_TABLE_H
#define YOMI_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct table table;

typedef struct {
	const char *encoding; /* NULL or "UTF-8": no conversion */
	bool no_header;       /* rows only, of any width (e.g. MeCab CSV) */
	char delim;           /* 0: detect from the header line */
} table_opts;

/* Opens PATH ("-" for stdin) and reads the header. Dies on an empty input
 * or a malformed header (FILE:LINE: message). OPTS may be NULL. */
table *table_open(const char *path, const table_opts *opts);
const char *table_name(const table *t);
char table_delim(const table *t);
size_t table_ncols(const table *t);
const char *table_colname(const table *t, size_t i);
/* Index of the column NAME, or -1. */
int table_col(const table *t, const char *name);
/* Index of the column NAME, or die naming the file and the missing column. */
int table_need_col(const table *t, const char *name);

/* Advances to the next row; false at the end of the table. */
bool table_read_row(table *t);
size_t table_nfields(const table *t);
const char *table_field(const table *t, size_t i);
size_t table_field_len(const table *t, size_t i);
/* Line where the current row starts. */
long table_line(const table *t);
/* Line of the header row. */
long table_header_line(const table *t);
/* Line where the input ended (once table_read_row has returned false):
 * what "no rows" errors name. */
long table_end_line(const table *t);
/* Dies with "FILE:LINE: column NAME: invalid UTF-8" unless field I of the
 * current row is valid UTF-8. */
void table_need_utf8(const table *t, size_t i);
void table_close(table *t);

/* Reading a plain file in byte ranges, each by a table of its own
 * (summarize -j). The offset where the rows begin: the header read and
 * nothing after it, or -1 (gzip, stdin, an encoding to convert, a header
 * that ran on). */
int64_t table_data_offset(const table *t);
/* Reads the rows in bytes [START, END) from now on, as if they followed
 * the header (line numbers then count from the range's start); false if
 * table_data_offset is -1. */
bool table_restrict(table *t, int64_t start, int64_t end);
/* Once table_read_row has returned false: whether the input ended
 * between rows, nothing half read (no quoted field or row left open). A
 * range cut where one record does not end gives false. */
bool table_range_clean(const table *t);

#endif
