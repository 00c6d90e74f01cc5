#include "run/othellorun.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include "core/carry.h"
#include "core/input.h"
#include "core/output.h"
#include "core/progress.h"
#include "core/table.h"
#include "core/util.h"
#include "othello/othello.h"
#include "othello/othelloplay.h"
#include "othello/othellosolve.h"

/* Where a position was read: the table (an index into the FILEs) and
 * the line. */
typedef struct {
	int file;
	long line;
} origin;

typedef struct {
	othello_pos *pos;
	origin *from;   /* by position, when read from tables */
	size_t n, cap, from_cap;
	carry cols; /* the tables' other columns */
	table *reading; /* kept reachable, so a die() while reading leaks nothing */
	bool from_files;
} positions;

/* Plays MOVES onto P: squares and passes, separated by spaces or written
 * together ("f5d6c3", "F5 D6"); false with a message in ERR naming the
 * bad one. */
static bool apply_moves(othello_pos *p, const char *moves, char *err, size_t errsize)
{
	const char *s = moves;
	for (int k = 1;; k++) {
		while (*s == ' ')
			s++;
		if (!*s)
			return true;
		size_t n = strncasecmp(s, "pass", 4) == 0 ? 4 : 2;
		if (strnlen(s, n) < n || s[n - 1] == ' ')
			n = 1;
		int m = othello_parse_move(s, (unsigned)n);
		if (m < 0) {
			n = strcspn(s, " ");
			snprintf(err, errsize, "move %d ('%.*s') is not a square a1..h8 or pass", k,
				 (int)(n < 16 ? n : 16), s);
			return false;
		}
		if (!othello_legal(p, m)) {
			snprintf(err, errsize, "move %d (%.*s) is illegal for %s", k, (int)n, s,
				 p->turn == OTHELLO_BLACK ? "black" : "white");
			return false;
		}
		othello_play(p, m);
		s += n;
	}
}

static void read_table(positions *ps, const char *path, int file)
{
	table *t = ps->reading = table_open(path, NULL);
	const char *name = table_name(t);
	int cb = table_col(t, "board"), ct = table_col(t, "turn"), cm = table_col(t, "moves");
	if (cb < 0 && cm < 0)
		die_at(name, table_header_line(t), "no column 'board' (with 'turn') or 'moves'");
	carry_table(&ps->cols, t, (const int[]){cb, ct, cm}, 3);
	while (table_read_row(t)) {
		long line = table_line(t);
		if ((int64_t)ps->n >= RUN_MAX_POSITIONS)
			die_at(name, line, "more than %lld positions",
			       (long long)RUN_MAX_POSITIONS);
		util_grow((void **)&ps->pos, &ps->cap, ps->n + 1, sizeof *ps->pos);
		util_grow((void **)&ps->from, &ps->from_cap, ps->n + 1, sizeof *ps->from);
		ps->from[ps->n] = (origin){file, line};
		othello_pos *p = &ps->pos[ps->n++];
		othello_start(p);
		char msg[96];
		const char *err = NULL;
		if (cb >= 0)
			err = othello_parse(table_field(t, (size_t)cb), ct >= 0 ? table_field(t, (size_t)ct) : NULL,
					    p);
		if (!err && cm >= 0 && !apply_moves(p, table_field(t, (size_t)cm), msg, sizeof msg))
			err = msg;
		if (err)
			die_at(name, line, "%s", err);
		carry_row(&ps->cols, t);
	}
	table_close(t);
	ps->reading = NULL;
}

static void positions_load(positions *ps, const run_opts *o)
{
	*ps = (positions){.cols.label = "position", .from_files = o->nfiles > 0};
	for (int i = 0; i < o->nfiles; i++)
		read_table(ps, o->files[i], i);
	if (!o->nfiles) {
		ps->pos = xmalloc(sizeof *ps->pos);
		ps->n = ps->cap = 1;
		othello_start(&ps->pos[0]);
	}
}

