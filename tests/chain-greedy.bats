#!/usr/bin/env bats
# chain-greedy: the rules, the three modes, and game-log checking (the
# same code serves chain-lookahead).

load test_helper/common

MINI="$BATS_TEST_DIRNAME/fixtures/mini.csv"
LINE="$BATS_TEST_DIRNAME/fixtures/line.csv"

@test "greedy plays the longest word; the opponent's stuck turn ends the match" {
	run chain-greedy -d "$MINI" --start SCAN --vs greedy
	assert_success
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,SCAN,0,0,0,start
1,1,1,greedy,NBBBBBBB,8,8,0,play
1,2,2,greedy,BXXXXXXXXXXX,12,8,12,play
1,3,1,greedy,,0,8,12,stuck"
}

@test "the trace lists every candidate with its value (greedy: the points)" {
	chain-greedy -d "$MINI" --start SCAN --trace trace.csv > /dev/null
	run cat trace.csv
	assert_output "game,turn,player,word,points,value,chosen
1,1,1,NBBBBBBB,8,8,1
1,1,1,NCCCC,5,5,0
1,1,1,NDD,3,3,0"
}

@test "rounds: the game ends after 2R moves and the higher total wins" {
	run chain-greedy -d "$LINE" --start sa --vs greedy --rounds 2
	assert_success
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,sa,0,0,0,start
1,1,1,greedy,abb,3,3,0,play
1,2,2,greedy,bc,2,3,2,play
1,3,1,greedy,cdd,3,6,2,play
1,4,2,greedy,de,2,6,4,play"
	run chain-greedy -d "$LINE" --starts sa --vs greedy --rounds 2
	assert_output "game,start,seed,p1,p2,turns,p1_score,p2_score,winner,reason
1,sa,1,greedy,greedy,4,6,4,1,score"
}

@test "handicap: added to the totals from the start; equal totals draw" {
	run chain-greedy -d "$LINE" --starts sa --vs greedy --rounds 2 --handicap 0,3
	assert_line --index 1 "1,sa,1,greedy,greedy,4,6,7,2,score"
	run chain-greedy -d "$LINE" --starts sa --vs greedy --rounds 2 --handicap 0,2
	assert_line --index 1 "1,sa,1,greedy,greedy,4,6,6,0,score"
	run chain-greedy -d "$LINE" --start sa --moves 0 --handicap 5,-1
	assert_line --index 1 "1,0,0,start,sa,0,5,-1,start"
}

@test "stuck: a player with no word loses at once" {
	run chain-greedy -d "$LINE" --starts sa --vs greedy
	assert_line --index 1 "1,sa,1,greedy,greedy,5,9,4,1,stuck"
}

@test "lose-tail: playing a word with a losing tail loses at once" {
	run chain-greedy -d "$LINE" --start sa --vs greedy --lose-tail d
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,sa,0,0,0,start
1,1,1,greedy,abb,3,3,0,play
1,2,2,greedy,bc,2,3,2,play
1,3,1,greedy,cdd,3,6,2,lose-tail"
	run chain-greedy -d "$LINE" --starts sa --vs greedy --lose-tail d
	assert_line --index 1 "1,sa,1,greedy,greedy,3,6,2,2,lose-tail"
}

@test "greedy avoids a losing tail while it has another word" {
	printf 'word,head,tail,len\nsa,s,a,2\nabbbbn,a,n,6\nab,a,b,2\n' > d.csv
	run chain-greedy -d d.csv --start sa --lose-tail n
	assert_line --index 2 "1,1,1,greedy,ab,2,2,0,play"
}

@test "step filter: each call appends one move for whoever is to move" {
	chain-greedy -d "$LINE" --start sa --moves 0 > g0.csv
	run cat g0.csv
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,sa,0,0,0,start"
	run bash -c "chain-greedy -d '$LINE' < g0.csv | chain-greedy -d '$LINE' | chain-greedy -d '$LINE' --moves 2"
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,sa,0,0,0,start
1,1,1,greedy,abb,3,3,0,play
1,2,2,greedy,bc,2,3,2,play
1,3,1,greedy,cdd,3,6,2,play
1,4,2,greedy,de,2,6,4,play"
}

