#include "words/letters.h"

#include <stddef.h>

bool letters_is_mark(uint32_t cp)
{
	return cp >= 0x0300 && cp <= 0x036F;
}

bool letters_is_letter(uint32_t cp)
{
	if (cp < 0x80)
		return (cp | 0x20) >= 'a' && (cp | 0x20) <= 'z';
	if (cp < 0xC0)
		return cp == 0xAA || cp == 0xB5 || cp == 0xBA;
	if (cp == 0xD7 || cp == 0xF7)
		return false;
	if (cp >= 0x02B0 && cp <= 0x036F)
		return false;
	if (cp >= 0x2000 && cp <= 0x2BFF)
		return false;
	if (cp >= 0x3000 && cp <= 0x303F)
		return cp == 0x3005; /* 々 */
	if (cp == 0x30FB)
		return false;
	if (cp >= 0xFE00 && cp <= 0xFE0F)
		return false;
	if (cp >= 0xFE30 && cp <= 0xFE6F)
		return false;
	if (cp >= 0xFF01 && cp <= 0xFF65) /* fullwidth: letters are FF21-3A, FF41-5A */
		return (cp >= 0xFF21 && cp <= 0xFF3A) || (cp >= 0xFF41 && cp <= 0xFF5A);
	if (cp >= 0x1F000 && cp <= 0x1FAFF)
		return false;
	return true;
}

/* ---- case ---- */

/* Pairs of upper and lower case at consecutive code points in [lo, hi],
 * the upper one at code points of parity UPPER. */
typedef struct {
	uint32_t lo, hi;
	uint8_t upper;
} case_pairs;

static const case_pairs pairs[] = {
	{0x0100, 0x012F, 0}, {0x0132, 0x0137, 0}, {0x0139, 0x0148, 1}, {0x014A, 0x0177, 0},
	{0x0179, 0x017E, 1}, {0x01CD, 0x01DC, 1}, {0x01DE, 0x01EF, 0}, {0x01F8, 0x021F, 0},
	{0x0222, 0x0233, 0}, {0x0460, 0x0481, 0}, {0x048A, 0x04BF, 0}, {0x04C1, 0x04CE, 1},
	{0x04D0, 0x052F, 0}, {0x1E00, 0x1E95, 0}, {0x1EA0, 0x1EFF, 0},
};

/* Ranges whose lower case is a fixed distance away. */
typedef struct {
	uint32_t lo, hi, add;
} case_shift;

static const case_shift shifts[] = {
	{'A', 'Z', 32},         {0x00C0, 0x00D6, 32},   {0x00D8, 0x00DE, 32},
	{0x0388, 0x038A, 37},   {0x038E, 0x038F, 63},   {0x0391, 0x03A1, 32},
	{0x03A3, 0x03AB, 32},   {0x0400, 0x040F, 80},   {0x0410, 0x042F, 32},
	{0x0531, 0x0556, 48},   {0xFF21, 0xFF3A, 32},
};

/* Single code points. */
static const uint32_t singles[][2] = {
	{0x0130, 0x0069}, {0x0178, 0x00FF}, {0x017F, 0x0073}, {0x01C4, 0x01C6}, {0x01C5, 0x01C6},
	{0x01C7, 0x01C9}, {0x01C8, 0x01C9}, {0x01CA, 0x01CC}, {0x01CB, 0x01CC}, {0x01F1, 0x01F3},
	{0x01F2, 0x01F3}, {0x01F4, 0x01F5}, {0x0386, 0x03AC}, {0x038C, 0x03CC}, {0x03C2, 0x03C3},
	{0x04C0, 0x04CF}, {0x1E9E, 0x00DF},
};

uint32_t letters_fold_case(uint32_t cp)
{
	for (size_t i = 0; i < sizeof shifts / sizeof shifts[0]; i++)
		if (cp >= shifts[i].lo && cp <= shifts[i].hi)
			return cp + shifts[i].add;
	for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++)
		if (cp >= pairs[i].lo && cp <= pairs[i].hi)
			return (cp & 1) == pairs[i].upper ? cp + 1 : cp;
	for (size_t i = 0; i < sizeof singles / sizeof singles[0]; i++)
		if (cp == singles[i][0])
			return singles[i][1];
	return cp;
}

/* ---- accents ---- */

/* Latin-1 letters U+00C0-U+00FF: the base letter of each, '.' for × and
 * ÷ (not letters), '*' for the ones spelled out in spelled[]. */
static const char latin1[] = "AAAAAA*CEEEEIIIIDNOOOOO.OUUUUY**"
			     "aaaaaa*ceeeeiiiidnooooo.ouuuuy*y";

/* Runs of letters with diacritics in upper and lower case pairs from FIRST
 * on, all on the base letter BASE (upper case; its lower case follows). */
typedef struct {
	uint32_t first;
	uint8_t npairs;
	char base;
} accent_run;

