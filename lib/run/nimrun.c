#include "run/nimrun.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/rng.h"
#include "core/util.h"

static void put_position(output *o, const uint32_t *h, int m)
{
	for (int i = 0; i < m; i++)
		output_int(o, h[i]);
}

static void put_move(output *o, const uint32_t *h, int m)
{
	char b[NIM_MAX_HEAPS * 12], *p = b;
	for (int i = 0; i < m; i++) {
		char d[12], *e = d + sizeof d, *q = e;
		uint32_t v = h[i];
		do {
			*--q = (char)('0' + v % 10);
			v /= 10;
		} while (v);
		if (i)
			*p++ = ' ';
		memcpy(p, q, (size_t)(e - q));
		p += e - q;
	}
	output_field_n(o, b, (size_t)(p - b));
}

static void nim_columns(output *o, int m)
{
	char name[16];
	for (int i = 0; i < m; i++) {
		snprintf(name, sizeof name, "h%d", i + 1);
		output_field(o, name);
	}
}

/* The header of --advise output. */
static void advise_header(output *o, int m)
{
	nim_columns(o, m);
	output_field(o, "outcome");
	output_field(o, "move");
	output_end_row(o);
}

static void header(output *o, int m, bool p_only)
{
	nim_columns(o, m);
	if (!p_only) {
		output_field(o, "outcome");
		output_field(o, "grundy");
		output_field(o, "remoteness");
		output_field(o, "move");
	}
	output_end_row(o);
}

/* Rates the up-front warnings assume: low, so that what they do not warn
 * about is short on any machine. */
#define ROWS_PER_SECOND 5e6      /* table rows written */
#define VISITS_PER_SECOND 1e8    /* children visited by the solver */
/* Octal games: option visits allowed before a period must have shown. */
#define OCTAL_MAX_WORK (NIM_OCTAL_RATE * 30)

/* Says on stderr, before it starts, that WHAT will take minutes. */
static void expect_time(double seconds, const char *what)
{
	if (seconds >= 60)
		warn("%s: this takes %.0f minutes or more", what, seconds / 60);
}

/* BYTES in the largest binary unit it fills at least once, one decimal:
 * "512 bytes", "1.0 MiB", "438.2 GiB". */
static void size_text(uint64_t bytes, char *buf, size_t size)
{
	static const char *const units[] = {"KiB", "MiB", "GiB", "TiB", "PiB", "EiB"};
	if (bytes < 1024) {
		snprintf(buf, size, "%" PRIu64 " bytes", bytes);
		return;
	}
	double v = (double)bytes / 1024;
	size_t u = 0;
	for (; v >= 1024 && u + 1 < sizeof units / sizeof *units; u++)
		v /= 1024;
	snprintf(buf, size, "%.1f %s", v, units[u]);
}

static void need_memory(const nim_game *g, bool grundy, uint64_t limit)
{
	uint64_t n = nim_positions(g), bytes = nim_solve_bytes(g, grundy);
	if (n == 0 || bytes > limit) {
		char need[32], have[32];
		size_text(n == 0 ? UINT64_MAX : bytes, need, sizeof need);
		size_text(limit, have, sizeof have);
		die("the table needs %s%s, more than --max-memory (%s); use --count or --p-only, or "
		    "smaller heaps",
		    n == 0 ? "over " : "", need, have);
	}
}

/* Seconds the solver needs for G at the least (children visited). */
static double solve_seconds(const nim_game *g)
{
	double per = g->kind == NIM_SUBTRACT ? (double)g->m * g->nsub : (double)g->m + 1;
	return (double)nim_positions(g) * per / VISITS_PER_SECOND;
}

