# Sourced by the pipelines: the programs on PATH, the work directory and
# the dictionaries of the seed experiments.
#
# In the source tree this file is pipelines/common.sh, the programs are in
# bin/ and the dictionaries in dictionaries/; installed (make install) it is
# PREFIX/libexec/yomi/common.sh, the programs in PREFIX/bin and the
# dictionaries in PREFIX/share/yomi. A pipeline is run by its path or by
# its link bin/yomi-NAME, so it sources this file from beside its own
# resolved path.
yomi_lib=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# The name messages go under: as the user ran it (yomi-NAME or NAME.sh).
yomi_me=${0##*/}
if [ -f "$yomi_lib/../dictionaries/sas-functions.txt" ]; then
	yomi_top=$(cd "$yomi_lib/.." && pwd)
	yomi_data=$yomi_top/dictionaries
else
	yomi_top=$(cd "$yomi_lib/../.." && pwd)
	yomi_data=$yomi_top/share/yomi
fi
export PATH="$yomi_top/bin:$PATH"

# Prints the calling script's usage: its opening comment, after the #! line.
yomi_help() {
	sed -n '2,/^[^#]/{/^#/s/^# \{0,1\}//p}' "$0"
}

# Sets $out to DIR (created), or to a temporary directory removed at exit.
yomi_workdir() {
	if [ -n "${1:-}" ]; then
		out=$1
	else
		out=$(mktemp -d)
		trap 'rm -rf "$out"' EXIT
	fi
	mkdir -p "$out"
}

# Writes the dictionary table to FILE: the SAS names by the seed's rules,
# or with JAPANESE=1 the SKK-JISYO.L readings, ー read as its vowel.
yomi_dictionary() {
	local japanese=$1 file=$2
	if [ "$japanese" = 1 ]; then
		wordload -f skk --long-vowel vowel /usr/share/skk/SKK-JISYO.L -o "$file"
	else
		wordload --upcase --drop-digit-tail "$yomi_data/sas-functions.txt" -o "$file"
	fi
}

# For an option that takes a value (called with the script's "$@", the
# option first): dies with exit 2 when no value follows it, rather than
# let set -u stop the script with a shell message.
yomi_need() {
	[ $# -ge 2 ] || { echo "$yomi_me: $1 needs a value" >&2; exit 2; }
}

# Dies with exit 2 unless VALUE (given to option NAME of SCRIPT) is a
# positive whole number.
yomi_positive() {
	case $3 in
	'' | *[!0-9]* | 0 | 0*) echo "$1: $2 wants a positive number" >&2; exit 2 ;;
	esac
}

# Runs COMMAND... --first-game K -n N -q over GAMES games in JOBS shards side
# by side, summarizes each with `summarize --partial SUMMARY...` (SUMMARY is
# one string of words) into DIR, and prints the merged summary in key order:
# what `COMMAND -n GAMES | summarize --sort SUMMARY` prints. The games done
# show on a terminal (yomi_watch) unless yomi_quiet is 1.
yomi_shards() {
	local games=$1 jobs=$2 dir=$3 summary=$4
	shift 4
	local per=$(( (games + jobs - 1) / jobs )) first n k=0 pid pids=() parts=()
	rm -f "$dir"/progress.*
	for ((first = 1; first <= games; first += per, k++)); do
		n=$(( games - first + 1 < per ? games - first + 1 : per ))
		# shellcheck disable=SC2086 # SUMMARY is a list of words
		YOMI_PROGRESS="$dir/progress.$k" "$@" --first-game "$first" -n "$n" -q |
			summarize --partial -q $summary > "$dir/part.$k" &
		pids+=($!) parts+=("$dir/part.$k")
	done
	yomi_watch "$dir" "$games" games "${pids[@]}"
	for pid in "${pids[@]}"; do wait "$pid"; done
	summarize --merge --sort "${parts[@]}"
	rm -f "${parts[@]}" "$dir"/progress.*
}

# Shows on a terminal's stderr, unless yomi_quiet is 1, how far the shards
# running as PIDS have come: the counts their programs write to
# DIR/progress.* (YOMI_PROGRESS, lib/core/progress.h) added up, as the
# programs show their own: "NAME: 512000 of 1000000 games (51%), 1.52M/s,
# 0:01 left", a few times a second from half a second on, then the total
# and the time. Returns when the PIDS have ended.
yomi_watch() {
	local dir=$1 total=$2 what=$3 start=$EPOCHREALTIME shown=0 line pid running
	shift 3
	if [ "${yomi_quiet:-0}" = 1 ] || ! [ -t 2 ]; then
		return 0
	fi
	for (( ; ; )); do
		running=0
		for pid in "$@"; do kill -0 "$pid" 2> /dev/null && running=1; done
		[ "$running" = 1 ] || break
		sleep 0.25
		line=$({ cat "$dir"/progress.* 2> /dev/null || true; } | awk -v total="$total" -v what="$what" \
			-v start="$start" -v now="$EPOCHREALTIME" -v name="$yomi_me" '
			function rate(x, k) {
				k = 0
				while (k < 3 && x >= 999.5) { x /= 1000; k++ }
				return sprintf("%.3g%s", x, substr("kMG", k, k ? 1 : 0))
			}
			function clock(s) {
				s = int(s + 0.5)
				return s >= 3600 ? sprintf("%d:%02d:%02d", s / 3600, s / 60 % 60, s % 60) \
					: sprintf("%d:%02d", s / 60, s % 60)
			}
			{ done += $1 }
			END {
				t = now - start
				if (t < 0.5) exit
				r = t > 0 ? done / t : 0
				left = r > 0 ? clock((total - done) / r) : "?"
				printf "%s: %d of %d %s (%d%%), %s/s, %s left", name, done, total, what,
					100 * done / total, rate(r), left
			}')
		[ -n "$line" ] || continue
		printf '\r%s\033[K' "$line" >&2
		shown=1
	done
	if [ "$shown" = 1 ]; then
		awk -v total="$total" -v what="$what" -v start="$start" -v now="$EPOCHREALTIME" \
			-v name="$yomi_me" 'BEGIN {
			t = now - start
			x = total / t; k = 0
			while (k < 3 && x >= 999.5) { x /= 1000; k++ }
			printf "\r%s: %d %s in %.2f s, %.3g%s/s\033[K\n", name, total, what, t, x,
				substr("kMG", k, k ? 1 : 0)
		}' >&2
	fi
}

# Writes to stdout the Othello board of the position given as playout's
# position-table FILEs (none: the start), its rank 8 first, one line a
# rank: "8 - - . O X ..." (X black, O white, . a legal move, - empty).
yomi_board() {
	playout --show -n 1 "$@" | awk '/^[1-8] / && n < 8 { n++; print }'
}

# Writes to stdout gnuplot commands for the board's frame: squares 0-7
# each way, a at x 0 and rank 8 at y 0, named as players name them, on a
# background of COLOUR.
yomi_board_axes() {
	cat <<EOF
set xrange [-0.5:7.5]
set yrange [7.5:-0.5]
set xtics ("a" 0, "b" 1, "c" 2, "d" 3, "e" 4, "f" 5, "g" 6, "h" 7)
set ytics ("8" 0, "7" 1, "6" 2, "5" 3, "4" 4, "3" 5, "2" 6, "1" 7)
set size square
set object rectangle from -0.5,-0.5 to 7.5,7.5 behind fc rgb "$1" fs solid
EOF
}

# Writes to stdout gnuplot commands that draw the board in BOARD (as
# yomi_board writes it) on a plot with a at x 0 and rank 8 at y 0: the
# discs, a dot on each legal move, every square named. The squares named
# in SKIP (e.g. "c4 d3") get nothing: the caller draws them. COLOUR: the
# empty squares' names (default gray40).
yomi_board_gp() {
	awk -v skip=" ${2:-} " -v colour="${3:-gray40}" '{
		r = NR - 1
		for (c = 0; c < 8; c++) {
			name = substr("abcdefgh", c + 1, 1) (8 - r)
			d = $(c + 2)
			if (index(skip, " " name " "))
				continue
			if (d == "X" || d == "O") {
				printf "set object circle at %d,%d size 0.4 front fc rgb \"%s\" fs solid border lc rgb \"black\"\n",
					c, r, d == "X" ? "black" : "white"
				printf "set label \"%s\" at %d,%d center front tc rgb \"%s\" font \",8\"\n",
					name, c, r, d == "X" ? "white" : "black"
				continue
			}
			if (d == ".")
				printf "set object circle at %d,%d size 0.08 front fc rgb \"gray30\" fs solid noborder\n", c, r
			printf "set label \"%s\" at %d,%d offset 0,-1 center front tc rgb \"%s\" font \",8\"\n", name, c, r, colour
		}
	}' "$1"
}
