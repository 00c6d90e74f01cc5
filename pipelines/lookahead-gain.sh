#!/usr/bin/env bash
# How much does lookahead raise the win rate? (the question seed 000 left
# open). Every start word x --games seeds x both sides, lookahead at each
# depth against greedy, plus greedy against greedy as the baseline. Prints,
# through summarize, one row per depth: games, then the win, draw and loss
# rates of the lookahead player, each with its 95% Wilson score interval.
#
#   pipelines/lookahead-gain.sh [--dict FILE | --japanese] [--starts LIST]
#       [--games N] [--depths "2 4 end"] [-j JOBS] [-o DIR]
#
# --dict takes a dictionary table (default: the SAS names by the seed's
# rules); --japanese uses SKK-JISYO.L readings with the ん rule. --starts as
# for chain-lookahead (default all). Tournaments are split by start word
# into JOBS parallel shards (default: the number of cores).
set -euo pipefail
. "$(dirname "$0")/common.sh"

dict= japanese=0 starts=all games=3 depths="2 4 end" jobs=$(nproc) out=
while [ $# -gt 0 ]; do
	case $1 in
	--dict) dict=$2; shift 2 ;;
	--japanese) japanese=1; shift ;;
	--starts) starts=$2; shift 2 ;;
	--games) games=$2; shift 2 ;;
	--depths) depths=$2; shift 2 ;;
	-j) jobs=$2; shift 2 ;;
	-o | --output) out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "lookahead-gain.sh: unknown option '$1'" >&2; exit 2 ;;
	esac
done
yomi_workdir "$out"
rules=()
if [ -z "$dict" ]; then
	dict="$out/dict.csv"
	yomi_dictionary "$japanese" "$dict"
fi
[ "$japanese" = 1 ] && rules+=(--lose-tail ん)

# The start words, one per line, split into shards.
if [ "$starts" = all ]; then
	tail -n +2 "$dict" | awk -F, '{ print $1 }' > "$out/starts.txt"
elif [ -f "$starts" ]; then
	grep -v '^#' "$starts" | grep -v '^$' > "$out/starts.txt"
else
	tr ',' '\n' <<<"$starts" > "$out/starts.txt"
fi
split -n "l/$jobs" -d -a 3 "$out/starts.txt" "$out/part."

# One tournament per depth and shard, all shards of a depth side by side.
for depth in greedy $depths; do
	pids=()
	for part in "$out"/part.[0-9][0-9][0-9]; do
		[ -s "$part" ] || continue
		if [ "$depth" = greedy ]; then
			prog=(chain-greedy)
		else
			prog=(chain-lookahead --depth "$depth")
		fi
		"${prog[@]}" -d "$dict" "${rules[@]}" --starts "$part" --vs greedy --games "$games" \
			--both-sides -q -o "$part.$depth.csv" &
		pids+=($!)
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || { echo "lookahead-gain.sh: a tournament failed" >&2; exit 1; }
	done
	first=("$out"/part.*."$depth".csv)
	{ head -1 "${first[0]}"; tail -q -n +2 "$out"/part.*."$depth".csv; } > "$out/results-$depth.csv"
done

# Each game from the tested player's side (greedy in the baseline, the
# first strategy of its pair; otherwise the lookahead player), then win,
# draw and loss rates with their intervals by summarize.
{
	echo "depth,result"
	for depth in greedy $depths; do
		awk -F, -v depth="$depth" 'NR > 1 {
			if (depth == "greedy") me = ($1 % 2 == 1) ? 1 : 2   # both sides: odd games first
			else me = ($4 ~ /^lookahead/) ? 1 : 2
			print depth "," ($9 == me ? "win" : $9 == 0 ? "draw" : "loss")
		}' "$out/results-$depth.csv"
	done
} > "$out/outcomes.csv"
summarize -g depth count rate:result=win rate:result=draw rate:result=loss "$out/outcomes.csv"
