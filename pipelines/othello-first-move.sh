#!/usr/bin/env bash
# Which first move wins? (seed 003) Random Othello games from the start, or
# from a mid-game position, summarized by first move: games, and the win
# rate of the side to move with its 95% Wilson interval; then an 8x8
# heatmap of those rates (coloured around the side's mean, each with its
# interval written in, over the position's discs).
#
#   pipelines/othello-first-move.sh [-n GAMES] [--seed S] [--moves "f5 d6"]
#       [--board BOARD --turn X|O] [-j JOBS] [-q] [-o DIR]
#
# -n: games (default 1000000), split into JOBS shards (default: the number
# of cores) that run side by side and merge exactly (summarize --partial,
# --merge). --moves plays those moves from the start; --board/--turn give
# any position (64 characters X, O, - or ., a1..h8 row by row; with X or
# O appended, Edax's form, no --turn is needed). Writes
# DIR/first-move.csv and DIR/first-move.png (gnuplot) and prints the table;
# the games done show on a terminal unless -q.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

games=1000000 seed=1 moves= board= turn= jobs=$(nproc) out=
while [ $# -gt 0 ]; do
	case $1 in
	-n) yomi_need "$@"; games=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	--moves) yomi_need "$@"; moves=$2; shift 2 ;;
	--board) yomi_need "$@"; board=$2; shift 2 ;;
	--turn) yomi_need "$@"; turn=$2; shift 2 ;;
	-j) yomi_need "$@"; jobs=$2; shift 2 ;;
	-q | --quiet) yomi_quiet=1; shift ;;
	-o | --output) yomi_need "$@"; out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
yomi_positive "$yomi_me" -n "$games"
yomi_positive "$yomi_me" -j "$jobs"
if [ ${#board} = 64 ] && [ -z "$turn" ]; then
	echo "$yomi_me: --board needs --turn X or O" >&2
	exit 2
fi
yomi_workdir "$out"

# The position as a one-row table (playout checks it); the side to move
# is the side whose win rate counts.
pos=()
if [ -n "$board$moves" ]; then
	{
		echo "board,turn,moves"
		printf '%s,%s,%s\n' "${board:-$(printf -- '-%.0s' $(seq 27))OX------XO$(printf -- '-%.0s' $(seq 27))}" \
			"${turn:-X}" "$moves"
	} > "$out/position.csv"
	pos=("$out/position.csv")
fi
side=$(playout -n 1 "${pos[@]}" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "first_player") c = i; next } { print $c }')

# Shards of the game numbers, summarized apart, merged exactly.
yomi_shards "$games" "$jobs" "$out" "-g first_move count rate:winner=$side" \
	playout --seed "$seed" "${pos[@]}" > "$out/first-move.csv"

# The heatmap, rank 8 on top as on a board: each move's square coloured
# by its rate on a scale around the side's mean over all games (so that
# 0.453 and 0.455 differ), with the rate and its interval written in; the
# position's discs drawn; every square named.
if [ -n "$moves" ]; then
	where="after $moves"
elif [ -n "$board" ]; then
	where="from the given board"
else
	where="from the start"
fi
yomi_board "${pos[@]}" > "$out/board.txt"
awk -F, -v cells="$out/cells.txt" -v gp="$out/heatmap.gp" -v skipf="$out/skip.txt" '
NR > 1 && $1 != "pass" && $1 != "" {
	n = $2; games += n; wins += n * $3
	c = index("abcdefgh", substr($1, 1, 1)) - 1; r = 8 - substr($1, 2, 1)
	rate[r, c] = $3; lo[r, c] = $4; hi[r, c] = $5; name[r, c] = $1
}
END {
	mean = games ? wins / games : 0.5
	m = 0.001 # a scale even when every move does the same
	for (k in rate) if ((d = rate[k] - mean) > m || -d > m) m = d > 0 ? d : -d
	printf "set cbrange [%.6f:%.6f]\n", mean - m, mean + m > gp
	printf "mean = %.6f\n", mean > gp
	for (k in rate) {
		split(k, rc, SUBSEP)
		printf "%d %d %.6f\n", rc[2], rc[1], rate[k] > cells
		printf "set label \"%s\\n%.3f\\n%.3f-%.3f\" at %d,%d center front font \",7\"\n",
			name[k], rate[k], lo[k], hi[k], rc[2], rc[1] > gp
		printf " %s", name[k] > skipf
	}
}' "$out/first-move.csv"
touch "$out/cells.txt" "$out/skip.txt"
yomi_board_gp "$out/board.txt" "$(cat "$out/skip.txt")" >> "$out/heatmap.gp"
# Any message of gnuplot's is a fault: it goes to stderr and stops the run.
if ! gnuplot > "$out/gnuplot.log" 2>&1 <<EOF || [ -s "$out/gnuplot.log" ]; then
set terminal png size 640,640
set output "$out/first-move.png"
set title "Win rate of $side by move, $where ($games random games)"
$(yomi_board_axes "#d9ead3")
set palette defined (0 "#b2182b", 0.5 "#f7f7f7", 1 "#2166ac")
load "$out/heatmap.gp"
set cblabel sprintf("win rate of $side (white: its mean, %.4f)", mean)
plot "$out/cells.txt" using 1:2:(0.5):(0.5):3 with boxxyerror fs solid fc palette notitle
EOF
	cat "$out/gnuplot.log" >&2
	exit 1
fi
cat "$out/first-move.csv"
