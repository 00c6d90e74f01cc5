# Sourced by the pipelines: the programs on PATH, the work directory and
# the dictionaries of the seed experiments.
yomi_top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
export PATH="$yomi_top/bin:$PATH"

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
		wordload --upcase --drop-digit-tail "$yomi_top/dictionaries/sas-functions.txt" -o "$file"
	fi
}
