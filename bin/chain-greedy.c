/* chain-greedy: the greedy shiritori player. It takes chain-lookahead's
 * options and modes, so it is that program with greedy as its own player. */
#define CHAIN_PROGRAM_KIND CHAIN_GREEDY
#include "chain-lookahead.c"
