#!/usr/bin/env bats
# playout --game othello: perft, random games, positions, per-move
# statistics, players, shards, errors.

load test_helper/common

# The position after f5 d6 c3, worked out by hand: black c3 d4 e4 e5 f5,
# white d5 d6, white to move.
AFTER_F5_D6_C3="------------------X--------XX------OXX-----O--------------------"

@test "--help and --version" {
	run playout --help
	assert_success
	assert_line --index 0 "Usage: playout [--game othello|calc] [OPTIONS] [FILE]..."
	assert_line --partial "--per-move N"
	run playout --version
	assert_success
	assert_line --index 0 "playout (yomi) 0.1.0"
	assert_line --index 1 --regexp "^vector path: (base|avx2|avx512) \(this machine's best: (base|avx2|avx512); YOMI_ISA=base, avx2 or avx512 picks a lower one\)$"
}

@test "YOMI_ISA picks the vector path; the paths play the same games" {
	run env YOMI_ISA=base playout --version
	assert_success
	assert_line --index 1 --partial "vector path: base ("
	want=$(YOMI_ISA=base playout -n 20 --moves --seed 3 | cksum)
	best=$(playout --version | sed -n "s/.*best: \([a-z0-9]*\);.*/\1/p")
	for p in avx2 avx512; do
		if [ "$best" = avx2 ] && [ "$p" = avx512 ] || [ "$best" = base ]; then continue; fi
		[ "$(YOMI_ISA=$p playout -n 20 --moves --seed 3 | cksum)" = "$want" ]
		[ "$(YOMI_ISA=$p playout -g calc -n 50 --seed 3 | cksum)" = "$(YOMI_ISA=base playout -g calc -n 50 --seed 3 | cksum)" ]
	done
	run env YOMI_ISA=sse9 playout -n 1
	assert_failure 2
	assert_line --index 0 "playout: invalid YOMI_ISA 'sse9': expected base, avx2 or avx512"
}

@test "perft from the start: the published counts through depth 8" {
	run bash -c "playout --perft 8 | cut -d, -f1,2"
	assert_success
	assert_output "depth,leaves
1,4
2,12
3,56
4,244
5,1396
6,8200
7,55092
8,390216"
	run bash -c "playout --perft 2 | head -1"
	assert_output "depth,leaves,seconds,leaves_per_second"
}

@test "perft times: three significant digits, a rate only from a millisecond on" {
	playout --perft 9 > p.csv
	run awk -F, 'NR > 1 && ($3 == "" || $3 ~ /^0\.0+$/ || ($3 < 0.001) != ($4 == "NA") || ($4 != "NA" && $4 < 1))' p.csv
	assert_output ""
	run awk -F, 'NR > 1 && $3 !~ /^[0-9.e+-]+$/' p.csv
	assert_output ""
	# Some depth (1) is counted in under a millisecond, depth 9 in more.
	run awk -F, 'NR == 2 { print $4 } NR == 10 { print ($4 > 0) }' p.csv
	assert_output "NA
1"
}

@test "perft --hash: the same counts through a transposition table" {
	playout --perft 9 | cut -d, -f1,2 > plain.csv
	playout --perft 9 --hash 4K | cut -d, -f1,2 > small.csv
	playout --perft 9 --hash 16M | cut -d, -f1,2 > big.csv
	run cmp plain.csv small.csv
	assert_success
	run cmp plain.csv big.csv
	assert_success
	run tail -1 big.csv
	assert_output "9,3005288"
	# Mid-game positions: the first 20 moves of random games.
	playout -n 12 --seed 5 --moves | awk -F, 'NR == 1 { print "moves"; next }
		{ n = split($11, m, " "); s = m[1]; for (i = 2; i <= 20 && i <= n; i++) s = s " " m[i]; print s }' > games.csv
	playout --perft 6 games.csv | cut -d, -f1-3 > p.csv
	playout --perft 6 --hash 64K games.csv | cut -d, -f1-3 > h.csv
	run cmp p.csv h.csv
	assert_success
	run wc -l < h.csv
	assert_output "73"
	run playout --perft 3 --hash 4095
	assert_failure 2
	assert_line --index 0 "playout: --hash: '4095' is not a size from 4K to 1024T (such as 256M)"
	run playout --hash 1M -n 3
	assert_failure 2
	assert_line --index 0 "playout: --hash is for --perft"
}

@test "random games: one exact row per game" {
	run playout -n 4 --seed 42
	assert_success
	assert_output "game,seed,black_player,white_player,first_player,first_move,plies,black_discs,white_discs,winner
1,42,random,random,black,d3,60,29,35,white
2,42,random,random,black,d3,60,32,32,draw
3,42,random,random,black,c4,60,39,25,black
4,42,random,random,black,d3,60,27,37,white"
}

@test "shards reproduce the unsplit run row for row" {
	playout -n 25 --seed 9 --moves > all.csv
	{
		playout -n 10 --seed 9 --moves
		playout --first-game 11 -n 7 --seed 9 --moves | tail -n +2
		playout --first-game 18 -n 8 --seed 9 --moves | tail -n +2
	} > shards.csv
	run cmp all.csv shards.csv
	assert_success
	run bash -c "tail -n +2 all.csv | wc -l"
	assert_output "25"
}

@test "the moves column replays legally to finished games" {
	playout -n 30 --seed 4 --moves > games.csv
	# Finished games: one leaf at every depth.
	run bash -c "playout --perft 3 games.csv | awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if (\$i == \"leaves\") c = i; next } { print \$c }' | sort | uniq -c"
	assert_output "     90 1"
	# Disc counts never exceed 64, and plies equal the moves listed.
	run awk -F, 'NR > 1 { n = split($11, m, " "); if (n != $7 || $8 + $9 > 64) bad++ } END { print bad + 0 }' games.csv
	assert_output "0"
}

@test "a position as board and turn equals the same position as moves" {
	printf 'board,turn\n%s,O\n' "$AFTER_F5_D6_C3" > board.csv
	printf 'moves\nf5 d6 c3\n' > moves.csv
	playout --perft 4 board.csv | cut -d, -f1-3 > pb.csv
	playout --perft 4 moves.csv | cut -d, -f1-3 > pm.csv
	run cmp pb.csv pm.csv
	assert_success
	run sed -n 2p pb.csv
	assert_output "1,1,4"
	playout -n 20 --seed 2 board.csv > a.csv
	playout -n 20 --seed 2 moves.csv > b.csv
	run cmp a.csv b.csv
	assert_success
	run sed -n 2p a.csv
	assert_output --regexp '^1,1,2,random,random,white,(d3|e3|f3|c5|f4|c6|b6|f6|g5),'
}

@test "position tables: other columns are carried, positions numbered across files" {
	printf 'id,moves\nopening,f5 d6 c3\n' > a.csv
	printf 'id,moves\nstart,\n' > b.csv
	run playout -n 2 a.csv b.csv
	assert_success
	assert_output "position,id,game,seed,black_player,white_player,first_player,first_move,plies,black_discs,white_discs,winner
1,opening,1,1,random,random,white,f3,57,27,37,white
1,opening,2,1,random,random,white,f4,57,31,33,white
2,start,1,1,random,random,black,f5,60,23,41,white
2,start,2,1,random,random,black,d3,60,18,46,white"
	printf 'name,moves\nx,\n' > c.csv
	run playout a.csv c.csv
	assert_failure 1
	assert_output "playout: c.csv:1: its other columns differ from the first table's"
}

