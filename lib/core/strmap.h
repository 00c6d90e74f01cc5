/* strmap: interning of byte strings to dense ids 0, 1, 2, ... in insertion
 * order (open addressing, keys kept NUL-terminated in one arena). */
#ifndef YOMI_STRMAP_H
#define YOMI_STRMAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct strmap strmap;

strmap *strmap_new(void);
/* Id of s[0..n), or -1. */
int64_t strmap_find(const strmap *m, const char *s, size_t n);
/* Id of s[0..n), adding it if absent; *added tells which (may be NULL). */
uint32_t strmap_intern(strmap *m, const char *s, size_t n, bool *added);
size_t strmap_count(const strmap *m);
const char *strmap_key(const strmap *m, uint32_t id);
size_t strmap_key_len(const strmap *m, uint32_t id);
void strmap_free(strmap *m);

uint64_t strmap_hash(const char *s, size_t n);

#endif