@test "step filter: a finished game passes through unchanged" {
	chain-greedy -d "$MINI" --start SCAN --vs greedy > done.csv
	run bash -c "chain-greedy -d '$MINI' < done.csv | cmp - done.csv"
	assert_success
}

@test "step filter: extra log columns are carried along" {
	printf 'note,game,turn,player,strategy,word,points,p1_score,p2_score,event\nhi,7,0,0,start,sa,0,0,0,start\n' > x.csv
	run chain-greedy -d "$LINE" x.csv
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event,note
7,0,0,start,sa,0,0,0,start,hi
7,1,1,greedy,abb,3,3,0,play,"
}

@test "--second: the program moves second in a match" {
	run chain-greedy -d "$LINE" --start sa --vs random --second --rounds 1
	assert_line --index 2 "1,1,1,random,abb,3,3,0,play"
	assert_line --index 3 "1,2,2,greedy,bc,2,3,2,play"
}

@test "tournament: every start word, --games seeds, --both-sides" {
	run chain-greedy -d "$MINI" --starts SCAN,NDD --vs greedy --games 2 --both-sides
	assert_success
	assert_output "game,start,seed,p1,p2,turns,p1_score,p2_score,winner,reason
1,SCAN,1,greedy,greedy,2,8,12,2,stuck
2,SCAN,1,greedy,greedy,2,8,12,2,stuck
3,SCAN,2,greedy,greedy,2,8,12,2,stuck
4,SCAN,2,greedy,greedy,2,8,12,2,stuck
5,NDD,1,greedy,greedy,1,2,0,1,stuck
6,NDD,1,greedy,greedy,1,2,0,1,stuck
7,NDD,2,greedy,greedy,1,2,0,1,stuck
8,NDD,2,greedy,greedy,1,2,0,1,stuck"
}

@test "tournament shards (--first-game, -n) reproduce the rows of the whole run" {
	chain-greedy -d "$MINI" --starts all --vs random --games 3 --both-sides > whole.csv
	{
		chain-greedy -d "$MINI" --starts all --vs random --games 3 --both-sides -n 17
		chain-greedy -d "$MINI" --starts all --vs random --games 3 --both-sides --first-game 18 -n 20 | tail -n +2
		chain-greedy -d "$MINI" --starts all --vs random --games 3 --both-sides --first-game 38 | tail -n +2
	} > shards.csv
	run cmp whole.csv shards.csv
	assert_success
	run bash -c "wc -l < whole.csv"
	assert_output "49"
}

@test "tournament: --starts all and a file of start words" {
	run chain-greedy -d "$MINI" --starts all --vs random
	assert_equal "${#lines[@]}" 9
	printf '# starts\nSCAN\n\nNDD\n' > starts.txt
	run chain-greedy -d "$MINI" --starts starts.txt --vs greedy
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 --partial "2,NDD,"
}

@test "random is reproducible by seed and differs across seeds" {
	wordload --kana "$TOP/dictionaries/japanese-nouns.txt" > jp.csv
	a=$(chain-greedy -d jp.csv --start りんご --vs random --seed 5)
	b=$(chain-greedy -d jp.csv --start りんご --vs random --seed 5)
	c=$(chain-greedy -d jp.csv --start りんご --vs random --seed 6)
	assert_equal "$a" "$b"
	[ "$a" != "$c" ]
}

H="game,turn,player,strategy,word,points,p1_score,p2_score,event"
START="1,0,0,start,sa,0,0,0,start"

# log_error DICT MESSAGE ROW...: a log of the header and ROWs fails with
# exit 1 and exactly "chain-greedy: log.csv:MESSAGE".
log_error() {
	local dict=$1 message=$2
	shift 2
	printf '%s\n' "$H" "$@" > log.csv
	run chain-greedy -d "$dict" log.csv
	assert_failure 1
	assert_output "chain-greedy: log.csv:$message"
}

