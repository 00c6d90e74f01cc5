#!/usr/bin/env bats
# The pipelines in pipelines/ and the programs chained together.

load test_helper/common

@test "sas-battle.sh: the seed's two games from SCAN" {
	run "$TOP/pipelines/sas-battle.sh" -o out
	assert_success
	assert_line "greedy (player 1) vs greedy (player 2) from SCAN: player 1 44, player 2 50: player 2 wins (stuck)"
	assert_line "lookahead:2 (player 1) vs greedy (player 2) from SCAN: player 1 13, player 2 10: player 1 wins (stuck)"
	[ -s out/lookahead-trace.csv ]
	run head -1 out/greedy-vs-greedy.csv
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event"
}

@test "sas-battle.sh --japanese: SKK readings with the ん rule" {
	run "$TOP/pipelines/sas-battle.sh" --japanese
	assert_success
	assert_line "greedy (player 1) vs greedy (player 2) from しりとり: player 1 209, player 2 209: draw"
	assert_line "lookahead:2 (player 1) vs greedy (player 2) from しりとり: player 1 210, player 2 179: player 1 wins"
}

@test "lookahead-gain.sh: the table, the exact summary and the plot in -o DIR" {
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 4" -o out
	assert_success
	assert_output "dictionary   depth     games  win    95% interval  draw   loss
sas          greedy     4938  0.500  0.486-0.514   0.000  0.500
sas          2          4938  0.699  0.686-0.712   0.000  0.301
sas          4          4938  0.941  0.934-0.947   0.000  0.059"
	run cat out/summary.csv
	assert_output "dictionary,depth,count,rate_result_win,rate_result_win_lo,rate_result_win_hi,rate_result_draw,rate_result_draw_lo,rate_result_draw_hi,rate_result_loss,rate_result_loss_lo,rate_result_loss_hi
sas,greedy,4938,0.5,0.4860596495705396,0.5139403504294604,0,0,0.0007773334803846252,0.5,0.4860596495705396,0.5139403504294604
sas,2,4938,0.6990684487646821,0.6861249239238092,0.7117024884653289,0,0,0.0007773334803846252,0.30093155123531795,0.2882975115346711,0.3138750760761909
sas,4,4938,0.9410692588092345,0.9341516886772095,0.9473011131371777,0,0,0.0007773334803846252,0.058930741190765495,0.05269888686282231,0.06584831132279037"
	run file -b out/gain.png
	assert_output --partial "PNG image data, 720 x 480"
	assert_equal "$(tail -n +2 out/results-sas-4.tsv | wc -l)" 4938
}

@test "lookahead-gain.sh: shards give the unsplit result" {
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 6" --starts SCAN,ABS,INPUT,PUT --games 2 -j 1
	assert_success
	one=$output
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 6" --starts SCAN,ABS,INPUT,PUT --games 2 -j 3
	assert_equal "$output" "$one"
	assert_line --index 3 "sas          6            16  1.000  0.806-1.000   0.000  0.000"
	run "$TOP/pipelines/lookahead-gain.sh" --depths 2 --starts NOPE
	assert_failure 1
	assert_line --index 0 --partial "start word 'NOPE' is not in the dictionary"
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 x"
	assert_failure 2
	assert_output "lookahead-gain.sh: --depths wants a positive number"
}

@test "lookahead-gain.sh: gzip and TSV dictionaries, sampled and tabled starts" {
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -t -o sas.tsv.gz
	run "$TOP/pipelines/lookahead-gain.sh" --dict sas.csv --depths 2 --starts sample:50 --games 1
	assert_success
	assert_line --index 2 --regexp '^sas +2 +100  '
	csv=$output
	run "$TOP/pipelines/lookahead-gain.sh" --dict sas.tsv.gz --depths 2 --starts sample:50 --games 1
	assert_equal "$output" "$csv"
	# A start column of a table, quoted commas and all.
	printf 'word,head,tail,len\n"A,B",A,B,3\nBC,B,C,2\nCA,C,A,2\n' > q.csv
	run "$TOP/pipelines/lookahead-gain.sh" --dict q.csv --starts q.csv --starts-column word --depths 2 --games 1
	assert_success
	assert_line --index 1 --regexp '^q +greedy +6  '
	# Two dictionaries at once: a table each and a line each in the plot.
	run "$TOP/pipelines/lookahead-gain.sh" --dict q.csv --dict sas.csv --starts sample:3 --depths 2 --games 1 -o two
	assert_success
	assert_line --index 2 --regexp '^q +2 +6  '
	assert_line --index 4 --regexp '^sas +2 +6  '
	run file -b two/gain.png
	assert_output --partial "PNG image data"
}

