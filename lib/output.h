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

typedef struct out out_t;

typedef struct {
	bool tsv;  /* -t */
	bool gzip; /* -z; also implied by a PATH ending in ".gz" */
	bool bom;  /* a UTF-8 byte order mark first, for spreadsheets */
} out_opts;

/* PATH NULL or "-" is stdout. OPTS may be NULL. */
out_t *out_open(const char *path, const out_opts *opts);
void out_field(out_t *o, const char *s);
void out_field_n(out_t *o, const char *s, size_t n);
void out_int(out_t *o, int64_t v);
/* Shortest decimal that reads back as the same double (up to 17
 * significant digits), never in exponent form for |v| in [1e-4, 1e15). */
void out_double(out_t *o, double v);
/* An empty field. */
void out_na(out_t *o);
void out_end_row(out_t *o);
/* A header or any row of plain strings at once. */
void out_row(out_t *o, const char *const *fields, size_t n);
/* Flushes, closes and (for a file) renames into place; dies on error. */
void out_close(out_t *o);

#endif
