#!/usr/bin/env bash
# The seed's claim (003) put to the test: does the move that random
# playouts rate best win? In positions with E empty squares, from random
# games and from games between mcts players, flat Monte Carlo (--per-move
# N: the move with the best score, wins 1 and draws 1/2, the first on
# ties) and mcts:N each choose a move; the exact solver scores the
# position and every move chosen. Per E, method and N: how often the
# choice is a perfect move, how often it keeps the position's result (a
# won position still won), and the mean disc loss of the choice against
# the best move, with 95% intervals through summarize (Wilson for the
# rate, normal for the mean); a PNG of agreement against N, one line per
# E. N=0 is the baseline: the random player's move.
#
#   pipelines/othello-mc-vs-perfect.sh [--full] [--positions P]
#       [--empties "10 12 14"] [--playouts "100 1000"] [--game-playouts M]
#       [--seed S] [-j JOBS] [-o DIR]
#
# The default is a quick look (well under a minute of CPU): 20 positions
# per source at 10, 12 and 14 empty squares, N of 100 and 1000, source
# games between mcts:1000 players. --full runs the whole experiment: 100
# positions at 10 to 24 empty squares ("10 12 14 16 18 20 22:50 24:25"),
# N up to 100000 ("100 1000 10000 100000"), mcts:10000 source games; it
# takes many hours. Options given set their part either way.
#
# --positions: positions per source (random games, mcts games) and E: the
# first games that reach E empty squares with two legal moves or more for
# the side to move; E:P in --empties sets P for that E (--full takes fewer
# at 22 and 24, where one exact solve takes seconds to minutes).
# --game-playouts: the source games' mcts players. The runs (the solver in shards, each method at each N) go JOBS
# at a time (default: the number of cores); the results do not depend on
# JOBS. Writes DIR/positions.csv, DIR/best.csv (each position's exact
# score and a best move), DIR/children-solved.csv (the exact score after
# each other move chosen), DIR/choices.csv (one row per position, method
# and N), DIR/agreement.csv (both sources together),
# DIR/agreement-by-source.csv and DIR/agreement.png, and prints the
# agreement, result and loss tables.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

positions= empties= playouts= game_playouts= full=0 seed=1 jobs=$(nproc) out=
while [ $# -gt 0 ]; do
	case $1 in
	--full) full=1; shift ;;
	--positions) yomi_need "$@"; positions=$2; shift 2 ;;
	--empties) yomi_need "$@"; empties=$2; shift 2 ;;
	--playouts) yomi_need "$@"; playouts=$2; shift 2 ;;
	--game-playouts) yomi_need "$@"; game_playouts=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	-j) yomi_need "$@"; jobs=$2; shift 2 ;;
	-o | --output) yomi_need "$@"; out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ "$full" = 1 ]; then
	: "${positions:=100}" "${empties:=10 12 14 16 18 20 22:50 24:25}"
	: "${playouts:=100 1000 10000 100000}" "${game_playouts:=10000}"
else
	: "${positions:=20}" "${empties:=10 12 14}" "${playouts:=100 1000}" "${game_playouts:=1000}"
fi
yomi_positive "$yomi_me" --positions "$positions"
yomi_positive "$yomi_me" --game-playouts "$game_playouts"
yomi_positive "$yomi_me" -j "$jobs"
# --empties items are E or E:P (P positions per source at E).
quota= elist= most=$positions
for item in $empties; do
	e=${item%%:*} p=$positions
	[ "$e" = "$item" ] || p=${item#*:}
	case $e in
	[1-9] | [1-5][0-9] | 60) ;;
	*) echo "$yomi_me: --empties wants E or E:P, E from 1 to 60, not '$item'" >&2; exit 2 ;;
	esac
	yomi_positive "$yomi_me" --empties "$p"
	quota="$quota $e:$p" elist="$elist $e"
	[ "$p" -le "$most" ] || most=$p
