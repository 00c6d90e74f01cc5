/* input: reading files or stdin line by line, plain or gzip-compressed
 * (gzip is recognised by its magic bytes, not the file name), with an
 * optional conversion to UTF-8 by iconv.
 *
 * Lines end in LF, CRLF or a lone CR (old Mac text), so a CR-only file is
 * lines, not one. They are handed out in place, without copying, and stay
 * valid until the next call. A UTF-8 byte order mark at the start of the
 * input is removed; a second one right after it is an error.
 *
 * gzip input is decompressed here with zlib's inflate: concatenated
 * members are read one after another (as gzip -d does), zero padding after
 * the last is ignored, and anything else after it is an error, as are
 * corrupt and truncated streams. Every error names the file and the line
 * the good data reached: "FILE:LINE: message".
 *
 * A line (and, in lib/core/table, a field or a row) may be at most
 * input_max_line() bytes: a small input must not buy unbounded memory. */
#ifndef YOMI_INPUT_H
#define YOMI_INPUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* The default cap on a line, a field or a row, in bytes. */
#define INPUT_MAX_LINE_DEFAULT ((size_t)16 << 20)

/* The cap in force: set by input_set_max_line (--max-line), else by the
 * environment variable YOMI_MAX_LINE (a size such as 512M), else the
 * default. Dies with exit 2 if YOMI_MAX_LINE is not a size. */
size_t input_max_line(void);
void input_set_max_line(size_t n);
/* Parses a size: digits with an optional K, M, G or T (powers of 1024),
 * from 1 up to 2^50 bytes. False if S is not one. */
bool input_parse_size(const char *s, size_t *out);

typedef struct input_file input_file;

/* Opens PATH ("-" is stdin) or dies with "cannot open". */
input_file *input_open(const char *path);
/* The name used in messages: the path, or "-" for stdin. */
const char *input_name(const input_file *f);
/* Next line including its line end (absent only on a last line without
 * one); NULL at end of input. Dies on read errors, bad gzip data and
 * lines longer than the cap. */
const char *input_getline(input_file *f, size_t *len);
/* Up to MAX bytes of the buffered input, reading more when none is left;
 * NULL at the end. Mixes with input_getline (lines first, then blocks),
 * but input_lineno does not count the lines inside blocks: a block reader
 * keeps the count and tells it with input_set_line, for the messages of
 * errors found while reading on. */
const char *input_block(input_file *f, size_t max, size_t *len);
void input_set_line(input_file *f, long line);
/* Whether the line last returned holds a NUL byte (text never does). */
bool input_line_has_nul(const input_file *f);
/* Number of the line last returned, from 1. */
long input_lineno(const input_file *f);
void input_close(input_file *f);

/* With ON, gzip files and pipes opened from now on are read (and
 * inflated) by a thread of their own once read in blocks, while the
 * caller parses: the same blocks and errors, sooner (summarize -j). */
void input_set_prefetch(bool on);

/* For readers of a plain file in byte ranges (summarize -j): the offset
 * in the file of the next byte not yet handed out, or -1 unless F is a
 * regular file, not gzip, still read line by line. */
int64_t input_offset(const input_file *f);
/* Makes F hand out the bytes [START, END) of the file, then end (no byte
 * order mark is looked for there); false, changing nothing, unless
 * input_offset(F) is known. */
bool input_restrict(input_file *f, int64_t start, int64_t end);

/* Conversion of text in a given encoding to UTF-8. Only encodings in
 * which "\n" is the single byte 0x0A can be converted line by line; others
 * (UTF-16, UTF-32) are refused by input_conv_open. */
typedef struct input_conv input_conv;
/* NULL when ENCODING is UTF-8 (no conversion needed); dies with exit 2 on
 * unknown or unsupported encodings. */
input_conv *input_conv_open(const char *encoding);
/* Converts s[0..n); on success *out and *outlen hold UTF-8 valid until the
 * next call. Returns false if s is not valid in the source encoding. */
bool input_conv_run(input_conv *c, const char *s, size_t n, const char **out, size_t *outlen);
void input_conv_close(input_conv *c);

#endif
