#!/usr/bin/env bats
# nimtable: position tables, closed forms, counts, advice, octal games.

load test_helper/common

@test "normal Nim, 2 heaps up to 2: outcome, Grundy, remoteness, move" {
	run nimtable --heaps 2 --max 2
	assert_success
	assert_output "h1,h2,outcome,grundy,remoteness,move
0,0,P,0,0,
1,0,N,1,1,0 0
2,0,N,2,1,0 0
0,1,N,1,1,0 0
1,1,P,0,2,
2,1,N,3,3,1 1
0,2,N,2,1,0 0
1,2,N,3,3,1 1
2,2,P,0,4,"
}

@test "the seed's misere table: 3 heaps up to 10 have 91 P positions" {
	run bash -c "nimtable --misere --p-only | tail -n +2 | wc -l"
	assert_output "91"
	run nimtable --misere --p-only
	assert_line --index 0 "h1,h2,h3"
	assert_line --index 1 "1,0,0"
	assert_line --index 3 "2,2,0"
	assert_line "1,1,1"
	refute_line "0,0,0"
	run nimtable --misere --count
	assert_output "outcome,count
P,91
N,1240"
}

@test "misere: the empty position is won by the player to move; Grundy is empty" {
	run nimtable --misere --max 1 --heaps 2
	assert_output "h1,h2,outcome,grundy,remoteness,move
0,0,N,,0,
1,0,P,,1,
0,1,P,,1,
1,1,N,,2,0 1"
}

@test "Bouton: P exactly where the nim-sum (the Grundy value) is 0" {
	nimtable --max 7 > t.csv
	bad=0
	while IFS=, read -r a b c outcome grundy rem move; do
		[ "$((a ^ b ^ c))" = "$grundy" ] || bad=$((bad + 1))
		[ "$grundy" = 0 ] && [ "$outcome" != P ] && bad=$((bad + 1))
		[ "$grundy" != 0 ] && [ "$outcome" != N ] && bad=$((bad + 1))
	done < <(tail -n +2 t.csv)
	assert_equal "$bad" 0
	assert_equal "$(wc -l < t.csv)" 513
}

@test "unequal bounds with --sizes" {
	run bash -c "nimtable --sizes 10,7,5 | tail -n +2 | wc -l"
	assert_output "528"
	run bash -c "nimtable --sizes 10,7,5 | tail -1"
	assert_output "10,7,5,N,8,15,2 7 5"
}

@test "Wythoff P positions: the Beatty pairs and their swaps; misere differs at six" {
	run nimtable wythoff --p-only --max 10
	assert_output "h1,h2
0,0
2,1
1,2
5,3
7,4
3,5
10,6
4,7
6,10"
	run nimtable wythoff --misere --p-only --max 5
	assert_output "h1,h2
1,0
0,1
2,2
5,3
3,5"
	run bash -c "nimtable wythoff --misere --max 40 | awk -F, '\$3 == \"P\"' | cut -d, -f1,2 | sort"
	expected=$(nimtable wythoff --misere --p-only --max 40 | tail -n +2 | sort)
	assert_equal "$output" "$expected"
	# k = 0..3820 have b_k <= 10000 (b_3820 = 10000): 1 + 2 * 3820 positions.
	run bash -c "nimtable wythoff --p-only --max 10000 | tail -n +2 | wc -l"
	assert_output "7641"
}

@test "subtraction game: P exactly at multiples of 4 for {1,2,3}" {
	run nimtable subtract:1,2,3 --heaps 1 --max 8
	assert_output "h1,outcome,grundy,remoteness,move
0,P,0,0,
1,N,1,1,0
2,N,2,1,0
3,N,3,1,0
4,P,0,2,
5,N,1,3,4
6,N,2,3,4
7,N,3,3,4
8,P,0,4,"
}

@test "octal games: Kayles and Dawson's Kayles with their periods" {
	run --separate-stderr nimtable octal:0.77 --max 200
	assert_success
	assert_line --index 1 "0,P,0,,"
	assert_line --index 4 "3,N,3,,1+1"
	assert_line --index 71 "70,N,6,,1+68"
	assert_equal "$stderr" "nimtable: remoteness left empty: it needs the game on sets of heaps, tabled up to heap 48
nimtable: period 12 from heap 71 on (pre-period 71)"
	run --separate-stderr nimtable octal:0.07 --max 300
	assert_line --index 1 "0,P,0,,"
	assert_equal "$(tail -1 <<<"$stderr")" "nimtable: period 34 from heap 53 on (pre-period 53)"
}

