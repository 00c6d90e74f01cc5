/* output: writing tables. CSV with minimal RFC 4180 quoting (a field is
 * quoted only when it holds the delimiter, a quote, CR or LF), or TSV
 * with the same rule; optionally gzip-compressed; to stdout or to a file
 * written atomically (a temporary beside it, renamed into place on
 * success, removed on any failure). Write errors are fatal (exit 1). */
#ifndef YOMI_OUTPUT_H
#define YOMI_OUTPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct out output;

typedef struct {
	bool tsv;  /* -t */
	bool gzip; /* -z; also implied by a PATH ending in ".gz" */
	bool bom;  /* a UTF-8 byte order mark first, for spreadsheets */
} output_opts;

/* PATH NULL or "-" is stdout. OPTS may be NULL. */
output *output_open(const char *path, const output_opts *opts);
void output_field(output *o, const char *s);
void output_field_n(output *o, const char *s, size_t n);
void output_int(output *o, int64_t v);
void output_uint(output *o, uint64_t v);
/* Shortest decimal that reads back as the same double (up to 17
 * significant digits), never in exponent form for |v| in [1e-4, 1e15). */
void output_double(output *o, double v);
/* From now on output_double writes DECIMALS decimals, rounded as printf
 * rounds (numbers of 1e15 or more as before); -1 (the default): the
 * shortest exact decimal. */
void output_set_decimals(output *o, int decimals);
/* An empty field. */
void output_na(output *o);
void output_end_row(output *o);
/* A header or any row of plain strings at once. */
void output_row(output *o, const char *const *fields, size_t n);
/* Text for people as it is (no fields, no quoting): --show's drawings,
 * written like a table (to FILE atomically, gzip if asked). */
void output_text(output *o, const char *s, size_t n);
/* Flushes, closes and (for a file) renames into place; dies on error. */
void output_close(output *o);

#endif
