/* letters: what counts as a letter, and the case and accent folding of
 * letters that keys use (wordload --letters-only, --fold-case,
 * --fold-accents). Tables cover the scripts word lists bring: Latin
 * (ASCII, Latin-1, Latin Extended-A, the common letters of Extended-B and
 * Extended Additional, Vietnamese included), Greek, Cyrillic, Armenian and
 * fullwidth Latin; other code points are left as they are. */
#ifndef YOMI_LETTERS_H
#define YOMI_LETTERS_H

#include <stdbool.h>
#include <stdint.h>

/* Everything but ASCII non-letters (digits, punctuation, blanks,
 * symbols), Latin-1 punctuation and symbols (ª, µ and º are letters),
 * × and ÷, modifier letters and combining marks (U+02B0-U+036F), general
 * punctuation and the symbol blocks after it (U+2000-U+2BFF), CJK
 * punctuation (U+3000-U+303F but 々), the katakana middle dot, fullwidth
 * punctuation and digits, variation selectors, small form variants and
 * emoji (U+1F000-U+1FAFF). */
bool letters_is_letter(uint32_t cp);
/* A combining diacritical mark (U+0300-U+036F). */
bool letters_is_mark(uint32_t cp);
/* The lower-case form of CP (simple case folding: final sigma folds to
 * sigma, ſ to s, ẞ to ß, İ to i); CP itself when it has none. */
uint32_t letters_fold_case(uint32_t cp);
/* Writes to OUT the letters CP decomposes to with its diacritics dropped
 * (é -> e, ň -> n, ạ -> a, ά -> α) and the ligatures and letters that
 * have no decomposition spelled out (ß -> ss, æ -> ae, œ -> oe, ĳ -> ij,
 * þ -> th, ø -> o, ł -> l, đ -> d, ð -> d, ı -> i); returns how many
 * (1 or 2). A code point without a folding is written as it is. */
int letters_fold_accents(uint32_t cp, uint32_t out[2]);

#endif