/* The full table from the solver, streamed row by row. */
static void write_table(const nim_game *g, uint64_t limit, bool p_only, bool quiet, output *o)
{
	need_memory(g, !p_only, limit);
	expect_time(solve_seconds(g) + (double)nim_positions(g) / ROWS_PER_SECOND, "the table");
	nim_table *t = nim_solve(g, !p_only);
	uint32_t h[NIM_MAX_HEAPS] = {0}, mv[NIM_MAX_HEAPS];
	header(o, g->m, p_only);
	progress pr;
	progress_start(&pr, quiet, "positions", t->n);
	for (uint64_t i = 0; i < t->n; i++) {
		progress_tick(&pr, i);
		if (!p_only || !t->outcome[i]) {
			put_position(o, h, g->m);
			if (!p_only) {
				output_field(o, t->outcome[i] ? "N" : "P");
				if (t->grundy)
					output_int(o, t->grundy[i]);
				else
					output_na(o);
				output_int(o, t->rem[i]);
				/* Nim's winning move by Bouton's rule (tests check it
				 * lands on the solver's P positions); others by search. */
				bool found = false;
				if (t->outcome[i] && g->kind == NIM_NIM) {
					memcpy(mv, h, sizeof mv);
					found = nim_bouton_move(mv, g->m, g->misere);
				} else if (t->outcome[i]) {
					uint64_t w = nim_winning_move(t, i);
					if ((found = w != NIM_NONE))
						nim_decode(g, w, mv);
				}
				if (found)
					put_move(o, mv, g->m);
				else
					output_na(o);
			}
			output_end_row(o);
		}
		for (int k = 0; k < g->m && ++h[k] > g->max[k]; k++)
			h[k] = 0;
	}
	progress_end(&pr, t->n);
	nim_table_free(t);
}

/* Nim's P positions by Bouton's rule, without a table and without
 * visiting the N positions: heap 1 is fixed by the others (the nim-sum
 * of the others, or in misere play with no other heap above 1 that sum
 * XOR 1), so the others are enumerated in index order. */
static void nim_p_only(const nim_game *g, bool quiet, output *o)
{
	uint32_t h[NIM_MAX_HEAPS] = {0};
	if (nim_positions(g) == 0)
		die("too many positions (over 2^62)");
	expect_time((double)nim_count_p(g) / ROWS_PER_SECOND, "the P positions");
	header(o, g->m, true);
	/* Counted in positions of the heaps but the first. */
	progress pr;
	progress_start(&pr, quiet, "positions", nim_positions(g) / (g->max[0] + 1ull));
	for (uint64_t done = 0;; done++) {
		progress_tick(&pr, done);
		uint32_t x = 0;
		bool big = false;
		for (int i = 1; i < g->m; i++) {
			x ^= h[i];
			big |= h[i] > 1;
		}
		h[0] = g->misere && !big ? x ^ 1 : x;
		if (h[0] <= g->max[0]) {
			put_position(o, h, g->m);
			output_end_row(o);
		}
		int k = 1;
		for (; k < g->m && ++h[k] > g->max[k]; k++)
			h[k] = 0;
		if (k == g->m) {
			progress_end(&pr, done + 1);
			break;
		}
	}
}

/* Wythoff's P positions in index order (heap 2, then heap 1) without a
 * table: every heap 2 size y has one partner x (nim_wythoff_partner).
 * Walked along the Beatty pairs: y is the lower member of the next pair
 * not yet met as a lower one (whose upper is y + k) unless it is the upper
 * member of the next pair not yet met as an upper one. */
static void wythoff_p_only(const nim_game *g, bool quiet, output *o)
{
	expect_time((double)nim_wythoff_count_p(g) / ROWS_PER_SECOND, "the P positions");
	header(o, 2, true);
	uint64_t klow = 1, kup = 1, a, b;
	nim_wythoff_pair(kup, &a, &b);
	progress pr;
	progress_start(&pr, quiet, "heap sizes", g->max[1] + 1ull);
	for (uint64_t y = 0; y <= g->max[1]; y++) {
		progress_tick(&pr, y);
		uint64_t x;
		if (y == 0) {
			x = 0;
		} else if (y == b) {
			x = a;
			nim_wythoff_pair(++kup, &a, &b);
		} else {
			x = y + klow++;
		}
		if (g->misere && y <= 2)
			x = nim_wythoff_partner(y, true);
		if (x <= g->max[0]) {
			output_int(o, (int64_t)x);
			output_int(o, (int64_t)y);
			output_end_row(o);
		}
	}
	progress_end(&pr, g->max[1] + 1ull);
}

