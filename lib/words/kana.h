/* kana: the Japanese shiritori rules for head and tail keys.
 *
 * A key is one hiragana code point. Katakana fold to hiragana; small kana
 * count as large (ゃ->や, っ->つ, ぁ->あ); ぢ->じ, づ->ず, を->お (they are
 * pronounced alike); optionally voiced and semi-voiced kana fold to plain
 * (が->か, ぱ->は). A trailing long-vowel mark ー is dropped (the key is the
 * kana before it), replaced by that kana's vowel, or kept as the key. */
#ifndef YOMI_KANA_H
#define YOMI_KANA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum kana_long { KANA_LONG_DROP, KANA_LONG_VOWEL, KANA_LONG_KEEP };

/* How a word scores: code points (every kana and ー), kana (ー not
 * counted), or morae (a small ゃゅょぁぃぅぇぉゎ joins the kana before it;
 * ー and っ count one each): パーティー scores 5, 3 and 4. */
enum kana_points { KANA_POINTS_CHARS, KANA_POINTS_KANA, KANA_POINTS_MORA };

typedef struct {
	enum kana_long long_vowel;
	bool fold_dakuten;
} kana_opts;

#define KANA_CHOONPU 0x30FCu /* ー */

/* Hiragana, katakana (ァ..ヺ) or ー. */
bool kana_is_kana(uint32_t cp);
/* The key letter for a kana other than ー, by the rules above. */
uint32_t kana_fold(uint32_t cp, bool fold_dakuten);
/* The vowel (あいうえお) of a folded kana; ん is its own. */
uint32_t kana_vowel(uint32_t hira);
/* Head and tail keys of the UTF-8 word s[0..n). Returns false when the
 * word is not made of kana only, or has no kana besides ー. */
bool kana_keys(const char *s, size_t n, const kana_opts *o, uint32_t *head, uint32_t *tail);
/* Points of the valid UTF-8 word s[0..n) by rule P. */
long kana_points(const char *s, size_t n, enum kana_points p);

#endif