@test "carried columns named like the output's get the first free suffix" {
	printf 'moves,position,position_2,game\nf5,7,8,9\n' > p.csv
	run bash -c "playout -n 1 p.csv | head -1"
	assert_output "position,position_3,position_2,game_2,game,seed,black_player,white_player,first_player,first_move,plies,black_discs,white_discs,winner"
	run bash -c "playout --perft 1 p.csv | summarize count sum:leaves"
	assert_output "count,sum_leaves
1,3"
	printf 'deck,deal,moves,rest\n%s,x,y,z\n' "$WIN" > d.csv
	run bash -c "playout -g calc --policy greedy --moves d.csv | head -1"
	assert_output "deal,deal_2,moves_2,rest_2,game,seed,variant,policy,success,rest,steps,moves"
	run bash -c "playout -g calc --policy greedy d.csv | head -1"
	assert_output "deal,deal_2,moves,rest_2,game,seed,variant,policy,success,rest,steps"
}

@test "--per-move: flat Monte Carlo per legal move, shards add up" {
	run playout --per-move 200 --seed 3
	assert_success
	assert_output "move,games,wins,draws,losses,win_rate
d3,200,84,11,105,0.42
c4,200,89,12,99,0.445
f5,200,86,16,98,0.43
e6,200,89,4,107,0.445"
	run bash -c "{ playout --per-move 120 --seed 3; playout --per-move 80 --first-game 121 --seed 3 | tail -n +2; } | summarize -g move --sort sum:games sum:wins sum:draws"
	assert_output "move,sum_games,sum_wins,sum_draws
c4,200,89,12
d3,200,84,11
e6,200,89,4
f5,200,86,16"
}

@test "--per-move: a pass is the only move, a finished game has none" {
	# Black must pass here; white then plays a1 and the game is over.
	board="-XOOOOOO----------------""---OO------OO---""--------""--------""--------"
	printf 'board,turn\n%s,X\n' "$board" > pass.csv
	run playout --per-move 10 pass.csv
	assert_output "position,move,games,wins,draws,losses,win_rate
1,pass,10,0,0,10,0"
	printf 'board,turn\n%s,O\n' "$board" > white.csv
	run playout --per-move 3 white.csv
	assert_output "position,move,games,wins,draws,losses,win_rate
1,a1,3,3,0,0,1"
	run playout -n 2 --moves pass.csv
	assert_output "position,game,seed,black_player,white_player,first_player,first_move,plies,black_discs,white_discs,winner,moves
1,1,1,random,random,black,pass,2,0,12,white,pass a1
1,2,1,random,random,black,pass,2,0,12,white,pass a1"
}

@test "mcts:1000 beats random in at least 95% of 200 games" {
	playout --black mcts:1000 -n 100 --seed 11 -q > b.csv
	playout --white mcts:1000 -n 100 --seed 12 -q > w.csv
	run awk -F, 'NR > 1 && $10 == "black" { n++ } END { print n + 0 }' b.csv
	b=$output
	run awk -F, 'NR > 1 && $10 == "white" { n++ } END { print n + 0 }' w.csv
	w=$output
	echo "mcts won $b as black and $w as white"
	[ $((b + w)) -ge 190 ]
}

@test "mc:N against random wins most games, and matches are reproducible" {
	run bash -c "playout --white mc:20 -n 20 --seed 5 | summarize count rate:winner=white | cut -d, -f1,2"
	assert_output "count,rate_winner_white
20,1"
	playout --black mc:5 -n 3 --seed 5 > a.csv
	playout --black mc:5 -n 3 --seed 5 > b.csv
	run cmp a.csv b.csv
	assert_success
}

@test "--show draws one game; it is game K of the run" {
	run playout --show --seed 42
	assert_success
	assert_line --index 0 "game 1, seed 42: black (X) random, white (O) random"
	assert_line --index 1 "  a b c d e f g h"
	assert_line --index 5 "5 - - - X O . - - 5"
	assert_line --index 6 "4 - - . O X - - - 4"
	assert_line --index 11 "1. black d3"
	run bash -c "playout --show --seed 42 --first-game 3 | tail -1"
	assert_output "black wins"
	run bash -c "playout --show --seed 42 --first-game 2 | tail -3"
	assert_output "X 32  O 32

draw"
}

@test "--show -o FILE: the drawing goes to FILE, nothing to stdout" {
	playout --show --seed 42 > want.txt
	run playout --show --seed 42 -o got.txt
	assert_success
	assert_output ""
	cmp want.txt got.txt
	playout -g calc --show --seed 3 > want.txt
	playout -g calc --show --seed 3 -o got.txt.gz
	run bash -c "zcat got.txt.gz | cmp - want.txt"
	assert_success
}

@test "matches name their players on every row; --both-sides swaps them per pair" {
	run playout --black mc:5 -n 4 --seed 5 --both-sides
	assert_success
	assert_output "game,seed,black_player,white_player,first_player,first_move,plies,black_discs,white_discs,winner
1,5,mc:5,random,black,d3,61,40,24,black
2,5,random,mc:5,black,d3,60,21,43,white
3,5,mc:5,random,black,f5,60,44,20,black
4,5,random,mc:5,black,e6,60,27,37,white"
	# A shard's game 2 is the run's game 2, players swapped as in the run.
	run bash -c "playout --black mc:5 --first-game 2 -n 1 --seed 5 --both-sides | tail -1"
	assert_output "2,5,random,mc:5,black,d3,60,21,43,white"
	# Each player's score, whatever the colour: rows by player.
	run bash -c "playout --black mc:5 -n 4 --seed 5 --both-sides | awk -F, 'NR > 1 { print \$3, (\$10 == \"black\") ; print \$4, (\$10 == \"white\") }' | sort | uniq -c"
	assert_output "      4 mc:5 1
      4 random 0"
	run bash -c "playout --black mc:5 --show --first-game 2 --both-sides | head -1"
	assert_output "game 2, seed 1: black (X) random, white (O) mc:5"
	run playout --per-move 10 --both-sides
	assert_failure 2
	assert_output --partial "take neither -n, --moves, players nor --both-sides"
}

@test "TSV output and gzip" {
	run bash -c "playout -n 1 -t | head -1"
	assert_output "$(printf 'game\tseed\tblack_player\twhite_player\tfirst_player\tfirst_move\tplies\tblack_discs\twhite_discs\twinner')"
	playout -n 3 -o g.csv.gz
	run bash -c "zcat g.csv.gz | wc -l"
	assert_output "4"
}

