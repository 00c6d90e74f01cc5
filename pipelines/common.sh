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
# what `COMMAND -n GAMES | summarize --sort SUMMARY` prints.
yomi_shards() {
	local games=$1 jobs=$2 dir=$3 summary=$4
	shift 4
	local per=$(( (games + jobs - 1) / jobs )) first n k=0 pid pids=() parts=()
	for ((first = 1; first <= games; first += per, k++)); do
		n=$(( games - first + 1 < per ? games - first + 1 : per ))
		# shellcheck disable=SC2086 # SUMMARY is a list of words
		"$@" --first-game "$first" -n "$n" -q | summarize --partial $summary > "$dir/part.$k" &
		pids+=($!) parts+=("$dir/part.$k")
	done
	for pid in "${pids[@]}"; do wait "$pid"; done
	summarize --merge --sort "${parts[@]}"
	rm -f "${parts[@]}"
}
