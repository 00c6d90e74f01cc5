/* dict: the dictionary table word,head,tail,len in memory, indexed for
 * shiritori: keys interned to dense ids, words grouped into classes of the
 * same (head, tail) with each class sorted longest first and cut into
 * groups of equal length, and classes listed by head key.
 *
 * Key id nkeys stands for a key no word has (the tail of a start word from
 * outside the dictionary): it heads no class, so every per-key array has
 * nkeys + 1 entries. */
#ifndef YOMI_DICT_H
#define YOMI_DICT_H

#include <stddef.h>
#include <stdint.h>

#include "core/strmap.h"

typedef struct {
	uint32_t nwords, nkeys, nclasses;
	strmap *words; /* word text -> id, in table order */
	strmap *keys;  /* key text -> id */
	uint32_t *len, *head, *tail, *cls;
	/* Class c: its head and tail key; its words, longest first (ties in
	 * table order), are cwords[cstart[c] .. cstart[c + 1]). */
	uint32_t *chead, *ctail, *cstart, *cwords;
	/* Classes whose head is key k: hclasses[hstart[k] .. hstart[k + 1]),
	 * in ascending class id (k <= nkeys). */
	uint32_t *hstart, *hclasses;
	/* Word w sits at cwords[pos[w]], in group grp[w]. Group g holds
	 * the words of one class and one length: cwords[gstart[g] ..
	 * gstart[g + 1]); class c's groups, longest first, are cgroup[c] ..
	 * cgroup[c + 1] - 1. */
	uint32_t ngroups;
	uint32_t *pos, *grp, *gstart, *cgroup;
} dict;

/* The largest len the loader accepts. */
#define DICT_MAX_LEN 1000000

/* Reads the dictionary table from PATH; dies naming file and line on a
 * missing column, an empty or non-UTF-8 word, a bad len, a duplicate word
 * or an empty table. */
dict *dict_load(const char *path);
const char *dict_word(const dict *d, uint32_t w);
/* Word id of s, or -1. */
int64_t dict_find(const dict *d, const char *s);
/* Key id of s, or -1 (a key no word has). */
int64_t dict_key(const dict *d, const char *s);
void dict_free(dict *d);

#endif
