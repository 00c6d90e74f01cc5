/* calc: the patience game Calculation (計算), its variants, deals, moves
 * as text, and the simple players (random, greedy).
 *
 * Rules. One 52-card deck; suits play no part, so a card is its rank
 * 1..13 (A..K). Foundation Fk (k = 1..4) holding n cards accepts only the
 * rank k(n+1) mod 13 (0 read as K) and is complete at 13 cards, ending with
 * a K. Normally F1..F4 start with A, 2, 3, 4 and the other 48 cards are the
 * stock; with the variant no-foundations all 52 are in the stock and an
 * empty Fk accepts rank k (the same rule with n = 0). The top stock card is
 * turned (the hand); it goes onto a foundation that accepts it or onto any
 * waste pile (four, or three with the variant three-piles), and the next
 * card is turned. The top card of a waste pile may go to a foundation at
 * any time; nothing else moves. The game ends when the stock and hand are
 * empty and no waste top can be played; it succeeds when all 52 cards are
 * on the foundations, and rest counts the cards left on the waste piles.
 *
 * Rest is never 1: each foundation's sequence is a permutation of A..K, so
 * the 52 cards are exactly the four sequences. With 51 cards placed, three
 * foundations are complete and the fourth holds the first 12 cards of its
 * sequence, so the one card left is that sequence's 13th, the K it needs,
 * and being a waste top it can still be played: the game is not over.
 *
 * Playing a waste top to a foundation never needs to wait for a decision
 * before the next card is turned (it stays playable while the pile is not
 * covered, and the turned card can be placed afterwards), so the hand is
 * turned as soon as it is empty and every decision sees it. */
#ifndef YOMI_CALC_H
#define YOMI_CALC_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"

enum { CALC_NOFOUND = 1, CALC_THREE = 2 }; /* variant flags */
/* Hand to 4 foundations and 4 piles; each pile top to up to 4 foundations
 * (several can need the same rank at once). */
enum { CALC_MAX_MOVES = 4 + 4 + 16 };
/* A move: from (0 hand, 1..4 waste pile) to (0..3 foundation, 4..7 waste
 * pile), coded from * 8 + to. */
#define CALC_MOVE(from, to) ((from) * 8 + (to))
#define CALC_FROM(m) ((m) / 8)
#define CALC_TO(m) ((m) % 8)
/* Move codes are below this (from 0..4, to 0..7). */
enum { CALC_MOVE_CODES = 5 * 8 };

typedef struct {
	uint8_t stock[52]; /* stock[next..ncards-1] are still face down */
	uint8_t next, ncards;
	uint8_t hand;      /* the turned card, 0 if none */
	uint8_t found[4];  /* cards on each foundation */
	uint8_t npiles;
	uint8_t len[4];
	uint8_t pile[4][52];
	uint16_t steps;    /* moves made */
	uint8_t variant;
} calc_state;

/* calc_needs[k][n]: the rank foundation k (0..3) holding n cards accepts,
 * k+1 times n+1 mod 13 with 0 read as K (1..13; 0 when complete). A table
 * because the playouts look it up on every foundation move. */
extern const uint8_t calc_needs[4][14];
static inline int calc_need(int k, int n)
{
	return calc_needs[k][n];
}

/* Stock size of a variant: 48, or 52 without foundation starters. */
int calc_stock_size(int variant);
/* The name of a variant's flags as tables write it: standard,
 * no-foundations, three-piles or no-foundations+three-piles. */
const char *calc_variant_name(int variant);

/* The deck of a variant, shuffled by Fisher-Yates with R (16 bits a swap,
 * four swaps a generator output), into OUT. */
void calc_shuffle(int variant, rng *r, uint8_t out[52]);
/* The 52 bytes calc_shuffle starts from: the stock in rank order (zeros
 * after the 48 cards of a stock less the foundation starters). */
const uint8_t *calc_sorted_stock(int variant);
/* Parses a deck of rank letters A23456789TJQK (top first); returns NULL or
 * what is wrong with it. */
const char *calc_parse_deck(const char *s, int variant, uint8_t out[52]);
/* The deck as letters and a NUL. */
void calc_format_deck(const uint8_t *deck, int n, char *out);
char calc_rank_char(int rank);