@test "bad boards and moves: line numbers, exit 1" {
	printf 'board,turn\n%s,X\nXO,X\n' "$AFTER_F5_D6_C3" > short.csv
	run playout short.csv
	assert_failure 1
	assert_output "playout: short.csv:3: board must have 64 characters (X, O, - or .), or 65 with the side to move appended"
	printf 'board,turn\n%s,X\n' "$(echo "$AFTER_F5_D6_C3" | tr X x)" > alpha.csv
	run playout alpha.csv
	assert_failure 1
	assert_output "playout: alpha.csv:2: board may hold only X, O, - and ."
	printf 'board,turn\n%s,X\n' "$(printf -- '-%.0s' $(seq 64))" > empty.csv
	run playout empty.csv
	assert_failure 1
	assert_output "playout: empty.csv:2: impossible position: a centre square (d4, e4, d5, e5) is empty"
	printf 'board,turn\n%s,\n' "$AFTER_F5_D6_C3" > turn.csv
	run playout turn.csv
	assert_failure 1
	assert_output "playout: turn.csv:2: no side to move: a column 'turn', or X or O after the board"
	printf 'board,turn\n%s,x\n' "$AFTER_F5_D6_C3" > turn.csv
	run playout turn.csv
	assert_failure 1
	assert_output "playout: turn.csv:2: side to move must be X (black) or O (white)"
	printf 'moves\nf5 d6\nf5 f5\n' > illegal.csv
	run playout illegal.csv
	assert_failure 1
	assert_output "playout: illegal.csv:3: move 2 (f5) is illegal for white"
	printf 'moves\nf5 z9\n' > name.csv
	run playout name.csv
	assert_failure 1
	assert_output "playout: name.csv:2: move 2 ('z9') is not a square a1..h8 or pass"
	printf 'x\n1\n' > nocol.csv
	run playout nocol.csv
	assert_failure 1
	assert_output "playout: nocol.csv:1: no column 'board' (with 'turn') or 'moves'"
	printf 'board\n%s\n' "$AFTER_F5_D6_C3" > noturn.csv
	run playout noturn.csv
	assert_failure 1
	assert_output "playout: noturn.csv:2: no side to move: a column 'turn', or X or O after the board"
	printf 'board\n%sx\n' "$AFTER_F5_D6_C3" > side.csv
	run playout side.csv
	assert_failure 1
	assert_output "playout: side.csv:2: side to move after the board must be X (black) or O (white)"
	printf 'board,turn\n%s X,O\n' "$AFTER_F5_D6_C3" > differ.csv
	run playout differ.csv
	assert_failure 1
	assert_output "playout: differ.csv:2: the side to move after the board and the turn differ"
	printf 'moves\nf5d6x3\n' > compact.csv
	run playout compact.csv
	assert_failure 1
	assert_output "playout: compact.csv:2: move 3 ('x3') is not a square a1..h8 or pass"
}

@test "interchange: moves compact or uppercase, boards with . and Edax's side appended" {
	want=$(printf 'moves\nf5 d6 c3\n' | playout --per-move 20 -)
	for m in f5d6c3 "F5 D6 C3" "F5d6 c3" "  f5 d6c3 "; do
		run bash -c "printf 'moves\n%s\n' '$m' | playout --per-move 20 -"
		assert_output "$want"
	done
	dots=$(echo "$AFTER_F5_D6_C3" | tr - .)
	for row in "board,turn\n$AFTER_F5_D6_C3,O" "board,turn\n$dots,O" "board\n${AFTER_F5_D6_C3}O" \
		"board\n$dots O" "board,turn\n${dots}O,white"; do
		run bash -c "printf '$row\n' | playout --per-move 20 -"
		assert_output "$want"
	done
}

@test "bad options: exit 2 with the accepted range" {
	run playout -n 0
	assert_failure 2
	assert_line --index 0 "playout: invalid -n '0': expected an integer from 1 to 4294967295"
	run playout --perft 21
	assert_failure 2
	assert_line --index 0 "playout: invalid --perft '21': expected an integer from 1 to 20"
	run playout --black alpha
	assert_failure 2
	assert_line --index 0 "playout: --black: 'alpha' is not random, mc:N, mcts:N, perfect or perfect:N (1 <= N <= 100000000)"
	run playout --white mcts:0
	assert_failure 2
	run playout --per-move 5 --black mc:3
	assert_failure 2
	assert_line --index 0 "playout: --per-move, --perft and --solve take neither -n, --moves, players nor --both-sides"
	run playout --perft 2 --per-move 2
	assert_failure 2
	assert_line --index 0 "playout: --per-move, --perft, --solve and --show are separate modes: choose one"
	run playout --show -n 2
	assert_failure 2
	assert_line --index 0 "playout: --show draws a single game: drop -n and --moves"
	run playout --first-game 4294967295 -n 2
	assert_failure 2
	assert_line --index 0 "playout: --first-game plus the number of games passes 4294967296"
	run playout --game chess
	assert_failure 2
	assert_line --index 0 "playout: invalid --game 'chess': expected one of othello, calc"
	run playout --seed -1
	assert_failure 2
}

@test "--show wants one position; output errors exit 1" {
	printf 'moves\nf5\nd3\n' > two.csv
	run playout --show two.csv
	assert_failure 1
	assert_output "playout: --show draws one game: give one position, not 2"
	run bash -c "playout -n 5 > /dev/full"
	assert_failure 1
	assert_output --partial "write error"
}

# The FForum endgame problems (tests/fixtures/fforum.csv): the published
# exact score of each problem and of every legal move, for the side to
# move, empty squares counted for the winner. Rows 1-79 hold problems
# #1-#79 as Edax ships them (problem/fforum-*.obf); the best scores and
# best moves agree with a second list (reversi_core's FFO test cases).
FFORUM="$BATS_TEST_DIRNAME/fixtures/fforum.csv"

# Checks playout --solve-all rows against the published scores: one line
# per disagreement, then a count.
check_published() {
	awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) c[$i] = i; next }
	{
		p = $c["problem"]; n = split($c["published_moves"], m, " ")
		for (i = 1; i <= n; i++) { split(m[i], q, ":"); pub[p, q[1]] = q[2] }
		if (!(p in best) || $c["score"] + 0 > best[p] + 0) best[p] = $c["score"]
		want[p] = $c["published"]
		if (!((p, $c["move"]) in pub)) { unpublished++; next }
		checked++
		if (pub[p, $c["move"]] != $c["score"]) print "#" p " " $c["move"] ": " $c["score"] ", published " pub[p, $c["move"]]
	}
	END {
		for (p in want) { k++; if (best[p] != want[p]) print "#" p ": best " best[p] ", published " want[p] }
		printf "%d problems, %d move scores as published or listed above, %d moves unpublished\n", k, checked, unpublished + 0
	}' "$@"
}

@test "--solve-all: FForum #1-#19, every move's score as published" {
	head -20 "$FFORUM" | playout --solve-all -q - > all.csv
	run check_published all.csv
	assert_output "19 problems, 145 move scores as published or listed above, 0 moves unpublished"
	run sed -n 1p all.csv
	assert_output "position,problem,published,published_moves,move,score,nodes,seconds"
	# Nodes are counted, seconds measured.
	run awk -F, 'NR > 1 && ($7 < 1 || $8 !~ /^[0-9]+\.[0-9][0-9][0-9][0-9][0-9][0-9]$/) { bad++ } END { print bad + 0 }' all.csv
	assert_output "0"
}