static const accent_run runs[] = {
	/* Latin Extended-A */
	{0x0100, 3, 'A'}, {0x0106, 4, 'C'}, {0x010E, 2, 'D'}, {0x0112, 5, 'E'}, {0x011C, 4, 'G'},
	{0x0124, 2, 'H'}, {0x0128, 5, 'I'}, {0x0134, 1, 'J'}, {0x0136, 1, 'K'}, {0x0139, 5, 'L'},
	{0x0143, 3, 'N'}, {0x014C, 3, 'O'}, {0x0154, 3, 'R'}, {0x015A, 4, 'S'}, {0x0162, 3, 'T'},
	{0x0168, 6, 'U'}, {0x0174, 1, 'W'}, {0x0176, 1, 'Y'}, {0x0179, 3, 'Z'},
	/* Latin Extended-B */
	{0x01CD, 1, 'A'}, {0x01CF, 1, 'I'}, {0x01D1, 1, 'O'}, {0x01D3, 5, 'U'}, {0x01DE, 2, 'A'},
	{0x01E4, 2, 'G'}, {0x01E8, 1, 'K'}, {0x01EA, 2, 'O'}, {0x01F4, 1, 'G'}, {0x01F8, 1, 'N'},
	{0x01FA, 1, 'A'}, {0x01FE, 1, 'O'}, {0x0200, 2, 'A'}, {0x0204, 2, 'E'}, {0x0208, 2, 'I'},
	{0x020C, 2, 'O'}, {0x0210, 2, 'R'}, {0x0214, 2, 'U'}, {0x0218, 1, 'S'}, {0x021A, 1, 'T'},
	{0x021E, 1, 'H'}, {0x0226, 1, 'A'}, {0x0228, 1, 'E'}, {0x022A, 4, 'O'}, {0x0232, 1, 'Y'},
	/* Latin Extended Additional */
	{0x1E00, 1, 'A'}, {0x1E02, 3, 'B'}, {0x1E08, 1, 'C'}, {0x1E0A, 5, 'D'}, {0x1E14, 5, 'E'},
	{0x1E1E, 1, 'F'}, {0x1E20, 1, 'G'}, {0x1E22, 5, 'H'}, {0x1E2C, 2, 'I'}, {0x1E30, 3, 'K'},
	{0x1E36, 4, 'L'}, {0x1E3E, 3, 'M'}, {0x1E44, 4, 'N'}, {0x1E4C, 4, 'O'}, {0x1E54, 2, 'P'},
	{0x1E58, 4, 'R'}, {0x1E60, 5, 'S'}, {0x1E6A, 4, 'T'}, {0x1E72, 5, 'U'}, {0x1E7C, 2, 'V'},
	{0x1E80, 5, 'W'}, {0x1E8A, 2, 'X'}, {0x1E8E, 1, 'Y'}, {0x1E90, 3, 'Z'}, {0x1EA0, 12, 'A'},
	{0x1EB8, 8, 'E'}, {0x1EC8, 2, 'I'}, {0x1ECC, 12, 'O'}, {0x1EE4, 7, 'U'}, {0x1EF2, 4, 'Y'},
};

/* Letters outside the runs: one or two letters each. */
static const struct {
	uint32_t cp;
	char to[3];
} spelled[] = {
	{0x00C6, "AE"}, {0x00DE, "TH"}, {0x00DF, "ss"}, {0x00E6, "ae"}, {0x00FE, "th"},
	{0x0132, "IJ"}, {0x0133, "ij"}, {0x0149, "n"},  {0x0152, "OE"}, {0x0153, "oe"},
	{0x0178, "Y"},  {0x017F, "s"},  {0x0180, "b"},  {0x01E2, "AE"}, {0x01E3, "ae"},
	{0x01F0, "j"},  {0x01FC, "AE"}, {0x01FD, "ae"}, {0x1E96, "h"},  {0x1E97, "t"},
	{0x1E98, "w"},  {0x1E99, "y"},  {0x1E9A, "a"},  {0x1E9B, "s"},  {0x1E9E, "SS"},
};

/* Greek letters with tonos or dialytika, and their base letters. */
static const uint32_t greek[][2] = {
	{0x0386, 0x0391}, {0x0388, 0x0395}, {0x0389, 0x0397}, {0x038A, 0x0399}, {0x038C, 0x039F},
	{0x038E, 0x03A5}, {0x038F, 0x03A9}, {0x0390, 0x03B9}, {0x03AA, 0x0399}, {0x03AB, 0x03A5},
	{0x03AC, 0x03B1}, {0x03AD, 0x03B5}, {0x03AE, 0x03B7}, {0x03AF, 0x03B9}, {0x03B0, 0x03C5},
	{0x03CA, 0x03B9}, {0x03CB, 0x03C5}, {0x03CC, 0x03BF}, {0x03CD, 0x03C5}, {0x03CE, 0x03C9},
};

int letters_fold_accents(uint32_t cp, uint32_t out[2])
{
	out[0] = cp;
	if (cp >= 0xC0 && cp <= 0xFF && latin1[cp - 0xC0] != '*') {
		if (latin1[cp - 0xC0] != '.')
			out[0] = (uint32_t)latin1[cp - 0xC0];
		return 1;
	}
	for (size_t i = 0; i < sizeof spelled / sizeof spelled[0]; i++)
		if (cp == spelled[i].cp) {
			out[0] = (uint32_t)spelled[i].to[0];
			if (!spelled[i].to[1])
				return 1;
			out[1] = (uint32_t)spelled[i].to[1];
			return 2;
		}
	for (size_t i = 0; i < sizeof runs / sizeof runs[0]; i++) {
		uint32_t off = cp - runs[i].first;
		if (cp >= runs[i].first && off < 2u * runs[i].npairs) {
			out[0] = (uint32_t)runs[i].base + (off % 2 ? 32 : 0);
			return 1;
		}
	}
	for (size_t i = 0; i < sizeof greek / sizeof greek[0]; i++)
		if (cp == greek[i][0])
			out[0] = greek[i][1];
	return 1;
}