/* Deals DECK (calc_stock_size cards, top first) and turns the first card. */
void calc_deal(calc_state *s, int variant, const uint8_t *deck);
/* Deals a deck as playout's --deals rows write it: the letters of DECK
 * (calc_parse_deck) for the variant VARIANT names (calc_variant_name; NULL
 * for standard). Returns NULL or what is wrong. */
const char *calc_deal_text(calc_state *s, const char *variant, const char *deck);
/* Legal moves into OUT; returns their number. With DISTINCT, moves to
 * empty waste piles after the first are left out (they are alike). */
int calc_moves(const calc_state *s, int *out, bool distinct);
bool calc_legal(const calc_state *s, int move);

/* Debug builds (YOMI_DEBUG): dies if S breaks an invariant (cards lost or
 * duplicated, a foundation out of sequence, a bad length); calc_check_cards
 * counts the cards only, for a search's position whose hand is empty with
 * cards face down. Nothing in other builds: the moves below are inline,
 * since the solvers and playouts make tens of millions a second. */
#ifdef YOMI_DEBUG
void calc_check(const calc_state *s);
void calc_check_cards(const calc_state *s);
#else
static inline void calc_check(const calc_state *s)
{
	(void)s;
}
static inline void calc_check_cards(const calc_state *s)
{
	(void)s;
}
#endif

/* Turns the next stock card when the hand is empty (calc_play does). */
static inline void calc_turn(calc_state *s)
{
	if (!s->hand && s->next < s->ncards)
		s->hand = s->stock[s->next++];
}
/* MOVE without the turn that follows it. */
static inline void calc_place(calc_state *s, int move)
{
	int from = CALC_FROM(move), to = CALC_TO(move), card;
	if (from == 0) {
		card = s->hand;
		s->hand = 0;
	} else {
		card = s->pile[from - 1][--s->len[from - 1]];
	}
	if (to < 4)
		s->found[to]++;
	else
		s->pile[to - 4][s->len[to - 4]++] = (uint8_t)card;
	s->steps++;
}
/* Plays a legal move; turns the next card when the hand is empty. */
static inline void calc_play(calc_state *s, int move)
{
	calc_place(s, move);
	calc_turn(s);
	calc_check(s);
}
/* For searches that branch on the next card: plays MOVE but leaves face
 * down the card calc_play would turn, and returns whether that left the
 * hand empty with cards face down (a chance node is due). That covers a
 * pile's move made while the hand is empty (it went up earlier in the
 * search), after which calc_play would turn a card too. */
static inline bool calc_play_unturned(calc_state *s, int move)
{
	calc_place(s, move);
	calc_check_cards(s);
	return !s->hand && s->next < s->ncards;
}
/* A chance node for searches: the mean of VALUE over the next card (S's
 * hand is empty and cards are unseen), one call per unseen rank with that
 * rank turned, weighed by its copies. Values lie in [0, 1], which allows
 * a cut (Star1): once the ranks left could not lift the mean above ALPHA
 * even if each were worth 1, the search stops and returns ALPHA itself,
 * an upper bound. Each call gets the alpha its rank must beat for the
 * mean to beat ALPHA (0 when any value will do; 0 for ALPHA never cuts).
 * A negative VALUE (a search giving up) is returned at once. */
double calc_next_card_mean(const calc_state *s, double alpha,
			   double (*value)(void *ctx, calc_state *turned, double alpha), void *ctx);
/* Turns RANK, which must be among the unseen cards, as the next card. */
void calc_turn_rank(calc_state *s, int rank);
/* The foundations that accept RANK now, as a bit mask (bit k for Fk+1;
 * two may need the same rank at once). Inline: the solvers ask it of
 * every pile top after every move. */
static inline unsigned calc_accepting(const calc_state *s, int rank)
{
	unsigned m = 0;
	for (int k = 0; k < 4; k++)
		m |= (unsigned)(calc_need(k, s->found[k]) == rank) << k;
	return m;
}
/* Whether the game has ended: the stock and the hand are empty and no pile
 * top fits a foundation. */
bool calc_over(const calc_state *s);
int calc_rest(const calc_state *s);
bool calc_success(const calc_state *s);
/* "7>F2", "7>W1", "W1>F3" into OUT (at least 8 bytes); the card is the
 * hand's (or the pile's top) in S before the move. */
