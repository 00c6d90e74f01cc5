#include "run/summarizerun.h"

#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/output.h"

int summarizerun_main(summarizerun_opts *o)
{
	static char *const std_in[] = {"-"};
	char *const *files = o->common.nfiles ? o->common.files : std_in;
	int nfiles = o->common.nfiles ? o->common.nfiles : 1;
	/* Reading a pipe, it leaves progress to the program that writes it:
	 * two lines on one terminal would fight. */
	struct stat st;
	bool piped = fstat(STDIN_FILENO, &st) == 0 && S_ISFIFO(st.st_mode);
	for (int i = 0; i < nfiles; i++)
		o->summary.quiet |= piped && strcmp(files[i], "-") == 0;
	o->summary.quiet |= o->common.out.quiet;
	summary *s = summary_new(&o->summary);
	for (int i = 0; i < nfiles; i++) {
		if (o->merge)
			summary_merge_table(s, files[i]);
		else
			summary_add_table(s, files[i]);
	}
	output *out = output_open(o->common.out.path, &o->common.out.opts);
	summary_write(s, out);
	output_close(out);
	summary_free(s);
	return 0;
}
