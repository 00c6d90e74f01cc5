/* lexicon: turning word lists into the dictionary table word,head,tail,len
 * (DESIGN.md). Sources: plain lists, a column of a CSV/TSV table, the
 * okuri-nasi readings of an SKK dictionary, the readings of MeCab IPADIC
 * entries. Words are kept in input order; the first of duplicates wins. */
#ifndef YOMI_LEXICON_H
#define YOMI_LEXICON_H

#include <stdbool.h>

#include "kana.h"
#include "output.h"

typedef enum { LEX_AUTO, LEX_LIST, LEX_CSV, LEX_SKK, LEX_IPADIC } lex_format;

typedef struct {
	bool upcase, drop_digit_tail, kana, skip_invalid;
	long min_len, max_len; /* max_len 0: no limit */
	kana_opts kana_rules;
	const char *column;   /* csv: the word column (default "word") */
	const char *encoding; /* NULL: EUC-JP for skk and ipadic, else UTF-8 */
	const char *pos;      /* ipadic: part-of-speech prefix, e.g. "名詞,一般" */
} lex_opts;

/* What -v reports. */
typedef struct {
	long lines, words, invalid, not_kana, digit_tail, too_short, too_long, duplicates,
		written;
} lex_stats;

typedef struct lexicon lexicon_t;

lexicon_t *lex_new(const lex_opts *opts);
/* Reads one source; FORMAT LEX_AUTO picks csv for names ending in .csv or
 * .tsv (optionally .gz), list otherwise. */
void lex_load(lexicon_t *lx, const char *path, lex_format format);
/* Writes the dictionary table (header and rows) to OUT. */
void lex_write(const lexicon_t *lx, out_t *out);
const lex_stats *lex_stats_of(const lexicon_t *lx);
size_t lex_count(const lexicon_t *lx);
void lex_free(lexicon_t *lx);

#endif