/* Octal games: heap sizes and the sets search's bounds. */
#define OCTAL_SETS 3000000
#define OCTAL_SETS_HEAP 48 /* the sets grow like partitions of the heap */

/* The Grundy values of an octal game's heaps 0..N, or die saying why not. */
static void octal_values(const nim_game *g, uint32_t n, uint64_t limit, nim_octal_seq *s)
{
	const char *why = nim_octal_values(g, n, limit, OCTAL_MAX_WORK, s);
	if (why)
		die("%s", why);
}

static void write_count(const nim_game *g, uint64_t limit, output *o)
{
	uint64_t n = nim_positions(g), p = 0;
	if (n == 0)
		die("too many positions to count (over 2^62)");
	if (g->kind == NIM_NIM) {
		p = nim_count_p(g);
	} else if (g->kind == NIM_WYTHOFF) {
		p = nim_wythoff_count_p(g);
	} else if (g->kind == NIM_OCTAL && !g->misere) {
		nim_octal_seq s;
		octal_values(g, g->max[0], limit, &s);
		for (uint64_t h = 0; h <= g->max[0]; h++)
			p += nim_octal_value(&s, h) == 0;
		nim_octal_seq_free(&s);
	} else if (g->kind == NIM_OCTAL) {
		uint32_t m = g->max[0];
		uint8_t out[OCTAL_SETS_HEAP + 1];
		uint32_t rem[OCTAL_SETS_HEAP + 1];
		char mv[OCTAL_SETS_HEAP + 1][16];
		if (m > OCTAL_SETS_HEAP || !nim_octal_sets(g, m, OCTAL_SETS, out, rem, mv))
			die("misere play needs the game on sets of heaps, tabled up to heap %d; use a smaller --max",
			    OCTAL_SETS_HEAP);
		for (uint32_t h = 0; h <= m; h++)
			p += out[h] == 0;
	} else {
		need_memory(g, false, limit);
		expect_time(solve_seconds(g), "the count");
		nim_table *t = nim_solve(g, false);
		for (uint64_t i = 0; i < n; i++)
			p += t->outcome[i] == 0;
		nim_table_free(t);
	}
	static const char *const hdr[] = {"outcome", "count"};
	output_row(o, hdr, 2);
	output_field(o, "P");
	output_uint(o, p);
	output_end_row(o);
	output_field(o, "N");
	output_uint(o, n - p);
	output_end_row(o);
}

/* An octal heap's row: outcome, Grundy value (normal play), remoteness
 * (from the sets search, up to heap 48), a fastest winning move. */
static void octal_row(const nim_game *g, nim_octal_seq *s, uint32_t h, bool sets,
		      const uint8_t *outcome, const uint32_t *rem, char (*mv)[16], output *o)
{
	char move[32] = "";
	bool n_pos;
	if (sets) {
		n_pos = outcome[h];
		memcpy(move, mv[h], 16);
	} else {
		uint32_t a, b;
		n_pos = nim_octal_value(s, h) != 0;
		if (n_pos && nim_octal_winning_move(g, s, h, &a, &b))
			nim_octal_move_text(a, b, move, sizeof move);
	}
	output_int(o, h);
	output_field(o, n_pos ? "N" : "P");
	if (s)
		output_int(o, nim_octal_value(s, h));
	else
		output_na(o);
	if (sets)
		output_int(o, rem[h]);
	else
		output_na(o);
	output_field(o, move);
	output_end_row(o);
}