@test "log errors: word not in the dictionary, wrong head, reuse, turn order" {
	log_error "$LINE" "3: word 'zzz' is not in the dictionary" "$START" "1,1,1,x,zzz,3,3,0,play"
	log_error "$LINE" "3: word 'bc' does not start with the previous word's tail" "$START" "1,1,1,x,bc,2,2,0,play"
	printf 'word,head,tail,len\nsa,s,a,2\naa,a,a,2\n' > loop.csv
	log_error loop.csv "4: word 'aa' already used" "$START" "1,1,1,x,aa,2,2,0,play" "1,2,2,x,aa,2,2,2,play"
	log_error "$LINE" "3: turn 2 out of order, expected 1" "$START" "1,2,1,x,abb,3,3,0,play"
	log_error "$LINE" "2: turn 1 out of order, expected 0" "1,1,1,x,abb,3,3,0,play"
}

@test "log errors: scores, players, events, several games, stuck claims, columns" {
	log_error "$LINE" "3: scores 4,0 do not add up (expected 3,0)" "$START" "1,1,1,x,abb,3,4,0,play"
	log_error "$LINE" "3: turn 1 is player 1's, not player 2's" "$START" "1,1,2,x,abb,3,0,3,play"
	log_error "$LINE" "3: the log holds more than one game (2 after 1)" "$START" "2,1,1,x,abb,3,3,0,play"
	log_error "$LINE" "3: player 1 is not stuck" "$START" "1,1,1,x,,0,0,0,stuck"
	log_error "$LINE" "3: event 'lose-tail' does not match the rules (expected play)" "$START" "1,1,1,x,abb,3,3,0,lose-tail"
	log_error "$LINE" "3: word 'abb' scores 3 points, not 2" "$START" "1,1,1,x,abb,2,2,0,play"
	log_error "$LINE" "2: column 'turn': 'x' is not an integer from 0 to 20000" "1,x,0,start,sa,0,0,0,start"
	log_error "$LINE" "2: turn 0 must be the start word (player 0, event start)" "1,0,1,x,sa,0,0,0,play"
	log_error "$LINE" "2: the start word scores no points (0, not 5)" "1,0,0,start,sa,5,0,0,start"
	log_error "$LINE" "2: the log has no moves, not even a start word"
	printf 'game,turn\n1,0\n' > j.csv
	run chain-greedy -d "$LINE" j.csv
	assert_output "chain-greedy: j.csv:1: missing column 'player'"
}

@test "a move after the end of the game is an error" {
	chain-greedy -d "$MINI" --start SCAN --vs greedy > done.csv
	echo "1,4,2,greedy,DQ,2,8,14,play" >> done.csv
	run chain-greedy -d "$MINI" done.csv
	assert_failure 1
	assert_output "chain-greedy: done.csv:6: a move after the end of the game"
}

@test "dictionary errors: missing columns, empty, duplicates, bad len" {
	printf 'word,head,len\nab,a,2\n' > nocol.csv
	run chain-greedy -d nocol.csv --start ab
	assert_failure 1
	assert_output "chain-greedy: nocol.csv:1: missing column 'tail'"
	printf 'word,head,tail,len\n' > empty.csv
	run chain-greedy -d empty.csv --start ab
	assert_output "chain-greedy: empty.csv:2: the dictionary has no words"
	printf 'word,head,tail,len\nab,a,b,2\nab,a,b,2\n' > dup.csv
	run chain-greedy -d dup.csv --start ab
	assert_output "chain-greedy: dup.csv:3: duplicate word 'ab'"
	printf 'word,head,tail,len\nab,a,b,two\n' > len.csv
	run chain-greedy -d len.csv --start ab
	assert_output "chain-greedy: len.csv:2: column 'len': 'two' is not an integer from 0 to 1000000"
	run chain-greedy -d "$LINE" --starts nope --vs greedy
	assert_output "chain-greedy: start word 'nope' is not in the dictionary"
	run chain-greedy -d "$LINE" --starts lists/nope.txt --vs greedy
	assert_failure 1
	assert_output "chain-greedy: --starts 'lists/nope.txt': neither a file of start words nor a word of the dictionary"
	run chain-greedy -d "$LINE" --starts /tmp --vs greedy
	assert_failure 1
	assert_output "chain-greedy: --starts '/tmp': neither a file of start words nor a word of the dictionary"
	run bash -c "chain-greedy -d '$LINE' --starts <(echo abb) --vs greedy | cut -d, -f2 | sort -u"
	assert_output "abb
start"
}

