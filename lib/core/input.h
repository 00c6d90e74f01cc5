/* input: reading files or stdin line by line through zlib, so plain and
 * gzip-compressed input both work (gzip is recognised by its magic bytes,
 * not the file name), with an optional conversion to UTF-8 by iconv.
 *
 * Lines are handed out in place, without copying, and stay valid until the
 * next call. A UTF-8 byte order mark at the start of the input is removed. */
#ifndef YOMI_INPUT_H
#define YOMI_INPUT_H

#include <stdbool.h>
#include <stddef.h>

typedef struct input_file input_file;

/* Opens PATH ("-" is stdin) or dies with "cannot open". */
input_file *input_open(const char *path);
/* The name used in messages: the path, or "-" for stdin. */
const char *input_name(const input_file *f);
/* Next line including its "\n" (absent only on a last line without one);
 * NULL at end of input. Dies on read errors and corrupt gzip data. */
const char *input_getline(input_file *f, size_t *len);
/* Up to MAX bytes of the buffered input, reading more when none is left; NULL at the
 * end. Mixes with in_getline (lines first, then blocks), but in_lineno
 * does not count the lines inside blocks. */
const char *input_block(input_file *f, size_t max, size_t *len);
/* Whether the line last returned holds a NUL byte (text never does). */
bool input_line_has_nul(const input_file *f);
/* Number of the line last returned, from 1. */
long input_lineno(const input_file *f);
void input_close(input_file *f);

/* Conversion of text in a given encoding to UTF-8. Only encodings in
 * which "\n" is the single byte 0x0A can be converted line by line; others
 * (UTF-16, UTF-32) are refused by in_conv_open. */
typedef struct input_conv input_conv;
/* NULL when ENCODING is UTF-8 (no conversion needed); dies with exit 2 on
 * unknown or unsupported encodings. */
input_conv *input_conv_open(const char *encoding);
/* Converts s[0..n); on success *out and *outlen hold UTF-8 valid until the
 * next call. Returns false if s is not valid in the source encoding. */
bool input_conv_run(input_conv *c, const char *s, size_t n, const char **out, size_t *outlen);
void input_conv_close(input_conv *c);

#endif
