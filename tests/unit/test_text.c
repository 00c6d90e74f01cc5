/* UTF-8 decoding, the kana rules, the Latin folding and word keys. */
#include <stdlib.h>

#include "words/kana.h"
#include "words/letters.h"
#include "words/wordkey.h"
#include "unit.h"
#include "core/utf8.h"

/* "HEAD TAIL" of WORD by the Latin rules in FLAGS: c case, a accents,
 * l letters only, u upcase; "-" when it has none. */
static char *latin(const char *word, const char *flags)
{
	static char buf[32];
	wordkey_rules r = {.fold_case = strchr(flags, 'c'), .fold_accents = strchr(flags, 'a'),
			   .letters_only = strchr(flags, 'l'), .upcase = strchr(flags, 'u')};
	char h[WORDKEY_MAX], t[WORDKEY_MAX];
	if (wordkey_keys(&r, word, strlen(word), h, t) != WORDKEY_OK)
		return "-";
	snprintf(buf, sizeof buf, "%s %s", h, t);
	return buf;
}

static long points(const char *word, enum kana_points p)
{
	return kana_points(word, strlen(word), p);
}

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

static void test_kana_points(void)
{
	CHECK(points("シャツ", KANA_POINTS_CHARS) == 3 && points("シャツ", KANA_POINTS_MORA) == 2,
	      "シャツ: 3 characters, 2 morae");
	CHECK(points("パーティー", KANA_POINTS_CHARS) == 5 && points("パーティー", KANA_POINTS_KANA) == 3 &&
		      points("パーティー", KANA_POINTS_MORA) == 4,
	      "パーティー: 5 characters, 3 kana, 4 morae");
	CHECK(points("きっぷ", KANA_POINTS_MORA) == 3, "きっぷ: っ is a mora");
	CHECK(points("きゃっきゃ", KANA_POINTS_MORA) == 3, "きゃっきゃ: 3 morae");
	CHECK(points("ァ", KANA_POINTS_MORA) == 1, "a small kana first counts alone");
}

static void test_latin_keys(void)
{
	CHECK_STR(latin("Asunción", ""), "A n", "Asunción as written");
	CHECK_STR(latin("Asunción", "c"), "a n", "Asunción, case folded");
	CHECK_STR(latin("café", ""), "c é", "café as written");
	CHECK_STR(latin("café", "a"), "c e", "café, accents folded");
	CHECK_STR(latin("cafe\xCC\x81", "a"), "c e", "café in NFD, accents folded");
	CHECK_STR(latin("don't", "l"), "d t", "don't");
	CHECK_STR(latin("rock'n'roll!", "l"), "r l", "rock'n'roll!");
	CHECK_STR(latin("'tis", ""), "' s", "'tis as written");
	CHECK_STR(latin("'tis", "l"), "t s", "'tis, letters only");
	CHECK_STR(latin("1984", "l"), "-", "digits only: no letter");
	CHECK_STR(latin("scan", "u"), "S N", "upcase");
}

static void test_latin_folding(void)
{
	CHECK_STR(latin("Straße", "a"), "S e", "Straße");
	CHECK_STR(latin("Fuß", "ca"), "f s", "Fuß: ß -> ss");
	CHECK_STR(latin("Æsop", "ca"), "a p", "Æsop: Æ -> AE");
	CHECK_STR(latin("Ĳssel", "a"), "I l", "Ĳssel");
	CHECK_STR(latin("Łódź", "ca"), "l z", "Łódź");
	CHECK_STR(latin("İzmir", "c"), "i r", "İ folds to i");
	CHECK_STR(latin("Phở", "a"), "P o", "Vietnamese ở");
	CHECK_STR(latin("Nguyễn", "ca"), "n n", "Nguyễn");
	CHECK_STR(latin("ŒUVRE", "ca"), "o e", "Œ -> OE");
	CHECK_STR(latin("Σίσυφος", "c"), "σ σ", "final sigma folds to sigma");
	CHECK_STR(latin("Ἀθῆναι", "c"), "Ἀ ι", "polytonic Greek is left as it is");
	CHECK_STR(latin("Ёж", "c"), "ё ж", "Cyrillic Ё");
	CHECK(letters_fold_case(0x1E9E) == 0xDF, "ẞ folds to ß");
	CHECK(letters_fold_case(0x017F) == 's', "ſ folds to s");
	CHECK(!letters_is_letter(0x2019) && !letters_is_letter('-') && !letters_is_letter(0x30FB) &&
		      letters_is_letter(0x3042) && letters_is_letter(0x3005) && letters_is_letter(0xB5),
	      "letters: ’ - ・ are not; あ 々 µ are");
	uint32_t f[2];
	CHECK(letters_fold_accents(0xDF, f) == 2 && f[0] == 's' && f[1] == 's', "ß spelled ss");
	CHECK(letters_fold_accents(0xD7, f) == 1 && f[0] == 0xD7, "× stays");
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
	UNIT_TEST(kana_points),
	UNIT_TEST(latin_keys),
	UNIT_TEST(latin_folding),
};

int main(int argc, char **argv)
{
	return UNIT_MAIN(tests, argc, argv);
}
