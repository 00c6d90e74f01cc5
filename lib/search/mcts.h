/* mcts: the game-independent half of Monte Carlo tree search (UCT): a
 * tree of nodes in one growable array, UCB1 selection among a node's
 * children, and the final choice. A game walks the tree itself (it knows
 * its moves, chance events and rewards) and calls these.
 *
 * Children of a node are contiguous, created all at once when the node is
 * expanded. A node's score is the sum of the rewards (in [0, 1]) of the
 * playouts through it, counted for the player who chose the node's move,
 * so the parent maximises its children's mean. */
#ifndef YOMI_MCTS_H
#define YOMI_MCTS_H

#include <stddef.h>
#include <stdint.h>

typedef struct {
	uint32_t child;  /* index of the first child; 0: not expanded */
	uint32_t nchild;
	uint32_t visits;
	int32_t move;    /* the game's code for the move into this node */
	double score;
} mcts_node;

typedef struct {
	mcts_node *node;
	size_t n, cap;
} mcts_tree;

/* Empties T down to a root (index 0) with no visits. */
void mcts_reset(mcts_tree *t);
void mcts_free(mcts_tree *t);
/* Gives PARENT N children with the moves MOVES[0..N-1]; returns the index
 * of the first. Indices stay valid; node pointers do not (the array grows). */
uint32_t mcts_expand(mcts_tree *t, uint32_t parent, const int32_t *moves, uint32_t n);
/* The child of an expanded PARENT with the highest UCB1 value
 * score/visits + C * sqrt(ln(parent visits) / visits); an unvisited child
 * first, the earliest among equals. */
uint32_t mcts_select(const mcts_tree *t, uint32_t parent, double c);
/* The most visited child (the best mean among equals, then the earliest). */
uint32_t mcts_best(const mcts_tree *t, uint32_t parent);

#endif