@test "--solve: FForum #1-#19 and #20-#23, a best move, the published score" {
	sed -n '1p;2,24p' "$FFORUM" | playout --solve -q - > best.csv
	run awk -F, 'NR > 1 { n++; ok += $6 == $3; split($4, m, " "); for (i in m) { split(m[i], q, ":"); if (q[1] == $5 && q[2] == $3) best++ } }
		END { print n " problems, " ok " scores as published, " best " moves among the published best" }' best.csv
	assert_output "23 problems, 23 scores as published, 23 moves among the published best"
	# #20 (6 empties) has one best move.
	run bash -c "sed -n 21p best.csv | cut -d, -f2,5,6"
	assert_output "20,h5,6"
}

@test "a solved position's best move replays to its score" {
	head -20 "$FFORUM" | playout --solve -q - > best.csv
	# The position after the best move, solved from the other side.
	awk -F, 'NR == FNR { if (FNR > 1) mv[FNR] = $5; next } FNR == 1 { print "problem,board,turn,moves"; next }
		{ print $1 "," $2 "," $3 "," mv[FNR] }' best.csv "$FFORUM" | head -20 > after.csv
	playout --solve -q after.csv > reply.csv
	run bash -c "paste -d, <(cut -d, -f6 best.csv) <(cut -d, -f4 reply.csv) | awk -F, 'NR > 1 && \$1 != -\$2 { bad++ } NR > 1 { n++ } END { print n, bad + 0 }'"
	assert_output "19 0"
}

@test "--solve: a forced pass, and the errors" {
	# Black must pass; white then plays a1 and the game is over.
	board="-XOOOOOO----------------""---OO------OO---""--------""--------""--------"
	printf 'board,turn\n%s,X\n' "$board" > pass.csv
	run playout --solve-all --max-empties 60 pass.csv
	assert_success
	assert_output --regexp '^position,move,score,nodes,seconds
1,pass,-64,[0-9]+,[0-9.]+$'
	printf 'board,turn,moves\n%s,X,\n%s,X,pass a1\n' "$board" "$board" > over.csv
	run playout --solve --max-empties 60 over.csv
	assert_failure 1
	assert_output "playout: over.csv:3: the game is over: nothing to solve"
	run playout --solve
	assert_failure 1
	assert_output "playout: the standard start: 60 empty squares, more than --max-empties 26 (raise it to solve: each empty square multiplies the time)"
	head -3 "$FFORUM" > two.csv
	run playout --solve --max-empties 13 two.csv
	assert_failure 1
	assert_output "playout: two.csv:2: 14 empty squares, more than --max-empties 13 (raise it to solve: each empty square multiplies the time)"
	printf 'moves\nf5 f5\n' > illegal.csv
	run playout --solve illegal.csv
	assert_failure 1
	assert_output "playout: illegal.csv:2: move 2 (f5) is illegal for white"
	printf 'x\n1\n' > nocol.csv
	run playout --solve-all nocol.csv
	assert_failure 1
	assert_output "playout: nocol.csv:1: no column 'board' (with 'turn') or 'moves'"
	run playout --solve --solve-all two.csv
	assert_failure 2
	assert_line --index 0 "playout: --solve and --solve-all are separate modes: choose one"
	run playout --solve --perft 2 two.csv
	assert_failure 2
	assert_line --index 0 "playout: --per-move, --perft, --solve and --show are separate modes: choose one"
	run playout --solve -n 2 two.csv
	assert_failure 2
	assert_line --index 0 "playout: --per-move, --perft and --solve take neither -n, --moves, players nor --both-sides"
	run playout --max-empties 20 two.csv
	assert_failure 2
	assert_line --index 0 "playout: --max-empties is for --solve, --solve-all and perfect players"
	for opt in "--ucb 1" "--threshold 3" "--ucb 1 --black mc:20"; do
		run playout $opt -n 1
		assert_failure 2
		assert_line --index 0 "playout: --ucb and --threshold are for mcts players (--black or --white mcts:N)"
	done
	run playout --ucb 1 --white mcts:20 -n 1 -q
	assert_success
	run playout --solve --max-empties 61 two.csv
	assert_failure 2
	assert_line --index 0 "playout: invalid --max-empties '61': expected an integer from 0 to 60"
	run playout --white perfect:0
	assert_failure 2
	assert_line --index 0 "playout: --white: 'perfect:0' is not random, mc:N, mcts:N, perfect or perfect:N (1 <= N <= 100000000)"
}

@test "perfect players: exact play reaches the solved score, and random never does better" {
	# Problems #1-#7 (black to move, 14 empties), perfect against itself.
	head -8 "$FFORUM" > seven.csv
	playout --black perfect --white perfect --max-empties 14 -q seven.csv > pp.csv
	# The score counts the empty squares left for the winner.
	score='{ e = 64 - $b - $w; d = $b - $w; s = d > 0 ? d + e : d < 0 ? d - e : 0 }'
	run awk -F, "NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"black_discs\") b = i; if (\$i == \"white_discs\") w = i }; next } $score { print \$2, s - \$3 }" pp.csv
	assert_output "1 0
2 0
3 0
4 0
5 0
6 0
7 0"
	# Against random, perfect black never scores less than the problem's value.
	playout --black perfect --max-empties 14 -n 4 --seed 3 -q seven.csv > pr.csv
	run awk -F, "NR == 1 { for (i = 1; i <= NF; i++) { if (\$i == \"black_discs\") b = i; if (\$i == \"white_discs\") w = i }; next } $score { n++; worse += s < \$3 } END { print n, worse + 0 }" pr.csv
	assert_output "28 0"
}

@test "perfect: UCT before --max-empties, exact after; logged and replayed like any match" {
	playout --black perfect:200 --max-empties 12 -n 3 --seed 8 --moves -q > a.csv
	playout --black perfect:200 --max-empties 12 -n 3 --seed 8 --moves -q > b.csv
	run cmp a.csv b.csv
	assert_success
	run bash -c "cut -d, -f1-5 a.csv"
	assert_output "game,seed,black_player,white_player,first_player
1,8,perfect:200,random,black
2,8,perfect:200,random,black
3,8,perfect:200,random,black"
	run awk -F, 'NR > 1 && $10 == "black" { n++ } END { print n + 0 }' a.csv
	assert_output "3"
}

# Calculation. WIN: each foundation's missing cards in turn.
WIN=23456789TJQK468TQA3579JK69Q258JA47TK8Q37J26TA59K

