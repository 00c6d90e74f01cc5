/* lexicon: turning word lists into the dictionary table word,head,tail,len
 * (DESIGN.md). Sources: plain lists, a column of a CSV/TSV table, the
 * okuri-nasi readings of an SKK dictionary, the readings of MeCab IPADIC
 * entries. Words are kept in input order; the first of duplicates wins. */
#ifndef YOMI_LEXICON_H
#define YOMI_LEXICON_H

#include <stdbool.h>

#include "core/output.h"
#include "words/kana.h"

typedef enum { LEXICON_AUTO, LEXICON_LIST, LEXICON_CSV, LEXICON_SKK, LEXICON_IPADIC } lexicon_format;

typedef struct {
	bool upcase, drop_digit_tail, kana, skip_invalid;
	long min_len, max_len; /* max_len 0: no limit */
	kana_opts kana_rules;
	const char *column;   /* csv: the word column (default "word") */
	const char *encoding; /* NULL: EUC-JP for skk and ipadic, else UTF-8 */
	const char *pos;      /* ipadic: part-of-speech prefix, e.g. "名詞,一般" */
} lexicon_opts;

/* What -v reports. */
typedef struct {
	long lines, words, invalid, not_kana, digit_tail, too_short, too_long, duplicates,
		written;
} lexicon_stats;

typedef struct lexicon lexicon;

lexicon *lexicon_new(const lexicon_opts *opts);
/* Reads one source; FORMAT LEXICON_AUTO picks csv for names ending in .csv or
 * .tsv (optionally .gz), list otherwise. */
void lexicon_load(lexicon *lx, const char *path, lexicon_format format);
/* Writes the dictionary table (header and rows) to OUT. */
void lexicon_write(const lexicon *lx, output *out);
const lexicon_stats *lexicon_stats_of(const lexicon *lx);
size_t lexicon_count(const lexicon *lx);
void lexicon_free(lexicon *lx);

#endif
