#!/usr/bin/env bash
# Prints one checksum per run over a fixed set of runs of every program, and
# a total, so that a refactoring can show that behaviour did not change:
#
#   tests/behaviour.sh > before.txt; (change); tests/behaviour.sh | diff before.txt -
#
# Each run's stdout, stderr and exit status are hashed together. Timing
# columns (perft's seconds) are dropped first.
set -u
cd "$(dirname "$0")/.."
export PATH="$PWD/bin:$PATH" LC_ALL=C.UTF-8
fix=tests/fixtures
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

run() { # NAME COMMAND... : hashes what the command prints and its status
	local name=$1
	shift
	local h
	h=$( { "$@" 2>&1; echo "rc=$?"; } | sha256sum | cut -c1-16)
	printf '%-28s %s\n' "$name" "$h"
	echo "$name $h" >> "$tmp/all"
}
sh_run() { run "$1" bash -c "$2"; }

# wordload
run wl-sas wordload --upcase --drop-digit-tail dictionaries/sas-functions.txt
run wl-sas-v wordload -v --upcase --drop-digit-tail dictionaries/sas-functions.txt
run wl-kana wordload --kana --long-vowel vowel dictionaries/japanese-nouns.txt
run wl-kana-dak wordload --kana --fold-dakuten -t dictionaries/japanese-nouns.txt
run wl-skk wordload -f skk $fix/skk-small.euc
run wl-ipadic wordload -f ipadic --pos 名詞,一般 $fix/ipadic-small.euc.csv
run wl-csv wordload --column name $fix/animals.csv
run wl-sjis wordload -e SHIFT_JIS $fix/sjis.txt
run wl-invalid wordload $fix/invalid.txt
run wl-skip wordload --skip-invalid $fix/invalid.txt
run wl-bad-opt wordload --min-len 0
run wl-help wordload --help
wordload --upcase --drop-digit-tail dictionaries/sas-functions.txt -o "$tmp/sas.csv"
wordload --kana dictionaries/japanese-nouns.txt -o "$tmp/ja.csv"

# chain-greedy / chain-lookahead
d=$tmp/sas.csv
run cg-step chain-greedy -d $d --start SCAN --moves 5
sh_run cg-pipe "chain-greedy -d $d --start SCAN --moves 0 | chain-lookahead -d $d | chain-greedy -d $d | chain-lookahead -d $d --depth 4"
run cl-match chain-lookahead -d $d --start SCAN --vs greedy --trace /dev/stdout
run cl-match-end chain-lookahead -d $d --start SCAN --vs greedy --depth 6 --rounds 8
run cl-tour chain-lookahead -d $d --starts all --vs greedy --games 2 --both-sides
run cl-tour-d4 chain-lookahead -d $d --starts all --vs greedy --depth 4 --first-game 100 -n 300
run cg-tour-rand chain-greedy -d $d --starts SCAN,SUM,MEAN --vs random --games 5 --seed 9
run cl-ja chain-lookahead -d $tmp/ja.csv --starts all --vs greedy --lose-tail ん --handicap 3,-2
run cl-bad-start chain-lookahead -d $d --start NOPE
run cl-bad-depth chain-lookahead -d $d --depth 0
run cg-depth chain-greedy -d $d --depth 2
sh_run cl-log-bad "printf 'game,turn,player,strategy,word,points,p1_score,p2_score,event\n1,0,0,start,SCAN,0,0,0,start\n1,1,1,x,SUM,3,3,0,play\n' | chain-lookahead -d $d"

