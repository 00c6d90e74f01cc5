#!/usr/bin/env bats
# chain-lookahead: negamax values, the seed's %deep1 rule, exact search,
# time control, and composition with chain-greedy.

load test_helper/common

MINI="$BATS_TEST_DIRNAME/fixtures/mini.csv"
SEED1="$BATS_TEST_DIRNAME/fixtures/seed-deep1.csv"

sas() { wordload --upcase --drop-digit-tail "$TOP/dictionaries/sas-functions.txt" -o sas.csv; }

@test "depth 2 is the seed's %deep1 rule: my points minus the best reply" {
	# The seed's worked example: NHOLIDESC scores 9 but lets COMPANION_NEXT
	# (14) answer, -5; NHOLIDLEN (9 - 9) and NHOLIDAY (8 - 8) evaluate 0.
	chain-lookahead -d "$SEED1" --start SCAN --trace t1.csv > /dev/null
	run cat t1.csv
	assert_output "game,turn,player,word,points,value,chosen
1,1,1,NHOLIDLEN,9,0,1
1,1,1,NHOLIDAY,8,0,0
1,1,1,NHOLIDESC,9,-5,0"
	chain-lookahead -d "$SEED1" --start SCAN --trace t2.csv --seed 2 > /dev/null
	run cat t2.csv
	assert_line --index 2 "1,1,1,NHOLIDAY,8,0,1"
}

@test "depth 2 on a hand-made dictionary; greedy takes the trap" {
	chain-lookahead -d "$MINI" --start SCAN --trace t.csv > /dev/null
	run cat t.csv
	assert_output "game,turn,player,word,points,value,chosen
1,1,1,NCCCC,5,1,1
1,1,1,NDD,3,1,0
1,1,1,NBBBBBBB,8,-4,0"
}

@test "a stuck player counts -10000: depth 3 sees the dead ends" {
	chain-lookahead -d "$MINI" --start SCAN --depth 3 --trace t.csv > /dev/null
	run cat t.csv
	assert_output "game,turn,player,word,points,value,chosen
1,1,1,NCCCC,5,-9999,1
1,1,1,NDD,3,-9999,0
1,1,1,NBBBBBBB,8,-10004,0"
	chain-lookahead -d "$MINI" --start SCAN --depth end --trace e.csv > /dev/null
	run diff t.csv e.csv
	assert_success
}

@test "the horizon never passes the end of the game" {
	chain-lookahead -d "$MINI" --start SCAN --depth 3 --rounds 1 --trace t.csv > /dev/null
	run cat t.csv
	assert_output "game,turn,player,word,points,value,chosen
1,1,1,NCCCC,5,1,1
1,1,1,NDD,3,1,0
1,1,1,NBBBBBBB,8,-4,0"
}

@test "lose-tail: the search values a losing word at its points minus 10000" {
	chain-lookahead -d "$MINI" --start SCAN --lose-tail B --trace t.csv > /dev/null
	run cat t.csv
	assert_line --index 3 "1,1,1,NBBBBBBB,8,-9992,0"
}

@test "step filters compose: lookahead and greedy in a pipe equal the in-process match" {
	sas
	chain-lookahead -d sas.csv --start SCAN --vs greedy > match.csv
	chain-greedy -d sas.csv --start SCAN --moves 0 > log.csv
	for _ in $(seq 15); do
		chain-lookahead -d sas.csv < log.csv | chain-greedy -d sas.csv > next.csv
		mv next.csv log.csv
	done
	run diff match.csv log.csv
	assert_success
	run tail -1 match.csv
	assert_output "1,4,2,greedy,,0,13,10,stuck"
}

@test "a match's result equals its tournament row" {
	sas
	chain-lookahead -d sas.csv --start SCAN --vs greedy --seed 7 > m.csv
	run chain-lookahead -d sas.csv --starts SCAN --vs greedy --seed 7
	assert_line --index 1 "1,SCAN,7,lookahead:2,greedy,3,13,10,1,stuck"
	run tail -1 m.csv
	assert_output "1,4,2,greedy,,0,13,10,stuck"
}

@test "SAS tournament: lookahead:2 against greedy from every start word, both sides" {
	sas
	chain-lookahead -d sas.csv --starts all --vs greedy --both-sides -o t.csv
	run bash -c "tail -n +2 t.csv | wc -l"
	assert_output "1646"
	run awk -F, 'NR > 1 { me = ($4 ~ /lookahead/) ? 1 : 2; if ($9 == me) w++ } END { print w }' t.csv
	assert_output "1133"
}

@test "deeper lookahead wins more often: depth 2 and 4 as first player" {
	sas
	run bash -c "chain-lookahead -d sas.csv --starts all --vs greedy | awk -F, 'NR > 1 && \$9 == 1 { w++ } END { print w }'"
	assert_output "555"
	run bash -c "chain-lookahead -d sas.csv --starts all --vs greedy --depth 4 | awk -F, 'NR > 1 && \$9 == 1 { w++ } END { print w }'"
	assert_output "780"
}

@test "--time deepens within the budget and names itself" {
	sas
	run chain-lookahead -d sas.csv --start SCAN --time 0.2
	assert_success
	assert_line --index 2 --regexp '^1,1,1,lookahead:0\.2s,'
	run chain-lookahead -d sas.csv --start SCAN --time 0
	assert_failure 2
	assert_line --index 0 "chain-lookahead: invalid --time '0': expected a number from 0.001 to 86400"
}

