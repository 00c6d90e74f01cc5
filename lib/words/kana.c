#include "words/kana.h"

#include "core/utf8.h"

bool kana_is_kana(uint32_t cp)
{
	return (cp >= 0x3041 && cp <= 0x3096) || (cp >= 0x30A1 && cp <= 0x30FA) ||
	       cp == KANA_CHOONPU;
}

static uint32_t to_hiragana(uint32_t cp)
{
	if (cp >= 0x30A1 && cp <= 0x30F6)
		return cp - 0x60;
	switch (cp) { /* ヷヸヹヺ: ワ/ヰ/ヱ/ヲ with dakuten, no hiragana form */
	case 0x30F7: return 0x308F;
	case 0x30F8: return 0x3090;
	case 0x30F9: return 0x3091;
	case 0x30FA: return 0x3092;
	}
	return cp;
}

static uint32_t to_large(uint32_t h)
{
	switch (h) {
	case 0x3041: case 0x3043: case 0x3045: case 0x3047: case 0x3049: /* ぁぃぅぇぉ */
	case 0x3063: /* っ */
	case 0x3083: case 0x3085: case 0x3087: /* ゃゅょ */
		return h + 1;
	case 0x308E: return 0x308F; /* ゎ */
	case 0x3095: return 0x304B; /* ゕ */
	case 0x3096: return 0x3051; /* ゖ */
	}
	return h;
}

static uint32_t to_plain(uint32_t h)
{
	if (h >= 0x304C && h <= 0x3062) /* が..ぢ: voiced forms sit at even points */
		return (h % 2 == 0) ? h - 1 : h;
	if (h == 0x3065 || h == 0x3067 || h == 0x3069) /* づでど */
		return h - 1;
	if (h >= 0x306F && h <= 0x307D) /* は行: plain, voiced, semi-voiced */
		return h - (h - 0x306F) % 3;
	if (h == 0x3094) /* ゔ */
		return 0x3046;
	return h;
}

uint32_t kana_fold(uint32_t cp, bool fold_dakuten)
{
	uint32_t h = to_large(to_hiragana(cp));
	switch (h) {
	case 0x3062: h = 0x3058; break; /* ぢ -> じ */
	case 0x3065: h = 0x305A; break; /* づ -> ず */
	case 0x3092: h = 0x304A; break; /* を -> お */
	}
	return fold_dakuten ? to_plain(h) : h;
}

uint32_t kana_vowel(uint32_t h)
{
	/* Each row lists the kana whose vowel is the row's first letter. */
	static const char *const rows[5] = {
		"あかさたなはまやらわがざだばぱ",
		"いきしちにひみりぎじぢびぴゐ",
		"うくすつぬふむゆるぐずづぶぷゔ",
		"えけせてねへめれげぜでべぺゑ",
		"おこそとのほもよろをごぞどぼぽ",
	};
	for (int r = 0; r < 5; r++) {
		const char *p = rows[r];
		uint32_t first = 0, cp;
		int len;
		while (*p && (len = utf8_decode(p, 4, &cp)) > 0) {
			if (!first)
				first = cp;
			if (cp == h)
				return first;
			p += len;
		}
	}
	return h;
}

bool kana_keys(const char *s, size_t n, const kana_opts *o, uint32_t *head, uint32_t *tail)
{
	uint32_t first = 0, last = 0;
	bool trailing_bar = false;
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		int len = utf8_decode(s + i, n - i, &cp);
		if (!len || !kana_is_kana(cp))
			return false;
		i += (size_t)len;
		if (cp == KANA_CHOONPU) {
			if (!first)
				return false; /* a word cannot begin with ー */
			trailing_bar = true;
			continue;
		}
		if (!first)
			first = cp;
		last = cp;
		trailing_bar = false;
	}
	if (!first)
		return false;
	*head = kana_fold(first, o->fold_dakuten);
	*tail = kana_fold(last, o->fold_dakuten);
	if (trailing_bar) {
		if (o->long_vowel == KANA_LONG_KEEP)
			*tail = KANA_CHOONPU;
		else if (o->long_vowel == KANA_LONG_VOWEL)
			*tail = kana_vowel(kana_fold(last, false));
	}
	return true;
}

/* A small kana read together with the kana before it (ゃ in しゃ). */
static bool joins(uint32_t cp)
{
	uint32_t h = to_hiragana(cp);
	switch (h) {
	case 0x3041: case 0x3043: case 0x3045: case 0x3047: case 0x3049: /* ぁぃぅぇぉ */
	case 0x3083: case 0x3085: case 0x3087: /* ゃゅょ */
	case 0x308E: /* ゎ */
		return true;
	}
	return false;
}

long kana_points(const char *s, size_t n, enum kana_points p)
{
	if (p == KANA_POINTS_CHARS)
		return utf8_count(s, n);
	long points = 0;
	bool after_kana = false;
	size_t i = 0;
	while (i < n) {
		uint32_t cp;
		int len = utf8_decode(s + i, n - i, &cp);
		i += (size_t)(len ? len : 1);
		if (p == KANA_POINTS_KANA) {
			points += cp != KANA_CHOONPU;
			continue;
		}
		if (!(after_kana && joins(cp)))
			points++;
		after_kana = kana_is_kana(cp);
	}
	return points;
}