/* Octal games, one heap of each size: Grundy values (normal play), and
 * outcome, remoteness and a fastest winning move from the game on sets of
 * heaps, which a heap breaks into. That search is refused past a bound on
 * the sets it visits: in normal play the Grundy values still decide the
 * outcome and a winning move, in misere play nothing does. */
static void write_octal(const nim_game *g, uint64_t limit, bool p_only, output *o)
{
	uint32_t n = g->max[0], small = n < OCTAL_SETS_HEAP ? n : OCTAL_SETS_HEAP;
	nim_octal_seq seq, *s = NULL;
	if (!g->misere) {
		octal_values(g, n, limit, &seq);
		s = &seq;
	}
	uint8_t outcome[OCTAL_SETS_HEAP + 1];
	uint32_t rem[OCTAL_SETS_HEAP + 1];
	char mv[OCTAL_SETS_HEAP + 1][16];
	bool sets = n <= OCTAL_SETS_HEAP && nim_octal_sets(g, small, OCTAL_SETS, outcome, rem, mv);
	if (!sets && g->misere)
		die("misere play needs the game on sets of heaps, tabled up to heap %d; use a smaller --max",
		    OCTAL_SETS_HEAP);
	expect_time((double)n / ROWS_PER_SECOND, "the table");
	if (p_only) {
		output_field(o, "h1");
		output_end_row(o);
	} else {
		static const char *const hdr[] = {"h1", "outcome", "grundy", "remoteness", "move"};
		output_row(o, hdr, 5);
	}
	for (uint32_t h = 0;; h++) {
		if (p_only && (sets ? outcome[h] == 0 : nim_octal_value(s, h) == 0)) {
			output_int(o, h);
			output_end_row(o);
		} else if (!p_only) {
			octal_row(g, s, h, sets, outcome, rem, mv, o);
		}
		if (h == n)
			break;
	}
	if (!sets && !p_only)
		warn("remoteness left empty: it needs the game on sets of heaps, tabled up to heap %d",
		     OCTAL_SETS_HEAP);
	uint32_t per, pre;
	if (s && nim_octal_seq_period(g, s, n, &per, &pre))
		warn("period %u from heap %u on (pre-period %u)", per, pre, pre);
	else if (s)
		warn("no period found up to heap %u", n);
	if (s)
		nim_octal_seq_free(s);
}

/* Positions read for --advise: heaps, and the line each came from. */
typedef struct {
	uint32_t (*h)[NIM_MAX_HEAPS];
	long *line;
	size_t n;
	int m;
	const char *path;
	long end; /* the line where the input ended */
} positions;

/* Stops at a heap's first option, keeping the heaps it leaves in ARG. */
static bool option_any(uint32_t a, uint32_t b, void *arg)
{
	if (arg) {
		((uint32_t *)arg)[0] = a;
		((uint32_t *)arg)[1] = b;
	}
	return true;
}

/* --advise for octal games in normal play: the Grundy value of the
 * position is the nim-sum of its heaps'; a move on one heap that makes it
 * 0 wins. The move is written with the changed heap in place ("a+b" when
 * it splits). */
