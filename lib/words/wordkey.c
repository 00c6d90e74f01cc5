#include "words/wordkey.h"

#include <stdio.h>
#include <string.h>

#include "core/utf8.h"
#include "words/letters.h"

static bool passed_over(const wordkey_rules *r, uint32_t cp)
{
	return (r->letters_only && !letters_is_letter(cp)) || (r->fold_accents && letters_is_mark(cp));
}

/* Writes the key of CP, the word's first character if HEAD, else its last. */
static void key_of(const wordkey_rules *r, uint32_t cp, bool head, char *out)
{
	if (r->fold_accents) {
		uint32_t f[2];
		int k = letters_fold_accents(cp, f);
		cp = head ? f[0] : f[k - 1];
	}
	if (r->fold_case)
		cp = letters_fold_case(cp);
	if (r->upcase && cp >= 'a' && cp <= 'z')
		cp -= 32;
	out[utf8_encode(cp, out)] = '\0';
}

int wordkey_keys(const wordkey_rules *r, const char *s, size_t n, char *head, char *tail)
{
	uint32_t cp;
	if (r->kana) {
		uint32_t h, t;
		if (!kana_keys(s, n, &r->kana_rules, &h, &t))
			return WORDKEY_NOT_KANA;
		head[utf8_encode(h, head)] = '\0';
		tail[utf8_encode(t, tail)] = '\0';
		return WORDKEY_OK;
	}
	size_t i = 0;
	for (;;) {
		if (i == n)
			return WORDKEY_NO_LETTER;
		int len = utf8_decode(s + i, n - i, &cp);
		i += (size_t)(len ? len : 1);
		if (!passed_over(r, cp))
			break;
	}
	key_of(r, cp, true, head);
	size_t end = n;
	for (;;) { /* a letter is there: the head is one */
		size_t last = utf8_last(s, end);
		utf8_decode(s + last, end - last, &cp);
		if (!passed_over(r, cp))
			break;
		end = last;
	}
	key_of(r, cp, false, tail);
	return WORDKEY_OK;
}

/* Whether rules R give every word of D its keys. */
static bool fits(const dict *d, const wordkey_rules *r)
{
	char head[WORDKEY_MAX], tail[WORDKEY_MAX];
	for (uint32_t w = 0; w < d->nwords; w++) {
		const char *s = dict_word(d, w);
		if (wordkey_keys(r, s, strlen(s), head, tail) != WORDKEY_OK ||
		    strcmp(head, strmap_key(d->keys, d->head[w])) != 0 ||
		    strcmp(tail, strmap_key(d->keys, d->tail[w])) != 0)
			return false;
	}
	return true;
}

bool wordkey_infer(const dict *d, wordkey_rules *r)
{
	/* wordload's defaults first, then the other kana rules. */
	for (int dak = 0; dak < 2; dak++)
		for (int lv = KANA_LONG_DROP; lv <= KANA_LONG_KEEP; lv++) {
			*r = (wordkey_rules){.kana = true,
					     .kana_rules = {.long_vowel = (enum kana_long)lv,
							    .fold_dakuten = dak}};
			if (fits(d, r))
				return true;
		}
	/* Case folded, then upper-cased, then as written; within each, the
	 * most folding first. */
	for (int kase = 2; kase >= 0; kase--)
		for (int f = 3; f >= 0; f--) {
			*r = (wordkey_rules){.upcase = kase == 1, .fold_case = kase == 2,
					     .fold_accents = f & 2, .letters_only = f & 1};
			if (fits(d, r))
				return true;
		}
	*r = (wordkey_rules){0};
	return false;
}

void wordkey_name(const wordkey_rules *r, char *buf, size_t n)
{
	static const char *const long_vowel[] = {"", " --long-vowel vowel", " --long-vowel keep"};
	if (r->kana) {
		snprintf(buf, n, "--kana%s%s", long_vowel[r->kana_rules.long_vowel],
			 r->kana_rules.fold_dakuten ? " --fold-dakuten" : "");
		return;
	}
	snprintf(buf, n, "%s%s%s%s", r->upcase ? " --upcase" : "", r->fold_case ? " --fold-case" : "",
		 r->fold_accents ? " --fold-accents" : "", r->letters_only ? " --letters-only" : "");
	if (*buf)
		memmove(buf, buf + 1, strlen(buf));
	else
		snprintf(buf, n, "no folding");
}
