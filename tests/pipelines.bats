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

@test "lookahead-gain.sh: win rates with Wilson intervals per depth" {
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 4"
	assert_success
	assert_output "depth,games,win,win_lo,win_hi,draw,draw_lo,draw_hi,loss,loss_lo,loss_hi
greedy,4938,0.5000,0.4861,0.5139,0.0000,0.0000,0.0008,0.5000,0.4861,0.5139
2,4938,0.6991,0.6861,0.7117,0.0000,0.0000,0.0008,0.3009,0.2883,0.3139
4,4938,0.9411,0.9342,0.9473,0.0000,0.0000,0.0008,0.0589,0.0527,0.0658"
}

@test "lookahead-gain.sh: shards give the unsplit result; depth end on a few starts" {
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 end" --starts SCAN,ABS,INPUT,PUT --games 2 -j 1
	assert_success
	one=$output
	run "$TOP/pipelines/lookahead-gain.sh" --depths "2 end" --starts SCAN,ABS,INPUT,PUT --games 2 -j 3
	assert_equal "$output" "$one"
	assert_line --index 3 --regexp '^end,16,'
}

@test "lookahead-gain.sh --japanese on chosen start words" {
	run "$TOP/pipelines/lookahead-gain.sh" --japanese --games 2 --depths 2 --starts りんご,しりとり,ねこ,いぬ,さくら
	assert_success
	assert_line --index 2 "2,20,1.0000,0.8389,1.0000,0.0000,0.0000,0.1611,0.0000,0.0000,0.1611"
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
	for p in wordload chain-greedy chain-lookahead; do
		[ -x "root/opt/yomi/bin/$p" ]
		[ -f "root/opt/yomi/share/man/man1/$p.1" ]
	done
	make -C "$TOP" -s uninstall DESTDIR="$PWD/root" PREFIX=/opt/yomi > /dev/null
	run find root -type f
	assert_output ""
}