static void positions_free(positions *ps)
{
	carry_free(&ps->cols);
	free(ps->pos);
	free(ps->from);
}

/* The header: the carried columns when positions came from tables, then
 * COLS (NULL-terminated). */
static void head_position(output *out, const positions *ps, const char *const *cols)
{
	carry_header(ps->from_files ? &ps->cols : NULL, out, cols);
}

static void row_position(output *out, const positions *ps, size_t i)
{
	if (ps->from_files)
		carry_write(&ps->cols, i, out);
}

/* --notation upper: every move written in the tables in capitals (F5,
 * PASS); a setting of the whole run, as the output's format is. */
static bool upper_moves;

/* MOVE's name as the tables write it. */
static const char *move_name(int move, char out[5])
{
	othello_move_name(move, out);
	for (char *c = out; upper_moves && *c; c++)
		*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 'a' + 'A' : *c);
	return out;
}

static const char *side_name(int turn)
{
	return turn == OTHELLO_BLACK ? "black" : "white";
}

/* The number of position I in the streams: 0 for the standard start. */
static uint64_t stream_of(const positions *ps, size_t i)
{
	return ps->from_files ? (uint64_t)(i + 1) : 0;
}

/* Game ID: whether --both-sides gives black's player to white (the second
 * game of each pair). */
static bool swapped(const othellorun_opts *o, int64_t id)
{
	return o->both_sides && id % 2 == 0;
}

static void write_game(output *out, const othellorun_opts *o, const othello_pos *start,
		       const othello_game *g, int64_t id)
{
	char name[5];
	bool sw = swapped(o, id);
	output_int(out, id);
	output_uint(out, o->common.seed);
	output_field(out, sw ? o->white : o->black);
	output_field(out, sw ? o->black : o->white);
	output_field(out, side_name(start->turn));
	if (g->plies)
		output_field(out, move_name(g->moves[0], name));
	else
		output_na(out);
	output_int(out, g->plies);
	int b = __builtin_popcountll(othello_black(&g->end));
	int w = __builtin_popcountll(othello_white(&g->end));
	output_int(out, b);
	output_int(out, w);
	output_field(out, b > w ? "black" : b < w ? "white" : "draw");
	if (o->common.moves) {
		/* "d3 c5 ..." : at most 120 names of 4 characters and spaces. */
		char buf[OTHELLO_MAX_PLIES * 5 + 1];
		size_t len = 0;
		for (int k = 0; k < g->plies; k++) {
			if (k && !o->compact)
				buf[len++] = ' ';
			move_name(g->moves[k], name);
			size_t n = strlen(name);
			memcpy(buf + len, name, n);
			len += n;
		}
		output_field_n(out, buf, len);
	}
	output_end_row(out);
}

/* A match between two players, black's and white's, from START (random
 * ones draw exactly as the batched random playouts do, through the same
 * stream). */
static void play_match(othelloplay *pl[2], const othello_pos *start, rng *r, othello_game *g)
{
	othello_pos p = *start;
	rng_draw d = {.r = r};
	g->plies = 0;
	while (!othello_over(&p)) {
		int m = othelloplay_choose(pl[p.turn], &p, &d);
		if (!othello_legal(&p, m))
			die("internal error: a player chose an illegal move");
		g->moves[g->plies++] = (uint8_t)m;
		othello_play(&p, m);
	}
	g->end = p;
}

