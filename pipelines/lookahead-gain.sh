#!/usr/bin/env bash
# How much does lookahead raise the win rate? (the question seed 000 left
# open). Start words x --games seeds x both sides, lookahead at each depth
# against greedy, plus greedy against greedy as the baseline, on one or
# more dictionaries. Prints per dictionary and depth the games and the
# lookahead player's win rate with its 95% Wilson interval, then the draw
# and loss rates.
#
#   pipelines/lookahead-gain.sh [--dict FILE|sas|skk]... [--japanese]
#       [--starts LIST] [--starts-column NAME] [--games N] [--depths "2 4 6"]
#       [--rounds R] [--lose-tail CHARS] [-j JOBS] [-q] [-o DIR]
#
# --dict takes any dictionary table wordload writes (CSV or TSV, gzip or
# not) and may be given again for more dictionaries; sas (the default) is
# the SAS names by the seed's rules, skk (or --japanese) the SKK-JISYO.L
# readings with the ん rule. --starts as for chain-lookahead: all (the
# default), sample:N (N words drawn by seed 1), a file of words or a
# table's column (--starts-column), W1,W2,...; --lose-tail (e.g. ん) applies
# to every dictionary. Each tournament is split by game number into JOBS
# shards run side by side (default: the number of cores). Progress goes to
# a terminal's stderr unless -q. In DIR (-o) go the results of every
# tournament, summary.csv (the exact rates and intervals, by summarize)
# and gain.png (win rate and interval against depth, a line per
# dictionary; greedy is depth 1, end is drawn at 2R). The default (depths
# 2, 4 and 6, 3 seeds, the SAS names) takes about 10 s of CPU; depth end
# (exact play) is the long one: about 16 minutes a seed on 2 cores.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

dicts=() starts=all column= games=3 depths="2 4 6" rounds=15 lose= jobs=$(nproc) out= quiet=0
while [ $# -gt 0 ]; do
	case $1 in
	--dict) yomi_need "$@"; dicts+=("$2"); shift 2 ;;
	--japanese) dicts+=(skk); shift ;;
	--starts) yomi_need "$@"; starts=$2; shift 2 ;;
	--starts-column) yomi_need "$@"; column=$2; shift 2 ;;
	--games) yomi_need "$@"; games=$2; shift 2 ;;
	--depths) yomi_need "$@"; depths=$2; shift 2 ;;
	--rounds) yomi_need "$@"; rounds=$2; shift 2 ;;
	--lose-tail) yomi_need "$@"; lose=$2; shift 2 ;;
	-j) yomi_need "$@"; jobs=$2; shift 2 ;;
	-q | --quiet) quiet=1; shift ;;
	-o | --output) yomi_need "$@"; out=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
for v in "--games $games" "--rounds $rounds" "-j $jobs"; do
	yomi_positive "$yomi_me" ${v% *} "${v#* }"
done
for depth in $depths; do
	case $depth in end) ;; *) yomi_positive "$yomi_me" --depths "$depth" ;; esac