done
empties=${elist# }
for n in $playouts; do yomi_positive "$yomi_me" --playouts "$n"; done
yomi_workdir "$out"

# Runs the commands given as strings JOBS at a time; any failure ends
# the script.
pool() {
	local cmd
	for cmd in "$@"; do
		while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
		bash -c "$cmd" &
	done
	while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n; done
}

# The source games, with more of them than positions wanted: some games
# end sooner or leave the side to move a single move.
games=$((most * 3 / 2 + 10))
pool "playout -n $games --moves --seed $seed -q > '$out/games-random.csv'" \
	"playout --black mcts:$game_playouts --white mcts:$game_playouts -n $games --moves --seed $seed -q > '$out/games-mcts.csv'"

# Each game's position after 60 - E discs were placed, for every E.
for src in random mcts; do
	awk -F, -v src="$src" -v es="$empties" 'NR == 1 { for (i = 1; i <= NF; i++) { if ($i == "moves") c = i; if ($i == "game") g = i }; next }
	{
		n = split($c, m, " "); ne = split(es, e, " ")
		for (j = 1; j <= ne; j++) {
			placed = 0; pre = ""
			for (k = 1; k <= n && placed < 60 - e[j]; k++) { pre = pre (k > 1 ? " " : "") m[k]; placed += m[k] != "pass" }
			if (placed == 60 - e[j]) print src "," e[j] "," $g "," pre
		}
	}' "$out/games-$src.csv"
done | { echo "source,empties,source_game,moves"; cat; } > "$out/candidates.csv"
# Depth 1 of perft counts the legal moves (a pass or a finished game is
# one leaf): the first P positions per source and E with two or more.
playout --perft 1 -q "$out/candidates.csv" > "$out/moves.csv"
awk -F, -v quota="$quota" 'BEGIN { n = split(quota, q, " "); for (i = 1; i <= n; i++) { split(q[i], x, ":"); p[x[1]] = x[2] } }
	NR == FNR { if (FNR == 1) { for (i = 1; i <= NF; i++) c[$i] = i; next }
		if ($c["leaves"] >= 2 && kept[$c["source"], $c["empties"]]++ < p[$c["empties"]]) keep[$c["position"] + 1] = 1; next }
	FNR == 1 { print "pid," $0; next }
	FNR in keep { print ++id "," $0 }' "$out/moves.csv" "$out/candidates.csv" > "$out/positions.csv"
rm -f "$out/moves.csv"
awk -F, -v me="$yomi_me" -v quota="$quota" 'BEGIN { n = split(quota, q, " "); for (i = 1; i <= n; i++) { split(q[i], x, ":"); p[x[1]] = x[2] } }
	NR > 1 { got[$2 " " $3]++ } END { for (k in got) { split(k, x, " "); if (got[k] < p[x[2]]) print me ": only " got[k] " positions for " k " empties" > "/dev/stderr" } }' "$out/positions.csv"

# Who is to move: an mcts player plays that side (random the other, which
# never moves before the choice is made).
# The first move of a random game is the random player's choice: the
# baseline, Monte Carlo with no playouts.
playout -n 1 --seed "$seed" -q "$out/positions.csv" > "$out/random.csv"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "first_player") c = i; next } { print $c }' "$out/random.csv" > "$out/turns"
for side in black white; do
	awk -F, -v side="$side" 'NR == FNR { t[FNR + 1] = $1; next } FNR == 1 || t[FNR] == side' "$out/turns" "$out/positions.csv" > "$out/$side.csv"
done
rm -f "$out/turns"

# Splits TABLE into JOBS tables of every JOBS-th row (TABLE.0, TABLE.1,
# ...) and prints the commands that solve them into TABLE.K.solved. The
# solver is deterministic, so the split changes nothing but the time.
solve_runs() {
	local k
	for ((k = 0; k < jobs; k++)); do
		awk -v k="$k" -v j="$jobs" 'NR == 1 || (NR - 2) % j == k' "$1" > "$1.$k"
		echo "playout --solve --max-empties 60 -q '$1.$k' > '$1.$k.solved'"
	done
}
# The solved shards of TABLE as one table in pid order (position numbers
# count within each shard), the shards removed.
solve_merge() {
	local k
	head -1 "$1.0.solved"
	for ((k = 0; k < jobs; k++)); do
		tail -n +2 "$1.$k.solved"
		rm -f "$1.$k" "$1.$k.solved"
	done | sort -t, -k2,2n -k3,3
}

