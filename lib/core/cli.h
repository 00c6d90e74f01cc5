/* cli: the options every program shares: -q/--quiet, -o/--output,
 * -t/--tsv, -z/--gzip, --bom, --max-line, -h/--help and --version, so that
 * they read and behave the same. */
#ifndef YOMI_CLI_H
#define YOMI_CLI_H

#include <getopt.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/output.h"

/* Long option codes above any short option a program uses. */
enum { CLI_OPT_BOM = 1000, CLI_OPT_VERSION, CLI_OPT_MAX_LINE };

/* Short options for getopt_long, to be appended to a program's own. */
#define CLI_SHORT "qo:tzh"

/* Entries for a program's long option table (before its terminator). */
#define CLI_LONG_OPTIONS                                         \
	{"quiet", no_argument, NULL, 'q'},                       \
	{"output", required_argument, NULL, 'o'},                \
	{"tsv", no_argument, NULL, 't'},                         \
	{"gzip", no_argument, NULL, 'z'},                        \
	{"bom", no_argument, NULL, CLI_OPT_BOM},                 \
	{"max-line", required_argument, NULL, CLI_OPT_MAX_LINE}, \
	{"help", no_argument, NULL, 'h'},                        \
	{"version", no_argument, NULL, CLI_OPT_VERSION}

/* Their lines in a usage text. */
#define CLI_HELP                                                                  \
	"  -q, --quiet           no progress on stderr (shown on a terminal only)\n" \
	"  -o, --output FILE     write FILE atomically (gzip if it ends in .gz)\n"  \
	"  -t, --tsv             write TSV instead of CSV\n"                         \
	"  -z, --gzip            gzip the output\n"                                  \
	"      --bom             start the output with a UTF-8 byte order mark\n"    \
	"      --max-line SIZE   refuse input lines, fields and rows longer than\n"  \
	"                        SIZE bytes (default 16M, or $YOMI_MAX_LINE)\n"      \
	"  -h, --help            show this help and exit\n"                          \
	"      --version         show the version and exit\n"

typedef struct {
	const char *path; /* NULL: stdout */
	output_opts opts;
	bool quiet;       /* -q: no progress (core/progress.h) */
} cli_output;

/* Handles option C if it is one of the shared ones: the output settings go
 * to OUT; --help prints USAGE (a printf format whose one %s, if any, is the
 * program name) and exits; --version exits; '?' (getopt's complaint) exits 2.
 * Returns false for a program's own options. */
bool cli_option(int c, const char *arg, const char *usage, cli_output *out);

/* Option helpers: parse ARG given to option NAME or die with exit 2 and a
 * message that states the accepted range. */
int64_t cli_i64(const char *name, const char *arg, int64_t lo, int64_t hi);
/* ARG as a file name for option NAME: refused when empty (no file has that
 * name; caught before any work is done). */
const char *cli_path(const char *name, const char *arg);
uint64_t cli_u64(const char *name, const char *arg, uint64_t hi);
double cli_double(const char *name, const char *arg, double lo, double hi);
/* Index of ARG in the NULL-terminated CHOICES, or die listing them. */
int cli_choice(const char *name, const char *arg, const char *const *choices);

#endif
