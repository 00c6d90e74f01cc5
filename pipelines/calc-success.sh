#!/usr/bin/env bash
# The seed 002 tables for Calculation: success rate against playouts per
# move (mcts) and against level and width (the fixed-depth tree), each with
# its 95% Wilson interval through summarize, on the same seeded deals; and
# a PNG of success rate against playouts.
#
#   pipelines/calc-success.sh [--games N] [--seed S] [--playouts "1000 10000"]
#       [--trees "3x5 4x5"] [--reward R] [--variant V] [-j JOBS] [-o DIR]
#
# --games: deals per setting (default 100, as in the seed); --trees: LEVELxWIDTH
# settings of the simple tree; --reward as for playout (default binary; the
# trees want rest:B, with which the seed played them).
# Games are split into JOBS shards (default: the number of cores). Writes
# DIR/playouts.csv, DIR/trees.csv and DIR/success.png and prints the tables.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

games=100 seed=1 playouts="1000 10000" trees="3x5" reward=binary variant=standard jobs=$(nproc) out=
while [ $# -gt 0 ]; do
	case $1 in
	--games) games=$2; shift 2 ;;
	--seed) seed=$2; shift 2 ;;
	--playouts) playouts=$2; shift 2 ;;
	--trees) trees=$2; shift 2 ;;
	--reward) reward=$2; shift 2 ;;
	--variant) variant=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-o | --output) out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "calc-success.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
yomi_positive calc-success.sh --games "$games"
yomi_positive calc-success.sh -j "$jobs"
yomi_workdir "$out"

# The success rate by policy of playout -g calc with ARGS, in shards.
sharded() {
	yomi_shards "$games" "$jobs" "$out" "-g policy count rate:success=1 mean:rest" \
		playout -g calc --seed "$seed" --variant "$variant" --reward "$reward" "$@"
}

{
	first=1
	for p in $playouts; do
		sharded --policy mcts --playouts "$p" > "$out/one.csv"
		if [ $first = 1 ]; then head -1 "$out/one.csv" | sed 's/^policy,/playouts,/'; first=0; fi
		tail -n +2 "$out/one.csv" | sed "s/^mcts:$p,/$p,/"
	done
} > "$out/playouts.csv"
{
	first=1
	for t in $trees; do
		level=${t%x*} width=${t#*x}
		sharded --policy simple --level "$level" --width "$width" > "$out/one.csv"
		if [ $first = 1 ]; then head -1 "$out/one.csv" | sed 's/^policy,/level,width,/'; first=0; fi
		tail -n +2 "$out/one.csv" | sed "s/^simple:${level}x${width},/$level,$width,/"
	done
} > "$out/trees.csv"
rm -f "$out/one.csv"

if ! gnuplot 2> "$out/gnuplot.log" <<EOF
set terminal png size 720,480
set output "$out/success.png"
set datafile separator ","
set title "Calculation ($variant): mcts success rate, $games deals, 95% intervals"
set xlabel "playouts per move"
set ylabel "success rate"
set logscale x
set yrange [0:1]
set key off
set grid
plot "$out/playouts.csv" using 1:3:4:5 skip 1 with yerrorlines lw 2 pt 7
EOF
then
	cat "$out/gnuplot.log" >&2
	exit 1
fi
echo "success against playouts per move (mcts):"
cat "$out/playouts.csv"
echo
echo "success against level and width (simple tree):"
cat "$out/trees.csv"