# The runs, the longest first: the best score of every position, then
# each N from the largest.
mapfile -t runs < <(solve_runs "$out/positions.csv")
for n in $(printf '%s\n' $playouts | sort -rn); do
	runs+=("playout --per-move $n --seed $seed -q '$out/positions.csv' > '$out/mc-$n.csv'")
	for side in black white; do
		runs+=("playout --$side mcts:$n --seed $seed -q '$out/$side.csv' > '$out/mcts-$n-$side.csv'")
	done
done
pool "${runs[@]}"
solve_merge "$out/positions.csv" > "$out/best.csv"

# The move each method chose at each N (flat Monte Carlo: the best wins
# plus half draws, the first in square order on ties).
{
	echo "pid,source,empties,method,playouts,move"
	for n in 0 $playouts; do
		files=("$out/mc-$n.csv" "$out/mcts-$n-black.csv" "$out/mcts-$n-white.csv")
		[ "$n" = 0 ] && files=("$out/random.csv")
		for f in "${files[@]}"; do
			awk -F, -v n="$n" 'NR == 1 { for (i = 1; i <= NF; i++) if (!($i in c)) c[$i] = i; mc = "win_rate" in c; next }
			mc { p = $c["pid"]; v = $c["wins"] + $c["draws"] / 2
			     if (!(p in pick) || v > val[p]) { pick[p] = $c["move"]; val[p] = v; info[p] = $c["source"] "," $c["empties"] }
			     if (!(p in order)) order[p] = ++k; next }
			{ p = $c["pid"]; pick[p] = $c["first_move"]; info[p] = $c["source"] "," $c["empties"]; order[p] = ++k }
			END {
				for (p in order) id[order[p]] = p
				for (i = 1; i <= k; i++) { p = id[i]; print p "," info[p] "," (n == 0 ? "random" : mc ? "mc" : "mcts") "," n "," pick[p] }
			}' "$f"
		done
	done
} > "$out/picks.csv"

# Every chosen move that is not the solver's best, played: the position
# after it, solved from the other side (or already over).
awk -F, 'FILENAME ~ /best.csv$/ { if (FNR == 1) { for (i = 1; i <= NF; i++) b[$i] = i; next } best[$b["pid"]] = $b["move"]; next }
	FILENAME ~ /positions.csv$/ { if (FNR > 1) pre[$1] = $5; next }
	FNR == 1 { print "pid,chosen,moves"; next }
	$6 != best[$1] && !seen[$1, $6]++ { print $1 "," $6 "," pre[$1] " " $6 }' \
	"$out/best.csv" "$out/positions.csv" "$out/picks.csv" > "$out/children.csv"
playout -n 1 -q "$out/children.csv" > "$out/children-game.csv"
# A move that ends the game scores the final count (the empty squares to
# the winner), for the side that made it.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "pid,chosen,score"; next }
	$c["plies"] == 0 { b = $c["black_discs"]; w = $c["white_discs"]; e = 64 - b - w
		d = $c["first_player"] == "black" ? w - b : b - w
		print $c["pid"] "," $c["chosen"] "," (d > 0 ? d + e : d < 0 ? d - e : 0) }' "$out/children-game.csv" > "$out/children-over.csv"
awk -F, 'NR == FNR { if (FNR > 1) over[$1, $2] = 1; next } FNR == 1 || !(($1, $2) in over)' \
	"$out/children-over.csv" "$out/children.csv" > "$out/children-live.csv"
mapfile -t runs < <(solve_runs "$out/children-live.csv")
pool "${runs[@]}"
solve_merge "$out/children-live.csv" > "$out/children-solved.csv"
rm -f "$out/children-game.csv" "$out/children-live.csv"

# One row per position, method and N: the move chosen, its exact score,
# the best score, whether the move is perfect, what it loses, and whether
# it keeps the position's result (a win still won, a draw still drawn:
# the seed's question is which move wins, not by how much).
awk -F, 'FILENAME ~ /best.csv$/ { if (FNR == 1) { for (i = 1; i <= NF; i++) b[$i] = i; next } best[$b["pid"]] = $b["score"]; bm[$b["pid"]] = $b["move"]; next }
	FILENAME ~ /children-over.csv$/ { if (FNR > 1) sc[$1, $2] = $3; next }
	FILENAME ~ /children-solved.csv$/ { if (FNR == 1) { for (i = 1; i <= NF; i++) s[$i] = i; next } sc[$s["pid"], $s["chosen"]] = -$s["score"]; next }
	function sign(x) { return (x > 0) - (x < 0) }
	FNR == 1 { print "pid,source,empties,method,playouts,move,score,best,perfect,loss,kept"; next }
	{ p = $1; v = $6 == bm[p] ? best[p] : sc[p, $6]
	  print $0 "," v "," best[p] "," (v == best[p]) "," best[p] - v "," (sign(v) == sign(best[p])) }' \
	"$out/best.csv" "$out/children-over.csv" "$out/children-solved.csv" "$out/picks.csv" > "$out/choices.csv"