@test "--start from outside the dictionary is keyed by the dictionary's rules" {
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	run --separate-stderr chain-greedy -d sas.csv --start scan --moves 1
	assert_success
	assert_equal "$stderr" "chain-greedy: start word 'scan' is not in the dictionary; keyed by the dictionary's rules (--upcase --fold-accents --letters-only): head S, tail N"
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,scan,0,0,0,start
1,1,1,greedy,NOTXDIGIT,9,9,0,play"
	# The log is read back quietly, and plays on as from a dictionary word.
	run --separate-stderr chain-greedy -d sas.csv <<<"$output"
	assert_equal "$stderr" ""
	assert_line --index 3 "1,2,2,greedy,TZONEDSTNAME,12,9,12,play"
	wordload --fold-case --fold-accents --letters-only "$FIX/latin.txt" -o latin.csv
	run --separate-stderr chain-greedy -d latin.csv --start "Über-Ich" --moves 0
	assert_equal "$stderr" "chain-greedy: start word 'Über-Ich' is not in the dictionary; keyed by the dictionary's rules (--fold-case --fold-accents --letters-only): head u, tail h"
	wordload --kana --long-vowel vowel "$TOP/dictionaries/japanese-nouns.txt" -o ja.csv
	run --separate-stderr chain-greedy -d ja.csv --start シリトリ --moves 1 --seed 3
	assert_equal "$stderr" "chain-greedy: start word 'シリトリ' is not in the dictionary; keyed by the dictionary's rules (--kana --long-vowel vowel): head し, tail り"
	assert_line --index 2 --regexp '^1,1,1,greedy,り'
	# A tail no word starts with: player 1 is stuck at once.
	run --separate-stderr chain-greedy -d sas.csv --start "ZZZん" --moves 1
	assert_line --index 2 "1,1,1,greedy,,0,0,0,stuck"
	assert_equal "$stderr" "chain-greedy: start word 'ZZZん' is not in the dictionary; keyed by the dictionary's rules (--upcase --fold-accents --letters-only): head Z, tail ん"
	run chain-greedy -d sas.csv --start 42
	assert_failure 1
	assert_output "chain-greedy: start word '42' is not in the dictionary and has no keys by the dictionary's rules (--upcase --fold-accents --letters-only)"
	# A table wordload did not make: the first and last characters.
	printf 'word,head,tail,len\nab,x,y,1\n' > hand.csv
	run --separate-stderr chain-greedy -d hand.csv --start "ba" --moves 0
	assert_equal "$stderr" "chain-greedy: start word 'ba' is not in the dictionary; keyed by its first and last characters (no wordload rules fit the dictionary): head b, tail a"
}

@test "--starts sample:N draws N start words by --seed, in dictionary order" {
	wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	run bash -c "chain-greedy -d sas.csv --starts sample:5 --vs greedy | cut -d, -f2 | tail -n +2 | tr '\n' ' '"
	one=$output
	assert_equal "$(wc -w <<<"$one")" 5
	run bash -c "chain-greedy -d sas.csv --starts sample:5 --vs greedy | cut -d, -f2 | tail -n +2 | tr '\n' ' '"
	assert_equal "$output" "$one"
	run bash -c "chain-greedy -d sas.csv --starts sample:5 --vs greedy --seed 2 | cut -d, -f2 | tail -n +2 | tr '\n' ' '"
	refute_output "$one"
	run bash -c "chain-greedy -d sas.csv --starts sample:5 --vs greedy | cut -d, -f2 | tail -n +2 | sort -c"
	assert_success
	# More than the dictionary holds: every word once.
	run bash -c "chain-greedy -d '$LINE' --starts sample:100 --vs greedy | cut -d, -f2 | tail -n +2 | tr '\n' ' '"
	assert_output "sa abb bc cdd de eff "
	# Shards of a sampled tournament are the rows of the whole.
	chain-greedy -d sas.csv --starts sample:40 --vs greedy --both-sides -o all.csv
	{ chain-greedy -d sas.csv --starts sample:40 --vs greedy --both-sides -n 30
	  chain-greedy -d sas.csv --starts sample:40 --vs greedy --both-sides --first-game 31 | tail -n +2; } > parts.csv
	run diff all.csv parts.csv
	assert_success
	run chain-greedy -d sas.csv --starts sample:0 --vs greedy
	assert_failure 2
	assert_line --index 0 "chain-greedy: invalid --starts 'sample:0': expected sample:N with N a positive integer"
}

