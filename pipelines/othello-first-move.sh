#!/usr/bin/env bash
# Which first move wins? (seed 003) Random Othello games from the start, or
# from a mid-game position, summarized by first move: games, and the win
# rate of the side to move with its 95% Wilson interval; then an 8x8
# heatmap of those rates.
#
#   pipelines/othello-first-move.sh [-n GAMES] [--seed S] [--moves "f5 d6"]
#       [--board BOARD --turn X|O] [-j JOBS] [-q] [-o DIR]
#
# -n: games (default 1000000), split into JOBS shards (default: the number
# of cores) that run side by side and merge exactly (summarize --partial,
# --merge). --moves plays those moves from the start; --board/--turn give
# any position (64 characters X, O, -, a1..h8 row by row). Writes
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
	*) echo "othello-first-move.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
yomi_positive othello-first-move.sh -n "$games"
yomi_positive othello-first-move.sh -j "$jobs"
if [ -n "$board" ] && [ -z "$turn" ]; then
	echo "othello-first-move.sh: --board needs --turn X or O" >&2
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

# The heatmap: rank 8 on top as on a board; squares that are no first
# move stay blank.
awk -F, -v side="$side" 'NR > 1 && $1 != "pass" && $1 != "" {
	col = index("abcdefgh", substr($1, 1, 1)) - 1
	row = substr($1, 2, 1) - 1
	rate[row, col] = $3
	label[row, col] = sprintf("%s\\n%.3f", $1, $3)
}
END {
	for (r = 7; r >= 0; r--) {
		line = ""
		for (c = 0; c < 8; c++)
			line = line ((r, c) in rate ? rate[r, c] : "NaN") (c < 7 ? " " : "")
		print line > "'"$out"'/grid.txt"
	}
	for (k in label) {
		split(k, rc, SUBSEP)
		printf "set label \"%s\" at %d,%d center front\n", label[k], rc[2], 7 - rc[1] > "'"$out"'/labels.gp"
	}
}' "$out/first-move.csv"
touch "$out/labels.gp"
# gnuplot warns about the blank squares; its messages go to a log.
if ! gnuplot 2> "$out/gnuplot.log" <<EOF
set terminal png size 640,640
set output "$out/first-move.png"
set title "win rate of $side by first move ($games random games)"
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set xtics ("a" 0, "b" 1, "c" 2, "d" 3, "e" 4, "f" 5, "g" 6, "h" 7)
set ytics ("8" 0, "7" 1, "6" 2, "5" 3, "4" 4, "3" 5, "2" 6, "1" 7)
set size square
set palette defined (0 "#b2182b", 0.5 "#f7f7f7", 1 "#2166ac")
set cbrange [0:1]
set cblabel "win rate of $side"
set datafile missing "NaN"
load "$out/labels.gp"
plot "$out/grid.txt" matrix with image notitle
EOF
then
	cat "$out/gnuplot.log" >&2
	exit 1
fi
cat "$out/first-move.csv"