@test "calc: seeded deals, one exact row per game" {
	run playout -g calc -n 3 --seed 7
	assert_success
	assert_output "game,seed,variant,policy,success,rest,steps
1,7,standard,random,0,42,53
2,7,standard,random,0,33,58
3,7,standard,random,0,37,55"
	# Without --moves the counting playout runs; with it the random player
	# moves one call at a time: the same games.
	run bash -c "set -o pipefail; playout -g calc -n 200 --seed 7 --variant three-piles --moves | cut -d, -f1-7 | md5sum"
	assert_success
	assert_output "$(playout -g calc -n 200 --seed 7 --variant three-piles | md5sum)"
	run playout -g calc -n 2 --policy greedy --variant three-piles,no-foundations --seed 7
	assert_output "game,seed,variant,policy,success,rest,steps
1,7,no-foundations+three-piles,greedy,0,36,55
2,7,no-foundations+three-piles,greedy,0,33,54"
	# The variant column's own spelling reads back.
	run playout -g calc -n 2 --policy greedy --variant no-foundations+three-piles --seed 7 -q
	assert_output "game,seed,variant,policy,success,rest,steps
1,7,no-foundations+three-piles,greedy,0,36,55
2,7,no-foundations+three-piles,greedy,0,33,54"
}

@test "calc: shards reproduce the unsplit run for every policy" {
	for p in "--policy random" "--policy greedy" "--policy weighted" "--policy mcts --playouts 30" "--policy simple --level 1 --width 2" "--policy best --playouts 3 --samples 4" "--policy clairvoyant --level 1"; do
		playout -g calc -n 6 --seed 3 --moves $p > all.csv
		{ playout -g calc -n 2 --seed 3 --moves $p; playout -g calc --first-game 3 -n 4 --seed 3 --moves $p | tail -n +2; } > shards.csv
		run cmp all.csv shards.csv
		assert_success
	done
}

@test "calc: a deck from a table, its columns carried; the move list" {
	printf 'name,deck\nwin,%s\n' "$WIN" > d.csv
	run playout -g calc --policy greedy --moves d.csv
	assert_success
	assert_line --index 0 "deal,name,game,seed,variant,policy,success,rest,steps,moves"
	assert_line --index 1 --regexp '^1,win,1,1,standard,greedy,1,0,48,2>F1 3>F1 4>F1 .* 4>F2 6>F2 .* 9>F4 K>F4$'
	run bash -c "printf 'deck\n%s\n' '$WIN' | playout -g calc --show --policy greedy - | sed -n '1,9p;\$p'"
	assert_output "game 1, seed 1, standard, greedy
deck $WIN

hand 2  stock 47
F1 A (next 2)
F2 2 (next 4)
F3 3 (next 6)
F4 4 (next 8)
W1
success, 0 cards left"
}

@test "calc: every policy runs and logs its parameters" {
	run bash -c "playout -g calc -n 2 --policy mcts --playouts 50 --reward rest:0.05 | cut -d, -f4 | tail -1"
	assert_output "mcts:50"
	run bash -c "playout -g calc -n 1 --policy simple --level 2 --width 3 | cut -d, -f4 | tail -1"
	assert_output "simple:2x3"
	run bash -c "playout -g calc -n 1 --policy best | cut -d, -f4 | tail -1"
	assert_output "best:128+15/20x256/12/8/6/w"
	# 256 sampled orders in the standard game unless --samples says.
	run bash -c "playout -g calc -n 1 --policy best --samples 32 --playouts 2 --rounds 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2/20x32/0/0/0/w"
	# Three piles: 64 cascade rollouts by default; --no-cascade keeps the
	# 64, and the last of --cascade and --no-cascade counts. --rounds 0
	# drops the +R.
	run bash -c "playout -g calc -n 1 --policy best --variant three-piles --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:64+15/0x256/0/0/0/c/w"
	run bash -c "playout -g calc -n 1 --policy best --variant three-piles,no-foundations --playouts 2 --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2+15/0x32/0/0/0/c/w"
	run bash -c "playout -g calc -n 1 --policy best --variant three-piles --no-cascade --playouts 2 --rounds 0 --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2/0x256/0/0/0/w"
	run bash -c "playout -g calc -n 1 --policy best --variant three-piles --no-cascade --cascade --playouts 2 --rounds 0 --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2/0x256/0/0/0/c/w"
	run bash -c "playout -g calc -n 1 --policy best --variant no-foundations --playouts 2 --rounds 0 --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2/0x32/0/0/0/w"
	# The exact chances' waits are on unless --no-waits; the last of
	# --waits and --no-waits counts.
	run bash -c "playout -g calc -n 1 --policy best --no-waits --playouts 2 --rounds 0 --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2/0x256/0/0/0"
	run bash -c "playout -g calc -n 1 --policy best --no-waits --waits --playouts 2 --rounds 0 --endgame 0 --exact 0 --exact-all 0 --hold 0 | cut -d, -f4 | tail -1"
	assert_output "best:2/0x256/0/0/0/w"
	# Rest is never 1.
	run playout -g calc -n 3000 --policy greedy -q
	assert_success
	assert_equal "${#lines[@]}" 3001
	run awk -F, 'NR > 1 && $6 == 1' <<<"$output"
	assert_output ""
}

@test "calc: weighted wins three times as many deals as greedy" {
	run playout -g calc --policy weighted -n 3 --seed 5
	assert_output "game,seed,variant,policy,success,rest,steps
1,5,standard,weighted,0,3,72
2,5,standard,weighted,0,30,49
3,5,standard,weighted,1,0,74"
	# Over the same 2,000 deals: 16.4% against greedy's 4.5%.
	run bash -c "for p in greedy weighted; do playout -g calc --policy \$p -n 2000 -q | summarize count rate:success=1 --round 3 | tail -1 | cut -d, -f1-2; done"
	assert_output "2000,0.045
2000,0.164"
}

@test "calc: the cascade (--cascade) wins more with either rule" {
	run playout -g calc --policy greedy --cascade -n 3 --seed 5
	assert_output "game,seed,variant,policy,success,rest,steps
1,5,standard,greedy:cascade,0,17,65
2,5,standard,greedy:cascade,0,25,56
3,5,standard,greedy:cascade,1,0,77"
	run playout -g calc --policy weighted --cascade -n 1 --seed 5
	assert_line --index 1 "1,5,standard,weighted:cascade,0,20,61"
	# The same 2,000 deals as above: greedy 4.5% and weighted 16.4% plain.
	run bash -c "for p in greedy weighted; do playout -g calc --policy \$p --cascade -n 2000 -q | summarize count rate:success=1 --round 3 | tail -1 | cut -d, -f1-2; done"
	assert_output "2000,0.071
2000,0.269"
}

@test "calc: clairvoyant sees the stock: DOWN is won three levels deep, and deals best loses" {
	# Four of each rank from K down: greedy (level 0) buries everything.
	printf 'deck\n%s\n' KKKKQQQQJJJJTTTT99998888777766665555444333222AAA > down.csv
	run bash -c "for l in 0 1 2 3; do playout -g calc --policy clairvoyant --level \$l down.csv | tail -1; done"
	assert_output "1,1,1,standard,clairvoyant:0,0,40,52
1,1,1,standard,clairvoyant:1,0,34,56
1,1,1,standard,clairvoyant:2,0,19,69
1,1,1,standard,clairvoyant:3,1,0,87"
	run playout -g calc --policy clairvoyant --moves down.csv
	assert_line --index 1 --regexp '^1,1,1,standard,clairvoyant:3,1,0,87,K>W1 K>W2 K>W1 K>W1 Q>W2 .* W2>F1 W2>F1$'
	# Level 0 is the greedy rule's game.
	run bash -c "set -o pipefail; playout -g calc -n 50 --seed 4 --policy clairvoyant --level 0 --moves | cut -d, -f5- | md5sum"
	assert_success
	assert_output "$(playout -g calc -n 50 --seed 4 --policy greedy --moves | cut -d, -f5- | md5sum)"
	# Deal 1 of seed 1, which best loses with 16 cards left, can be won.
	run playout -g calc --policy clairvoyant -n 1
	assert_output "game,seed,variant,policy,success,rest,steps
1,1,standard,clairvoyant:3,1,0,83"
}

