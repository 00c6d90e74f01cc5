#!/usr/bin/env bash
# The seed experiment: shiritori over SAS function names from SCAN, 15
# rounds, longest-word greedy (%deep0) against itself, then one-reply
# lookahead (%deep1) against greedy. Prints both game logs and the scores.
#
#   pipelines/sas-battle.sh [-s START] [-r ROUNDS] [--seed N] [--japanese] [-o DIR]
#
# --japanese plays the same two games on SKK-JISYO.L readings (wordload
# --format skk) with the usual ん rule, from しりとり.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

start=SCAN rounds=15 seed=777 japanese=0 out=
while [ $# -gt 0 ]; do
	case $1 in
	-s | --start) yomi_need "$@"; start=$2; shift 2 ;;
	-r | --rounds) yomi_need "$@"; rounds=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	--japanese) japanese=1; shift ;;
	-o | --output) yomi_need "$@"; out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
yomi_workdir "$out"

rules=(--rounds "$rounds" --seed "$seed")
yomi_dictionary "$japanese" "$out/dict.csv"
if [ "$japanese" = 1 ]; then
	[ "$start" = SCAN ] && start=しりとり
	rules+=(--lose-tail ん)
fi

# Game 1 as a pipeline of step filters, exactly the seed's %battle loop.
chain-greedy -d "$out/dict.csv" "${rules[@]}" --start "$start" --moves 0 > "$out/greedy-vs-greedy.csv"
for _ in $(seq "$rounds"); do
	chain-greedy -d "$out/dict.csv" "${rules[@]}" --moves 2 < "$out/greedy-vs-greedy.csv" > "$out/next.csv"
	mv "$out/next.csv" "$out/greedy-vs-greedy.csv"
done
# Game 2 in-process, with the lookahead player's candidate values.
chain-lookahead -d "$out/dict.csv" "${rules[@]}" --start "$start" --vs greedy \
	--trace "$out/lookahead-trace.csv" > "$out/lookahead-vs-greedy.csv"

report() {
	local title=$1 log=$2
	echo "== $title"
	cat "$log"
	awk -F, -v t="$title" 'NR > 1 { p1 = $7; p2 = $8; ev = $9; pl = $3 }
		END {
			if (ev == "stuck" || ev == "lose-tail") w = 3 - pl; else w = p1 > p2 ? 1 : p1 < p2 ? 2 : 0
			printf "%s: player 1 %d, player 2 %d: %s%s\n\n", t, p1, p2,
				w ? "player " w " wins" : "draw", (ev == "stuck" || ev == "lose-tail") ? " (" ev ")" : ""
		}' "$log"
}
report "greedy (player 1) vs greedy (player 2) from $start" "$out/greedy-vs-greedy.csv"
report "lookahead:2 (player 1) vs greedy (player 2) from $start" "$out/lookahead-vs-greedy.csv"
