/* chain: shiritori rules, game state and the players' move choice.
 *
 * Rules: the start word is turn 0 and counts as used. Player 1 moves at odd
 * turns, player 2 at even ones. A word is legal when unused and its head
 * equals the previous word's tail. A player with no legal word is stuck and
 * loses. Playing a word whose tail is a lose-tail key loses at once. After
 * 2R moves the higher total (points plus handicap) wins; equal totals draw.
 *
 * Values (what the players maximise): the mover's points minus the
 * opponent's from this move to the search horizon, where a player stuck at
 * their turn, or having played a lose-tail word, counts CHAIN_LOSS against
 * them. The horizon never passes the end of the game. Greedy is the search
 * at depth 1 (the longest word, avoiding lose-tail words while it can); the
 * seed's one-reply lookahead is depth 2.
 *
 * Why only the longest unused word of each (head, tail) class is searched
 * (an exchange argument): let u and v be unused words of one class with
 * len(u) >= len(v). Map every line of play L after the mover plays v to
 * the line L' after u in which v is played wherever L plays u. L' is legal
 * (u and v share head and tail, so the same words are playable at every
 * point, the same players get stuck and the same lose-tail moves lose),
 * and it is a bijection on the opponent's choices. The mover's first move
 * earns len(u) - len(v) more in L'; if L later has the opponent play u,
 * the opponent earns that much less in L', and if the mover plays it, the
 * mover's total is unchanged. So every outcome after u is at least as good
 * for the mover as its image after v, and value(u) >= value(v); words of
 * one class and one length have equal values. The search therefore
 * branches on classes, always taking a class's longest unused word, and a
 * position is fully described by how many words of each class are used,
 * the current tail and the turn. The transposition table keys on a
 * Zobrist hash over used words, which under this canonical order is a
 * hash of those counts (and stays exact when earlier moves, e.g. a random
 * player's or a person's, used words out of that order).
 * tests/unit/test_chain.c checks the values against a brute-force search
 * over every word.
 *
 * Cost: the game keeps, per head key, the classes that still have unused
 * words (a linked list in class order) and per class a cursor on its
 * longest unused word, so a node of the search costs the number of
 * classes under its key, never the number of words. A move's choice
 * searches each class's leader, and in the classes whose leader ties the
 * best, one word of each shorter length. The search's memory besides the
 * game is the transposition table, CHAIN_ORDER moves per ply and one
 * value per candidate group at the root. */
#ifndef YOMI_CHAIN_H
#define YOMI_CHAIN_H

#include <stdbool.h>
#include <stdint.h>

#include "core/rng.h"
#include "words/dict.h"

#define CHAIN_LOSS 10000
#define CHAIN_DEPTH_END (-1)
#define CHAIN_MAX_ROUNDS 10000
#define CHAIN_MAX_HANDICAP 1000000
/* The largest total a player can reach. */
#define CHAIN_MAX_SCORE (CHAIN_MAX_HANDICAP + (int64_t)2 * CHAIN_MAX_ROUNDS * DICT_MAX_LEN)
/* Beyond any value a game can reach (2 * CHAIN_MAX_ROUNDS words of
 * DICT_MAX_LEN points and a loss are under 2^35): bounds of the search
 * windows, and the value of a candidate not searched. */
#define CHAIN_INF ((int64_t)1 << 60)
/* Moves a search node orders (the transposition table's move, then fewest
 * answers left to the opponent); a node with more classes searches the
 * rest in class order after them. */
#define CHAIN_ORDER 128

typedef enum { CHAIN_GREEDY, CHAIN_LOOKAHEAD, CHAIN_RANDOM } chain_kind;

typedef struct {
	chain_kind kind;
	int depth;   /* lookahead: plies, or CHAIN_DEPTH_END */
	double time; /* lookahead: > 0 deepens iteratively within this many seconds */
} chain_strategy;

/* Parses "greedy", "random", "lookahead", "lookahead:D", "lookahead:end"
 * into *s; false on anything else. */
bool chain_strategy_parse(const char *text, chain_strategy *s);
/* "greedy", "random", "lookahead:2", "lookahead:end", "lookahead:time" */
void chain_strategy_name(const chain_strategy *s, char *buf, size_t n);