@test "--starts-column reads start words from a table: CSV, TSV, gzip" {
	printf 'id,word\n1,sa\n2,"de"\n3,\n' > s.csv
	run bash -c "chain-greedy -d '$LINE' --starts s.csv --starts-column word --vs greedy | cut -d, -f2"
	assert_output "start
sa
de"
	printf 'word\tnote\nbc\t"x, y"\n' | gzip > s.tsv.gz
	run bash -c "chain-greedy -d '$LINE' --starts s.tsv.gz --starts-column word --vs greedy | cut -d, -f2"
	assert_output "start
bc"
	# A dictionary is a table of start words too, quoted commas and all.
	printf 'word,head,tail,len\n"a,b",a,b,3\nbc,b,c,2\n' > q.csv
	run chain-greedy -d q.csv --starts q.csv --starts-column word --vs greedy
	assert_line --index 1 --regexp '^1,"a,b",1,greedy,greedy,'
	assert_line --index 2 --regexp '^2,bc,1,greedy,greedy,'
	printf 'id,word\n1,nope\n' > bad.csv
	run chain-greedy -d "$LINE" --starts bad.csv --starts-column word --vs greedy
	assert_failure 1
	assert_output "chain-greedy: bad.csv:2: start word 'nope' is not in the dictionary"
	run chain-greedy -d "$LINE" --starts s.csv --starts-column name --vs greedy
	assert_failure 1
	assert_output "chain-greedy: s.csv:1: missing column 'name'"
	printf 'id,word\n1,\n' > none.csv
	run chain-greedy -d "$LINE" --starts none.csv --starts-column word --vs greedy
	assert_failure 1
	assert_output "chain-greedy: none.csv:3: no start words in column 'word'"
	run chain-greedy -d "$LINE" --start sa --starts-column word
	assert_failure 2
	assert_line --index 0 "chain-greedy: --starts-column needs --starts FILE"
}

@test "--play: a person's move, checked, scored, then the program's reply" {
	run chain-greedy -d "$LINE" --start sa --play abb --moves 1
	assert_success
	assert_output "game,turn,player,strategy,word,points,p1_score,p2_score,event
1,0,0,start,sa,0,0,0,start
1,1,1,person,abb,3,3,0,play
1,2,2,greedy,bc,2,3,2,play"
	log=$output
	run chain-lookahead -d "$LINE" --play cdd <<<"$log"
	assert_success
	assert_line --index 4 "1,3,1,person,cdd,3,6,2,play"
	assert_equal "${#lines[@]}" 5
	run chain-greedy -d "$LINE" --play nope <<<"$log"
	assert_failure 1
	assert_output "chain-greedy: --play: 'nope' is not in the dictionary"
	run chain-greedy -d "$LINE" --play abb <<<"$log"
	assert_output "chain-greedy: --play: 'abb' has been played already"
	run chain-greedy -d "$LINE" --play de <<<"$log"
	assert_output "chain-greedy: --play: 'de' starts with 'd', not with 'c' (the end of 'bc')"
	run chain-greedy -d "$LINE" --play '' <<<"$log"
	assert_output "chain-greedy: --play: player 1 is not stuck: words starting with 'c' are left"
	# Stuck: the person's empty move ends the game.
	run bash -c "chain-greedy -d '$LINE' --start eff --play '' | tail -1"
	assert_output "1,1,1,person,,0,0,0,stuck"
	run bash -c "chain-greedy -d '$LINE' --start eff --play '' | chain-greedy -d '$LINE' --play sa"
	assert_failure 1
	assert_output "chain-greedy: --play: the game is over"
	run chain-greedy -d "$LINE" --start sa --play abb --vs greedy
	assert_failure 2
	assert_line --index 0 "chain-greedy: --play appends to a game log: not with --vs"
}