static void octal_advise(const nim_game *g, const positions *ps, uint64_t seed, uint64_t limit,
			 output *o)
{
	if (g->misere)
		die_usage("--advise plays octal games in normal play only");
	uint32_t top = 0;
	for (size_t r = 0; r < ps->n; r++)
		for (int i = 0; i < ps->m; i++)
			if (ps->h[r][i] > top)
				top = ps->h[r][i];
	nim_octal_seq s;
	octal_values(g, top, limit, &s);
	advise_header(o, ps->m);
	for (size_t r = 0; r < ps->n; r++) {
		const uint32_t *h = ps->h[r];
		uint32_t x = 0, a = 0, b = 0;
		for (int i = 0; i < ps->m; i++)
			x ^= nim_octal_value(&s, h[i]);
		int at = -1;
		for (int i = 0; i < ps->m && at < 0 && x; i++)
			if (nim_octal_first_option(g, &s, h[i], nim_octal_value(&s, h[i]) ^ x, &a, &b))
				at = i;
		if (at < 0) { /* P: a legal move on a random heap that has one */
			rng gen;
			rng_stream(&gen, seed, r);
			int movable = 0;
			for (int i = 0; i < ps->m; i++)
				movable += nim_octal_options(g, h[i], option_any, NULL);
			if (movable) {
				int pick = (int)rng_below(&gen, (uint64_t)movable);
				for (int i = 0; i < ps->m && at < 0; i++) {
					uint32_t ab[2];
					if (nim_octal_options(g, h[i], option_any, ab) && pick-- == 0)
						at = i, a = ab[0], b = ab[1];
				}
			}
		}
		put_position(o, h, ps->m);
		output_field(o, x ? "N" : "P");
		if (at < 0) {
			output_na(o);
		} else {
			char buf[NIM_MAX_HEAPS * 24], *p = buf;
			for (int i = 0; i < ps->m; i++) {
				if (i)
					*p++ = ' ';
				if (i != at)
					p += sprintf(p, "%u", h[i]);
				else
					nim_octal_move_text(a, b, p, 24), p += strlen(p);
			}
			output_field(o, buf);
		}
		output_end_row(o);
	}
	nim_octal_seq_free(&s);
}

/* Reads positions for --advise: a header line naming h1..hM, or lines of
 * numbers separated by blanks, commas or tabs. */
static void read_positions(const char *path, positions *ps)
{
	input_file *f = input_open(path);
	const char *line;
	size_t len, cap = 0;
	*ps = (positions){.m = -1, .path = path};
	while ((line = input_getline(f, &len))) {
		long lineno = input_lineno(f);
		if (input_line_has_nul(f))
			die_at(path, lineno, "NUL byte in the line");
		char *s = xstrndup(line, len), *save = NULL;
		uint32_t h[NIM_MAX_HEAPS];
		int k = 0;
		bool header_line = false;
		for (char *tok = strtok_r(s, " \t,\r\n", &save); tok; tok = strtok_r(NULL, " \t,\r\n", &save)) {
			if (tok[0] == 'h' && ps->n == 0 && ps->m < 0) {
				header_line = true;
				continue;
			}
			int64_t v;
			if (k == NIM_MAX_HEAPS)
				die_at(path, lineno, "more than %d heaps", NIM_MAX_HEAPS);
			if (!util_parse_i64(tok, 0, NIMRUN_MAX_HEAP, &v))
				die_at(path, lineno, "'%s' is not a heap size from 0 to %u", tok, NIMRUN_MAX_HEAP);
			h[k++] = (uint32_t)v;
		}
		free(s);
		if (header_line || k == 0)
			continue;
		if (ps->m < 0)
			ps->m = k;
		if (k != ps->m)
			die_at(path, lineno, "expected %d heaps, found %d", ps->m, k);
		size_t c = cap;
		util_grow((void **)&ps->h, &cap, ps->n + 1, sizeof *ps->h);
		if (c != cap)
			ps->line = xrealloc(ps->line, cap * sizeof *ps->line);
		memcpy(ps->h[ps->n], h, sizeof h);
		ps->line[ps->n++] = lineno;
	}
	ps->end = input_lineno(f) + 1;
	input_close(f);
	if (ps->m < 0)
		die_at(path, ps->end, "no positions to advise on");
}

/* No winning move from H: take one or two stones from a random heap (of a
 * subtraction game, its smallest amount), which keeps the game long and
 * the opponent's chances to err many. False when no heap can move. */