static void run_games(othellorun_opts *o, const positions *ps, output *out)
{
	othelloplay *pl = o->player;
	bool random = pl[0].kind == OTHELLOPLAY_RANDOM && pl[1].kind == OTHELLOPLAY_RANDOM;
	const char *cols[] = {"game",	      "seed",	    "black_player", "white_player",
			      "first_player", "first_move", "plies",	    "black_discs",
			      "white_discs",  "winner",	    "moves",	    NULL};
	if (!o->common.moves)
		cols[10] = NULL;
	head_position(out, ps, cols);
	size_t total = ps->n * (size_t)o->common.count, done = 0;
	progress pr;
	progress_start(&pr, o->common.out.quiet, "games", total);
	for (size_t i = 0; i < ps->n; i++) {
		uint64_t pos = stream_of(ps, i);
		othello_pos start[OTHELLO_BATCH];
		rng r[OTHELLO_BATCH];
		othello_game g[OTHELLO_BATCH];
		for (int j = 0; j < OTHELLO_BATCH; j++)
			start[j] = ps->pos[i];
		for (int64_t k = 0; k < o->common.count;) {
			int batch = random ? OTHELLO_BATCH : 1;
			if (batch > o->common.count - k)
				batch = (int)(o->common.count - k);
			for (int j = 0; j < batch; j++)
				rng_stream(&r[j], o->common.seed,
					   rng_key(pos, 0, (uint64_t)(o->common.first + k + j)));
			if (random) {
				othello_random_games(start, r, g, batch, o->common.moves);
			} else {
				bool sw = swapped(o, o->common.first + k);
				othelloplay *match[2] = {&pl[sw], &pl[!sw]};
				play_match(match, start, r, g);
			}
			for (int j = 0; j < batch; j++) {
				row_position(out, ps, i);
				write_game(out, o, start, &g[j], o->common.first + k + j);
			}
			k += batch;
			done += (size_t)batch;
			progress_tick(&pr, done);
		}
	}
	progress_end(&pr, total);
}

static void run_per_move(const othellorun_opts *o, const positions *ps, output *out)
{
	static const char *const cols[] = {"move", "games", "wins", "draws", "losses", "win_rate", NULL};
	head_position(out, ps, cols);
	uint64_t total = 0, done = 0;
	for (size_t i = 0; i < ps->n; i++) {
		const othello_pos *p = &ps->pos[i];
		int n = __builtin_popcountll(othello_moves(p->me, p->opp));
		if (!othello_over(p))
			total += n ? (uint64_t)n : 1; /* a pass */
	}
	progress pr;
	progress_start(&pr, o->common.out.quiet, "playouts", total * (uint64_t)o->per_move);
	for (size_t i = 0; i < ps->n; i++) {
		const othello_pos *root = &ps->pos[i];
		if (othello_over(root))
			continue;
		int moves[64], nm = othello_move_list(root, moves);
		for (int a = 0; a < nm; a++) {
			othello_pos child[OTHELLO_BATCH];
			rng r[OTHELLO_BATCH];
			othello_game g[OTHELLO_BATCH];
			for (int j = 0; j < OTHELLO_BATCH; j++) {
				child[j] = *root;
				othello_play(&child[j], moves[a]);
			}
			uint64_t pos = stream_of(ps, i), sub = (uint64_t)moves[a];
			int64_t wins = 0, draws = 0, losses = 0;
			for (int64_t k = 0; k < o->per_move;) {
				int batch = OTHELLO_BATCH;
				if (batch > o->per_move - k)
					batch = (int)(o->per_move - k);
				for (int j = 0; j < batch; j++)
					rng_stream(&r[j], o->common.seed,
						   rng_key(pos, sub, (uint64_t)(o->common.first + k + j)));
				othello_random_games(child, r, g, batch, false);
				for (int j = 0; j < batch; j++) {
					/* Discs of the side that moved at the root. */
					int mine = __builtin_popcountll(root->turn == OTHELLO_BLACK
						? othello_black(&g[j].end) : othello_white(&g[j].end));
					int theirs = __builtin_popcountll(g[j].end.me | g[j].end.opp) - mine;
					wins += mine > theirs;
					draws += mine == theirs;
					losses += mine < theirs;
				}
				k += batch;
				done += (uint64_t)batch;
				progress_tick(&pr, done);
			}
			char name[5];
			row_position(out, ps, i);
			output_field(out, move_name(moves[a], name));
			output_int(out, o->per_move);
			output_int(out, wins);
			output_int(out, draws);
			output_int(out, losses);
			output_double(out, (double)wins / (double)o->per_move);
			output_end_row(out);
		}
	}
	progress_end(&pr, done);
}

