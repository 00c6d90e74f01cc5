#include "run/nimrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/input.h"
#include "core/output.h"
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

static void need_memory(const nim_game *g, bool grundy, uint64_t limit)
{
	uint64_t n = nim_positions(g), bytes = nim_solve_bytes(g, grundy);
	if (n == 0 || bytes > limit)
		die("the table needs %s%.1f GiB (more than --max-memory); use --count or --p-only, or "
		    "smaller heaps",
		    n == 0 ? "over " : "", n == 0 ? 1e9 : (double)bytes / (1 << 30));
}

/* The full table from the solver, streamed row by row. */
static void write_table(const nim_game *g, uint64_t limit, bool p_only, output *o)
{
	need_memory(g, !p_only, limit);
	nim_table *t = nim_solve(g, !p_only);
	uint32_t h[NIM_MAX_HEAPS] = {0}, mv[NIM_MAX_HEAPS];
	header(o, g->m, p_only);
	for (uint64_t i = 0; i < t->n; i++) {
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
	nim_table_free(t);
}

/* Nim's P positions by Bouton's rule, without a table. */
static void nim_p_only(const nim_game *g, output *o)
{
	uint32_t h[NIM_MAX_HEAPS] = {0};
	uint64_t n = nim_positions(g);
	if (n == 0)
		die("too many positions");
	header(o, g->m, true);
	for (uint64_t i = 0; i < n; i++) {
		if (nim_bouton_p(h, g->m, g->misere)) {
			put_position(o, h, g->m);
			output_end_row(o);
		}
		for (int k = 0; k < g->m && ++h[k] > g->max[k]; k++)
			h[k] = 0;
	}
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Wythoff's P positions within the bounds from the Beatty pairs (misere:
 * the same but for the six small positions tests/unit/test_heap.c names). */
static uint64_t *wythoff_p(const nim_game *g, size_t *count)
{
	uint64_t w0 = (uint64_t)g->max[0] + 1;
	size_t cap = 64, n = 0;
	uint64_t *v = xmalloc(cap * sizeof *v);
	for (uint64_t k = 0;; k++) {
		uint64_t a, b;
		nim_wythoff_pair(k, &a, &b);
		if (a > g->max[0] && a > g->max[1])
			break;
		uint64_t pair[2][2] = {{a, b}, {b, a}};
		for (int s = 0; s < (k ? 2 : 1); s++) {
			uint64_t x = pair[s][0], y = pair[s][1];
			if (g->misere && ((x == 0 && y == 0) || x + y == 3))
				continue; /* (0,0), (1,2), (2,1) are N in misere play */
			if (x <= g->max[0] && y <= g->max[1]) {
				util_grow((void **)&v, &cap, n + 1, sizeof *v);
				v[n++] = y * w0 + x;
			}
		}
	}
	if (g->misere) { /* and (0,1), (1,0), (2,2) are P */
		static const uint64_t extra[3][2] = {{0, 1}, {1, 0}, {2, 2}};
		for (int i = 0; i < 3; i++)
			if (extra[i][0] <= g->max[0] && extra[i][1] <= g->max[1]) {
				util_grow((void **)&v, &cap, n + 1, sizeof *v);
				v[n++] = extra[i][1] * w0 + extra[i][0];
			}
	}
	qsort(v, n, sizeof *v, cmp_u64);
	*count = n;
	return v;
}

static void write_count(const nim_game *g, uint64_t limit, output *o)
{
	uint64_t n = nim_positions(g), p = 0;
	if (n == 0)
		die("too many positions to count");
	if (g->kind == NIM_NIM) {
		uint32_t h[NIM_MAX_HEAPS] = {0};
		for (uint64_t i = 0; i < n; i++) {
			p += nim_bouton_p(h, g->m, g->misere);
			for (int k = 0; k < g->m && ++h[k] > g->max[k]; k++)
				h[k] = 0;
		}
	} else if (g->kind == NIM_WYTHOFF) {
		size_t c;
		free(wythoff_p(g, &c));
		p = c;
	} else {
		need_memory(g, false, limit);
		nim_table *t = nim_solve(g, false);
		for (uint64_t i = 0; i < n; i++)
			p += t->outcome[i] == 0;
		nim_table_free(t);
	}
	static const char *const hdr[] = {"outcome", "count"};
	output_row(o, hdr, 2);
	output_field(o, "P");
	output_int(o, (int64_t)p);
	output_end_row(o);
	output_field(o, "N");
	output_int(o, (int64_t)(n - p));
	output_end_row(o);
}

/* The first option of a heap whose Grundy value is TARGET (any option when
 * V is NULL), with the heaps it leaves. */
typedef struct {
	const uint32_t *v;
	uint32_t target, a, b;
} octal_option;

static bool option_with_value(uint32_t a, uint32_t b, void *arg)
{
	octal_option *o = arg;
	if (o->v && (o->v[a] ^ o->v[b]) != o->target)
		return false;
	o->a = a, o->b = b;
	return true;
}

/* Octal games, one heap of each size: Grundy values (normal play), and
 * outcome, remoteness and a fastest winning move from the game on sets of
 * heaps, which a heap breaks into. That search is refused past a bound on
 * the sets it visits: in normal play the Grundy values still decide the
 * outcome and a winning move, in misere play nothing does. */
#define OCTAL_SETS 3000000
#define OCTAL_SETS_HEAP 48 /* the sets grow like partitions of the heap */

static void write_octal(const nim_game *g, output *o)
{
	uint32_t n = g->max[0];
	uint32_t *v = g->misere ? NULL : nim_octal_grundy(g, n);
	uint8_t *outcome = xmalloc((size_t)n + 1);
	uint32_t *rem = xmalloc(((size_t)n + 1) * sizeof *rem);
	char(*mv)[16] = xmalloc(((size_t)n + 1) * sizeof *mv);
	bool sets = n <= OCTAL_SETS_HEAP && nim_octal_sets(g, n, OCTAL_SETS, outcome, rem, mv);
	if (!sets && g->misere)
		die("misere play needs the game on sets of heaps, tabled up to heap %d; use a smaller --max",
		    OCTAL_SETS_HEAP);
	static const char *const hdr[] = {"h1", "outcome", "grundy", "remoteness", "move"};
	output_row(o, hdr, 5);
	for (uint32_t h = 0; h <= n; h++) {
		output_int(o, h);
		if (sets) {
			output_field(o, outcome[h] ? "N" : "P");
		} else {
			output_field(o, v[h] ? "N" : "P");
			octal_option want = {.v = v, .target = 0};
			mv[h][0] = '\0';
			if (v[h] && nim_octal_options(g, h, option_with_value, &want))
				nim_octal_move_text(want.a, want.b, mv[h], sizeof mv[h]);
		}
		if (v)
			output_int(o, v[h]);
		else
			output_na(o);
		if (sets)
			output_int(o, rem[h]);
		else
			output_na(o);
		output_field(o, mv[h]);
		output_end_row(o);
	}
	if (!sets)
		warn("remoteness left empty: it needs the game on sets of heaps, tabled up to heap %d",
		     OCTAL_SETS_HEAP);
	uint32_t per, pre;
	if (v && nim_octal_period(g, v, n, &per, &pre))
		warn("period %u from heap %u on (pre-period %u)", per, pre, pre);
	else if (v)
		warn("no period found up to heap %u", n);
	free(v);
	free(outcome);
	free(rem);
	free(mv);
}

/* --advise for octal games in normal play: the Grundy value of the
 * position is the nim-sum of its heaps'; a move on one heap that makes it
 * 0 wins. The move is written with the changed heap in place ("a+b" when
 * it splits). */
static void octal_advise(const nim_game *g, uint32_t (*pos)[NIM_MAX_HEAPS], size_t n, int m,
			 uint64_t seed, output *o)
{
	if (g->misere)
		die_usage("--advise plays octal games in normal play only");
	uint32_t top = 0;
	for (size_t r = 0; r < n; r++)
		for (int i = 0; i < m; i++)
			if (pos[r][i] > top)
				top = pos[r][i];
	if (top > 100000)
		die("octal heaps up to 100000 only, not %u", top);
	uint32_t *v = nim_octal_grundy(g, top);
	advise_header(o, m);
	for (size_t r = 0; r < n; r++) {
		uint32_t *h = pos[r], x = 0;
		for (int i = 0; i < m; i++)
			x ^= v[h[i]];
		int at = -1;
		octal_option opt = {.v = v};
		for (int i = 0; i < m && at < 0 && x; i++) {
			opt.target = v[h[i]] ^ x;
			if (nim_octal_options(g, h[i], option_with_value, &opt))
				at = i;
		}
		if (at < 0) { /* P: a legal move on a random heap that has one */
			rng gen;
			rng_stream(&gen, seed, r);
			octal_option any = {0};
			int movable = 0;
			for (int i = 0; i < m; i++)
				movable += nim_octal_options(g, h[i], option_with_value, &any);
			if (movable) {
				int pick = (int)rng_below(&gen, (uint64_t)movable);
				for (int i = 0; i < m && at < 0; i++)
					if (nim_octal_options(g, h[i], option_with_value, &any) && pick-- == 0)
						at = i, opt = any;
			}
		}
		put_position(o, h, m);
		output_field(o, x ? "N" : "P");
		if (at < 0) {
			output_na(o);
		} else {
			char buf[NIM_MAX_HEAPS * 24], *p = buf;
			for (int i = 0; i < m; i++) {
				if (i)
					*p++ = ' ';
				if (i != at)
					p += sprintf(p, "%u", h[i]);
				else
					nim_octal_move_text(opt.a, opt.b, p, 24), p += strlen(p);
			}
			output_field(o, buf);
		}
		output_end_row(o);
	}
	free(v);
}

/* Reads positions for --advise: a header line naming h1..hM, or lines of
 * numbers separated by blanks, commas or tabs. Sets *M to the heaps of a
 * position and *N to their number. */
static uint32_t (*read_positions(const char *path, int *m, size_t *n))[NIM_MAX_HEAPS]
{
	input_file *f = input_open(path);
	const char *line;
	size_t len, cap = 0;
	uint32_t (*pos)[NIM_MAX_HEAPS] = NULL;
	*n = 0, *m = -1;
	while ((line = input_getline(f, &len))) {
		long lineno = input_lineno(f);
		if (input_line_has_nul(f))
			die_at(path, lineno, "NUL byte in the line");
		char *s = xstrndup(line, len), *save = NULL;
		uint32_t h[NIM_MAX_HEAPS];
		int k = 0;
		bool header_line = false;
		for (char *tok = strtok_r(s, " \t,\r\n", &save); tok; tok = strtok_r(NULL, " \t,\r\n", &save)) {
			if (tok[0] == 'h' && *n == 0 && *m < 0) {
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
		if (*m < 0)
			*m = k;
		if (k != *m)
			die_at(path, lineno, "expected %d heaps, found %d", *m, k);
		util_grow((void **)&pos, &cap, *n + 1, sizeof *pos);
		memcpy(pos[(*n)++], h, sizeof h);
	}
	input_close(f);
	if (*m < 0)
		die("%s: no positions to advise on", path);
	return pos;
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
	int m;
	size_t n;
	uint32_t (*pos)[NIM_MAX_HEAPS] = read_positions(path, &m, &n);
	if (g->kind == NIM_WYTHOFF && m != 2)
		die("wythoff positions have 2 heaps, not %d", m);
	if (g->kind == NIM_OCTAL) {
		octal_advise(g, pos, n, m, seed, o);
		free(pos);
		return;
	}
	g->m = m;
	nim_table *t = NULL;
	if (g->kind != NIM_NIM) { /* a table just large enough for the input */
		for (int i = 0; i < m; i++)
			g->max[i] = 0;
		for (size_t r = 0; r < n; r++)
			for (int i = 0; i < m; i++)
				if (pos[r][i] > g->max[i])
					g->max[i] = pos[r][i];
		need_memory(g, false, limit);
		t = nim_solve(g, false);
	}
	advise_header(o, m);
	for (size_t r = 0; r < n; r++) {
		uint32_t *h = pos[r], mv[NIM_MAX_HEAPS];
		memcpy(mv, h, sizeof mv);
		bool win;
		if (t) {
			uint64_t idx = nim_encode(g, h), w = nim_winning_move(t, idx);
			win = t->outcome[idx] == 1;
			if (w != NIM_NONE)
				nim_decode(g, w, mv);
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
	free(pos);
	nim_table_free(t);
}

int nimrun_main(nimrun_opts *o)
{
	nim_game *g = &o->game;
	const run_opts *c = &o->common;
	output *out = output_open(c->out.path, &c->out.opts);
	if (o->mode == NIMRUN_ADVISE) {
		advise(g, c->nfiles ? c->files[0] : "-", c->seed, o->max_memory, out);
	} else if (o->mode == NIMRUN_COUNT) {
		write_count(g, o->max_memory, out);
	} else if (g->kind == NIM_OCTAL) {
		write_octal(g, out);
	} else if (o->mode == NIMRUN_P_ONLY && g->kind == NIM_NIM) {
		nim_p_only(g, out);
	} else if (o->mode == NIMRUN_P_ONLY && g->kind == NIM_WYTHOFF) {
		size_t n;
		uint64_t *v = wythoff_p(g, &n);
		header(out, 2, true);
		for (size_t i = 0; i < n; i++) {
			output_int(out, (int64_t)(v[i] % ((uint64_t)g->max[0] + 1)));
			output_int(out, (int64_t)(v[i] / ((uint64_t)g->max[0] + 1)));
			output_end_row(out);
		}
		free(v);
	} else {
		write_table(g, o->max_memory, o->mode == NIMRUN_P_ONLY, out);
	}
	output_close(out);
	return 0;
}