@test "octal games on sets of heaps: remoteness, and misere play" {
	run --separate-stderr nimtable octal:0.77 --max 12
	assert_line --index 4 "3,N,3,3,1+1"
	assert_line --index 13 "12,N,4,11,5+5"
	run nimtable octal:0.77 --max 12 --misere
	assert_output "h1,outcome,grundy,remoteness,move
0,N,,0,
1,P,,1,
2,N,,2,1
3,N,,2,1
4,P,,3,
5,N,,4,4
6,N,,4,4
7,N,,6,1+5
8,N,,6,1+5
9,P,,7,
10,N,,8,9
11,N,,8,9
12,P,,9,"
	# Misere Nim written as an octal game (take 1..10 leaving 0 or 1 heaps):
	# Bouton's misere rule puts the only P heap at 1.
	run bash -c "nimtable octal:0.3333333333 --misere --max 10 | awk -F, '\$2 == \"P\" { print \$1 }'"
	assert_output "1"
	run nimtable octal:0.77 --max 60 --misere
	assert_failure 1
	assert_output "nimtable: misere play needs the game on sets of heaps, tabled up to heap 48; use a smaller --max"
}

@test "--advise: winning moves from N, small takes from P, tables or lines" {
	printf '1 2 3\n3 4 5\n1 1 0\n' > pos.txt
	run nimtable --advise pos.txt
	assert_success
	assert_output "h1,h2,h3,outcome,move
1,2,3,P,1 2 1
3,4,5,N,1 4 5
1,1,0,P,0 1 0"
	printf 'h1,h2,h3\n1,2,3\n2,2,1\n' | nimtable --advise --misere > adv.csv
	run cat adv.csv
	assert_line --index 2 "2,2,1,N,2 2 0"
	run bash -c "printf '2 3\n' | nimtable wythoff --advise"
	assert_output "h1,h2,outcome,move
2,3,N,2 1"
	run bash -c "printf '0 0 0\n' | nimtable --advise"
	assert_output "h1,h2,h3,outcome,move
0,0,0,P,"
}

@test "--advise for octal games: the nim-sum of the heaps' Grundy values" {
	run bash -c "printf '3 4\n1 1\n7\n' | nimtable octal:0.77 --advise"
	assert_failure 1
	run bash -c "printf '3 4\n1 1\n' | nimtable octal:0.77 --advise"
	assert_success
	# Kayles: G(3) ^ G(4) = 3 ^ 1 = 2, so a move must leave a position of
	# nim-sum 0; advising on the result must find a P position.
	assert_line --index 0 "h1,h2,outcome,move"
	assert_line --index 2 "1,1,P,0 1"
	run bash -c "printf '3 4\n' | nimtable octal:0.77 --advise | tail -1 | cut -d, -f4"
	move=$output
	run bash -c "printf '%s\n' '$move' | tr '+' ' ' | nimtable octal:0.77 --advise | tail -1 | cut -d, -f$(( $(wc -w <<<"$move") + 1 ))"
	assert_output "P"
	run bash -c "printf '3\n' | nimtable octal:0.77 --advise --misere"
	assert_failure 2
}

@test "--advise: the random take follows --seed" {
	printf '4 4\n' > p.txt
	a=$(nimtable --advise --seed 1 p.txt)
	b=$(nimtable --advise --seed 1 p.txt)
	assert_equal "$a" "$b"
	for s in 1 2 3 4 5 6 7 8; do nimtable --advise --seed "$s" p.txt | tail -1; done | sort -u > takes.txt
	run cat takes.txt
	assert_output --partial "4,4,P,"
	[ "$(wc -l < takes.txt)" -ge 2 ]
}

@test "--advise errors name the line" {
	printf '1 2 3\n1 2\n' > bad.txt
	run nimtable --advise bad.txt
	assert_failure 1
	assert_output "nimtable: bad.txt:2: expected 3 heaps, found 2"
	printf '1 x 3\n' > bad2.txt
	run nimtable --advise bad2.txt
	assert_output "nimtable: bad2.txt:1: 'x' is not a heap size from 0 to 1000000000"
	printf '1 -2 3\n' > bad3.txt
	run nimtable --advise bad3.txt
	assert_output "nimtable: bad3.txt:1: '-2' is not a heap size from 0 to 1000000000"
	printf '1 2 3\n' > three.txt
	run nimtable wythoff --advise three.txt
	assert_output "nimtable: three.txt:1: wythoff positions have 2 heaps, not 3"
}