#define PERFT_MIN_RATE_SECONDS 0.001

static void run_perft(const othellorun_opts *o, const positions *ps, output *out)
{
	static const char *const cols[] = {"depth", "leaves", "seconds", "leaves_per_second", NULL};
	head_position(out, ps, cols);
	othello_perft_table *tt = o->hash ? othello_perft_table_new(o->hash) : NULL;
	for (size_t i = 0; i < ps->n; i++) {
		for (int d = 1; d <= o->perft; d++) {
			double t0 = util_seconds(false);
			uint64_t n = tt ? othello_perft_hashed(&ps->pos[i], d, tt) : othello_perft(&ps->pos[i], d);
			double t = util_seconds(false) - t0;
			row_position(out, ps, i);
			char buf[64];
			output_int(out, d);
			output_int(out, (int64_t)n); /* below 2^63 up to OTHELLORUN_MAX_PERFT */
			/* Three significant digits, however short the time: a
			 * fixed number of decimals printed 0.000000 for depth 1. */
			snprintf(buf, sizeof buf, "%.3g", t);
			output_field(out, buf);
			/* Below a millisecond the clock and the call cost more
			 * than the counting: no rate from such a time. */
			snprintf(buf, sizeof buf, "%.0f", t >= PERFT_MIN_RATE_SECONDS ? (double)n / t : 0.0);
			output_field(out, t >= PERFT_MIN_RATE_SECONDS ? buf : "NA");
			output_end_row(out);
		}
	}
	othello_perft_table_free(tt);
}

/* Dies unless every position can be solved: the game goes on, and no
 * more empty squares than --max-empties (each one multiplies the time). */
static void solvable(const othellorun_opts *o, const positions *ps)
{
	for (size_t i = 0; i < ps->n; i++) {
		const othello_pos *p = &ps->pos[i];
		const char *file = ps->from_files ? o->common.files[ps->from[i].file] : NULL;
		long line = ps->from_files ? ps->from[i].line : 0;
		int e = __builtin_popcountll(~(p->me | p->opp));
		const char *why = NULL;
		char msg[160];
		if (othello_over(p)) {
			why = "the game is over: nothing to solve";
		} else if (e > o->max_empties) {
			snprintf(msg, sizeof msg,
				 "%d empty squares, more than --max-empties %d (raise it to solve: "
				 "each empty square multiplies the time)", e, o->max_empties);
			why = msg;
		}
		if (why && file)
			die_at(file, line, "%s", why);
		if (why)
			die("the standard start: %s", why);
	}
}

/* One row: the position's columns, the move, its exact score, the nodes
 * and seconds it took. */
static void solve_row(output *out, const positions *ps, size_t i, int move, int score,
		      uint64_t nodes, double seconds)
{
	char name[5], buf[32];
	row_position(out, ps, i);
	output_field(out, move_name(move, name));
	output_int(out, score);
	output_int(out, (int64_t)nodes);
	snprintf(buf, sizeof buf, "%.6f", seconds);
	output_field(out, buf);
	output_end_row(out);
}

static void run_solve(const othellorun_opts *o, const positions *ps, output *out)
{
	solvable(o, ps);
	static const char *const cols[] = {"move", "score", "nodes", "seconds", NULL};
	head_position(out, ps, cols);
	othellosolve *s = othellosolve_new(OTHELLORUN_SOLVER_BITS);
	progress pr;
	progress_start(&pr, o->common.out.quiet, "positions", ps->n);
	for (size_t i = 0; i < ps->n; i++) {
		const othello_pos *p = &ps->pos[i];
		/* Each position from an empty table: its nodes and time do not
		 * depend on the positions before it. */
		othellosolve_forget(s);
		if (o->solve == 1) {
			uint64_t n0 = othellosolve_nodes(s);
			double t0 = util_seconds(false);
			int move, score = othellosolve_best(s, p, &move);
			solve_row(out, ps, i, move, score, othellosolve_nodes(s) - n0, util_seconds(false) - t0);
		} else {
			int moves[64], nm = othello_move_list(p, moves);
			for (int a = 0; a < nm; a++) {
				uint64_t n0 = othellosolve_nodes(s);
				double t0 = util_seconds(false);
				int score = othellosolve_move(s, p, moves[a]);
				solve_row(out, ps, i, moves[a], score, othellosolve_nodes(s) - n0,
					  util_seconds(false) - t0);
			}
		}
		progress_tick(&pr, i + 1);
	}
	progress_end(&pr, ps->n);
	othellosolve_free(s);
}

