#include "run/run.h"

#include <unistd.h>

bool run_progress_shown(const run_opts *o)
{
	return !o->quiet && isatty(STDERR_FILENO);
}