void calc_move_name(const calc_state *s, int move, char *out);
/* The legal move of S that calc_move_name calls NAME, or -1: how the
 * tools that replay playout's --moves column read it. */
int calc_move_named(const calc_state *s, const char *name);
/* Replays MOVES, move names as playout's --moves column writes them
 * (separated by spaces), from S: HIST[i] gets the position before move i
 * and PLAYED[i] its code, HIST[n] the position after the last; returns n.
 * At most MAX moves; returns -(i + 1) when move i is not legal where it
 * falls, or is the (MAX + 1)-th. How the research tools read a game. */
int calc_replay(const calc_state *s, const char *moves, int max, calc_state *hist, int *played);
/* The first of HIST[0..N] (calc_replay's positions) with the hand turned
 * and UNSEEN cards face down, or -1: where the research tools start
 * their rollouts in a replayed game. */
int calc_find_unseen(const calc_state *hist, int n, int unseen);

/* Plays uniformly random legal moves to the end: the rng_below32(N)-th of
 * the N moves calc_moves lists (not DISTINCT). Turns the next card first
 * if the hand is empty. */
void calc_random_playout(calc_state *s, rng *r);
/* The same, eager: while a card can go up, the rng_below32(U)-th of the U
 * moves up that calc_moves lists; otherwise the hand onto the
 * rng_below32(P)-th of the P waste piles. */
void calc_eager_playout(calc_state *s, rng *r);
/* How many cards foundation play needs before RANK can go up: the fewest
 * over the foundations (0: playable now; 13 if none needs it any more). */
int calc_urgency(const calc_state *s, int rank);
/* SCORE[w]: how the greedy rule ranks pile w for S's hand, lower first
 * (ties to the first pile): the search players try placements in this
 * order. */
void calc_pile_scores(const calc_state *s, unsigned *score);
/* The greedy rule's move (see calc.c). */
int calc_greedy_move(const calc_state *s);
/* Plays greedy moves to the end (turning the next card first if the hand
 * is empty). */
void calc_greedy_playout(calc_state *s);
/* The same, stopped before the first move made with the hand turned and
 * at most UNSEEN (0 or more) cards face down, if the game lasts so long. */
void calc_greedy_playout_to(calc_state *s, int unseen);

/* The weighted rule: waste tops and the hand go up as greedy sends them;
 * otherwise the hand goes to the pile of the highest weighted score over
 * features of the pile and the hand (calc.c, weights in calcweights.h,
 * fitted by `make calc-tables` to the games it wins). */
int calc_weighted_move(const calc_state *s);
/* Plays weighted moves to the end (turning the next card first if the
 * hand is empty). */
void calc_weighted_playout(calc_state *s);
/* The same with WEIGHTS in place of calc_weights (CALC_NWEIGHTS of them),
 * for the tuner that makes them. */
void calc_weighted_playout_with(calc_state *s, const float *weights);

/* The cascade: either rule (greedy's placements, or with WEIGHTED the
 * weighted rule's) with a lookahead over the moves up. Where two or more
 * are open, each is played and followed by the moves up it lets through
 * (the plain rules' way), and the one that lets the most through is
 * taken, then one that leaves the hand gone up, then the first the plain
 * rules would play: which top goes up decides which cards it uncovers,
 * and the plain rules' first choice often strands the rest. */
int calc_cascade_move(const calc_state *s, bool weighted);
/* Plays the cascade's moves to the end, or with UNSEEN 0 or more stopped
 * as calc_greedy_playout_to stops. */
void calc_cascade_playout(calc_state *s, bool weighted, int unseen);

/* Replaces the face-down cards by a random order of the same cards: the
 * player knows which cards are unseen, not their order. The order drawn
 * depends on R and the cards alone, never on their order before. */
void calc_resample(calc_state *s, rng *r);
/* The two halves of calc_resample, for a caller that draws many orders of
 * one position: the unseen cards of S laid out by rank into OUT (their
 * number returned), and a draw of an order of such a layout of N cards,
 * as calc_resample draws it. */
int calc_unseen_by_rank(const calc_state *s, uint8_t out[52]);
void calc_shuffle_unseen(uint8_t *cards, int n, rng *r);

#endif
