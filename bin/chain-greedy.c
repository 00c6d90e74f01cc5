/* chain-greedy: the greedy shiritori player (options and modes in lib/chaincli). */
#include "run/chainrun.h"

int main(int argc, char **argv)
{
	return chainrun_main(argc, argv, CHAIN_GREEDY);
}
