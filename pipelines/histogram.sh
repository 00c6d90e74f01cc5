#!/usr/bin/env bash
# A histogram of one numeric column of any table, e.g. the game lengths of
# playouts (plies, or steps for Calculation), as a PNG: one bar per value
# (whole numbers) or per bin, the mean and the row count in the title.
#
#   pipelines/histogram.sh -c COLUMN [--bins N] [-o FILE.png] [FILE]...
#
# FILEs (or stdin) are CSV or TSV tables, gzip or not, as summarize reads
# them; empty and NA cells are left out. Whole numbers get a bar each
# when there are at most N distinct values (default 80), other values are
# counted in N bins of equal width. Writes FILE.png (default
# histogram.png), 720x480, and prints the counts drawn (value or bin
# start, count).
#
#   playout -n 100000 | yomi-histogram -c plies -o plies.png
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

col= bins=80 png=histogram.png
while [ $# -gt 0 ]; do
	case $1 in
	-c | --column) yomi_need "$@"; col=$2; shift 2 ;;
	--bins) yomi_need "$@"; bins=$2; shift 2 ;;
	-o | --output) yomi_need "$@"; png=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	-) break ;;
	-*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	*) break ;;
	esac
done
[ -n "$col" ] || { echo "$yomi_me: -c COLUMN is needed" >&2; exit 2; }
yomi_positive "$yomi_me" --bins "$bins"
yomi_workdir ""

# The exact counts of each value (summarize checks every number), then
# the bars: a value each, or equal bins.
summarize -q --sort -g "$col" count "$@" > "$out/values.csv"
awk -F, -v me="$yomi_me" -v bins="$bins" -v out="$out/bars.txt" -v gp="$out/hist.gp" '
NR == 1 { next }
$1 == "" || $1 == "NA" { next }
{
	if ($1 !~ /^-?[0-9]+(\.[0-9]*)?([eE][-+]?[0-9]+)?$/ && $1 !~ /^-?\.[0-9]+/) {
		printf "%s: column value %s is not a number\n", me, $1 > "/dev/stderr"; bad = 1; exit 2
	}
	v[++n] = $1 + 0; c[n] = $2; rows += $2; sum += $2 * ($1 + 0)
	whole = whole + ($1 + 0 != int($1 + 0))
}
END {
	if (bad) exit 2
	if (!n) { print me ": no numbers in the column" > "/dev/stderr"; exit 1 }
	lo = v[1]; hi = v[n]
	if (!whole && n <= bins) {
		for (i = 1; i <= n; i++) print v[i], c[i] > out
		width = 1
	} else {
		width = hi > lo ? (hi - lo) / bins : 1
		for (i = 1; i <= n; i++) {
			b = int((v[i] - lo) / width); if (b >= bins) b = bins - 1
			h[b] += c[i]
		}
		for (b = 0; b < bins; b++) print lo + (b + 0.5) * width, h[b] + 0 > out
	}
	printf "rows = %d\nmean = %.6g\nwidth = %.10g\n", rows, sum / rows, width > gp
}' "$out/values.csv" || exit $?
awk '{ print $1 "," $2 }' "$out/bars.txt"
# Any message of gnuplot's is a fault: it goes to stderr and stops the run.
if ! gnuplot > "$out/gnuplot.log" 2>&1 <<EOF || [ -s "$out/gnuplot.log" ]; then
set terminal png size 720,480
set output "$png"
load "$out/hist.gp"
set title sprintf("$col: %d rows, mean %.4g", rows, mean)
set xlabel "$col"
set ylabel "rows"
set style fill solid 0.8 border lc rgb "black"
set boxwidth width * 0.9
set yrange [0:*]
set grid ytics
plot "$out/bars.txt" using 1:2 with boxes lc rgb "#2166ac" notitle
EOF
	cat "$out/gnuplot.log" >&2
	exit 1
fi
