#include "run/calcrun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "calc/calcbatch.h"
#include "core/carry.h"
#include "core/output.h"
#include "core/table.h"
#include "core/util.h"

typedef struct {
	uint8_t (*deck)[52];
	size_t n, cap;
	carry cols; /* the tables' other columns */
	table *reading; /* kept reachable, so a die() while reading leaks nothing */
} deals;

static void read_decks(deals *ds, const char *path, int variant)
{
	table *t = ds->reading = table_open(path, NULL);
	int cd = table_need_col(t, "deck");
	carry_table(&ds->cols, t, &cd, 1);
	while (table_read_row(t)) {
		util_grow((void **)&ds->deck, &ds->cap, ds->n + 1, sizeof *ds->deck);
		const char *err = calc_parse_deck(table_field(t, (size_t)cd), variant, ds->deck[ds->n++]);
		if (err)
			die_at(table_name(t), table_line(t), "%s", err);
		carry_row(&ds->cols, t);
	}
	table_close(t);
	ds->reading = NULL;
}

static void deals_free(deals *ds)
{
	carry_free(&ds->cols);
	free(ds->deck);
}

static const char *variant_name(int v)
{
	static const char *const names[] = {"standard", "no-foundations", "three-piles",
					    "no-foundations+three-piles"};
	return names[v & 3];
}

/* Plays one game from S with the player; fills MOVES (names joined by
 * spaces) when asked. */
static void play(calcrun_opts *o, calc_state *s, rng *r, char *moves, size_t *mlen)
{
	*mlen = 0;
	while (!calc_over(s)) {
		int m = calcplay_move(&o->player, s, r);
		if (m < 0 || !calc_legal(s, m))
			die("internal error: the %s player chose an illegal move", o->policy_name);
		if (moves) {
			if (*mlen)
				moves[(*mlen)++] = ' ';
			calc_move_name(s, m, moves + *mlen);
			*mlen += strlen(moves + *mlen);
		}
		calc_play(s, m);
	}
}

/* The rows' writer. Random games without their moves are played a batch
 * at a time by calcbatch (the same draws as the player's, without the
 * move checks), so the games wait here until the batch is full. */
enum { BATCH = 64 };
typedef struct {
	calcrun_opts *o;
	const deals *ds;
	output *out;
	size_t n, deal[BATCH];
	int64_t id[BATCH];
	uint8_t deck[BATCH][52];
	rng gen[BATCH];
	calcbatch_outcome res[BATCH];
} rows;

static void write_row(rows *w, size_t deal, int64_t id, calcbatch_outcome res, const char *moves,
		      size_t mlen)
{
	calcrun_opts *o = w->o;
	if (o->nfiles)
		carry_write(&w->ds->cols, deal, w->out);
	output_int(w->out, id);
	output_int(w->out, (int64_t)o->seed);
	output_field(w->out, variant_name(o->variant));
	output_field(w->out, o->policy_name);
	output_int(w->out, res.success);
	output_int(w->out, res.rest);
	output_int(w->out, res.steps);
	if (moves)
		output_field_n(w->out, moves, mlen);
	output_end_row(w->out);
}

static void rows_flush(rows *w)
{
	calcbatch_random(w->o->variant, w->deck, w->gen, w->n, w->res);
	for (size_t i = 0; i < w->n; i++)
		write_row(w, w->deal[i], w->id[i], w->res[i], NULL, 0);
	w->n = 0;
}

static void show_state(FILE *f, const calc_state *s)
{
	fprintf(f, "hand %c  stock %d\n", s->hand ? calc_rank_char(s->hand) : '-',
		s->ncards - s->next);
	for (int k = 0; k < 4; k++) {
		fprintf(f, "F%d ", k + 1);
		for (int n = 0; n < s->found[k]; n++)
			fputc(calc_rank_char(calc_need(k, n)), f);
		if (s->found[k] < 13)
			fprintf(f, " (next %c)", calc_rank_char(calc_need(k, s->found[k])));
		fputc('\n', f);
	}
	for (int w = 0; w < s->npiles; w++) {
		fprintf(f, "W%d%s", w + 1, s->len[w] ? " " : "");
		for (int i = 0; i < s->len[w]; i++)
			fputc(calc_rank_char(s->pile[w][i]), f);
		fputc('\n', f);
	}
}