static bool random_take(const nim_game *g, const uint32_t *h, int m, rng *gen, uint32_t *mv)
{
	uint32_t least = g->kind == NIM_SUBTRACT ? g->sub[0] : 1;
	int nonempty = 0;
	for (int i = 0; i < m; i++)
		nonempty += h[i] >= least;
	if (!nonempty)
		return false;
	int pick = (int)rng_below(gen, (uint64_t)nonempty), i = 0;
	for (;; i++)
		if (h[i] >= least && pick-- == 0)
			break;
	uint32_t take = g->kind == NIM_SUBTRACT ? g->sub[0] : h[i] >= 2 && rng_below(gen, 2) ? 2 : 1;
	mv[i] = h[i] - take;
	return true;
}

/* The perfect player's move from each position of PATH. */
static void advise(nim_game *g, const char *path, uint64_t seed, uint64_t limit, output *o)
{
	positions ps;
	read_positions(path, &ps);
	int m = ps.m;
	if (g->kind == NIM_WYTHOFF && m != 2)
		die_at(path, ps.line[0], "wythoff positions have 2 heaps, not %d", m);
	if (g->kind == NIM_OCTAL) {
		octal_advise(g, &ps, seed, limit, o);
		free(ps.h);
		free(ps.line);
		return;
	}
	g->m = m;
	nim_table *t = NULL;
	if (g->kind == NIM_SUBTRACT) { /* a table just large enough for the input */
		for (int i = 0; i < m; i++)
			g->max[i] = 0;
		for (size_t r = 0; r < ps.n; r++)
			for (int i = 0; i < m; i++)
				if (ps.h[r][i] > g->max[i])
					g->max[i] = ps.h[r][i];
		need_memory(g, false, limit);
		expect_time(solve_seconds(g), "the table of the positions");
		t = nim_solve(g, false);
	}
	advise_header(o, m);
	for (size_t r = 0; r < ps.n; r++) {
		uint32_t *h = ps.h[r], mv[NIM_MAX_HEAPS];
		memcpy(mv, h, sizeof mv);
		bool win;
		if (t) {
			uint64_t idx = nim_encode(g, h), w = nim_winning_move(t, idx);
			win = t->outcome[idx] == 1;
			if (w != NIM_NONE)
				nim_decode(g, w, mv);
		} else if (g->kind == NIM_WYTHOFF) {
			win = nim_wythoff_move(mv, g->misere) || (g->misere && h[0] == 0 && h[1] == 0);
		} else {
			win = !nim_bouton_p(h, m, g->misere);
			if (win)
				nim_bouton_move(mv, m, g->misere);
		}
		bool moved = memcmp(mv, h, (size_t)m * sizeof *h) != 0;
		if (!moved) {
			rng gen;
			rng_stream(&gen, seed, r);
			moved = random_take(g, h, m, &gen, mv);
		}
		put_position(o, h, m);
		output_field(o, win ? "N" : "P");
		if (moved)
			put_move(o, mv, m);
		else
			output_na(o);
		output_end_row(o);
	}
	free(ps.h);
	free(ps.line);
	nim_table_free(t);
}

int nimrun_main(nimrun_opts *o)
{
	nim_game *g = &o->game;
	const run_opts *c = &o->common;
	output *out = output_open(c->out.path, &c->out.opts);
	if (o->mode == NIMRUN_ADVISE)
		advise(g, c->nfiles ? c->files[0] : "-", c->seed, o->max_memory, out);
	else if (o->mode == NIMRUN_COUNT)
		write_count(g, o->max_memory, out);
	else if (g->kind == NIM_OCTAL)
		write_octal(g, o->max_memory, o->mode == NIMRUN_P_ONLY, out);
	else if (o->mode == NIMRUN_P_ONLY && g->kind == NIM_NIM)
		nim_p_only(g, c->out.quiet, out);
	else if (o->mode == NIMRUN_P_ONLY && g->kind == NIM_WYTHOFF)
		wythoff_p_only(g, c->out.quiet, out);
	else
		write_table(g, o->max_memory, o->mode == NIMRUN_P_ONLY, c->out.quiet, out);
	output_close(out);
	return 0;
}
