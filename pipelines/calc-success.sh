#!/usr/bin/env bash
# The seed 002 tables for Calculation beside the seed's own figures: success
# against playouts per move (mcts, binary reward), against level and width
# (the simple tree, the seed's shaped reward rest:B), and against B (mcts at
# 10,000 playouts), each with its 95% Wilson interval through summarize, on
# the same seeded deals; and success.png, success against playouts with and
# without --peek, with intervals.
#
#   pipelines/calc-success.sh [--full] [--peek] [--uniform] [--up-first] [--per-card]
#       [--games N] [--seed S] [--playouts "1000 10000"] [--trees "4x20 5x20"]
#       [--badmax "0 0.05 0.1"] [--badmax-playouts P] [--tree-reward B]
#       [-j JOBS] [-o DIR]
#
# By default the players play as the seed's did: they do not see the order
# of the stock (the seed's Java drew each turned card at random from those
# left, in its playouts as in the game), with UCB 0.5 and threshold 5, and
# their playouts are eager (--eager: a card goes up whenever one can); the
# trees score a game that ends inside them 1 or 0 (--binary-ends), as the
# seed's did.
# Uniformly random playouts, as the seed's text shows them, almost never
# win, and with them the seed's figures are out of reach; --uniform runs
# them all the same. --up-first gives every tree the option of that name
# (ties go to moves that put a card up; the seed's text does not show its
# order). --per-card gives the trees a subtree for each unseen card at a
# chance node, as the seed's simpletree lists the cards it can turn, in
# place of one a rank weighed by its copies: the same mean, less noise, and
# 5 times the CPU at level 4, 13 at level 6, more with each level (not
# with --peek, whose trees have no chance nodes). --peek prints the trees
# and B for players that see the stock's order (a bound, not a player).
# The mcts series is always run both ways, for the plot. The default is a
# quick look (20 deals a setting, about 3 minutes of CPU); --full runs
# the seed's settings, 100 deals each unless a setting says SETTING:N (N
# deals, where 100 would cost too much: a deal takes about 65 s of CPU
# at mcts:1000000, under 3 minutes at 6x20, a quarter of an hour at 7x20
# and 8x2), about 8 hours of CPU in all without --peek; with --peek about
# 4 (its trees under 2: 30 to 40 s a deal at 7x50, 8x20 and 9x3, under a
# minute at 9x5).
# --games sets the deals of settings without :N;
# --badmax-playouts P (default 10000, the seed's) the playouts of the B
# table; --tree-reward B (default 0.05) is the trees' reward; mcts takes
# the seed's binary reward.
# Games are split into JOBS shards (default: the number of cores). Writes
# DIR/playouts.csv, DIR/trees.csv, DIR/badmax.csv and DIR/success.png.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

games=20 seed=1 peek=0 eager=--eager upfirst= percard= full=0 playouts= trees= badmax= bplayouts=10000
tree_reward=0.05 jobs=$(nproc) out=
while [ $# -gt 0 ]; do
	case $1 in
	--full) full=1; shift ;;
	--peek) peek=1; shift ;;
	--uniform) eager=; shift ;;
	--up-first) upfirst=--up-first; shift ;;
	--per-card) percard=--per-card; shift ;;
	--badmax-playouts) yomi_need "$@"; bplayouts=$2; shift 2 ;;
	--games) yomi_need "$@"; games=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	--playouts) yomi_need "$@"; playouts=$2; shift 2 ;;
	--trees) yomi_need "$@"; trees=$2; shift 2 ;;
	--badmax) yomi_need "$@"; badmax=$2; shift 2 ;;
	--tree-reward) yomi_need "$@"; tree_reward=$2; shift 2 ;;
	-j) yomi_need "$@"; jobs=$2; shift 2 ;;
	-o | --output) yomi_need "$@"; out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ "$full" = 1 ]; then
	: "${playouts:=1000 10000 100000 1000000:50}"
	if [ "$peek" = 1 ]; then
		: "${trees:=4x20 5x20 6x20 7x20 7x50:50 8x2 8x20:20 9x3:20 9x5:20}"
	else
		: "${trees:=4x20 5x20 6x20:20 7x20:5 8x2:10}"
	fi
	: "${badmax:=0 0.01 0.02 0.03 0.04 0.05 0.06 0.07 0.08 0.09 0.1 0.2 0.5}"
	[ "$games" = 20 ] && games=100
else
	: "${playouts:=1000 10000}"
	if [ "$peek" = 1 ]; then : "${trees:=4x20 5x20}"; else : "${trees:=3x20}"; fi
	: "${badmax:=0 0.05}"
fi
yomi_positive "$yomi_me" --games "$games"
yomi_positive "$yomi_me" -j "$jobs"
yomi_positive "$yomi_me" --badmax-playouts "$bplayouts"
if [ "$peek" = 1 ] && [ -n "$percard" ]; then
	echo "$yomi_me: --per-card is for chance nodes, and --peek has none" >&2
	exit 2
fi
yomi_workdir "$out"
mode=hidden kind=uniform
[ "$peek" = 1 ] && mode=peek
[ -n "$eager" ] && kind=eager
ties=; [ -n "$upfirst" ] && ties=", moves up first"
cards=; [ -n "$percard" ] && cards=", a subtree a card"
peek_flag=; [ "$peek" = 1 ] && peek_flag=--peek

