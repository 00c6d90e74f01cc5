/* Bench: read a table through lib/table and touch every field; prints rows
 * and bytes. The figure to compare is against csvbase on the same file. */
#include <stdio.h>

#include "core/table.h"
#include "core/util.h"

int main(int argc, char **argv)
{
	util_init(argv[0]);
	if (argc != 2)
		die_usage("usage: csvread FILE");
	table *t = table_open(argv[1], NULL);
	unsigned long rows = 0, bytes = 0;
	size_t nc = table_ncols(t);
	while (table_read_row(t)) {
		rows++;
		for (size_t i = 0; i < nc; i++)
			bytes += table_field_len(t, i);
	}
	table_close(t);
	printf("%lu rows, %lu field bytes\n", rows, bytes);
	return 0;
}
