/* lexicon: turning word lists into the dictionary table word,head,tail,len
 * (DESIGN.md). Sources: plain lists, a column of a CSV/TSV table, the
 * okuri-nasi readings of an SKK dictionary, the readings of MeCab IPADIC
 * entries. Words are kept in input order; the first of duplicates wins.
 *
 * To add a source format: a static load_NAME(lexicon *, path, encoding)
 * in lexicon.c that passes each candidate word to add_word (through
 * check_text), its row in lexicon_sources[], its line in wordload's usage
 * and manual page, and a test in tests/wordload.bats. */
#ifndef YOMI_LEXICON_H
#define YOMI_LEXICON_H

#include <stdbool.h>

#include "core/output.h"
#include "words/kana.h"
#include "words/wordkey.h"

typedef struct {
	bool upcase, drop_digit_tail, skip_invalid;
	long min_len, max_len; /* max_len 0: no limit */
	wordkey_rules keys;   /* keys.kana: Japanese words */
	enum kana_points points; /* Japanese words' len */
	const char *column;   /* csv: the word column (default "word") */
	const char *encoding; /* NULL: EUC-JP for skk and ipadic, else UTF-8 */
	const char *pos;      /* ipadic: part-of-speech prefix, e.g. "名詞,一般" */
} lexicon_opts;

/* What -v reports. */
typedef struct {
	long lines, words, invalid, not_kana, no_letter, digit_tail, too_short, too_long,
		duplicates, written;
} lexicon_stats;

typedef struct lexicon lexicon;

/* A source format: its --format name, the encoding its files have unless
 * --encoding says otherwise (NULL: the table reader's rule), whether its
 * words are Japanese readings (which implies --kana), and its reader. */
typedef struct {
	const char *name;
	const char *encoding;
	bool kana;
	void (*load)(lexicon *lx, const char *path, const char *encoding);
} lexicon_source;

/* The formats, ending with a row whose name is NULL. */
extern const lexicon_source lexicon_sources[];
/* The format named NAME, or NULL. */
const lexicon_source *lexicon_source_find(const char *name);

lexicon *lexicon_new(const lexicon_opts *opts);
/* Reads one source in format SRC; NULL picks csv for names ending in .csv
 * or .tsv (optionally .gz), list otherwise. */
void lexicon_load(lexicon *lx, const char *path, const lexicon_source *src);
/* Writes the dictionary table (header and rows) to OUT. */
void lexicon_write(const lexicon *lx, output *out);
const lexicon_stats *lexicon_stats_of(const lexicon *lx);
size_t lexicon_count(const lexicon *lx);
/* The file loaded last and the line where it ended, for messages about
 * the whole result ("FILE:LINE: no words left"); NULL before any load. */
const char *lexicon_last_file(const lexicon *lx, long *line);
void lexicon_free(lexicon *lx);

#endif