/* The board as 8 rows (rank 8 on top, as players see it). */
static void draw_board(FILE *f, const othello_pos *p, uint64_t marks)
{
	uint64_t b = othello_black(p), w = othello_white(p);
	fputs("  a b c d e f g h\n", f);
	for (int row = 7; row >= 0; row--) {
		fprintf(f, "%d", row + 1);
		for (int col = 0; col < 8; col++) {
			int sq = row * 8 + col;
			char c = (b >> sq & 1) ? 'X' : (w >> sq & 1) ? 'O' : (marks >> sq & 1) ? '.' : '-';
			fprintf(f, " %c", c);
		}
		fprintf(f, " %d\n", row + 1);
	}
	fputs("  a b c d e f g h\n", f);
}

static void run_show(othellorun_opts *o, const positions *ps)
{
	othelloplay *pl = o->player;
	rng r;
	rng_stream(&r, o->common.seed, rng_key(stream_of(ps, 0), 0, (uint64_t)o->common.first));
	othello_pos p = ps->pos[0];
	rng_draw d = {.r = &r};
	run_drawing dr;
	FILE *f = run_drawing_open(&dr, &o->common);
	bool sw = swapped(o, o->common.first);
	othelloplay *match[2] = {&pl[sw], &pl[!sw]};
	fprintf(f, "game %lld, seed %llu: black (X) %s, white (O) %s\n\n", (long long)o->common.first,
		(unsigned long long)o->common.seed, sw ? o->white : o->black, sw ? o->black : o->white);
	draw_board(f, &p, othello_moves(p.me, p.opp));
	for (int ply = 1; !othello_over(&p); ply++) {
		int m = othelloplay_choose(match[p.turn], &p, &d);
		char name[5];
		fprintf(f, "\n%d. %s %s\n", ply, side_name(p.turn), othello_move_name(m, name));
		othello_play(&p, m);
		draw_board(f, &p, othello_moves(p.me, p.opp));
		fprintf(f, "X %d  O %d\n", __builtin_popcountll(othello_black(&p)),
			__builtin_popcountll(othello_white(&p)));
	}
	int b = __builtin_popcountll(othello_black(&p)), w = __builtin_popcountll(othello_white(&p));
	fprintf(f, "\n%s\n", b > w ? "black wins" : b < w ? "white wins" : "draw");
	run_drawing_close(&dr, &o->common);
}

static run_opts *create(void)
{
	othellorun_opts *o = xcalloc(1, sizeof *o);
	o->black = o->white = "random";
	o->ucb = 0.5;
	o->threshold = 5;
	o->max_empties = OTHELLOPLAY_MAX_EMPTIES;
	return &o->common;
}

static void need_player(const char *opt, const char *spec, othelloplay *p)
{
	if (!othelloplay_parse(spec, 0.5, 5, p))
		die_usage("%s: '%s' is not random, mc:N, mcts:N, perfect or perfect:N "
			  "(1 <= N <= %d)", opt, spec, OTHELLOPLAY_MAX_PLAYOUTS);
}

