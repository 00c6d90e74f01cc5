/* UTF-8 decoding and the kana rules. */
#include <stdlib.h>

#include "words/kana.h"
#include "unit.h"
#include "core/utf8.h"

static char *keys(const char *word, enum kana_long lv, int fold)
{
	static char buf[32];
	kana_opts o = {.long_vowel = lv, .fold_dakuten = fold};
	uint32_t h, t;
	if (!kana_keys(word, strlen(word), &o, &h, &t))
		return NULL;
	int n = utf8_encode(h, buf);
	buf[n++] = ' ';
	n += utf8_encode(t, buf + n);
	buf[n] = '\0';
	return buf;
}

static void test_utf8_decodes_each_length(void)
{
	uint32_t cp;
	CHECK(utf8_decode("A", 1, &cp) == 1 && cp == 'A', "ASCII decodes");
	CHECK(utf8_decode("\xC3\xA9", 2, &cp) == 2 && cp == 0xE9, "2-byte é");
	CHECK(utf8_decode("\xE3\x81\x82", 3, &cp) == 3 && cp == 0x3042, "3-byte あ");
	CHECK(utf8_decode("\xF0\x9F\x98\x80", 4, &cp) == 4 && cp == 0x1F600, "4-byte emoji");
}

static void test_utf8_rejects_invalid(void)
{
	uint32_t cp;
	CHECK(utf8_decode("\xC0\xAF", 2, &cp) == 0, "overlong 2-byte rejected");
	CHECK(utf8_decode("\xE0\x80\xAF", 3, &cp) == 0, "overlong 3-byte rejected");
	CHECK(utf8_decode("\xED\xA0\x80", 3, &cp) == 0, "surrogate rejected");
	CHECK(utf8_decode("\xF4\x90\x80\x80", 4, &cp) == 0, "past U+10FFFF rejected");
	CHECK(utf8_decode("\xE3\x81", 2, &cp) == 0, "truncated sequence rejected");
	CHECK(utf8_decode("\x80", 1, &cp) == 0, "lone continuation rejected");
}

static void test_utf8_count_last_encode(void)
{
	CHECK(utf8_count("SCAN", 4) == 4, "count ASCII");
	CHECK(utf8_count("パーティー", strlen("パーティー")) == 5, "count パーティー = 5");
	CHECK(utf8_count("a\xFF", 2) == -1, "count invalid = -1");
	CHECK(utf8_last("abc", 3) == 2, "last of ASCII");
	CHECK(utf8_last("aあ", 4) == 1, "last of multibyte");
	char b[4];
	CHECK(utf8_encode(0x3093, b) == 3 && memcmp(b, "ん", 3) == 0, "encode ん");
}

static void test_kana_plain_and_katakana(void)
{
	CHECK_STR(keys("りんご", KANA_LONG_DROP, 0), "り ご", "plain hiragana");
	CHECK_STR(keys("ゴリラ", KANA_LONG_DROP, 0), "ご ら", "katakana folds");
}

static void test_kana_small_kana(void)
{
	CHECK_STR(keys("きっぷ", KANA_LONG_DROP, 0), "き ぷ", "きっぷ");
	CHECK_STR(keys("きっぷ", KANA_LONG_DROP, 1), "き ふ", "きっぷ, dakuten folded");
	CHECK_STR(keys("きしゃ", KANA_LONG_DROP, 0), "き や", "small ゃ as や");
	CHECK_STR(keys("がっ", KANA_LONG_DROP, 0), "が つ", "small っ as つ");
	CHECK_STR(keys("ファ", KANA_LONG_DROP, 0), "ふ あ", "small ァ as あ at both ends");
}

static void test_kana_old_spellings(void)
{
	CHECK_STR(keys("はなぢ", KANA_LONG_DROP, 0), "は じ", "ぢ -> じ");
	CHECK_STR(keys("こづつみ", KANA_LONG_DROP, 0), "こ み", "づ inside the word");
	CHECK_STR(keys("つづ", KANA_LONG_DROP, 0), "つ ず", "づ -> ず");
	CHECK_STR(keys("をとめ", KANA_LONG_DROP, 0), "お め", "を -> お");
}

static void test_kana_long_vowel_rules(void)
{
	CHECK_STR(keys("パーティー", KANA_LONG_DROP, 0), "ぱ い", "パーティー drop: ィ -> い");
	CHECK_STR(keys("パーティー", KANA_LONG_VOWEL, 0), "ぱ い", "パーティー vowel: い");
	CHECK_STR(keys("パーティー", KANA_LONG_KEEP, 0), "ぱ ー", "パーティー keep: ー");
	CHECK_STR(keys("コーヒー", KANA_LONG_DROP, 0), "こ ひ", "コーヒー drop: ひ");
	CHECK_STR(keys("コーヒー", KANA_LONG_VOWEL, 0), "こ い", "コーヒー vowel: い");
	CHECK_STR(keys("カレー", KANA_LONG_VOWEL, 0), "か え", "カレー vowel: え");
	CHECK_STR(keys("ボール", KANA_LONG_VOWEL, 1), "ほ る", "ボール: ー inside kept out of keys");
	CHECK_STR(keys("スーパー", KANA_LONG_VOWEL, 0), "す あ", "スーパー vowel: あ");
	CHECK_STR(keys("スーパー", KANA_LONG_DROP, 1), "す は", "スーパー drop, folded: は");
	CHECK(kana_vowel(0x3093) == 0x3093, "ん is its own vowel");
}

static void test_kana_dakuten_folding(void)
{
	CHECK_STR(keys("ヴァイオリン", KANA_LONG_DROP, 0), "ゔ ん", "ヴ folds to ゔ");
	CHECK_STR(keys("ヴァイオリン", KANA_LONG_DROP, 1), "う ん", "ゔ folds to う");
	CHECK_STR(keys("ぢ", KANA_LONG_DROP, 1), "し し", "ぢ -> じ -> し");
	CHECK_STR(keys("ばぴぷ", KANA_LONG_DROP, 1), "は ふ", "voiced and semi-voiced fold");
}

static void test_kana_rejects_non_words(void)
{
	CHECK_STR(keys("ー", KANA_LONG_DROP, 0) ? "yes" : "no", "no", "only ー is not a word");
	CHECK_STR(keys("ーあ", KANA_LONG_DROP, 0) ? "yes" : "no", "no", "leading ー is not a word");
	CHECK_STR(keys("猫", KANA_LONG_DROP, 0) ? "yes" : "no", "no", "kanji is not kana");
	CHECK_STR(keys("あa", KANA_LONG_DROP, 0) ? "yes" : "no", "no", "mixed script is not kana");
}

static const unit_test tests[] = {
	UNIT_TEST(utf8_decodes_each_length),
	UNIT_TEST(utf8_rejects_invalid),
	UNIT_TEST(utf8_count_last_encode),
	UNIT_TEST(kana_plain_and_katakana),
	UNIT_TEST(kana_small_kana),
	UNIT_TEST(kana_old_spellings),
	UNIT_TEST(kana_long_vowel_rules),
	UNIT_TEST(kana_dakuten_folding),
	UNIT_TEST(kana_rejects_non_words),
};

int main(int argc, char **argv)
{
	return UNIT_MAIN(tests, argc, argv);
}