@test "game and size errors" {
	run nimtable chess
	assert_failure 2
	assert_line --index 0 "nimtable: invalid game 'chess': expected nim, wythoff, subtract:S or octal:CODE"
	run nimtable subtract:1,,2
	assert_failure 2
	assert_line --index 0 "nimtable: invalid game 'subtract:1,,2': expected subtract:K,K,... with positive integers"
	run nimtable subtract:0
	assert_line --index 0 "nimtable: invalid game 'subtract:0': expected subtract:K,K,... with integers from 1 to 1000000"
	run nimtable octal:0.78
	assert_line --index 0 "nimtable: invalid game 'octal:0.78': expected octal:0.DDD with at most 32 octal digits 0-7"
	run nimtable --heaps 0
	assert_line --index 0 "nimtable: invalid --heaps '0': expected an integer from 1 to 16"
	run nimtable --max 99999999999
	assert_line --index 0 "nimtable: invalid --max '99999999999': expected an integer from 0 to 1000000000"
	run nimtable wythoff --heaps 3
	assert_line --index 0 "nimtable: wythoff is played on 2 heaps, not 3"
	run nimtable --max-memory lots
	assert_line --index 0 "nimtable: invalid --max-memory 'lots': expected a size such as 512M or 4G"
	run nimtable --p-only --count
	assert_failure 2
}

@test "a table beyond --max-memory is refused before allocating" {
	run nimtable --max 100000
	assert_failure 1
	assert_output "nimtable: the table needs 8.0 PiB, more than --max-memory (4.0 GiB); use --count or --p-only, or smaller heaps"
	run nimtable --max 300 --max-memory 100M
	assert_failure 1
	run nimtable --max 300 --count
	assert_output "outcome,count
P,71611
N,27199290"
}

@test "--help and --version" {
	run nimtable --help
	assert_success
	for opt in --heaps --max --sizes --misere --p-only --count --advise --seed --max-memory --output --tsv --gzip --bom; do
		assert_output --partial -- "$opt"
	done
	run nimtable --version
	assert_output "nimtable (yomi) 0.1.0"
}

@test "counts without tables: Nim by bits, Wythoff by the pairs, octal by the period" {
	run nimtable --count --max 100000 --max-memory 1M
	assert_success
	assert_output "outcome,count
P,7858475971
N,1000022141824030"
	run nimtable --count --sizes 131071,131071,131071 --misere
	assert_line --index 1 "P,17179869184"
	run nimtable wythoff --count --max 1000000000 --max-memory 1M
	assert_line --index 1 "P,763932023"
	run nimtable octal:0.07 --count --max 20
	assert_output "outcome,count
P,5
N,16"
	run --separate-stderr nimtable octal:0.07 --p-only --max 20
	assert_equal "$stderr" "nimtable: no period found up to heap 20"
	assert_output "h1
0
1
5
9
15"
}

@test "P positions stream without a table, in table order" {
	for m in "" --misere; do
		a=$(nimtable $m --p-only --sizes 7,5,6 | tail -n +2)
		b=$(nimtable $m --sizes 7,5,6 | awk -F, '$4 == "P" { print $1 "," $2 "," $3 }')
		assert_equal "$a" "$b"
		a=$(nimtable wythoff $m --p-only --sizes 50,30 | tail -n +2)
		b=$(nimtable wythoff $m --sizes 50,30 | awk -F, '$3 == "P" { print $1 "," $2 }')
		assert_equal "$a" "$b"
	done
	run bash -c "nimtable wythoff --p-only --max 1000000000 --max-memory 1M 2>/dev/null | head -4"
	assert_output "h1,h2
0,0
2,1
1,2"
}

@test "huge heaps: advice and octal tables need no table, and long runs say so first" {
	run bash -c "echo '99999993 4' | nimtable wythoff --advise --max-memory 1M"
	assert_success
	assert_output "h1,h2,outcome,move
99999993,4,N,7 4"
	run bash -c "echo 99999 | nimtable octal:0.77 --advise --max-memory 1M"
	assert_output "h1,outcome,move
99999,N,1+99997"
	run bash -c "nimtable octal:0.77 --max 1000000000 --max-memory 1M 2>&1 | head -4"
	assert_output "nimtable: the table: this takes 3 minutes or more
h1,outcome,grundy,remoteness,move
0,P,0,,
1,N,1,,0"
	run nimtable octal:0.6 --max 1000000 --max-memory 100K
	assert_failure 1
	assert_output "nimtable: the Grundy values up to heap 32640 need more than --max-memory"
	run bash -c "nimtable --p-only --max 1000000 2>&1 | head -1"
	assert_output "nimtable: the P positions: this takes 3179 minutes or more"
}