/* --notation: a comma-separated list of compact and upper. */
static void parse_notation(othellorun_opts *o, const char *arg)
{
	static const char *const names[] = {"compact", "upper", NULL};
	char *copy = xstrdup(arg), *save = NULL;
	for (char *t = strtok_r(copy, ",", &save); t; t = strtok_r(NULL, ",", &save)) {
		if (cli_choice("--notation", t, names) == 0)
			o->compact = true;
		else
			upper_moves = true;
	}
	free(copy);
}

static void option(run_opts *c, const char *name, const char *arg)
{
	othellorun_opts *o = (othellorun_opts *)c;
	if (!strcmp(name, "black")) {
		o->black = arg;
		need_player("--black", arg, &o->player[OTHELLO_BLACK]);
	} else if (!strcmp(name, "white")) {
		o->white = arg;
		need_player("--white", arg, &o->player[OTHELLO_WHITE]);
	} else if (!strcmp(name, "ucb")) {
		o->ucb = cli_double("--ucb", arg, 0, 100);
		o->mcts_set = true;
	} else if (!strcmp(name, "threshold")) {
		o->threshold = (uint32_t)cli_i64("--threshold", arg, 1, 1000000);
		o->mcts_set = true;
	} else if (!strcmp(name, "per-move")) {
		o->per_move = cli_i64("--per-move", arg, 1, RUN_MAX_GAMES - 1);
	} else if (!strcmp(name, "perft")) {
		o->perft = (int)cli_i64("--perft", arg, 1, OTHELLORUN_MAX_PERFT);
	} else if (!strcmp(name, "hash")) {
		if (!input_parse_size(arg, &o->hash) || o->hash < 4096)
			die_usage("--hash: '%s' is not a size from 4K to 1024T (such as 256M)", arg);
	} else if (!strcmp(name, "solve")) {
		o->solve = o->solve == 2 ? 3 : 1;
	} else if (!strcmp(name, "solve-all")) {
		o->solve = o->solve == 1 ? 3 : 2;
	} else if (!strcmp(name, "both-sides")) {
		o->both_sides = true;
	} else if (!strcmp(name, "notation")) {
		parse_notation(o, arg);
	} else if (!strcmp(name, "max-empties")) {
		o->max_empties = (int)cli_i64("--max-empties", arg, 0, 60);
		o->max_empties_set = true;
	}
}

/* What the options exclude (the options every game shares are checked
 * by playout itself). */
static void check(const othellorun_opts *o)
{
	const run_opts *c = &o->common;
	bool players = strcmp(o->black, "random") || strcmp(o->white, "random");
	if (o->per_move && c->first - 1 > RUN_MAX_GAMES - 1 - o->per_move)
		die_usage("--first-game plus the number of games passes %lld", (long long)RUN_MAX_GAMES);
	if (o->solve == 3)
		die_usage("--solve and --solve-all are separate modes: choose one");
	if (o->compact && !c->moves)
		die_usage("--notation compact is for the moves column: add --moves");
	if ((o->per_move > 0) + (o->perft > 0) + (o->solve > 0) + c->show > 1)
		die_usage("--per-move, --perft, --solve and --show are separate modes: choose one");
	if ((o->per_move || o->perft || o->solve) && (players || c->moves || c->count_set ||
						       o->both_sides))
		die_usage("--per-move, --perft and --solve take neither -n, --moves, players nor "
			  "--both-sides");
	bool perfect = o->player[0].kind == OTHELLOPLAY_PERFECT ||
		       o->player[1].kind == OTHELLOPLAY_PERFECT;
	if (o->hash && !o->perft)
		die_usage("--hash is for --perft");
	if (o->max_empties_set && !o->solve && !perfect)
		die_usage("--max-empties is for --solve, --solve-all and perfect players");
	if (o->mcts_set && o->player[0].kind != OTHELLOPLAY_MCTS &&
	    o->player[1].kind != OTHELLOPLAY_MCTS)
		die_usage("--ucb and --threshold are for mcts players (--black or --white mcts:N)");
}