typedef struct {
	int rounds;
	int64_t handicap[2];
	uint8_t *lose_tail; /* per key id, or NULL */
} chain_rules;

typedef enum { CHAIN_RUNNING, CHAIN_SCORE, CHAIN_STUCK, CHAIN_LOSE_TAIL } chain_end;

/* One word used, as the undo stack keeps it: the word, and what it
 * changed: its class cursor, the tail, its head key's best reply. */
typedef struct {
	uint32_t word, next, tail;
	int64_t reply;
	bool reply_known;
} chain_used;

typedef struct {
	const dict *d;
	const chain_rules *r;
	uint8_t *used;   /* per word */
	uint32_t *next;  /* per class: index in cwords of its longest unused word */
	uint32_t *lead;  /* per class: that word's len (0 when none is left) */
	uint32_t *cleft; /* per class: unused words */
	uint32_t *gleft; /* per length group: unused words */
	uint32_t *avail; /* per key: classes with that head and an unused word */
	/* Per key, when reply_known: the best a word starting with it is
	 * worth at once, its points (less CHAIN_LOSS for a losing tail);
	 * what a search leaf returns. Worked out when asked, forgotten when
	 * a word takes it down, restored with the word. */
	int64_t *reply;
	uint8_t *reply_known;
	/* The classes with unused words, per head key, in class order: a
	 * doubly linked list over nodes 0 .. nclasses - 1 (classes) and
	 * nclasses + k (key k's list head). */
	uint32_t *lnext, *lprev;
	chain_used *hist; /* the words used, in order (the start word first) */
	uint32_t *scratch; /* as many entries as hist */
	int nhist, hcap;
	uint32_t tail;  /* key the next word must start with */
	int turn;       /* moves played; the start word is turn 0 */
	int64_t score[2];
	uint64_t hash;
	const uint64_t *zobrist; /* per word */
	chain_end end;
	int winner; /* 1, 2, or 0 for a draw; valid once ended */
} chain_game;

/* Per-word Zobrist keys for D (fixed, independent of any --seed). */
uint64_t *chain_zobrist(const dict *d);
void chain_init(chain_game *g, const dict *d, const chain_rules *r, const uint64_t *zobrist);
/* Starts a game from word START (turn 0). */
void chain_start(chain_game *g, uint32_t start);
/* Starts a game from a word outside the dictionary whose tail is key
 * TAIL (d->nkeys: a key no word has). */
void chain_start_key(chain_game *g, uint32_t tail);
void chain_free(chain_game *g);
/* Player to move: 1 or 2. */
int chain_mover(const chain_game *g);
/* NULL if W is legal now, else why not. */
const char *chain_illegal(const chain_game *g, uint32_t w);
/* Plays W (assumed legal): scores it and ends the game when the rules say. */
void chain_play(chain_game *g, uint32_t w);
/* The mover has no legal word: the game ends with their loss. */
void chain_stuck(chain_game *g);
bool chain_can_move(const chain_game *g);
/* Debug builds (YOMI_DEBUG): dies if the state's redundant parts disagree. */
void chain_check(const chain_game *g);

/* A candidate a player considered. value_known is false for random. */
typedef struct {
	uint32_t word;
	int64_t value;
	bool value_known, chosen;
} chain_cand;

typedef struct {
	chain_cand *c;
	size_t n, cap;
	int depth_done; /* lookahead: the deepest completed search */
} chain_trace;

typedef struct chain_search chain_search;

chain_search *chain_search_new(const dict *d, const chain_rules *r);
void chain_search_free(chain_search *s);
uint64_t chain_search_nodes(const chain_search *s);

/* Chooses the mover's word by strategy ST, breaking ties with the stream
 * (seed, turn): the k-th of the best words in class order (classes in id
 * order, each class's words longest first, ties in table order), k drawn
 * below their number. Returns false when the mover is stuck. With TRACE,
 * every legal word is listed in that order with its value (exact for
 * every candidate); without, only what the choice needs is searched. */
bool chain_choose(chain_search *s, chain_game *g, const chain_strategy *st, uint64_t seed,
		  chain_trace *trace, uint32_t *word);

/* Exact negamax value of the position for the mover, searched to DEPTH
 * plies (or the end). Exposed for tests and benchmarks. */
int64_t chain_value(chain_search *s, chain_game *g, int depth);

#endif