# nimtable
run nim-seed nimtable --misere --p-only
run nim-full nimtable --max 12
run nim-mis nimtable --misere --max 9 -t
run nim-sizes nimtable --sizes 3,5,7,2
run nim-count nimtable --count --max 30
run wy-p nimtable wythoff --p-only --max 500
run wy-full nimtable wythoff --max 30
run wy-mis nimtable wythoff --misere --max 20
run sub nimtable subtract:1,3,4 --max 15 -m 2
run sub-mis nimtable subtract:2,5 --misere --max 12 -m 2
run oct-kayles nimtable octal:0.77 --max 100
run oct-dawson nimtable octal:0.07 --max 40
run oct-mis nimtable octal:0.77 --misere --max 20
sh_run nim-advise "printf '3 4 5\n1 1 1\n0 0 0\n7 7 0\n' | nimtable --advise"
sh_run nim-advise-mis "printf 'h1,h2,h3\n3,4,5\n1,1,0\n' | nimtable --misere --advise --seed 5"
sh_run wy-advise "printf '3 5\n4 7\n10 2\n' | nimtable wythoff --advise"
sh_run oct-advise "printf '5 7\n6 0\n' | nimtable octal:0.77 --advise"
run nim-bad nimtable bogus:1
run nim-mem nimtable --max 1000 --max-memory 1M

# summarize
sh_run sum-basic "summarize -g first_move count mean:plies rate:winner=black $fix/games.csv"
sh_run sum-ops "summarize -g winner count sum:plies min:black max:white sd:black var:white median:plies q:0.25:black mode:first_move distinct:note first:note last:note score:winner=black/draw $fix/games.csv"
sh_run sum-cross "summarize --crosstab first_move,winner count $fix/games.csv"
sh_run sum-sort "summarize --sort -g first_move,winner mean:black $fix/games.csv"
sh_run sum-partial "summarize --partial -g winner count mean:plies rate:first_move=d3 first:note $fix/games.csv > $tmp/p1.csv; summarize --partial -g winner count mean:plies rate:first_move=d3 first:note $fix/games.csv > $tmp/p2.csv; summarize --merge $tmp/p1.csv $tmp/p2.csv"
sh_run sum-bad "summarize mean:note $fix/games.csv"
sh_run sum-unk "summarize bogus:x $fix/games.csv"

# playout: Othello
run oth-rand playout -n 2000 --seed 5
run oth-moves playout -n 50 --moves --seed 7
sh_run oth-pos "printf 'moves,tag\nf5 d6,a\nf5 f6 e6,b\n' | playout -n 300 -"
sh_run oth-per-move "printf 'moves\nf5 d6\n' | playout --per-move 2000 -"
run oth-match playout --black mcts:200 --white mc:20 -n 4 --moves
run oth-show playout --show --seed 3 --black mc:10
sh_run oth-perft "playout --perft 7 | cut -d, -f1,2"
run oth-bad playout --black mcts:0
sh_run oth-board "printf 'board,turn\n---------------------------OX------XO---------------------------,X\n' | playout -n 100 --seed 2 -"

# playout: Calculation
run calc-rand playout -g calc -n 3000 --seed 4
run calc-rand-moves playout -g calc -n 20 --moves
run calc-var playout -g calc -n 500 --variant no-foundations,three-piles
run calc-greedy playout -g calc -n 300 --policy greedy --moves
run calc-mcts playout -g calc -n 3 --policy mcts --playouts 300 --reward rest:0.05
run calc-simple playout -g calc -n 2 --policy simple --level 2 --width 3
run calc-best playout -g calc -n 2 --policy best --playouts 16 --samples 8
run calc-clair playout -g calc -n 5 --policy clairvoyant --level 2 --moves
run calc-show playout -g calc --show --policy greedy --seed 2
sh_run calc-deck "printf 'deck,who\nKQJT98765432AKQJT98765432AKQJT98765432AKQJT98765432A,x\n' | playout -g calc --policy greedy --moves -"
run calc-bad playout -g calc --policy mcts --black random

# pipelines
sh_run pl-sas "pipelines/sas-battle.sh"
sh_run pl-nim-help "pipelines/play-nim.sh --help"
sh_run pl-shiritori "cd $tmp && printf 'abb\\n?\\nzz\\ncdd\\nq\\n' | $PWD/pipelines/play-shiritori.sh --seed 1 --dict $PWD/$fix/line.csv --start sa -o game.csv; cat game.csv"

sort -k1,1 "$tmp/all" | sha256sum | cut -c1-16 | sed 's/^/total                        /'