static int run(run_opts *c)
{
	othellorun_opts *o = (othellorun_opts *)c;
	check(o);
	for (int i = 0; i < 2; i++) {
		o->player[i].ucb = o->ucb;
		o->player[i].threshold = o->threshold;
		o->player[i].max_empties = o->max_empties;
	}
	positions ps;
	positions_load(&ps, c);
	if (c->show) {
		if (ps.n != 1)
			die("--show draws one game: give one position, not %zu", ps.n);
		run_show(o, &ps);
	} else {
		output *out = output_open(c->out.path, &c->out.opts);
		if (o->perft)
			run_perft(o, &ps, out);
		else if (o->solve)
			run_solve(o, &ps, out);
		else if (o->per_move)
			run_per_move(o, &ps, out);
		else
			run_games(o, &ps, out);
		output_close(out);
	}
	positions_free(&ps);
	othelloplay_free(&o->player[0]);
	othelloplay_free(&o->player[1]);
	free(o);
	return 0;
}

static const struct option options[] = {
	{"black", required_argument, NULL, 0},
	{"white", required_argument, NULL, 0},
	{"ucb", required_argument, NULL, 0},
	{"threshold", required_argument, NULL, 0},
	{"per-move", required_argument, NULL, 0},
	{"perft", required_argument, NULL, 0},
	{"hash", required_argument, NULL, 0},
	{"solve", no_argument, NULL, 0},
	{"solve-all", no_argument, NULL, 0},
	{"max-empties", required_argument, NULL, 0},
	{"both-sides", no_argument, NULL, 0},
	{"notation", required_argument, NULL, 0},
	{NULL, 0, NULL, 0},
};

const playoutgame othellorun_game = {
	.name = "othello",
	.usage = "Othello (--game othello, the default): one row per game,\n"
		 "  game,seed,black_player,white_player,first_player,first_move,plies,\n"
		 "  black_discs,white_discs,winner[,moves]\n"
		 "from the standard start, or -n games from each position of the FILEs\n"
		 "(tables with columns board and turn, or moves, or all three; '-' is\n"
		 "stdin), whose other columns are carried along after a position column.\n"
		 "      --black P         black's player: random (default), mc:N (flat\n"
		 "                        Monte Carlo, N playouts per move), mcts:N (UCT,\n"
		 "                        N playouts per move) or perfect[:N] (exact from\n"
		 "                        --max-empties empty squares on, mcts:N before;\n"
		 "                        N defaults to 10000)\n"
		 "      --white P         white's player, as for --black\n"
		 "      --both-sides      the players swap colours in the second game of\n"
		 "                        each pair (games 2, 4, ...)\n"
		 "      --ucb C           mcts exploration constant (default 0.5)\n"
		 "      --threshold T     mcts: visits before a leaf grows children\n"
		 "                        (default 5)\n"
		 "      --per-move N      instead: N random playouts after each legal move;\n"
		 "                        one row per move: move,games,wins,draws,losses,\n"
		 "                        win_rate (for the side to move)\n"
		 "      --perft D         instead: leaves of the game tree at depths 1..D\n"
		 "                        (at most 20): depth,leaves,seconds,leaves_per_second\n"
		 "      --hash SIZE       perft through a transposition table of SIZE\n"
		 "                        bytes (K, M, G suffixes): the same counts, faster\n"
		 "      --solve           instead: each position's exact score (final disc\n"
		 "                        difference, empty squares to the winner) and a\n"
		 "                        best move: move,score,nodes,seconds\n"
		 "      --solve-all       the same for every legal move, one row each\n"
		 "      --notation N      moves as other programs write them: compact (the\n"
		 "                        moves column as f5d6c3, with --moves), upper (F5,\n"
		 "                        PASS in every move column), or compact,upper\n"
		 "      --max-empties E   refuse to solve positions with more than E empty\n"
		 "                        squares (default 26, at most 60); perfect players\n"
		 "                        play exactly from E on\n",
	.options = options,
	.create = create,
	.option = option,
	.run = run,
};