@test "calc: best's searches (holds, waits, sampled orders, exact chances, every move, rounds, cascade and solved rollouts) change its play" {
	best="playout -g calc --seed 7 --policy best --playouts 8 --rounds 3 --samples 8 --no-waits -q -n 1"
	# Deal 128 is won only when the exact chances let a card wait while a
	# copy of its rank lies buried in another pile (--waits).
	run $best --first-game 128 --waits
	assert_output "game,seed,variant,policy,success,rest,steps
128,7,standard,best:8+3/20x8/12/8/6/w,1,0,76"
	run $best --first-game 128
	assert_output "game,seed,variant,policy,success,rest,steps
128,7,standard,best:8+3/20x8/12/8/6,0,5,71"
	# Deal 27 is won only when a card that fits a foundation may wait (--hold).
	run $best --first-game 27
	assert_output "game,seed,variant,policy,success,rest,steps
27,7,standard,best:8+3/20x8/12/8/6,1,0,81"
	run $best --first-game 27 --hold 0
	assert_output "game,seed,variant,policy,success,rest,steps
27,7,standard,best:8+3/20x8/0/8/6,0,7,70"
	# Without holds: deal 69 is won only with the search of every move
	# (--exact-all) at the end.
	run $best --first-game 69 --hold 0
	assert_output "game,seed,variant,policy,success,rest,steps
69,7,standard,best:8+3/20x8/0/8/6,1,0,78"
	run $best --first-game 69 --hold 0 --exact-all 0
	assert_output "game,seed,variant,policy,success,rest,steps
69,7,standard,best:8+3/20x8/0/8/0,0,8,69"
	# Deal 12 is won only by the exact chances at 8 unseen or fewer.
	run $best --first-game 12 --hold 0 --exact-all 0
	assert_output "game,seed,variant,policy,success,rest,steps
12,7,standard,best:8+3/20x8/0/8/0,1,0,77"
	run $best --first-game 12 --hold 0 --exact 0 --exact-all 0
	assert_output "game,seed,variant,policy,success,rest,steps
12,7,standard,best:8+3/20x8/0/0/0,0,10,66"
	# Deal 2 is won by the sampled orders, lost by rollouts alone.
	run $best --first-game 2 --hold 0 --exact 0 --exact-all 0
	assert_output "game,seed,variant,policy,success,rest,steps
2,7,standard,best:8+3/20x8/0/0/0,1,0,73"
	run $best --first-game 2 --hold 0 --endgame 0 --exact 0 --exact-all 0
	assert_output "game,seed,variant,policy,success,rest,steps
2,7,standard,best:8+3/0x8/0/0/0,0,6,68"
	# Deal 1 is won by the rollouts alone only when the race may add
	# rounds for the close choices (--rounds).
	run $best --first-game 1 --hold 0 --endgame 0 --exact 0 --exact-all 0
	assert_output "game,seed,variant,policy,success,rest,steps
1,7,standard,best:8+3/0x8/0/0/0,1,0,79"
	run $best --first-game 1 --hold 0 --endgame 0 --exact 0 --exact-all 0 --rounds 0
	assert_output "game,seed,variant,policy,success,rest,steps
1,7,standard,best:8/0x8/0/0/0,0,16,59"
	# Deal 4 is won by 8 rollouts a leaf alone only when they play the
	# cascade (--cascade).
	run $best --first-game 4 --hold 0 --endgame 0 --exact 0 --exact-all 0 --rounds 0
	assert_output "game,seed,variant,policy,success,rest,steps
4,7,standard,best:8/0x8/0/0/0,0,16,61"
	run $best --first-game 4 --hold 0 --endgame 0 --exact 0 --exact-all 0 --rounds 0 --cascade
	assert_output "game,seed,variant,policy,success,rest,steps
4,7,standard,best:8/0x8/0/0/0/c,1,0,78"
	# Three piles, deal 7: won only when each rollout ends in the solver
	# from 8 cards unseen (--solve-from).
	run $best --variant three-piles --first-game 7 --solve-from 8 --no-cascade
	assert_output "game,seed,variant,policy,success,rest,steps
7,7,three-piles,best:8+3/20x8/12/8/6/s8,1,0,72"
	run $best --variant three-piles --first-game 7 --no-cascade
	assert_output "game,seed,variant,policy,success,rest,steps
7,7,three-piles,best:8+3/20x8/12/8/6,0,14,59"
}

@test "calc: --peek turns the true stock in mcts and simple, says so, and only there" {
	run bash -c "playout -g calc -n 1 --policy mcts --playouts 50 --peek | cut -d, -f4 | tail -1"
	assert_output "mcts:50:peek"
	run bash -c "playout -g calc -n 1 --policy simple --level 2 --width 3 --peek | cut -d, -f4 | tail -1"
	assert_output "simple:2x3:peek"
	# Seeded deal 13, which clairvoyant shows can be won: a tree six moves
	# deep that peeks wins it.
	run playout -g calc --first-game 13 --policy clairvoyant --level 2
	assert_line --index 1 "13,1,standard,clairvoyant:2,1,0,79"
	run playout -g calc --first-game 13 --policy simple --level 6 --width 20 --reward rest:0.05 --peek
	assert_output "game,seed,variant,policy,success,rest,steps
13,1,standard,simple:6x20:peek,1,0,85"
	for p in random greedy best clairvoyant; do
		run playout -g calc --policy $p --peek
		assert_failure 2
		assert_line --index 0 "playout: --peek is for --policy mcts and simple, not $p"
	done
	# Every player option is refused by the policies it does not apply to,
	# and a count out of range by best: policy|option|message.
	while IFS='|' read -r pol opt msg; do
		run playout -g calc --policy "$pol" $opt </dev/null
		assert_failure 2
		assert_line --index 0 "playout: $msg"
	done <<-'EOF'
	mcts|--level 3|--level is for --policy simple and clairvoyant, not mcts
	greedy|--playouts 5|--playouts is for --policy mcts and best, not greedy
	simple|--ucb 1|--ucb is for --policy mcts, not simple
	random|--hold 3|--hold is for --policy best, not random
	mcts|--rounds 2|--rounds is for --policy best, not mcts
	best|--rounds 64|invalid --rounds '64': expected an integer from 0 to 63
	mcts|--solve-from 8|--solve-from is for --policy best, not mcts
	simple|--cascade|--cascade is for --policy greedy, best and weighted, not simple
	mcts|--no-cascade|--no-cascade is for --policy greedy, best and weighted, not mcts
	greedy|--waits|--waits is for --policy best, not greedy
	clairvoyant|--no-waits|--no-waits is for --policy best, not clairvoyant
	best|--solve-from 53|invalid --solve-from '53': expected an integer from 0 to 52
	best|--playouts 65536 --rounds 16|--playouts 65536 over 17 rounds: best keeps at most 1048576 rollouts a leaf
	simple|--level 0|--level 0: simple expands at least one ply (1 to 30)
	clairvoyant|--level 31|invalid --level '31': expected an integer from 0 to 30
	EOF
	run playout -g calc --policy clairvoyant --level 1 -n 1 -q
	assert_success
	assert_output "game,seed,variant,policy,success,rest,steps
1,1,standard,clairvoyant:1,0,23,60"
	run playout --peek
	assert_failure 2
	assert_line --index 0 "playout: --policy, --variant, --playouts, --reward, --level, --width, --endgame, --samples, --exact, --exact-all, --hold, --rounds, --solve-from, --peek, --eager, --up-first, --binary-ends, --per-card, --cascade, --no-cascade, --waits, --no-waits and --deals are for --game calc"
}

