/* wordkey: a word's head and tail keys by wordload's rules, and the
 * rules a dictionary was keyed by, found from its words (so that a start
 * word from outside the dictionary is keyed the same way).
 *
 * Without kana rules the head is the first character and the tail the
 * last, after these steps, in order: with letters_only, characters that
 * are not letters (letters.h) are passed over; with fold_accents,
 * combining marks are passed over and the character is folded to its
 * letters (café ends in e, Æsop starts with A, Fuß ends in s); with
 * fold_case it is folded to lower case; with upcase an ASCII letter is
 * upper-cased. */
#ifndef YOMI_WORDKEY_H
#define YOMI_WORDKEY_H

#include <stdbool.h>
#include <stddef.h>

#include "words/dict.h"
#include "words/kana.h"

typedef struct {
	bool kana;            /* Japanese keys (kana.h) */
	kana_opts kana_rules;
	bool upcase, fold_case, fold_accents, letters_only;
} wordkey_rules;

enum { WORDKEY_OK, WORDKEY_NOT_KANA, WORDKEY_NO_LETTER };

/* Bytes a key takes, its NUL included. */
#define WORDKEY_MAX 8

/* Head and tail keys of the valid UTF-8 word s[0..n) into HEAD and TAIL
 * (NUL-terminated); WORDKEY_NOT_KANA or WORDKEY_NO_LETTER when the word
 * has none by the rules. */
int wordkey_keys(const wordkey_rules *r, const char *s, size_t n, char *head, char *tail);

/* The rules that give every word of D its head and tail: kana rules if
 * any fit, then the Latin rules that fold most; false if none fit. */
bool wordkey_infer(const dict *d, wordkey_rules *r);

/* The rules as wordload options, e.g. "--fold-case --letters-only", or
 * "no folding". */
void wordkey_name(const wordkey_rules *r, char *buf, size_t n);

#endif
