#!/usr/bin/env bash
# Shiritori at the terminal against chain-greedy or chain-lookahead, on any
# dictionary table.
#
#   pipelines/play-shiritori.sh [--dict FILE | --japanese] [--vs greedy|lookahead[:D]]
#       [--first you|me] [--start WORD] [--rounds R] [--lose-tail CHARS]
#       [--seed N] [-o LOG]
#
# The dictionary is the SAS names by default, --japanese the SKK-JISYO.L
# readings (ー read as its vowel) with ん losing, or any table wordload
# wrote (--dict). On your turn type a word that starts with the key the
# last word ends with (the prompt shows it); ? lists the three best words
# the lookahead sees for you, q quits. The start word is --start (from the
# dictionary or not), else SCAN, しりとり, or a word drawn by --seed. Words
# score their len; after --rounds rounds (15) the higher total wins, and a
# player with no word left loses. The game log is written at the end to
# LOG (default shiritori-N.csv, a name not yet taken).
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

dict= japanese=0 vs=lookahead first=you start= rounds=15 lose= seed=$((RANDOM + 1)) log=
while [ $# -gt 0 ]; do
	case $1 in
	--dict) yomi_need "$@"; dict=$2; shift 2 ;;
	--japanese) japanese=1; shift ;;
	--vs) yomi_need "$@"; vs=$2; shift 2 ;;
	--first) yomi_need "$@"; first=$2; shift 2 ;;
	--start) yomi_need "$@"; start=$2; shift 2 ;;
	--rounds) yomi_need "$@"; rounds=$2; shift 2 ;;
	--lose-tail) yomi_need "$@"; lose=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	-o | --output) yomi_need "$@"; log=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
case $first in you | me) ;; *) echo "$yomi_me: --first is you or me" >&2; exit 2 ;; esac
case $vs in
greedy) me=(chain-greedy) ;;
lookahead) me=(chain-lookahead) ;;
lookahead:*) me=(chain-lookahead --depth "${vs#lookahead:}") ;;
*) echo "$yomi_me: --vs is greedy, lookahead or lookahead:D" >&2; exit 2 ;;
esac
yomi_positive "$yomi_me" --rounds "$rounds"
yomi_workdir ""
work=$out
if [ -z "$dict" ]; then
	dict="$work/dict.csv"
	yomi_dictionary "$japanese" "$dict"
	[ "$japanese" = 1 ] && lose=${lose:-ん}
fi
rules=(-d "$dict" --rounds "$rounds" --seed "$seed")
[ -n "$lose" ] && rules+=(--lose-tail "$lose")
if [ -z "$log" ]; then
	n=1
	while [ -e "shiritori-$n.csv" ]; do n=$((n + 1)); done
	log=shiritori-$n.csv
fi