@test "calc: --eager playouts put cards up first, say so, and give a binary reward a signal" {
	# Seeded deal 23: uniformly random playouts almost never win, so mcts
	# with the binary reward sees nothing to choose by and loses; playouts
	# that put a card up whenever one can go win often enough to steer it.
	run playout -g calc --first-game 23 --policy mcts --playouts 2000
	assert_output "game,seed,variant,policy,success,rest,steps
23,1,standard,mcts:2000,0,30,48"
	run playout -g calc --first-game 23 --policy mcts --playouts 2000 --eager
	assert_output "game,seed,variant,policy,success,rest,steps
23,1,standard,mcts:2000:eager,1,0,85"
	run bash -c "playout -g calc -n 1 --policy simple --level 1 --width 2 --eager --peek | cut -d, -f4 | tail -1"
	assert_output "simple:1x2:eager:peek"
	for p in random greedy best clairvoyant; do
		run playout -g calc --policy $p --eager
		assert_failure 2
		assert_line --index 0 "playout: --eager is for --policy mcts and simple, not $p"
	done
}

@test "calc: --up-first gives a tree's ties to cards going up, says so, and only there" {
	# Seeded deal 15 at 1,000 eager playouts: early on the playouts seldom
	# win and the moves tie; mcts plays the first it lists, and the hand
	# buries W1 (34 left) unless moves up are listed first (won).
	run playout -g calc --first-game 15 --policy mcts --playouts 1000 --eager
	assert_output "game,seed,variant,policy,success,rest,steps
15,1,standard,mcts:1000:eager,0,34,51"
	run playout -g calc --first-game 15 --policy mcts --playouts 1000 --eager --up-first
	assert_output "game,seed,variant,policy,success,rest,steps
15,1,standard,mcts:1000:eager:upfirst,1,0,93"
	run bash -c "playout -g calc -n 1 --policy simple --level 1 --width 2 --up-first --eager --peek | cut -d, -f4 | tail -1"
	assert_output "simple:1x2:eager:upfirst:peek"
	for p in random greedy weighted best clairvoyant; do
		run playout -g calc --policy $p --up-first
		assert_failure 2
		assert_line --index 0 "playout: --up-first is for --policy mcts and simple, not $p"
	done
}

@test "calc: --binary-ends scores a game over inside simple's tree 1 or 0, says so, and only there" {
	# Seeded deal 28, level 3: near the end lines finish inside the tree;
	# scored 1 or 0, as the seed's tree scored them, the losing ones tie
	# and the tree leaves a card more than by the shaped reward.
	run playout -g calc --first-game 28 --policy simple --level 3 --width 2 --reward rest:0.5 --eager
	assert_output "game,seed,variant,policy,success,rest,steps
28,1,standard,simple:3x2:eager,0,8,84"
	run playout -g calc --first-game 28 --policy simple --level 3 --width 2 --reward rest:0.5 --eager --binary-ends
	assert_output "game,seed,variant,policy,success,rest,steps
28,1,standard,simple:3x2:eager:binends,0,9,83"
	run bash -c "playout -g calc -n 1 --policy simple --level 1 --width 1 --binary-ends --up-first --peek | cut -d, -f4 | tail -1"
	assert_output "simple:1x1:upfirst:binends:peek"
	for p in random greedy weighted mcts best clairvoyant; do
		run playout -g calc --policy $p --binary-ends
		assert_failure 2
		assert_line --index 0 "playout: --binary-ends is for --policy simple, not $p"
	done
}

@test "calc: --per-card gives simple's chance nodes a subtree a card, says so, and only there" {
	# Seeded deal 16 at level 3, width 2: a subtree for each unseen card
	# (the seed's simpletree) draws three or four times the playouts per
	# rank that one subtree a rank does, and here wins where that loses.
	run playout -g calc --first-game 16 --policy simple --level 3 --width 2 --reward rest:0.05 --eager --up-first
	assert_output "game,seed,variant,policy,success,rest,steps
16,1,standard,simple:3x2:eager:upfirst,0,17,74"
	run playout -g calc --first-game 16 --policy simple --level 3 --width 2 --reward rest:0.05 --eager --up-first --per-card
	assert_output "game,seed,variant,policy,success,rest,steps
16,1,standard,simple:3x2:eager:upfirst:percard,1,0,92"
	run bash -c "playout -g calc -n 1 --policy simple --level 1 --width 1 --per-card --binary-ends | cut -d, -f4 | tail -1"
	assert_output "simple:1x1:binends:percard"
	run playout -g calc --policy simple --per-card --peek
	assert_failure 2
	assert_line --index 0 "playout: --per-card is for chance nodes, and --peek has none"
	for p in random greedy weighted mcts best clairvoyant; do
		run playout -g calc --policy $p --per-card
		assert_failure 2
		assert_line --index 0 "playout: --per-card is for --policy simple, not $p"
	done
}