static void run_show(calcrun_opts *o, const deals *ds)
{
	rng r;
	uint8_t deck[52];
	rng_stream(&r, o->seed, (ds->n ? (uint64_t)1 << 40 : 0) + (uint64_t)o->first);
	if (ds->n)
		memcpy(deck, ds->deck[0], 52);
	else
		calc_shuffle(o->variant, &r, deck);
	calc_state s;
	calc_deal(&s, o->variant, deck);
	char text[53];
	calc_format_deck(deck, calc_stock_size(o->variant), text);
	FILE *f = stdout;
	fprintf(f, "game %lld, seed %llu, %s, %s\ndeck %s\n\n", (long long)o->first,
		(unsigned long long)o->seed, variant_name(o->variant), o->policy_name, text);
	show_state(f, &s);
	while (!calc_over(&s)) {
		int m = calcplay_move(&o->player, &s, &r);
		char name[8];
		calc_move_name(&s, m, name);
		calc_play(&s, m);
		fprintf(f, "\n%d. %s\n", s.steps, name);
		show_state(f, &s);
	}
	fprintf(f, "\n%s, %d cards left\n", calc_success(&s) ? "success" : "failure", calc_rest(&s));
	if (fflush(f) || ferror(f))
		die("write error on standard output");
}

int calcrun_main(calcrun_opts *o)
{
	deals ds = {.cols.label = "deal"};
	for (int i = 0; i < o->nfiles; i++)
		read_decks(&ds, o->files[i], o->variant);
	if (o->show) {
		if (ds.n > 1)
			die("--show draws one game: give one deck, not %zu", ds.n);
		run_show(o, &ds);
		deals_free(&ds);
		return 0;
	}
	output *out = output_open(o->out.path, &o->out.opts);
	if (o->nfiles)
		carry_head(&ds.cols, out);
	static const char *const cols[] = {"game", "seed", "variant", "policy", "success", "rest", "steps"};
	for (size_t k = 0; k < sizeof cols / sizeof *cols; k++)
		output_field(out, cols[k]);
	if (o->moves)
		output_field(out, "moves");
	output_end_row(out);
	size_t ndeals = o->nfiles ? ds.n : 1;
	bool show = !o->quiet && isatty(STDERR_FILENO);
	bool batch = o->player.kind == CALCPLAY_RANDOM && !o->moves;
	size_t total = ndeals * (size_t)o->games, done = 0;
	char moves[52 * 8 * 2];
	rows *w = xcalloc(1, sizeof *w);
	w->o = o;
	w->ds = &ds;
	w->out = out;
	for (size_t p = 0; p < ndeals; p++) {
		for (int64_t k = 0; k < o->games; k++) {
			int64_t id = o->first + k;
			rng r;
			rng_stream(&r, o->seed, (o->nfiles ? (uint64_t)(p + 1) << 40 : 0) + (uint64_t)id);
			uint8_t deck[52];
			if (o->nfiles)
				memcpy(deck, ds.deck[p], 52);
			else
				calc_shuffle(o->variant, &r, deck);
			if (batch) {
				w->deal[w->n] = p;
				w->id[w->n] = id;
				memcpy(w->deck[w->n], deck, 52);
				w->gen[w->n] = r;
				if (++w->n == BATCH)
					rows_flush(w);
			} else {
				calc_state s;
				calc_deal(&s, o->variant, deck);
				size_t mlen;
				play(o, &s, &r, o->moves ? moves : NULL, &mlen);
				write_row(w, p, id, calcbatch_outcome_of(&s), o->moves ? moves : NULL,
					  mlen);
			}
			if (show && (++done & 255) == 0)
				cli_progress(true, "game", done, total);
		}
	}
	rows_flush(w);
	free(w);
	cli_progress(show, "game", total, total);
	output_close(out);
	deals_free(&ds);
	return 0;
}
