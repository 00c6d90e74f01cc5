#!/usr/bin/env bash
# Nim at the terminal against the perfect player (nimtable --advise).
#
#   pipelines/play-nim.sh [--heaps "3 4 5"] [--misere] [--first you|me] [--seed N]
#
# Heaps are drawn as rows of stones. On your turn type the heap and how many
# stones to take ("2 3" takes 3 from heap 2); q quits. In normal play whoever
# takes the last stone wins; with --misere whoever takes it loses.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

heaps=(3 4 5) misere=() first=you seed=$((RANDOM + 1))
while [ $# -gt 0 ]; do
	case $1 in
	--heaps) yomi_need "$@"; read -r -a heaps <<<"$2"; shift 2 ;;
	--misere) misere=(--misere); shift ;;
	--first) yomi_need "$@"; first=$2; shift 2 ;;
	--seed) yomi_need "$@"; seed=$2; shift 2 ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
case $first in you | me) ;; *) echo "$yomi_me: --first is you or me" >&2; exit 2 ;; esac
for i in "${!heaps[@]}"; do
	h=${heaps[i]}
	[[ $h =~ ^[0-9]{1,3}$ ]] && [ $((10#$h)) -le 60 ] || { echo "$yomi_me: heaps are numbers from 0 to 60" >&2; exit 2; }
	heaps[i]=$((10#$h)) # 08 is eight, not a bad octal number
done
# Without a stone there is no move to make: no game to play.
[[ ${heaps[*]} =~ [1-9] ]] || { echo "$yomi_me: --heaps needs at least one stone, e.g. \"3 4 5\"" >&2; exit 2; }

draw() {
	echo
	for i in "${!heaps[@]}"; do
		printf '  heap %d (%2d) ' $((i + 1)) "${heaps[i]}"
		for ((k = 0; k < heaps[i]; k++)); do printf 'o'; done
		echo
	done
	echo
}

empty() {
	for h in "${heaps[@]}"; do [ "$h" = 0 ] || return 1; done
}

# The game ends when the heaps are empty: the last mover won in normal play
# and lost in misere play.
finish() {
	local last=$1
	if { [ "$last" = you ] && [ ${#misere[@]} = 0 ]; } || { [ "$last" = me ] && [ ${#misere[@]} = 1 ]; }; then
		echo "You win. Well played!"
	else
		echo "I win. Thank you for the game."
	fi
	exit 0
}

turn=$first
round=0
draw
while :; do
	if [ "$turn" = you ]; then
		while :; do
			printf 'Your move (heap stones): '
			read -r a b rest || { echo; echo "Bye."; exit 0; }
			[ "$a" = q ] && { echo "Bye."; exit 0; }
			if ! [[ $a =~ ^[0-9]+$ && ${b:-x} =~ ^[0-9]+$ ]] || [ -n "$rest" ]; then
				echo "Sorry, please type two numbers: the heap and how many stones, e.g. 2 3."
			elif [ "$a" -lt 1 ] || [ "$a" -gt ${#heaps[@]} ]; then
				echo "Sorry, there is no heap $a; the heaps are 1 to ${#heaps[@]}."
			elif [ "$b" -lt 1 ]; then
				echo "Sorry, you must take at least one stone."
			elif [ "$b" -gt "${heaps[a - 1]}" ]; then
				echo "Sorry, heap $a has only ${heaps[a - 1]} stones."
			else
				heaps[a - 1]=$((heaps[a - 1] - b))
				break
			fi
		done
	else
		move=$(echo "${heaps[*]}" | nimtable --advise "${misere[@]}" --seed $((seed + round)) | tail -1 | cut -d, -f$((${#heaps[@]} + 2)))
		read -r -a next <<<"$move"
		for i in "${!heaps[@]}"; do
			if [ "${next[i]}" != "${heaps[i]}" ]; then
				echo "I take $((heaps[i] - next[i])) from heap $((i + 1))."
			fi
		done
		heaps=("${next[@]}")
	fi
	draw
	empty && finish "$turn"
	[ "$turn" = you ] && turn=me || turn=you
	round=$((round + 1))
done