@test "calc: bad decks and options" {
	printf 'deck\n%s\nA23\n' "$WIN" > short.csv
	run playout -g calc short.csv
	assert_failure 1
	assert_output "playout: short.csv:3: deck must have 48 cards (A23456789TJQK)"
	printf 'deck\n%s\n' "$(echo "$WIN" | tr K x)" > letters.csv
	run playout -g calc letters.csv
	assert_failure 1
	assert_output "playout: letters.csv:2: deck may hold only the rank letters A23456789TJQK"
	printf 'deck\n%s\n' "$(echo "$WIN" | sed 's/^2/K/')" > five.csv
	run playout -g calc five.csv
	assert_failure 1
	assert_output "playout: five.csv:2: deck has a rank more than four times"
	printf 'deck\n%s\n' "$(echo "$WIN" | sed 's/K$/A/')" > starter.csv
	run playout -g calc starter.csv
	assert_failure 1
	assert_output "playout: starter.csv:2: deck holds a fourth A, 2, 3 or 4: those start the foundations"
	run playout -g calc --variant no-foundations starter.csv
	assert_failure 1
	assert_output "playout: starter.csv:2: deck must have 52 cards (A23456789TJQK)"
	printf 'x\n1\n' > nodeck.csv
	run playout -g calc nodeck.csv
	assert_failure 1
	assert_output "playout: nodeck.csv:1: missing column 'deck'"
	run playout -g calc --policy alpha
	assert_failure 2
	assert_line --index 0 "playout: invalid --policy 'alpha': expected one of random, greedy, mcts, simple, best, clairvoyant, weighted"
	run playout -g calc --variant easy
	assert_failure 2
	assert_line --index 0 "playout: invalid --variant 'easy': expected one of standard, no-foundations, three-piles"
	run playout -g calc --variant ,+
	assert_failure 2
	assert_line --index 0 "playout: invalid --variant ',+': expected one of standard, no-foundations, three-piles"
	run playout -g calc --policy mcts --reward rest:2
	assert_failure 2
	assert_line --index 0 "playout: invalid --reward rest:B '2': expected a number from 0 to 1"
	run playout -g calc --reward linear
	assert_failure 2
	assert_line --index 0 "playout: --reward: 'linear' is not binary or rest:B"
	run playout -g calc --policy mcts --playouts 0
	assert_failure 2
	assert_line --index 0 "playout: invalid --playouts '0': expected an integer from 1 to 100000000"
	run playout -g calc --endgame 53
	assert_failure 2
	assert_line --index 0 "playout: invalid --endgame '53': expected an integer from 0 to 52"
	run playout -g calc --samples 0
	assert_failure 2
	assert_line --index 0 "playout: invalid --samples '0': expected an integer from 1 to 1000000"
	run playout -g calc --exact 53
	assert_failure 2
	assert_line --index 0 "playout: invalid --exact '53': expected an integer from 0 to 52"
	run playout -g calc --exact-all -1
	assert_failure 2
	assert_line --index 0 "playout: invalid --exact-all '-1': expected an integer from 0 to 52"
	run playout -g calc --hold 53
	assert_failure 2
	assert_line --index 0 "playout: invalid --hold '53': expected an integer from 0 to 52"
	run playout -g calc --perft 3
	assert_failure 2
	assert_line --index 0 "playout: --black, --white, --per-move, --perft, --hash, --solve, --solve-all, --max-empties, --both-sides and --notation are for --game othello"
	run playout --policy greedy
	assert_failure 2
	assert_line --index 0 "playout: --policy, --variant, --playouts, --reward, --level, --width, --endgame, --samples, --exact, --exact-all, --hold, --rounds, --solve-from, --peek, --eager, --up-first, --binary-ends, --per-card, --cascade, --no-cascade, --waits, --no-waits and --deals are for --game calc"
	run playout --samples 5
	assert_failure 2
	run playout --exact 5
	assert_failure 2
	assert_line --index 0 "playout: --policy, --variant, --playouts, --reward, --level, --width, --endgame, --samples, --exact, --exact-all, --hold, --rounds, --solve-from, --peek, --eager, --up-first, --binary-ends, --per-card, --cascade, --no-cascade, --waits, --no-waits and --deals are for --game calc"
	run playout --exact-all 5
	assert_failure 2
	assert_line --index 0 "playout: --policy, --variant, --playouts, --reward, --level, --width, --endgame, --samples, --exact, --exact-all, --hold, --rounds, --solve-from, --peek, --eager, --up-first, --binary-ends, --per-card, --cascade, --no-cascade, --waits, --no-waits and --deals are for --game calc"
	run playout --hold 5
	assert_failure 2
	assert_line --index 0 "playout: --policy, --variant, --playouts, --reward, --level, --width, --endgame, --samples, --exact, --exact-all, --hold, --rounds, --solve-from, --peek, --eager, --up-first, --binary-ends, --per-card, --cascade, --no-cascade, --waits, --no-waits and --deals are for --game calc"
}

@test "a seed of 2^64-1 is written unsigned, for both games" {
	run playout -n 1 --seed 18446744073709551615
	assert_success
	assert_line --index 1 --regexp "^1,18446744073709551615,random,random,black,"
	run playout -g calc -n 1 --seed 18446744073709551615
	assert_success
	assert_line --index 1 --regexp "^1,18446744073709551615,standard,random,"
}

@test "--help and --version into a full device exit 1 with a message" {
	run bash -c "playout --help > /dev/full"
	assert_failure 1
	assert_output "playout: stdout: write error: No space left on device"
	run bash -c "nimtable --help > /dev/full"
	assert_failure 1
	assert_output "nimtable: stdout: write error: No space left on device"
	run bash -c "summarize --version > /dev/full"
	assert_failure 1
	assert_output "summarize: stdout: write error: No space left on device"
}

@test "a run killed by SIGKILL while writing -o leaves nothing behind" {
	mkdir out
	run timeout -s KILL 0.5 playout -n 1000000000 -o out/games.csv
	assert_failure 137
	assert_equal "$(ls -A out | wc -l)" 0
}

@test "calc --deals: each game's deck as a column, which replays the deal" {
	run playout -g calc -n 2 --deals
	assert_success
	assert_output "game,seed,variant,policy,success,rest,steps,deck
1,1,standard,random,0,32,58,KA555AQA796QT26K94785QTKQ797T63J9J8J86J82KT33244
2,1,standard,random,0,37,56,3T7AA9TJ548J9K6KJ55AJQ46T5Q28687QQ892TK347926K73"
	playout -g calc -n 20 --deals --policy greedy --moves -o games.csv
	cut -d, -f8 games.csv > decks.csv
	run bash -c "playout -g calc --policy greedy --moves decks.csv | cut -d, -f7- | tail -n +2"
	assert_output "$(cut -d, -f6-7,9 games.csv | tail -n +2)"
	run bash -c "playout -g calc -n 1 --deals --variant no-foundations | tail -1 | cut -d, -f8 | tr -d '\n' | wc -c"
	assert_output 52
}

@test "--notation compact and upper: moves as other programs write them" {
	playout -n 20 --moves -q > spaced.csv
	run bash -c "playout -n 20 --moves --notation compact -q | cut -d, -f11"
	assert_output "$(cut -d, -f11 spaced.csv | tr -d ' ')"
	run bash -c "playout -n 20 --moves --notation upper -q | cut -d, -f6,11"
	assert_output "$(cut -d, -f6,11 spaced.csv | tail -n +2 | tr a-z A-Z | sed '1i first_move,moves')"
	run bash -c "playout -n 20 --moves --notation compact,upper -q | cut -d, -f11 | tail -n +2"
	assert_output "$(cut -d, -f11 spaced.csv | tail -n +2 | tr -d ' ' | tr a-z A-Z)"
	# What it writes, playout reads back.
	run bash -c "playout -n 20 --moves --notation compact,upper -q | cut -d, -f11 | playout -n 2 -q - | cut -d, -f1,8-"
	assert_output "$(cut -d, -f11 spaced.csv | playout -n 2 -q - | cut -d, -f1,8-)"
	run playout -n 1 --notation compact
	assert_failure 2
	assert_line --index 0 "playout: --notation compact is for the moves column: add --moves"
	run playout -n 1 --notation bad
	assert_failure 2
	assert_line --index 0 "playout: invalid --notation 'bad': expected one of compact, upper"
}