# Agreement and results kept (Wilson intervals) and mean loss (mean +-
# 1.96 sd / sqrt(n), the lower end no less than 0: no choice loses less
# than nothing).
summary() {
	summarize -g "$1" --sort count rate:perfect=1 rate:kept=1 mean:loss sd:loss "$out/choices.csv" |
		awk -F, 'NR == 1 { print $0 ",loss_lo,loss_hi"; next }
		$(NF) == "NA" { print $0 ",NA,NA"; next }
		{ h = 1.96 * $(NF) / sqrt($(NF - 8)); lo = $(NF - 1) - h
		  printf "%s,%.4f,%.4f\n", $0, (lo > 0 ? lo : 0), $(NF - 1) + h }'
}
summary method,playouts,empties > "$out/agreement.csv"
summary source,method,playouts,empties > "$out/agreement-by-source.csv"

# The tables: E down, N across (N=0: the random player's move); percent
# of perfect choices, and the mean disc loss, each with its interval.
table() {
	awk -F, -v method="$1" -v what="$2" -v ns="0 $playouts" -v es="$empties" 'NR > 1 && ($1 == method || $1 == "random") {
		if (what == "rate") cell[$3, $2] = sprintf("%3.0f (%2.0f-%3.0f)", 100 * $5, 100 * $6, 100 * $7)
		else if (what == "kept") cell[$3, $2] = sprintf("%3.0f (%2.0f-%3.0f)", 100 * $8, 100 * $9, 100 * $10)
		else cell[$3, $2] = sprintf("%4.1f (%.1f-%.1f)", $11, $13, $14)
	}
	END {
		nn = split(ns, N, " "); ne = split(es, E, " ")
		printf "%-7s", method " E"; for (j = 1; j <= nn; j++) printf "  %-16s", "N=" N[j]; print ""
		for (i = 1; i <= ne; i++) {
			printf "%-7s", E[i]; for (j = 1; j <= nn; j++) printf "  %-16s", cell[E[i], N[j]]; print ""
		}
	}' "$out/agreement.csv"
}
echo "perfect choices, percent (95% interval), both sources:"
table mc rate
table mcts rate
echo
echo "choices that keep the position's result (win, draw or loss), percent (95% interval), both sources:"
table mc kept
table mcts kept
echo
echo "mean disc loss against the best move (95% interval), both sources:"
table mc loss
table mcts loss

# Agreement against N, one line per E, a panel per method.
for m in mc mcts; do
	for e in $empties; do
		awk -F, -v m="$m" -v e="$e" 'NR > 1 && $1 == m && $3 == e { print $2, $5 }' "$out/agreement.csv"
		printf '\n\n'
	done > "$out/plot-$m.dat"
done
if ! gnuplot 2> "$out/gnuplot.log" <<EOF
set terminal png size 1100,480
set output "$out/agreement.png"
set multiplot layout 1,2 title "Othello: how often Monte Carlo picks a perfect move (E:positions per source, $quota)"
set logscale x
set yrange [0:1]
set xlabel "playouts N"
set ylabel "share of perfect choices"
set grid
set key bottom right title "empties E"
es = "$empties"
set title "flat Monte Carlo, N playouts per move"
plot for [i = 1:words(es)] "$out/plot-mc.dat" index (i - 1) using 1:2 with linespoints lw 2 title word(es, i)
set title "mcts:N, N playouts per decision"
plot for [i = 1:words(es)] "$out/plot-mcts.dat" index (i - 1) using 1:2 with linespoints lw 2 title word(es, i)
unset multiplot
EOF
then
	cat "$out/gnuplot.log" >&2
	exit 1
fi
rm -f "$out/plot-mc.dat" "$out/plot-mcts.dat" "$out/gnuplot.log"
