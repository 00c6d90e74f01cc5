/* chaincli: the command line shared by chain-greedy and chain-lookahead
 * (same options, same modes: step filter, match, tournament). */
#ifndef YOMI_CHAINRUN_H
#define YOMI_CHAINRUN_H

#include "shiritori/chain.h"

/* Runs the program whose own strategy is KIND; returns the exit status. */
int chainrun_main(int argc, char **argv, chain_kind kind);

#endif
