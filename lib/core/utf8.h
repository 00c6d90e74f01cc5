/* utf8: strict decoding (no overlongs, surrogates or code points past
 * U+10FFFF), validation, code-point counting and encoding. */
#ifndef YOMI_UTF8_H
#define YOMI_UTF8_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Decodes one code point from s[0..n); returns its byte length (1-4) or
 * 0 if the bytes there are not valid UTF-8. */
int utf8_decode(const char *s, size_t n, uint32_t *cp);
/* Writes cp (assumed valid) to buf; returns the byte length. */
int utf8_encode(uint32_t cp, char *buf);
bool utf8_valid(const char *s, size_t n);
/* Number of code points in s[0..n), or -1 if invalid. */
long utf8_count(const char *s, size_t n);
/* Byte offset of the start of the last code point of valid s[0..n); n > 0. */
size_t utf8_last(const char *s, size_t n);

#endif