# A TSV field as written (the quotes of a quoted one removed).
unquote() {
	local f=$1
	if [[ $f == \"*\" ]]; then
		f=${f:1:${#f}-2}
		f=${f//\"\"/\"}
	fi
	printf '%s' "$f"
}

# The last row of the log into turn, player, word, points, p1, p2, event
# (tabs become unit separators: read would merge adjacent tabs, and with
# them the empty word of a stuck row).
last_row() {
	IFS=$'\037' read -r _ turn player _ word points p1 p2 event < <(tail -n 1 "$work/log.tsv" | tr '\t' '\037')
	word=$(unquote "$word")
}

# Runs a step filter on the log; on success the log grows, on failure
# its message (without the program's name) is in $why.
step() {
	if "$@" -t "$work/log.tsv" -o "$work/next.tsv" 2> "$work/err"; then
		mv "$work/next.tsv" "$work/log.tsv"
		return 0
	fi
	why=$(sed -e 's/^[^:]*: //' -e 's/^--play: //' "$work/err")
	return 1
}

# Writes the log where it belongs and ends the game with a word of goodbye.
finish() {
	local tsv=()
	[[ $log == *.tsv || $log == *.tsv.gz ]] && tsv=(-t)
	chain-greedy "${rules[@]}" "${tsv[@]}" --moves 0 "$work/log.tsv" -o "$log"
	echo "$1"
	echo "The game log is in $log."
	exit 0
}

# The three words the lookahead values best for the mover, best first.
hints() {
	local depth=2
	[[ $vs == lookahead:* ]] && depth=${vs#lookahead:}
	chain-lookahead "${rules[@]}" -t --depth "$depth" --trace "$work/hints.tsv" "$work/log.tsv" > /dev/null
	echo "The best words for you, $depth moves ahead (your points minus mine):"
	tail -n +2 "$work/hints.tsv" | head -3 | tr '\t' '\037' | while IFS=$'\037' read -r _ _ _ w pts value _; do
		echo "  $(unquote "$w") ($pts points, worth $value)"
	done
}

if [ -z "$start" ]; then
	if [ "$dict" = "$work/dict.csv" ]; then
		[ "$japanese" = 1 ] && start=しりとり || start=SCAN
	else
		row=$(chain-greedy "${rules[@]}" -t --starts sample:1 --vs greedy -q | tail -n 1)
		start=$(unquote "$(cut -f2 <<<"$row")")
	fi
fi
words=$(summarize -t count "$dict" | tail -n 1)
chain-greedy "${rules[@]}" -t --start "$start" --moves 0 -o "$work/log.tsv" 2> "$work/err" ||
	{ sed 's/^[^:]*: //' "$work/err" | awk -v me="$yomi_me" '{ print me ": " $0 }' >&2; exit 1; }
[ "$rounds" = 1 ] && r="1 round" || r="$rounds rounds"
echo "Shiritori on $words words against $vs, $r${lose:+; a word ending in $lose loses}."
echo "Type a word that starts where the last one ends; ? for hints, q to quit."
if [ -s "$work/err" ]; then
	echo "Start word: $start (not in the dictionary; read as ending in $(sed 's/.*tail //' "$work/err"))"
else
	echo "Start word: $start"
fi
[ "$first" = you ] && you=1 || you=2
while :; do
	last_row
	if [ "$event" = stuck ]; then
		[ "$player" = "$you" ] && finish "No word is left for you. I win. Thank you for the game."
		finish "I have no word left. You win. Well played!"
	elif [ "$event" = lose-tail ]; then
		[ "$player" = "$you" ] && finish "'$word' ends in a losing letter. I win. Thank you for the game."
		finish "My '$word' ends in a losing letter. You win. Well played!"
	elif [ "$turn" -ge $((2 * rounds)) ]; then
		[ "$p1" = "$p2" ] && finish "A draw at $p1 points each. Well played!"
		mine=$p2 yours=$p1
		[ "$you" = 2 ] && mine=$p1 yours=$p2
		[ "$yours" -gt "$mine" ] && finish "You win, $yours to $mine. Well played!"
		finish "I win, $mine to $yours. Thank you for the game."
	fi
	if [ $(((turn + 1) % 2 == 1 ? 1 : 2)) = "$you" ]; then
		if step chain-greedy "${rules[@]}" --play ''; then
			continue # no word was left: the stuck row ends the game
		fi
		key=$(sed -n "s/.*words starting with '\(.*\)' are left.*/\1/p" <<<"$why")
		while :; do
			printf "Your word after '%s' (starting with %s): " "$word" "$key"
			if ! IFS= read -r answer; then
				echo
				finish "Bye."
			fi
			answer=$(sed -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' <<<"$answer")
			case $answer in
			q) finish "Bye." ;;
			'?') hints ;;
			'') echo "Sorry, please type a word (? for hints, q to quit)." ;;
			*) step chain-greedy "${rules[@]}" --play "$answer" && break
			   echo "Sorry, $why." ;;
			esac
		done
	else
		step "${me[@]}" "${rules[@]}" --moves 1 || { echo "$yomi_me: $why" >&2; exit 1; }
		last_row
		if [ "$event" != stuck ]; then
			mine=$p2 yours=$p1
			[ "$you" = 2 ] && mine=$p1 yours=$p2
			echo "I play: $word ($points points). Score: you $yours, me $mine."
		fi
	fi
done