@test "lookahead-gain.sh --japanese on chosen start words" {
	run "$TOP/pipelines/lookahead-gain.sh" --japanese --games 2 --depths 2 --starts りんご,しりとり,ねこ,いぬ,さくら
	assert_line --index 2 "skk          2            20  1.000  0.839-1.000   0.000  0.000"
}

@test "a dictionary straight from wordload on stdin" {
	run bash -c "wordload --upcase --drop-digit-tail '$TOP/dictionaries/sas-functions.txt' | chain-lookahead -d - --start SCAN --vs greedy | tail -1"
	assert_success
	assert_output "1,4,2,greedy,,0,13,10,stuck"
}

@test "gzip and TSV flow between the programs" {
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o d.tsv.gz -t
	run bash -c "chain-greedy -d d.tsv.gz --start SCAN --moves 2 -z | chain-greedy -d d.tsv.gz -t | cut -f5"
	assert_output "word
SCAN
NOTXDIGIT
TZONEDSTNAME
ENCODISVALID"
}

@test "make install and uninstall honour DESTDIR and PREFIX" {
	make -C "$TOP" -s install DESTDIR="$PWD/root" PREFIX=/opt/yomi > /dev/null
	for p in wordload chain-greedy chain-lookahead summarize nimtable playout; do
		[ -x "root/opt/yomi/bin/$p" ]
		[ -f "root/opt/yomi/share/man/man1/$p.1" ]
	done
	# Each pipeline in libexec/yomi with its link yomi-NAME in bin, and
	# the dictionaries in share/yomi.
	for f in "$TOP"/pipelines/*.sh; do
		n=$(basename "$f" .sh)
		cmp "$f" "root/opt/yomi/libexec/yomi/$n.sh"
		[ "$n" = common ] && continue
		[ "$(readlink -f "root/opt/yomi/bin/yomi-$n")" = "$PWD/root/opt/yomi/libexec/yomi/$n.sh" ]
	done
	run bash -c "cd root/opt/yomi/share/yomi && ls"
	assert_output "$(ls "$TOP/dictionaries")"
	# A pipeline installed finds the programs and the dictionaries installed
	# beside it, with nothing of the tree on PATH.
	run env PATH=/usr/bin:/bin root/opt/yomi/bin/yomi-sas-battle
	assert_success
	assert_line "lookahead:2 (player 1) vs greedy (player 2) from SCAN: player 1 13, player 2 10: player 1 wins (stuck)"
	# The manual page of chain-lookahead is chain-greedy's, installed whole.
	cmp root/opt/yomi/share/man/man1/chain-lookahead.1 "$TOP/bin/chain-greedy.1"
	make -C "$TOP" -s uninstall DESTDIR="$PWD/root" PREFIX=/opt/yomi > /dev/null
	run find root -type f -o -type l
	assert_output ""
}

@test "every program's output loads in R's read.csv with the right types, Japanese intact" {
	command -v Rscript > /dev/null || skip "R is not installed (make deps installs it)"
	wordload --kana "$TOP/dictionaries/japanese-nouns.txt" -o dict.csv
	chain-lookahead -d dict.csv --start りんご --vs greedy --lose-tail ん --trace trace.csv > log.csv
	chain-lookahead -d dict.csv --starts りんご,ねこ --vs greedy --both-sides > results.csv
	summarize -g p1 count rate:winner=1 mean:turns score:winner=1/0 results.csv > summary.csv
	summarize --bom -g start count results.csv > bom.csv
	cat > check.R <<'RSCRIPT'
		types <- function(f) paste(sapply(read.csv(f, encoding = "UTF-8"), class), collapse = " ")
		stopifnot(types("dict.csv") == "character character character integer")
		stopifnot(types("log.csv") == "integer integer integer character character integer integer integer character")
		stopifnot(types("trace.csv") == "integer integer integer character integer integer integer")
		stopifnot(types("results.csv") == "integer character integer character character integer integer integer integer character")
		su <- read.csv("summary.csv")
stopifnot(is.character(su$p1), all(sapply(su[-1], is.numeric)))
		d <- read.csv("dict.csv", encoding = "UTF-8")
		stopifnot(d$word[1] == "あい", d$tail[d$word == "パーティー"] == "い")
		l <- read.csv("log.csv", encoding = "UTF-8")
		stopifnot(l$word[1] == "りんご")
		b <- read.csv("bom.csv", fileEncoding = "UTF-8-BOM")
		stopifnot(names(b)[1] == "start", b$start[1] == "りんご")
		cat("R reads them all\n")
RSCRIPT
	run Rscript check.R
	assert_success
	assert_output --partial "R reads them all"
}

@test "parallel-playouts.sh: merged shards equal the single-process summary" {
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	ops="-g p1 count rate:winner=1 mean:turns sd:p1_score"
	run "$TOP/pipelines/parallel-playouts.sh" -n 1646 -k 7 -j 2 -s "$ops" -- \
		chain-lookahead -d sas.csv --starts all --vs greedy --both-sides
	assert_success
	parallel_out=$output
	run bash -c "chain-lookahead -d sas.csv --starts all --vs greedy --both-sides | summarize $ops"
	assert_equal "$parallel_out" "$output"
	assert_line --index 1 --partial "lookahead:2,823,0.674362"
}

@test "parallel-playouts.sh: a failing shard's own message is shown" {
	run "$TOP/pipelines/parallel-playouts.sh" -n 10 -k 2 -j 1 -s count -- playout --nope
	assert_failure 1
	assert_output "parallel-playouts.sh: shard 1 (games 1 to 5) failed:
playout: unrecognized option '--nope'
Try 'playout --help' for more information.
summarize: -:1: empty input, expected a header line"
	run "$TOP/pipelines/parallel-playouts.sh" -n 10 -k 2 -j 1 -s mean:nope -- playout
	assert_failure 1
	assert_output "parallel-playouts.sh: shard 1 (games 1 to 5) failed:
summarize: -:1: missing column 'nope'"
}

@test "the README's Hadoop Streaming mapper and reducer, simulated with sort" {
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	printf '1 600\n601 600\n1201 446\n' > shards.txt
	mapper() {
		while read -r k n; do
			chain-lookahead -d sas.csv --starts all --vs greedy --both-sides --first-game "$k" -n "$n" -q |
				summarize --partial -g p1 count rate:winner=1 | tail -n +2
		done
	}
	reducer() { { echo "p1,count#n,rate:winner=1#n,rate:winner=1#k"; cat; } | summarize --merge --sort; }
	run bash -c "$(declare -f mapper reducer); mapper < shards.txt | sort | reducer"
	assert_success
	streamed=$output
	run bash -c "chain-lookahead -d sas.csv --starts all --vs greedy --both-sides | summarize --sort -g p1 count rate:winner=1"
	assert_equal "$streamed" "$output"
}

@test "play-nim.sh: the perfect player wins from a P position and rejects bad moves politely" {
	run bash -c "printf '1 1\n2 5\n2 1\nx\n9 1\n3 0\n3 1\n3 1\n2 1\n' | '$TOP/pipelines/play-nim.sh' --heaps '1 2 3' --first you --seed 3"
	assert_success
	assert_output --partial "Sorry, heap 2 has only 2 stones."
	assert_output --partial "Sorry, please type two numbers: the heap and how many stones, e.g. 2 3."
	assert_line "I take 1 from heap 3."
	assert_line "I win. Thank you for the game."
	# Misere: the computer leaves one stone, which the human must take.
	run bash -c "printf '3 1\n' | '$TOP/pipelines/play-nim.sh' --heaps '0 0 2' --first me --misere"
	assert_line "I take 1 from heap 3."
	assert_line "I win. Thank you for the game."
	run bash -c "printf '1 1\n' | '$TOP/pipelines/play-nim.sh' --heaps '1' --first you"
	assert_line "You win. Well played!"
}

@test "play-nim.sh: heaps without a stone are refused; 08 is eight" {
	for h in "0 0" "0" ""; do
		for first in you me; do
			run timeout 10 "$TOP/pipelines/play-nim.sh" --heaps "$h" --first $first < /dev/null
			assert_failure 2
			assert_output 'play-nim.sh: --heaps needs at least one stone, e.g. "3 4 5"'
		done
	done
	run timeout 10 "$TOP/pipelines/play-nim.sh" --heaps "0 61" < /dev/null
	assert_failure 2
	assert_output "play-nim.sh: heaps are numbers from 0 to 60"
	run bash -c "printf '1 8\n' | '$TOP/pipelines/play-nim.sh' --heaps '08 0' --first you"
	assert_success
	assert_line "  heap 1 ( 8) oooooooo"
	assert_line "You win. Well played!"
}

@test "every pipeline: an option without its value is refused with exit 2" {
	local p opt
	for p in sas-battle:-r lookahead-gain:--games play-nim:--heaps othello-league:--players \
		othello-mc-vs-perfect:--positions play-shiritori:--dict parallel-playouts:-n \
		calc-success:--games othello-first-move:-n othello-board:--moves histogram:-c; do
		opt=${p#*:} p=${p%%:*}
		run "$TOP/pipelines/$p.sh" "$opt" < /dev/null
		assert_failure 2
		assert_output "$p.sh: $opt needs a value"
		# Run by its link, as installed, a pipeline's messages name the link.
		run "$TOP/bin/yomi-$p" "$opt" < /dev/null
		assert_failure 2
		assert_output "yomi-$p: $opt needs a value"
	done
	run "$TOP/bin/yomi-play-nim" --first x
	assert_failure 2
	assert_output "yomi-play-nim: --first is you or me"
}

@test "play-shiritori.sh: polite rejections, hints, and the log at the end" {
	run bash -c "printf 'abb\n?\nzz\nde\nbc\n\ncdd\nq\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict '$FIX/line.csv' --start sa --vs greedy -o game.csv"
	assert_success
	assert_line --index 0 "Shiritori on 6 words against greedy, 15 rounds."
	assert_line --index 2 "Start word: sa"
	assert_output --partial "(starting with a): I play: bc (2 points). Score: you 3, me 2."
	assert_output --partial "The best words for you, 2 moves ahead (your points minus mine):"
	assert_line "  cdd (3 points, worth 1)"
	assert_output --partial "Sorry, 'zz' is not in the dictionary."
	assert_output --partial "Sorry, 'de' starts with 'd', not with 'c' (the end of 'bc')."
	assert_output --partial "Sorry, 'bc' has been played already."
	assert_output --partial "Sorry, please type a word (? for hints, q to quit)."
	assert_output --partial "I play: de (2 points). Score: you 6, me 4."
	assert_line --partial "(starting with e): Bye."
	assert_line "The game log is in game.csv."
	run cat game.csv
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,sa,0,0,0,start
1,1,1,person,abb,3,3,0,play
1,2,2,greedy,bc,2,3,2,play
1,3,1,person,cdd,3,6,2,play
1,4,2,greedy,de,2,6,4,play"
}

@test "play-shiritori.sh: who starts, stuck either way, the score at the end" {
	run bash -c "printf 'abb\ncdd\neff\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict '$FIX/line.csv' --start sa --vs greedy -o g1.csv"
	assert_line --partial "(starting with e): I have no word left. You win. Well played!"
	run tail -1 g1.csv
	assert_output "1,6,2,greedy,,0,9,4,stuck"
	run bash -c "printf 'bc\nde\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict '$FIX/line.csv' --start sa --first me -o g2.csv"
	assert_line --index 3 "I play: abb (3 points). Score: you 0, me 3."
	assert_line "No word is left for you. I win. Thank you for the game."
	run tail -1 g2.csv
	assert_output "1,6,2,person,,0,9,4,stuck"
	run bash -c "printf 'bc\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict '$FIX/line.csv' --start sa --first me --rounds 1 -o g3.tsv"
	assert_line --index 0 "Shiritori on 6 words against lookahead, 1 round."
	assert_line --partial "I win, 3 to 2. Thank you for the game."
	run tail -1 g3.tsv
	assert_output "$(printf '1\t2\t2\tperson\tbc\t2\t3\t2\tplay')"
	# End of input is a goodbye too; the log so far is kept.
	run bash -c "printf 'abb\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict '$FIX/line.csv' --start sa --vs greedy -o g4.csv"
	assert_success
	assert_line "Bye."
	assert_equal "$(wc -l < g4.csv)" 4
	run "$TOP/pipelines/play-shiritori.sh" --first nobody
	assert_failure 2
	assert_output "play-shiritori.sh: --first is you or me"
	run "$TOP/pipelines/play-shiritori.sh" --vs genius
	assert_failure 2
	assert_output "play-shiritori.sh: --vs is greedy, lookahead or lookahead:D"
}

@test "play-shiritori.sh in Japanese: ん loses, a start word from outside" {
	wordload --kana "$TOP/dictionaries/japanese-nouns.txt" -o ja.csv
	run bash -c "printf 'リボン\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict ja.csv --lose-tail ん --start くすり -o g.csv"
	assert_line --index 0 "Shiritori on 330 words against lookahead, 15 rounds; a word ending in ん loses."
	assert_line --partial "Your word after 'くすり' (starting with り): 'リボン' ends in a losing letter. I win. Thank you for the game."
	run tail -1 g.csv
	assert_output "1,1,1,person,リボン,3,3,0,lose-tail"
	run bash -c "printf 'こま\nq\n' | '$TOP/pipelines/play-shiritori.sh' --seed 1 --dict ja.csv --start ネコ --vs greedy -o g2.csv"
	assert_line --index 2 "Start word: ネコ (not in the dictionary; read as ending in こ)"
	assert_output --partial "I play: まつぼっくり (6 points). Score: you 2, me 6."
}

@test "othello-first-move.sh: merged shards equal one run; a PNG heatmap" {
	run "$TOP/pipelines/othello-first-move.sh" -n 4000 --seed 3 -j 3 -o out
	assert_success
	run bash -c "playout -n 4000 --seed 3 | summarize --sort -g first_move count rate:winner=black"
	assert_equal "$(cat out/first-move.csv)" "$output"
	assert_line --index 0 "first_move,count,rate_winner_black,rate_winner_black_lo,rate_winner_black_hi"
	run bash -c "cut -d, -f1 out/first-move.csv | tr '\n' ' '"
	assert_output "first_move c4 d3 e6 f5 "
	run file -b out/first-move.png
	assert_output --partial "PNG image data, 640 x 640"
	# gnuplot said nothing; the colours centre on black's mean over all
	# games; the four discs of the start are drawn, every square named.
	run cat out/gnuplot.log
	assert_output ""
	run awk -F, 'NR > 1 { n += $2; w += $2 * $3 } END { printf "mean = %.6f\n", w / n }' out/first-move.csv
	assert_line "$(sed -n 2p out/heatmap.gp)"
	run bash -c "sed -n '1s/set cbrange \\[\\(.*\\):\\(.*\\)\\]/\\1 \\2/p;2s/mean = //p' out/heatmap.gp |
		tr '\n' ' ' | awk '{ d = (\$1 + \$2) / 2 - \$3; print (d < 2e-6 && d > -2e-6 && \$2 > \$1) }'"
	assert_output 1
	run grep -c "set object circle" out/heatmap.gp
	assert_output 4
	run grep -c "set label" out/heatmap.gp
	assert_output 64
	grep -q 'set label "f5\\n0\.[0-9]\{3\}\\n0\.[0-9]\{3\}-0\.[0-9]\{3\}"' out/heatmap.gp
}

@test "othello-board.sh: a PNG of any position, gnuplot silent" {
	run "$TOP/pipelines/othello-board.sh" --moves "f5d6c3" -o b.png
	assert_success
	assert_output ""
	run file -b b.png
	assert_output --partial "PNG image data, 560 x 560"
	start=---------------------------OX------XO---------------------------
	run "$TOP/pipelines/othello-board.sh" --board "${start}O" --moves c5
	assert_success
	run file -b othello-board.png
	assert_output --partial "PNG image data, 560 x 560"
	run "$TOP/pipelines/othello-board.sh" --moves "f5 f5" -o bad.png
	assert_failure 1
	assert_output --regexp "playout: .*position.csv:2: move 2 \(f5\) is illegal for white"
	[ ! -e bad.png ]
	run "$TOP/pipelines/othello-board.sh" --board "$start"
	assert_failure 2
	assert_output "othello-board.sh: --board needs --turn X or O"
}

@test "histogram.sh: the counts drawn, a PNG, gnuplot silent" {
	printf 'plies,x\n60,0.5\n61,1.7\n60,2.2\n62,NA\n,3\n' > t.csv
	run "$TOP/pipelines/histogram.sh" -c plies -o p.png t.csv
	assert_success
	assert_output "60,2
61,1
62,1"
	run file -b p.png
	assert_output --partial "PNG image data, 720 x 480"
	run "$TOP/pipelines/histogram.sh" -c x --bins 2 -o x.png t.csv
	# 0.5 to 3 in two bins of 1.25, drawn at their centres.
	assert_output "1.125,2
2.375,2"
	run bash -c "cat t.csv | '$TOP/pipelines/histogram.sh' -c plies"
	assert_success
	[ -s histogram.png ]
	printf 'x\nfoo\n' > bad.csv
	run "$TOP/pipelines/histogram.sh" -c x bad.csv
	assert_failure 2
	assert_output "histogram.sh: column value foo is not a number"
	run "$TOP/pipelines/histogram.sh" t.csv
	assert_failure 2
	assert_output "histogram.sh: -c COLUMN is needed"
	run "$TOP/pipelines/histogram.sh" -c nope t.csv
	assert_failure 1
	assert_output "summarize: t.csv:1: missing column 'nope'"
}

@test "othello-first-move.sh: a mid-game position counts the side to move" {
	run "$TOP/pipelines/othello-first-move.sh" -n 500 --moves "f5 d6" -j 2 -o mid
	assert_success
	assert_line --index 0 "first_move,count,rate_winner_black,rate_winner_black_lo,rate_winner_black_hi"
	# After f5 d6 black's moves are c3 c4 c5 c6 c7.
	run bash -c "tail -n +2 mid/first-move.csv | cut -d, -f1 | tr '\n' ' '"
	assert_output "c3 c4 c5 c6 c7 "
	run grep -c "set object circle" mid/heatmap.gp
	assert_output 6
	run cat mid/gnuplot.log
	assert_output ""
	run "$TOP/pipelines/othello-first-move.sh" -n 100 --moves "f5 f5"
	assert_failure 1
	assert_output --regexp "playout: .*position.csv:2: move 2 \(f5\) is illegal for white"
	start=---------------------------OX------XO---------------------------
	run "$TOP/pipelines/othello-first-move.sh" --board $start
	assert_failure 2
	assert_output "othello-first-move.sh: --board needs --turn X or O"
	# Edax's form carries the side to move.
	run "$TOP/pipelines/othello-first-move.sh" -n 200 -q --board "${start}X"
	assert_success
	assert_line --index 0 "first_move,count,rate_winner_black,rate_winner_black_lo,rate_winner_black_hi"
}

@test "othello-mc-vs-perfect.sh: every choice checked against the exact scores; JOBS change nothing" {
	args=(--positions 4 --empties "8 12:3" --playouts "10 100" --game-playouts 50 --seed 2)
	run "$TOP/pipelines/othello-mc-vs-perfect.sh" "${args[@]}" -j 1 -o one
	assert_success
	assert_line --index 0 "perfect choices, percent (95% interval), both sources:"
	assert_line --index 1 --regexp "^mc E +N=0 +N=10 +N=100 *$"
	assert_line "choices that keep the position's result (win, draw or loss), percent (95% interval), both sources:"
	run "$TOP/pipelines/othello-mc-vs-perfect.sh" "${args[@]}" -j 3 -o three
	assert_success
	for f in positions.csv choices.csv agreement.csv agreement-by-source.csv; do
		run cmp one/$f three/$f
		assert_success
	done
	# The solver's rows but the times (and the position numbers, which
	# count within each shard).
	run cmp <(cut -d, -f2-8 one/best.csv) <(cut -d, -f2-8 three/best.csv)
	assert_success
	# 4 positions at 8 empties and 3 at 12, from each source; a row per
	# position for the random move and for each method at each N.
	run bash -c "tail -n +2 one/positions.csv | cut -d, -f2,3 | sort | uniq -c | awk '{ print \$1, \$2 }' | tr '\n' ' '"
	assert_output "3 mcts,12 4 mcts,8 3 random,12 4 random,8 "
	run awk -F, 'NR > 1 { n[$4]++ } END { print n["random"], n["mc"], n["mcts"] }' one/choices.csv
	assert_output "14 28 28"
	# A perfect choice loses nothing; every score is even; the best is a
	# bound on every move; each choice is a legal move of its position; a
	# result is kept when the move's score has the best score's sign.
	run sed -n 1p one/choices.csv
	assert_output "pid,source,empties,method,playouts,move,score,best,perfect,loss,kept"
	run awk -F, 'function sign(x) { return (x > 0) - (x < 0) }
		NR > 1 && (($9 == 1) != ($10 == 0) || $7 % 2 || $8 % 2 || $10 < 0 || $11 != (sign($7) == sign($8))) { bad++ }
		NR > 1 { kept += $11; perfect += $9 } END { print bad + 0, (kept >= perfect), (kept > perfect) }' one/choices.csv
	assert_output "0 1 1"
	# The exact score of every chosen move, from --solve-all of the positions.
	playout --solve-all -q one/positions.csv > all.csv
	run awk -F, 'NR == FNR { if (FNR > 1) s[$2, $6] = $7; next } FNR > 1 && s[$1, $6] != $7 { bad++ } FNR > 1 { n++ } END { print n, bad + 0 }' all.csv one/choices.csv
	assert_output "70 0"
	run file -b one/agreement.png
	assert_output --partial "PNG image data, 1100 x 480"
	run "$TOP/pipelines/othello-mc-vs-perfect.sh" --empties "8 70"
	assert_failure 2
	assert_output "othello-mc-vs-perfect.sh: --empties wants E or E:P, E from 1 to 60, not '70'"
	run "$TOP/pipelines/othello-mc-vs-perfect.sh" --empties "8:0"
	assert_failure 2
	assert_output "othello-mc-vs-perfect.sh: --empties wants a positive number"
	# --full's settings are checked as given ones are.
	run "$TOP/pipelines/othello-mc-vs-perfect.sh" --full --playouts "100 0"
	assert_failure 2
	assert_output "othello-mc-vs-perfect.sh: --playouts wants a positive number"
	run "$TOP/pipelines/othello-mc-vs-perfect.sh" --full --empties "24:0"
	assert_failure 2
	assert_output "othello-mc-vs-perfect.sh: --empties wants a positive number"
}

@test "othello-league.sh: a round robin, its crosstable and standings; JOBS change nothing" {
	run "$TOP/pipelines/othello-league.sh" --players "random mc:5 mcts:50" --games 6 -j 1 -o one
	assert_success
	assert_output "Score of the row's player against the column's (6 games a pair, colours swapped):
                 random       mc:5    mcts:50
random                -      0.000      0.000
mc:5              1.000          -      0.333
mcts:50           1.000      0.667          -

Standings (score against the field, 95% interval, the Elo difference it implies):
player        games  score  95% interval     Elo    won  drawn
mcts:50          12  0.833  0.552-0.953    +280  0.833  0.000
mc:5             12  0.667  0.391-0.862    +120  0.667  0.000
random           12  0.000  0.000-0.242    -inf  0.000  0.000"
	one=$output
	run "$TOP/pipelines/othello-league.sh" --players "random mc:5 mcts:50" --games 6 -j 3 -o three
	assert_equal "$output" "$one"
	cmp one/games.csv three/games.csv
	# Every pair's games, each player black in half of them.
	run bash -c "summarize --crosstab black_player,white_player count one/games.csv"
	assert_output "black_player,mc:5,random,mcts:50
random,3,0,3
mc:5,0,3,3
mcts:50,3,3,0"
	run cat one/crosstable.csv
	assert_output "player,random,mc:5,mcts:50
random,,0,0
mc:5,1,,0.3333333333333333
mcts:50,1,0.6666666666666666,"
	run "$TOP/pipelines/othello-league.sh" --players "random x:1"
	assert_failure 2
	assert_output "othello-league.sh: playout: --black: 'x:1' is not random, mc:N, mcts:N, perfect or perfect:N (1 <= N <= 100000000)"
	run "$TOP/pipelines/othello-league.sh" --players "random random"
	assert_failure 2
	assert_output "othello-league.sh: --players names random twice"
	run "$TOP/pipelines/othello-league.sh" --players random
	assert_failure 2
	assert_output "othello-league.sh: --players wants two players or more"
}

@test "calc-success.sh: the seed's tables beside its figures, hidden and peek, shards equal one run, a PNG" {
	# By default hidden, eager playouts; the B table at 500 playouts here.
	run "$TOP/pipelines/calc-success.sh" --games 2 --playouts "20 500" --trees "1x2 2x2:3" \
		--badmax 0.05 --badmax-playouts 500 -j 2 -o cs
	assert_success
	assert_line "success against playouts per move (mcts, binary reward, eager playouts), peek and hidden:"
	assert_line "mode,playouts,seed,count,rate_success_1,rate_success_1_lo,rate_success_1_hi,mean_rest"
	assert_line "success against level and width (simple tree, rest:0.05, ends 1 or 0, eager playouts, hidden):"
	assert_line "level,width,seed,count,rate_success_1,rate_success_1_lo,rate_success_1_hi,mean_rest"
	assert_line "success against the shaped reward's B (mcts, 500 playouts, eager, hidden; 0 is binary):"
	assert_line "badmax,seed,count,rate_success_1,rate_success_1_lo,rate_success_1_hi,mean_rest"
	# Each row is one unsplit run, beside the seed's figure (none given for
	# 20 or 500 playouts); 2x2:3 ran 3 deals.
	run bash -c "playout -g calc -n 2 --policy mcts --playouts 500 --eager --peek | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^peek,500,' cs/playouts.csv)" "peek,500,-,$(tail -1 <<<"$output")"
	run bash -c "playout -g calc -n 2 --policy mcts --playouts 20 --eager | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^hidden,20,' cs/playouts.csv)" "hidden,20,-,$(tail -1 <<<"$output")"
	run bash -c "playout -g calc -n 3 --policy simple --level 2 --width 2 --reward rest:0.05 --binary-ends --eager | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^2,2,' cs/trees.csv)" "2,2,-,$(tail -1 <<<"$output")"
	run bash -c "playout -g calc -n 2 --policy mcts --playouts 500 --reward rest:0.05 --eager | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^0.05,' cs/badmax.csv)" "0.05,60,$(tail -1 <<<"$output")"
	run file -b cs/success.png
	assert_output --partial "PNG image data"
	# --peek --uniform: the trees and B for players that see the stock,
	# with uniformly random playouts; the seed's figure for 1000 playouts.
	run "$TOP/pipelines/calc-success.sh" --peek --uniform --games 2 --playouts 1000 --trees 1x2 \
		--badmax 0 --badmax-playouts 50 -j 1 -o ch
	assert_success
	assert_line "success against level and width (simple tree, rest:0.05, ends 1 or 0, uniform playouts, peek):"
	run bash -c "playout -g calc -n 2 --policy simple --level 1 --width 2 --reward rest:0.05 --binary-ends --peek | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^1,2,' ch/trees.csv)" "1,2,-,$(tail -1 <<<"$output")"
	run bash -c "playout -g calc -n 2 --policy mcts --playouts 1000 | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^hidden,1000,' ch/playouts.csv)" "hidden,1000,17,$(tail -1 <<<"$output")"
	# --up-first: every tree lists moves up first, and the headings say so.
	run "$TOP/pipelines/calc-success.sh" --up-first --games 2 --playouts 300 --trees 1x2 \
		--badmax 0 --badmax-playouts 20 -j 1 -o cu
	assert_success
	assert_line "success against playouts per move (mcts, binary reward, eager playouts, moves up first), peek and hidden:"
	assert_line "success against level and width (simple tree, rest:0.05, ends 1 or 0, eager playouts, moves up first, hidden):"
	assert_line "success against the shaped reward's B (mcts, 20 playouts, eager, moves up first, hidden; 0 is binary):"
	run bash -c "playout -g calc -n 2 --policy mcts --playouts 300 --eager --up-first | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^hidden,300,' cu/playouts.csv)" "hidden,300,-,$(tail -1 <<<"$output")"
	# --per-card: the trees' chance nodes a subtree a card, said in the
	# heading; refused with --peek, whose trees have none.
	run "$TOP/pipelines/calc-success.sh" --per-card --games 2 --playouts 20 --trees 2x2 \
		--badmax 0 --badmax-playouts 20 -j 2 -o cp
	assert_success
	assert_line "success against level and width (simple tree, rest:0.05, ends 1 or 0, eager playouts, a subtree a card, hidden):"
	run bash -c "playout -g calc -n 2 --policy simple --level 2 --width 2 --reward rest:0.05 --binary-ends --eager --per-card | summarize count rate:success=1 mean:rest"
	assert_equal "$(grep '^2,2,' cp/trees.csv)" "2,2,-,$(tail -1 <<<"$output")"
	run "$TOP/pipelines/calc-success.sh" --per-card --peek -o cz
	assert_failure 2
	assert_output "calc-success.sh: --per-card is for chance nodes, and --peek has none"
	run "$TOP/pipelines/calc-success.sh" --trees 2x2:0 -o cz
	assert_failure 2
	assert_output "calc-success.sh: deals of tree:2x2 wants a positive number"
	run "$TOP/pipelines/calc-success.sh" --badmax-playouts 0 -o cz
	assert_failure 2
	assert_output "calc-success.sh: --badmax-playouts wants a positive number"
}

@test "every pipeline's --help is its opening comment and nothing after it" {
	for f in "$TOP"/pipelines/*.sh; do
		[ "$(basename "$f")" = common.sh ] && continue
		run "$f" --help
		assert_success
		assert_line --index 0 "$(sed -n '2s/^# //p' "$f")"
		# The comment's last line ends the usage; no code follows it.
		last=$(awk 'NR > 1 && !/^#/ { print prev; exit } { prev = $0 }' "$f" | sed 's/^# \{0,1\}//')
		assert_equal "$(tail -1 <<<"$output")" "$last"
	done
}
