#!/usr/bin/env bash
# A picture of an Othello position: the board, its discs, a dot on each
# legal move of the side to move, the squares named; the title says the
# position, the side to move and the disc counts.
#
#   pipelines/othello-board.sh [--moves "f5 d6"] [--board BOARD [--turn X|O]]
#       [-o FILE.png]
#
# --moves plays those moves from the start (any form playout reads:
# "f5 d6", f5d6, F5 D6); --board/--turn give any position (64 characters
# X, O, - or ., a1..h8 row by row; with X or O appended, Edax's form, no
# --turn is needed), both: the moves from the board. Without either, the
# start. Writes FILE.png (default othello-board.png), 560x560.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

moves= board= turn= png=othello-board.png
while [ $# -gt 0 ]; do
	case $1 in
	--moves) yomi_need "$@"; moves=$2; shift 2 ;;
	--board) yomi_need "$@"; board=$2; shift 2 ;;
	--turn) yomi_need "$@"; turn=$2; shift 2 ;;
	-o | --output) yomi_need "$@"; png=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ ${#board} = 64 ] && [ -z "$turn" ]; then
	echo "$yomi_me: --board needs --turn X or O" >&2
	exit 2
fi
yomi_workdir ""

where="the start"
[ -z "$board" ] || where="the given board"
[ -z "$moves" ] || where="$where, then $moves"
where=${where#the start, then }
[[ $where != "$moves" ]] || where="after $moves"
pos=()
if [ -n "$board$moves" ]; then
	# Only moves: from the start, black to move.
	[ -n "$board" ] || board=$(printf -- '-%.0s' $(seq 27))OX------XO$(printf -- '-%.0s' $(seq 27)) turn=X
	printf 'board,turn,moves\n%s,%s,%s\n' "$board" "$turn" "$moves" > "$out/position.csv"
	pos=("$out/position.csv")
fi
yomi_board "${pos[@]}" > "$out/board.txt"
side=$(playout -n 1 "${pos[@]}" | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "first_player") c = i; next } { print $c }')
read -r nx no < <(awk '{ for (i = 2; i <= 9; i++) { x += $i == "X"; o += $i == "O" } } END { print x, o }' "$out/board.txt")
yomi_board_gp "$out/board.txt" "" "#a8d8b9" > "$out/board.gp"
# Any message of gnuplot's is a fault: it goes to stderr and stops the run.
if ! gnuplot > "$out/gnuplot.log" 2>&1 <<EOF || [ -s "$out/gnuplot.log" ]; then
set terminal png size 560,560
set output "$png"
set title "$where: $side to move (black $nx, white $no)"
$(yomi_board_axes "#2e8b57")
do for [i = 0:8] {
	set arrow from i - 0.5, -0.5 to i - 0.5, 7.5 nohead front lc rgb "black"
	set arrow from -0.5, i - 0.5 to 7.5, i - 0.5 nohead front lc rgb "black"
}
unset key
load "$out/board.gp"
plot NaN notitle
EOF
	cat "$out/gnuplot.log" >&2
	exit 1
fi