@test "errors leave no output file behind" {
	h="game,turn,player,strategy,word,points,p1_score,p2_score,event"
	printf '%s\n1,0,0,start,sa,0,0,0,start\n1,1,1,x,zzz,3,3,0,play\n' "$h" > bad.csv
	run chain-greedy -d "$LINE" -o out.csv bad.csv
	assert_failure 1
	[ ! -e out.csv ]
	run ls
	refute_output --partial tmp
}

@test "usage errors exit 2 with a message" {
	run chain-greedy --start sa
	assert_failure 2
	assert_output "chain-greedy: a dictionary is required (-d FILE)
Try 'chain-greedy --help' for more information."
	run chain-greedy -d "$LINE" --start sa --depth 3
	assert_failure 2
	assert_line --index 0 "chain-greedy: --depth applies to chain-lookahead only"
	run chain-greedy -d "$LINE" --start sa --vs genius
	assert_failure 2
	assert_line --index 0 "chain-greedy: invalid --vs 'genius': expected greedy, random, lookahead, lookahead:D or lookahead:end"
	run chain-greedy -d "$LINE" --start sa --rounds 0
	assert_line --index 0 "chain-greedy: invalid --rounds '0': expected an integer from 1 to 10000"
	run chain-greedy -d "$LINE" --start sa --handicap 3
	assert_line --index 0 "chain-greedy: invalid --handicap '3': expected A,B"
	run chain-greedy -d "$LINE" --starts all
	assert_line --index 0 "chain-greedy: --starts needs an opponent (--vs)"
	run chain-greedy -d "$LINE" --vs greedy
	assert_line --index 0 "chain-greedy: --vs needs --start WORD or --starts LIST"
	run chain-greedy -d "$LINE" --start sa --games 3
	assert_line --index 0 "chain-greedy: --games, --first-game and --count apply to tournaments (--starts)"
	run chain-greedy -d "$LINE" --seed -1 --start sa
	assert_line --index 0 "chain-greedy: invalid --seed '-1': expected an integer from 0 to 18446744073709551615"
	run chain-greedy --no-such-option
	assert_failure 2
}

@test "--help lists every option; --version" {
	run chain-greedy --help
	assert_success
	for opt in --dict --start --moves --vs --second --starts --games --both-sides --rounds \
		--handicap --lose-tail --depth --time --seed --game --trace --output --tsv --gzip \
		--bom --quiet --help --version; do
		assert_output --partial -- "$opt"
	done
	run chain-greedy --version
	assert_output "chain-greedy (yomi) 0.1.0"
}

@test "write errors are detected: /dev/full exits 1" {
	run bash -c "chain-greedy -d '$LINE' --start sa --vs greedy > /dev/full"
	assert_failure 1
	assert_output "chain-greedy: stdout: write error: No space left on device"
}

@test "a shard whose --first-game plus --count passes 2^63 still plays its games" {
	run chain-greedy -d "$MINI" --starts SCAN --vs greedy --first-game 1 -n 9223372036854775807
	assert_success
	assert_line --index 1 "1,SCAN,1,greedy,greedy,2,8,12,2,stuck"
}

@test "a seed of 2^64-1 is written as the unsigned number it is" {
	run chain-greedy -d "$MINI" --starts SCAN --vs greedy --seed 18446744073709551615
	assert_success
	assert_line --index 1 "1,SCAN,18446744073709551615,greedy,greedy,2,8,12,2,stuck"
}
