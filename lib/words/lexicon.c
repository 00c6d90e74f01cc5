#include "words/lexicon.h"

#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/strmap.h"
#include "core/table.h"
#include "core/utf8.h"
#include "core/util.h"

struct lexicon {
	lexicon_opts o;
	lexicon_stats st;
	strmap *words; /* ids in input order */
	/* Per word: keys as offsets into keys (NUL-terminated), and len. */
	uint32_t *head, *tail, *len;
	size_t cap;
	strmap *keys;
	char *scratch;
	size_t scap;
	char *last_file; /* loaded last, and the line where it ended */
	long last_line;
};

lexicon *lexicon_new(const lexicon_opts *opts)
{
	lexicon *lx = xcalloc(1, sizeof *lx);
	lx->o = *opts;
	if (!lx->o.column)
		lx->o.column = "word";
	lx->words = strmap_new();
	lx->keys = strmap_new();
	return lx;
}

static bool text_ok(const char *s, size_t n)
{
	return !memchr(s, '\0', n) && utf8_valid(s, n);
}

static bool is_space(char c)
{
	return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

/* Applies the rules to one candidate word (valid UTF-8, already trimmed)
 * and keeps it if it passes. */
static void add_word(lexicon *lx, const char *s, size_t n)
{
	lx->st.words++;
	if (lx->o.upcase) {
		util_grow((void **)&lx->scratch, &lx->scap, n, 1);
		for (size_t i = 0; i < n; i++)
			lx->scratch[i] = (s[i] >= 'a' && s[i] <= 'z') ? (char)(s[i] - 32) : s[i];
		s = lx->scratch;
	}
	char hk[WORDKEY_MAX], tk[WORDKEY_MAX];
	switch (wordkey_keys(&lx->o.keys, s, n, hk, tk)) {
	case WORDKEY_NOT_KANA:
		lx->st.not_kana++;
		return;
	case WORDKEY_NO_LETTER:
		lx->st.no_letter++;
		return;
	}
	/* The seed's rule looks at the word's last character, whatever the
	 * keys pass over. */
	if (lx->o.drop_digit_tail && !lx->o.keys.kana && s[n - 1] >= '0' && s[n - 1] <= '9') {
		lx->st.digit_tail++;
		return;
	}
	long len = lx->o.keys.kana ? kana_points(s, n, lx->o.points) : utf8_count(s, n);
	if (len < lx->o.min_len) {
		lx->st.too_short++;
		return;
	}
	if (lx->o.max_len && len > lx->o.max_len) {
		lx->st.too_long++;
		return;
	}
	bool added;
	uint32_t id = strmap_intern(lx->words, s, n, &added);
	if (!added) {
		lx->st.duplicates++;
		return;
	}
	size_t cap = lx->cap;
	util_grow((void **)&lx->head, &lx->cap, id + 1, sizeof *lx->head);
	if (cap != lx->cap) {
		lx->tail = xrealloc(lx->tail, lx->cap * sizeof *lx->tail);
		lx->len = xrealloc(lx->len, lx->cap * sizeof *lx->len);
	}
	lx->head[id] = strmap_intern(lx->keys, hk, strlen(hk), NULL);
	lx->tail[id] = strmap_intern(lx->keys, tk, strlen(tk), NULL);
	lx->len[id] = (uint32_t)len;
	lx->st.written++;
}

/* Checks text after decoding: a bad line is fatal or, under
 * --skip-invalid, counted and skipped. */
static bool check_text(lexicon *lx, const char *file, long line, const char *s, size_t n,
		       bool decoded_ok)
{
	if (decoded_ok && text_ok(s, n))
		return true;
	if (!lx->o.skip_invalid)
		die_at(file, line, decoded_ok ? "invalid UTF-8" : "invalid text in the input encoding");
	lx->st.invalid++;
	return false;
}

static void load_list(lexicon *lx, const char *path, const char *encoding)
{
	input_file *f = input_open(path);
	input_conv *conv = input_conv_open(encoding);
	const char *s;
	size_t n;
	while ((s = input_getline(f, &n))) {
		lx->st.lines++;
		bool ok = !conv || input_conv_run(conv, s, n, &s, &n);
		while (n > 0 && is_space(s[n - 1]))
			n--;
		while (n > 0 && is_space(*s))
			s++, n--;
		if (n == 0 || *s == '#')
			continue;
		if (check_text(lx, path, input_lineno(f), s, n, ok))
			add_word(lx, s, n);
	}
	lx->last_line = input_lineno(f) + 1;
	input_conv_close(conv);
	input_close(f);
}

static void load_csv(lexicon *lx, const char *path, const char *encoding)
{
	table_opts to = {.encoding = encoding};
	table *t = table_open(path, &to);
	int col = table_need_col(t, lx->o.column);
	while (table_read_row(t)) {
		lx->st.lines++;
		const char *s = table_field(t, (size_t)col);
		size_t n = table_field_len(t, (size_t)col);
		if (n == 0)
			continue;
		if (check_text(lx, path, table_line(t), s, n, true))
			add_word(lx, s, n);
	}
	lx->last_line = table_end_line(t);
	table_close(t);
}

/* SKK: ";;" comment lines; the okuri-ari section (readings with a
 * trailing okurigana letter, like "あk") comes first and is skipped; in
 * the okuri-nasi section every line is "READING /cand/cand/.../". Only the
 * reading is needed, so only it is converted from EUC-JP. Readings that
 * are not kana (abbreviations, "#" numeric entries, ">" affixes) are not
 * words. */
static void load_skk(lexicon *lx, const char *path, const char *encoding)
{
	input_file *f = input_open(path);
	input_conv *conv = input_conv_open(encoding);
	bool okuri_ari = false;
	const char *s;
	size_t n;
	while ((s = input_getline(f, &n))) {
		lx->st.lines++;
		if (n >= 2 && s[0] == ';' && s[1] == ';') {
			if (n >= 21 && memcmp(s, ";; okuri-ari entries.", 21) == 0)
				okuri_ari = true;
			else if (n >= 22 && memcmp(s, ";; okuri-nasi entries.", 22) == 0)
				okuri_ari = false;
			continue;
		}
		if (okuri_ari)
			continue;
		const char *sp = memchr(s, ' ', n);
		if (!sp || sp == s)
			continue; /* not an entry */
		size_t rn = (size_t)(sp - s);
		bool ok = !conv || input_conv_run(conv, s, rn, &s, &rn);
		if (check_text(lx, path, input_lineno(f), s, rn, ok))
			add_word(lx, s, rn);
	}
	lx->last_line = input_lineno(f) + 1;
	input_conv_close(conv);
	input_close(f);
}

/* MeCab IPADIC CSV, no header: surface, left id, right id, cost, then
 * part of speech in fields 5-8 (1-based), conjugation in 9-10, base form
 * in 11, reading in 12, pronunciation in 13. */
static void load_ipadic(lexicon *lx, const char *path, const char *encoding)
{
	table_opts to = {.encoding = encoding, .no_header = true, .delim = ','};
	table *t = table_open(path, &to);
	const char *pos = lx->o.pos ? lx->o.pos : "名詞";
	while (table_read_row(t)) {
		lx->st.lines++;
		if (table_nfields(t) < 12)
			die_at(path, table_line(t), "expected at least 12 fields, found %zu",
			       table_nfields(t));
		/* Match the POS path field by field: "名詞,一般" needs both. */
		const char *p = pos;
		bool match = true;
		for (size_t fi = 4; match && *p; fi++) {
			size_t k = strcspn(p, ",");
			match = fi < 8 && table_field_len(t, fi) == k &&
				memcmp(table_field(t, fi), p, k) == 0;
			p += k + (p[k] == ',');
		}
		if (!match)
			continue;
		const char *s = table_field(t, 11);
		size_t n = table_field_len(t, 11);
		if (check_text(lx, path, table_line(t), s, n, true))
			add_word(lx, s, n);
	}
	lx->last_line = table_end_line(t);
	table_close(t);
}

const lexicon_source lexicon_sources[] = {
	{"list", "UTF-8", false, load_list},
	{"csv", NULL, false, load_csv},
	{"skk", "EUC-JP", true, load_skk},
	{"ipadic", "EUC-JP", true, load_ipadic},
	{NULL, NULL, false, NULL},
};

const lexicon_source *lexicon_source_find(const char *name)
{
	for (const lexicon_source *s = lexicon_sources; s->name; s++)
		if (!strcmp(s->name, name))
			return s;
	return NULL;
}

void lexicon_load(lexicon *lx, const char *path, const lexicon_source *src)
{
	if (!src)
		src = lexicon_source_find(util_ends_with(path, ".csv") || util_ends_with(path, ".tsv") ||
						  util_ends_with(path, ".csv.gz") ||
						  util_ends_with(path, ".tsv.gz")
					  ? "csv"
					  : "list");
	free(lx->last_file);
	lx->last_file = xstrdup(path);
	src->load(lx, path, lx->o.encoding ? lx->o.encoding : src->encoding);
}

const char *lexicon_last_file(const lexicon *lx, long *line)
{
	*line = lx->last_line;
	return lx->last_file;
}

void lexicon_write(const lexicon *lx, output *out)
{
	static const char *const header[] = {"word", "head", "tail", "len"};
	output_row(out, header, 4);
	size_t n = strmap_count(lx->words);
	for (uint32_t id = 0; id < n; id++) {
		output_field_n(out, strmap_key(lx->words, id), strmap_key_len(lx->words, id));
		output_field_n(out, strmap_key(lx->keys, lx->head[id]),
			    strmap_key_len(lx->keys, lx->head[id]));
		output_field_n(out, strmap_key(lx->keys, lx->tail[id]),
			    strmap_key_len(lx->keys, lx->tail[id]));
		output_int(out, lx->len[id]);
		output_end_row(out);
	}
}

const lexicon_stats *lexicon_stats_of(const lexicon *lx)
{
	return &lx->st;
}

size_t lexicon_count(const lexicon *lx)
{
	return strmap_count(lx->words);
}

void lexicon_free(lexicon *lx)
{
	if (!lx)
		return;
	strmap_free(lx->words);
	strmap_free(lx->keys);
	free(lx->head);
	free(lx->tail);
	free(lx->len);
	free(lx->scratch);
	free(lx->last_file);
	free(lx);
}
