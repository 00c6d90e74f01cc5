/* wordload: word lists into the dictionary table word,head,tail,len. The
 * options are parsed here; lib/run/wordloadrun reads and writes. */
#include <stdio.h>
#include <string.h>

#include "core/cli.h"
#include "core/util.h"
#include "run/wordloadrun.h"

static const char usage_text[] =
	"Usage: %s [OPTION]... [FILE]...\n"
	"Turn word lists into the dictionary table word,head,tail,len (CSV).\n"
	"With no FILE, or when FILE is -, read standard input. Gzip input is\n"
	"recognised automatically. Words keep input order; the first of\n"
	"duplicates wins.\n"
	"\n"
	"Sources:\n"
	"  -f, --format FMT      list (one word per line; blank lines and # comments\n"
	"                        skipped), csv (a CSV/TSV table with a header),\n"
	"                        skk (okuri-nasi readings of an SKK dictionary),\n"
	"                        ipadic (readings of MeCab IPADIC CSV entries).\n"
	"                        Default: csv for names ending in .csv or .tsv\n"
	"                        (also .gz), list otherwise\n"
	"  -c, --column NAME     csv: the column holding the words (default word)\n"
	"  -e, --encoding ENC    input encoding, converted by iconv (default EUC-JP\n"
	"                        for skk and ipadic, UTF-8 otherwise)\n"
	"      --pos POS         ipadic: keep entries whose part of speech starts\n"
	"                        with POS, e.g. 名詞,一般 (default 名詞)\n"
	"\n"
	"Rules:\n"
	"      --upcase          upper-case ASCII letters in words\n"
	"      --fold-case       keys in lower case (Asunción starts with a)\n"
	"      --fold-accents    keys without diacritics, ligatures spelled out\n"
	"                        (café ends in e, Fuß in s, Æsop starts with A)\n"
	"      --letters-only    keys from letters only: apostrophes, hyphens,\n"
	"                        digits and other signs are passed over (don't\n"
	"                        ends in t); words without a letter are dropped\n"
	"      --drop-digit-tail drop words whose last character is a digit 0-9\n"
	"      --min-len N       drop words shorter than N characters (default 1)\n"
	"      --max-len N       drop words longer than N characters\n"
	"  -k, --kana            Japanese keys: hiragana, katakana folded, small kana\n"
	"                        as large, ぢ->じ, づ->ず, を->お; words that are not\n"
	"                        all kana are dropped (implied by skk and ipadic)\n"
	"      --long-vowel MODE for a trailing ー: drop (the kana before it, the\n"
	"                        default), vowel (that kana's vowel), keep (ー)\n"
	"      --fold-dakuten    fold voiced and semi-voiced kana to plain in keys\n"
	"      --points RULE     Japanese len: chars (every character, the\n"
	"                        default), kana (ー not counted) or mora (a small\n"
	"                        ゃゅょぁぃぅぇぉゎ joins the kana before it:\n"
	"                        シャツ 2, パーティー 4, きっぷ 3)\n"
	"\n"
	"Errors and output:\n"
	"      --skip-invalid    skip (and count) invalid text instead of failing\n"
	"      --allow-empty     an empty dictionary is not an error\n"
	"  -v, --verbose         report on stderr what each rule dropped\n"
	CLI_HELP;

enum {
	OPT_UPCASE = 256, OPT_DIGIT, OPT_MINLEN, OPT_MAXLEN, OPT_LONG, OPT_DAKUTEN, OPT_POS,
	OPT_SKIP, OPT_EMPTY, OPT_FOLD_CASE, OPT_FOLD_ACCENTS, OPT_LETTERS, OPT_POINTS
};

static const struct option long_opts[] = {
	{"format", required_argument, NULL, 'f'},
	{"column", required_argument, NULL, 'c'},
	{"encoding", required_argument, NULL, 'e'},
	{"pos", required_argument, NULL, OPT_POS},
	{"upcase", no_argument, NULL, OPT_UPCASE},
	{"fold-case", no_argument, NULL, OPT_FOLD_CASE},
	{"fold-accents", no_argument, NULL, OPT_FOLD_ACCENTS},
	{"letters-only", no_argument, NULL, OPT_LETTERS},
	{"points", required_argument, NULL, OPT_POINTS},
	{"drop-digit-tail", no_argument, NULL, OPT_DIGIT},
	{"min-len", required_argument, NULL, OPT_MINLEN},
	{"max-len", required_argument, NULL, OPT_MAXLEN},
	{"kana", no_argument, NULL, 'k'},
	{"long-vowel", required_argument, NULL, OPT_LONG},
	{"fold-dakuten", no_argument, NULL, OPT_DAKUTEN},
	{"skip-invalid", no_argument, NULL, OPT_SKIP},
	{"allow-empty", no_argument, NULL, OPT_EMPTY},
	{"verbose", no_argument, NULL, 'v'},
	CLI_LONG_OPTIONS,
	{NULL, 0, NULL, 0},
};