done
[ ${#dicts[@]} -gt 0 ] || dicts=(sas)
yomi_workdir "$out"
show=0
[ "$quiet" = 0 ] && [ -t 2 ] && show=1
progress() { [ "$show" = 0 ] || printf '\r%s: %s\033[K' "$yomi_me" "$*" >&2; }

# Runs one tournament (COMMAND...) over GAMES games in shards, into FILE,
# showing the games done so far.
tournament() {
	local total=$1 file=$2 what=$3
	shift 3
	local per=$(( (total + jobs - 1) / jobs )) first n k=0 pid pids=() parts=()
	for ((first = 1; first <= total; first += per, k++)); do
		n=$(( total - first + 1 < per ? total - first + 1 : per ))
		"$@" --first-game "$first" -n "$n" -q -t > "$file.part$k" &
		pids+=($!) parts+=("$file.part$k")
	done
	while [ "$show" = 1 ] && kill -0 "${pids[@]}" 2> /dev/null; do
		progress "$what: $(cat "${parts[@]}" | grep -vc '^game' || true) of $total games"
		sleep 1
	done
	for pid in "${pids[@]}"; do
		wait "$pid" || { echo "$yomi_me: a tournament failed" >&2; exit 1; }
	done
	{ head -n 1 "${parts[0]}"; for p in "${parts[@]}"; do tail -n +2 "$p"; done; } > "$file"
	rm -f "${parts[@]}"
}

echo "dictionary,depth,result" > "$out/outcomes.csv"
for dict in "${dicts[@]}"; do
	rules=(--rounds "$rounds")
	case $dict in
	sas) label=sas; dict="$out/sas.csv"; yomi_dictionary 0 "$dict" ;;
	skk) label=skk; dict="$out/skk.csv.gz"; yomi_dictionary 1 "$dict"; rules+=(--lose-tail "${lose:-ん}") ;;
	*) label=$(basename "$dict"); label=${label%.gz}; label=${label%.csv}; label=${label%.tsv} ;;
	esac
	[ -n "$lose" ] && [ "$label" != skk ] && rules+=(--lose-tail "$lose")
	list=(--starts "$starts")
	[ -n "$column" ] && list+=(--starts-column "$column")
	# The start words as the programs read them: one short game each.
	progress "$label: reading the start words"
	nstarts=$(chain-greedy -d "$dict" "${list[@]}" --vs greedy --rounds 1 -q | tail -n +2 | wc -l)
	total=$((nstarts * games * 2))
	for depth in greedy $depths; do
		if [ "$depth" = greedy ]; then
			prog=(chain-greedy)
		else
			prog=(chain-lookahead --depth "$depth")
		fi
		tournament "$total" "$out/results-$label-$depth.tsv" "$label, depth $depth" \
			"${prog[@]}" -d "$dict" "${rules[@]}" "${list[@]}" --vs greedy --games "$games" --both-sides
		# Each game from the tested player's side: greedy in the baseline
		# (first in the odd games of both sides), else the lookahead player.
		awk -F'\t' -v d="$depth" -v l="$label" 'NR > 1 {
			if (d == "greedy") me = ($1 % 2 == 1) ? 1 : 2
			else me = ($4 ~ /^lookahead/) ? 1 : 2
			print l "," d "," ($9 == me ? "win" : $9 == 0 ? "draw" : "loss")
		}' "$out/results-$label-$depth.tsv" >> "$out/outcomes.csv"
	done
done
progress "done"
[ "$show" = 0 ] || echo >&2
summarize -g dictionary,depth count rate:result=win rate:result=draw rate:result=loss \
	"$out/outcomes.csv" > "$out/summary.csv"

# The table: rates to three places, the interval as one column.
awk -F, 'NR == 1 { printf "%-12s %-6s %8s  %-5s  %-12s  %-5s  %s\n", "dictionary", "depth", "games", "win", "95% interval", "draw", "loss"; next }
	{ printf "%-12s %-6s %8d  %.3f  %.3f-%.3f   %.3f  %.3f\n", $1, $2, $3, $4, $5, $6, $7, $10 }' "$out/summary.csv"

# Win rate with its interval against depth, a line per dictionary.
rm -f "$out"/plot-*.dat
awk -F, -v r="$rounds" -v dir="$out" 'NR > 1 {
	x = $2 == "greedy" ? 1 : $2 == "end" ? 2 * r : $2
	printf "%s %s %s %s\n", x, $4, $5, $6 > (dir "/plot-" $1 ".dat")
}' "$out/summary.csv"
tics='"greedy" 1' xmax=1
for depth in $depths; do
	x=$depth
	[ "$depth" = end ] && x=$((2 * rounds))
	tics+=", \"$depth\" $x"
	[ "$x" -gt "$xmax" ] && xmax=$x
done
plots=()
for dict in "${dicts[@]}"; do
	case $dict in sas | skk) label=$dict ;; *) label=$(basename "$dict"); label=${label%.gz}; label=${label%.csv}; label=${label%.tsv} ;; esac
	plots+=("\"$out/plot-$label.dat\" using 1:2:3:4 with yerrorlines lw 2 pt 7 title \"$label\"")
done
if ! gnuplot 2> "$out/gnuplot.log" <<EOF
set terminal png size 720,480
set output "$out/gain.png"
set title "Win rate against greedy by lookahead depth (seeds: $games, both sides, 95% intervals)"
set xlabel "lookahead depth (greedy: greedy against itself; end: $((2 * rounds)) plies)"
set ylabel "win rate"
set xtics ($tics)
set xrange [0.5:$xmax + 0.5]
set yrange [0:1]
set key bottom right
set grid
plot $(IFS=,; echo "${plots[*]}")
EOF
then
	cat "$out/gnuplot.log" >&2
	exit 1
fi
rm -f "$out"/plot-*.dat
