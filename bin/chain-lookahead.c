/* chain-lookahead: the lookahead shiritori player (options and modes in lib/chaincli). */
#include "chaincli.h"

int main(int argc, char **argv)
{
	return chaincli_main(argc, argv, CHAIN_LOOKAHEAD);
}