/* The -f argument: a format of lexicon_sources[], or die listing them. */
static const lexicon_source *need_source(const char *arg)
{
	const char *names[16];
	int n = 0;
	for (const lexicon_source *s = lexicon_sources; s->name && n < 15; s++)
		names[n++] = s->name;
	names[n] = NULL;
	return &lexicon_sources[cli_choice("--format", arg, names)];
}

/* The Latin rules and the Japanese ones apply to different words. */
static void check_rules(const lexicon_opts *lo)
{
	const wordkey_rules *k = &lo->keys;
	if (k->kana && (k->fold_case || k->fold_accents || k->letters_only))
		die_usage("%s applies to words that are not kana (not with --kana, -f skk or -f ipadic)",
			  k->fold_case ? "--fold-case" : k->fold_accents ? "--fold-accents" : "--letters-only");
	if (!k->kana && lo->points != KANA_POINTS_CHARS)
		die_usage("--points %s applies to Japanese words (--kana, -f skk or -f ipadic)",
			  lo->points == KANA_POINTS_MORA ? "mora" : "kana");
}

int main(int argc, char **argv)
{
	static const char *const long_modes[] = {"drop", "vowel", "keep", NULL};
	static const char *const point_rules[] = {"chars", "kana", "mora", NULL};
	util_init(argv[0]);
	argv[0] = (char *)util_progname; /* getopt's messages name it so too */
	wordloadrun_opts o = {.lex = {.min_len = 1}};
	lexicon_opts *lo = &o.lex;
	int c;
	while ((c = getopt_long(argc, argv, "f:c:e:kv" CLI_SHORT, long_opts, NULL)) != -1) {
		switch (c) {
		case 'f': o.source = need_source(optarg); break;
		case 'c': lo->column = optarg; break;
		case 'e': lo->encoding = optarg; break;
		case OPT_POS: lo->pos = optarg; break;
		case OPT_UPCASE: lo->upcase = true; break;
		case OPT_DIGIT: lo->drop_digit_tail = true; break;
		case OPT_MINLEN: lo->min_len = (long)cli_i64("--min-len", optarg, 1, 1000000); break;
		case OPT_MAXLEN: lo->max_len = (long)cli_i64("--max-len", optarg, 1, 1000000); break;
		case OPT_FOLD_CASE: lo->keys.fold_case = true; break;
		case OPT_FOLD_ACCENTS: lo->keys.fold_accents = true; break;
		case OPT_LETTERS: lo->keys.letters_only = true; break;
		case 'k': lo->keys.kana = true; break;
		case OPT_LONG:
			lo->keys.kana_rules.long_vowel =
				(enum kana_long)cli_choice("--long-vowel", optarg, long_modes);
			break;
		case OPT_DAKUTEN: lo->keys.kana_rules.fold_dakuten = true; break;
		case OPT_POINTS: lo->points = (enum kana_points)cli_choice("--points", optarg, point_rules); break;
		case OPT_SKIP: lo->skip_invalid = true; break;
		case OPT_EMPTY: o.allow_empty = true; break;
		case 'v': o.verbose = true; break;
		default:
			if (!cli_option(c, optarg, usage_text, &o.common.out))
				util_try_help();
		}
	}
	if (lo->max_len && lo->max_len < lo->min_len)
		die_usage("--max-len %ld is less than --min-len %ld", lo->max_len, lo->min_len);
	if (o.source && o.source->kana)
		lo->keys.kana = true;
	check_rules(lo);
	if (lo->pos && o.source != lexicon_source_find("ipadic"))
		die_usage("--pos applies only to --format ipadic");
	o.common.files = argv + optind;
	o.common.nfiles = argc - optind;
	return wordloadrun_main(&o);
}
