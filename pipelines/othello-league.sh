#!/usr/bin/env bash
# A round robin among Othello players: every pair plays --games games, the
# colours swapped in every second game (playout --both-sides); then the
# crosstable of scores (wins plus half the draws, the row's player against
# the column's) and each player's score against the field with its 95%
# interval and the Elo difference it implies, through summarize.
#
#   pipelines/othello-league.sh [--players "random mc:10 mcts:100 ..."]
#       [--games N] [--seed S] [-j JOBS] [-q] [-o DIR]
#
# --players: any players playout's --black takes (default random mc:10
# mcts:100 mcts:1000 mcts:10000: about 25 s on one core); --games: games a
# pair (default 20, even, so that each player has black as often as
# white). The pairs run JOBS at a time (default: the number of cores); the
# games done show on a terminal unless -q. Writes DIR/games.csv (one row a
# game), DIR/results.csv (one row a player and game), DIR/crosstable.csv
# and DIR/standings.csv (exact, by summarize) and prints them for people.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

players="random mc:10 mcts:100 mcts:1000 mcts:10000" games=20 seed=1 jobs=$(nproc) out=
while [ $# -gt 0 ]; do
	case $1 in
	--players) yomi_need "$@"; players=$2; shift 2 ;;
	--games) yomi_need "$@"; games=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	-j) yomi_need "$@"; jobs=$2; shift 2 ;;
	-q | --quiet) yomi_quiet=1; shift ;;
	-o | --output) yomi_need "$@"; out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
yomi_positive "$yomi_me" --games "$games"
yomi_positive "$yomi_me" -j "$jobs"
read -r -a list <<<"$players"
if [ ${#list[@]} -lt 2 ]; then
	echo "$yomi_me: --players wants two players or more" >&2
	exit 2
fi
for ((a = 0; a < ${#list[@]}; a++)); do
	for ((b = a + 1; b < ${#list[@]}; b++)); do
		if [ "${list[a]}" = "${list[b]}" ]; then
			echo "$yomi_me: --players names ${list[a]} twice" >&2
			exit 2
		fi
	done
	# A player playout refuses is refused here, before any game.
	if ! err=$(playout --black "${list[a]}" --help 2>&1 > /dev/null); then
		echo "$yomi_me: ${err%%$'\n'*}" >&2
		exit 2
	fi
done
yomi_workdir "$out"

# Every pair, JOBS at a time: pair K (from 0) into DIR/pair.K.
pairs() {
	local k=0 a b
	for ((a = 0; a < ${#list[@]}; a++)); do
		for ((b = a + 1; b < ${#list[@]}; b++)); do
			if [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; then
				wait -n || exit 1
			fi
			YOMI_PROGRESS="$out/progress.$k" playout --black "${list[a]}" --white "${list[b]}" \
				-n "$games" --both-sides --seed "$seed" -q > "$out/pair.$k" 2> "$out/err.$k" &
			k=$((k + 1))
		done
	done
	while [ "$(jobs -rp | wc -l)" -gt 0 ]; do wait -n || exit 1; done
}
npairs=$(( ${#list[@]} * (${#list[@]} - 1) / 2 ))
rm -f "$out"/progress.* "$out"/pair.* "$out"/err.*
pairs &
pid=$!
yomi_watch "$out" $((npairs * games)) games "$pid"
if ! wait "$pid"; then
	cat "$out"/err.* >&2
	exit 1
fi
{
	head -n 1 "$out/pair.0"
	for ((k = 0; k < npairs; k++)); do tail -n +2 "$out/pair.$k"; done
} > "$out/games.csv"
rm -f "$out"/progress.* "$out"/pair.* "$out"/err.*

# Each game twice, from each player's side.
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; print "game,player,opponent,colour,result"; next }
	{
		b = $c["black_player"]; w = $c["white_player"]; win = $c["winner"]
		print $c["game"] "," b "," w ",black," (win == "black" ? "win" : win == "draw" ? "draw" : "loss")
		print $c["game"] "," w "," b ",white," (win == "white" ? "win" : win == "draw" ? "draw" : "loss")
	}' "$out/games.csv" > "$out/results.csv"
# The crosstable's columns in the order of --players, as its rows are.
summarize --crosstab player,opponent score:result=win/draw "$out/results.csv" |
	awk -F, -v players="$players" 'BEGIN { OFS = ","; n = split(players, p, " ") }
	NR == 1 { for (i = 2; i <= NF; i++) at[$i] = i }
	{ line = NR == 1 ? "player" : $1; for (k = 1; k <= n; k++) line = line "," (NR == 1 ? p[k] : $at[p[k]]); print line }' \
	> "$out/crosstable.csv"
summarize -g player count score:result=win/draw rate:result=win rate:result=draw \
	"$out/results.csv" > "$out/standings.csv"

echo "Score of the row's player against the column's ($games games a pair, colours swapped):"
awk -F, 'NR == 1 { printf "%-12s", ""; for (i = 2; i <= NF; i++) printf " %10s", $i; print ""; next }
	{ printf "%-12s", $1; for (i = 2; i <= NF; i++) printf " %10s", $i == "" ? "-" : sprintf("%.3f", $i); print "" }' \
	"$out/crosstable.csv"
echo
echo "Standings (score against the field, 95% interval, the Elo difference it implies):"
awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{ printf "%s,%d,%.3f,%.3f,%.3f,%s,%.3f,%.3f\n", $1, $c["count"], $c["score_result"], $c["score_result_lo"],
		$c["score_result_hi"], $c["elo_result"], $c["rate_result_win"], $c["rate_result_draw"] }' \
	"$out/standings.csv" | sort -t, -k3,3 -rn |
	awk -F, 'BEGIN { printf "%-12s %6s %6s  %-13s %6s  %5s  %5s\n", "player", "games", "score", "95% interval", "Elo", "won", "drawn" }
	{ printf "%-12s %6d %6.3f  %.3f-%.3f  %6s  %5.3f  %5.3f\n", $1, $2, $3, $4, $5,
		$6 == "Inf" ? "+inf" : $6 == "-Inf" ? "-inf" : sprintf("%+.0f", $6), $7, $8 }'