# The seed's figures (successes of 100 deals unless /N), by setting.
seed_figure() {
	case $1 in
	mcts:1000) echo 17 ;; mcts:2000) echo 28 ;; mcts:5000) echo 40 ;; mcts:10000) echo 53 ;;
	mcts:15000) echo 59 ;; mcts:20000) echo 65 ;; mcts:30000) echo 72 ;; mcts:40000) echo 69 ;;
	mcts:50000) echo 77 ;; mcts:100000) echo 80 ;; mcts:200000) echo 86 ;; mcts:1000000) echo 94 ;;
	tree:4x20) echo 60 ;; tree:5x20) echo 72 ;; tree:6x20) echo 83 ;; tree:7x20) echo 82 ;;
	tree:7x50) echo 90 ;; tree:8x2) echo 82 ;; tree:8x20) echo 46/52 ;; tree:9x3) echo 43/50 ;;
	tree:9x5) echo 92 ;;
	bad:0) echo 56 ;; bad:0.01) echo 57 ;; bad:0.02) echo 57 ;; bad:0.03) echo 55 ;;
	bad:0.04) echo 55 ;; bad:0.05) echo 60 ;; bad:0.06) echo 57 ;; bad:0.07) echo 58 ;;
	bad:0.08) echo 59 ;; bad:0.09) echo 60 ;; bad:0.1) echo 53 ;; bad:0.2) echo 54 ;;
	bad:0.5) echo 51 ;; *) echo - ;;
	esac
}

# One row: KEY, the seed's figure, then count, rate, its interval and the
# mean rest of playout -g calc ARGS over the setting's deals (SETTING:N
# runs N deals).
row() {
	local key=$1 n=$2
	shift 2
	yomi_positive "$yomi_me" "deals of $key" "$n"
	yomi_shards "$n" "$jobs" "$out" "count rate:success=1 mean:rest" \
		playout -g calc --seed "$seed" "$@" > "$out/one.csv"
	printf '%s,%s,%s\n' "$key" "$(seed_figure "$key")" "$(tail -1 "$out/one.csv")"
}
deals() { case $1 in *:*) echo "${1#*:}" ;; *) echo "$games" ;; esac; }
head_row=count,rate_success_1,rate_success_1_lo,rate_success_1_hi,mean_rest
# Every setting's deal count checked before the first game is played.
for p in $playouts; do yomi_positive "$yomi_me" "deals of mcts:${p%%:*}" "$(deals "$p")"; done
for t in $trees; do yomi_positive "$yomi_me" "deals of tree:${t%%:*}" "$(deals "$t")"; done

{
	echo "mode,playouts,seed,$head_row"
	for p in $playouts; do
		for m in peek hidden; do
			flag=; [ $m = peek ] && flag=--peek
			row "mcts:${p%%:*}" "$(deals "$p")" --policy mcts --playouts "${p%%:*}" $eager $upfirst $flag |
				sed "s/^mcts:/$m,/"
		done
	done
} > "$out/playouts.csv"
{
	echo "level,width,seed,$head_row"
	for t in $trees; do
		lw=${t%%:*}
		row "tree:$lw" "$(deals "$t")" --policy simple --level "${lw%x*}" --width "${lw#*x}" \
			--reward "rest:$tree_reward" --binary-ends $eager $upfirst $percard $peek_flag | sed 's/^tree:\([0-9]*\)x/\1,/'
	done
} > "$out/trees.csv"
{
	echo "badmax,seed,$head_row"
	for b in $badmax; do
		reward=binary; [ "$b" = 0 ] || reward=rest:$b
		row "bad:$b" "$games" --policy mcts --playouts "$bplayouts" --reward "$reward" $eager $upfirst \
			$peek_flag |
			sed 's/^bad://'
	done
} > "$out/badmax.csv"
rm -f "$out/one.csv"
grep '^peek,' "$out/playouts.csv" | cut -d, -f2- > "$out/peek.dat"
grep '^hidden,' "$out/playouts.csv" | cut -d, -f2- > "$out/hidden.dat"

if ! gnuplot 2> "$out/gnuplot.log" <<EOF
set terminal png size 720,480
set output "$out/success.png"
set datafile separator ","
set title "Calculation: mcts, binary reward, $kind playouts$ties, UCB 0.5, threshold 5; 95% intervals"
set xlabel "playouts per move"
set ylabel "success rate"
set logscale x
set yrange [0:1]
set key top left
set grid
plot "$out/peek.dat" using 1:4:5:6 with yerrorlines lw 2 pt 7 title "peek (sees the stock)", \
     "$out/hidden.dat" using 1:4:5:6 with yerrorlines lw 2 pt 5 title "hidden (a player)", \
     "$out/hidden.dat" using 1:(\$2 / 100) with points pt 9 ps 1.5 title "the seed (of 100)"
EOF
then
	cat "$out/gnuplot.log" >&2
	exit 1
fi
rm -f "$out/peek.dat" "$out/hidden.dat" "$out/gnuplot.log"
echo "success against playouts per move (mcts, binary reward, $kind playouts$ties), peek and hidden:"
cat "$out/playouts.csv"
echo
echo "success against level and width (simple tree, rest:$tree_reward, ends 1 or 0, $kind playouts$ties$cards, $mode):"
cat "$out/trees.csv"
echo
echo "success against the shaped reward's B (mcts, $bplayouts playouts, $kind$ties, $mode; 0 is binary):"
cat "$out/badmax.csv"