@test "trace covers only the turns this program plays in a match" {
	sas
	chain-lookahead -d sas.csv --start SCAN --vs greedy --trace t.csv > /dev/null
	run awk -F, 'NR > 1 { print $3 }' t.csv
	refute_output --partial 2
	run awk -F, 'NR > 1 && $7 == 1' t.csv
	assert_equal "${#lines[@]}" 2
}

@test "Japanese: kana dictionary with the ん rule" {
	wordload --kana "$TOP/dictionaries/japanese-nouns.txt" -o jp.csv
	run chain-lookahead -d jp.csv --start りんご --vs greedy --lose-tail ん --rounds 3
	assert_success
	assert_line --index 1 "1,0,0,start,りんご,0,0,0,start"
	refute_output --partial "lookahead:2,しゃしん"
}

@test "usage errors: depth" {
	run chain-lookahead -d "$MINI" --start SCAN --depth 0
	assert_failure 2
	assert_line --index 0 "chain-lookahead: invalid --depth '0': expected an integer from 1 to 20000"
	run chain-lookahead -d "$MINI" --start SCAN --depth deep
	assert_failure 2
	assert_line --index 0 "chain-lookahead: invalid --depth 'deep': expected an integer from 1 to 20000"
	run chain-lookahead -d "$MINI" --start SCAN --vs lookahead:0
	assert_failure 2
}

@test "--help and --version" {
	run chain-lookahead --help
	assert_success
	assert_line --index 0 "Usage: chain-lookahead -d DICT [OPTION]... [LOG]"
	run chain-lookahead --version
	assert_output "chain-lookahead (yomi) 0.1.0"
}

@test "values far below -10000 still choose a word (len up to 1000000)" {
	# A1's only reply scores 1000000: every candidate is worth -1000000,
	# which once fell below the search's floor and left the choice unset.
	printf 'word,head,tail,len\nS,x,a,1\nA1,a,b,0\nB1,b,c,1000000\n' > big.csv
	run chain-lookahead -d big.csv --start S --trace t.csv
	assert_success
	assert_line --index 2 "1,1,1,lookahead:2,A1,0,0,0,play"
	run cat t.csv
	assert_line --index 1 "1,1,1,A1,0,-1000000,1"
	run chain-lookahead -d big.csv --starts S --vs greedy --both-sides
	assert_output "game,start,seed,p1,p2,turns,p1_score,p2_score,winner,reason
1,S,1,lookahead:2,greedy,2,0,1000000,2,stuck
2,S,1,greedy,lookahead:2,2,0,1000000,2,stuck"
	printf 'word,head,tail,len\nS,x,a,1000001\n' > over.csv
	run chain-lookahead -d over.csv --start S
	assert_failure 1
	assert_output "chain-lookahead: over.csv:2: column 'len': '1000001' is not an integer from 0 to 1000000"
}

@test "scores past 2^31 are written and read back" {
	# 4400 words of 1000000 points in one class: each player ends above 2^31.
	awk 'BEGIN { print "word,head,tail,len"; for (i = 0; i <= 4400; i++) print "W" i ",a,a,1000000" }' > loop.csv
	chain-greedy -d loop.csv --start W0 --vs greedy --rounds 2200 -o log.csv
	run tail -1 log.csv
	assert_output --regexp '^1,4400,2,greedy,W[0-9]+,1000000,2200000000,2200000000,play$'
	run chain-greedy -d loop.csv --rounds 2200 --moves 0 log.csv
	assert_success
	assert_equal "$output" "$(cat log.csv)"
	printf 'game,turn,player,strategy,word,points,p1_score,p2_score,event\n1,0,0,start,W0,0,1000001,0,start\n' > h.csv
	run chain-greedy -d loop.csv h.csv
	assert_failure 1
	assert_output "chain-greedy: h.csv:2: the start row's scores are the handicaps, from -1000000 to 1000000"
}

@test "a wide dictionary: 40000 classes under one key, deep search, small stack" {
	# The search's memory does not grow with the classes under a key: at
	# depth 16 eight nodes with 40001 moves each are on the stack at once.
	awk 'BEGIN { print "word,head,tail,len"; print "S,x,a,1"
		for (i = 1; i <= 9; i++) { print "AB" i ",a,b,5"; print "BA" i ",b,a,5" }
		for (i = 1; i <= 40000; i++) { print "A" i ",a,t" i ",1"; print "T" i ",t" i ",z,1" } }' > wide.csv
	run bash -c "ulimit -s 1024; chain-lookahead -d wide.csv --start S --depth 16 --moves 2 | cut -d, -f5 | tail -2"
	assert_success
	assert_output "AB2
BA4"
	run bash -c "ulimit -s 1024; chain-lookahead -d wide.csv --start S --depth end --rounds 8 --trace t.csv | tail -1"
	assert_success
	assert_output "1,1,1,lookahead:end,AB2,5,5,0,play"
	run bash -c "sort -t, -k6,6n t.csv | head -1"
	assert_output "1,1,1,A1,1,-10000,0"
}
