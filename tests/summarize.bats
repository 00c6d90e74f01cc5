#!/usr/bin/env bats
# summarize: every operation with exact output, intervals against R,
# partials and merging, crosstab, missing values, input forms, errors.

load test_helper/common

G="$BATS_TEST_DIRNAME/fixtures/games.csv"

@test "numeric operations by group, with _na counts for skipped cells" {
	run summarize -g first_move count mean:black sd:black min:plies max:plies sum:white "$G"
	assert_success
	assert_output "first_move,count,mean_black,black_na,sd_black,min_plies,plies_na,max_plies,sum_white,white_na
d3,3,36,1,5.656854249492381,60,0,60,56,1
c4,2,35,0,21.213203435596427,60,1,60,58,0
f5,1,35,0,NA,58,0,58,29,0"
}

@test "whole-table operations: median, quantile (R type 7), mode, distinct, first, last, var" {
	run summarize count median:plies q:0.1:black q:0.9:black mode:winner distinct:winner first:note last:note var:black "$G"
	assert_success
	assert_output "count,median_plies,plies_na,q0.1_black,black_na,q0.9_black,mode_winner,distinct_winner,first_note,last_note,var_black
6,60,1,24.799999999999997,1,46,black,3,plain,ok,120.8"
}

@test "rate and score: Wilson intervals and the Elo difference" {
	run summarize -g first_move rate:winner=black score:winner=black/draw "$G"
	assert_success
	assert_output "first_move,rate_winner_black,rate_winner_black_lo,rate_winner_black_hi,score_winner,score_winner_lo,score_winner_hi,elo_winner
d3,0.3333333333333333,0.06149194472039632,0.7923403991979523,0.5,0.1253344719102632,0.8746655280897369,0
c4,0.5,0.09453120573423074,0.9054687942657693,0.5,0.09453120573423074,0.9054687942657693,0
f5,1,0.20654931437723745,1,1,0.20654931437723745,1,Inf"
}

@test "Wilson interval: 7 of 10 is 0.3967781 to 0.8922087; 0 of n clamps to 0" {
	printf 'w\n1\n1\n1\n1\n1\n1\n1\n0\n0\n0\n' > ten.csv
	run summarize rate:w=1 ten.csv
	assert_output "rate_w_1,rate_w_1_lo,rate_w_1_hi
0.7,0.39677814746114537,0.8922087325936989"
	run summarize rate:w=2 ten.csv
	assert_output "rate_w_2,rate_w_2_lo,rate_w_2_hi
0,0,0.27753279986288915"
	run summarize --level 0.9 rate:w=1 ten.csv
	assert_line --index 1 --regexp '^0\.7,0\.4[0-9]*,0\.8[0-9]*$'
}

@test "intervals, quantiles and sd agree with R" {
	command -v Rscript > /dev/null || skip "R is not installed (make deps installs it)"
	awk 'BEGIN { srand(7); print "g,w,x"; for (i = 0; i < 500; i++) printf "%d,%d,%.3f\n", i % 7, rand() < 0.3, rand() * 100 }' > r.csv
	summarize --sort -g g rate:w=1 q:0.37:x sd:x -o ours.csv r.csv
	cat > check.R <<'RSCRIPT'
		d <- read.csv("r.csv"); o <- read.csv("ours.csv")
		for (g in o$g) {
			s <- d[d$g == g, ]
			ci <- prop.test(sum(s$w == 1), nrow(s), correct = FALSE)$conf.int
			r <- o[o$g == g, ]
			stopifnot(abs(r$rate_w_1_lo - ci[1]) < 1e-12, abs(r$rate_w_1_hi - ci[2]) < 1e-12,
			          abs(r$q0.37_x - quantile(s$x, 0.37)) < 1e-12, abs(r$sd_x - sd(s$x)) < 1e-12)
		}
		cat("agree\n")
RSCRIPT
	run Rscript check.R
	assert_success
	assert_output --partial agree
}

@test "--sort orders keys, numbers numerically" {
	printf 'k,v\n10,1\n9,1\nb,1\na,1\n10,1\n' > k.csv
	run summarize -g k count k.csv
	assert_output "k,count
10,2
9,1
b,1
a,1"
	run summarize --sort -g k count k.csv
	assert_output "k,count
9,1
10,2
a,1
b,1"
}

@test "several group columns; quoted keys with commas and newlines" {
	run summarize -g first_move,note count "$G"
	assert_success
	assert_line --index 2 'c4,"has, comma",1'
	assert_output --partial '"two
lines"'
}

@test "crosstab lays one operation out as a grid" {
	# A count over no rows is 0; other operations of no rows are empty.
	run summarize --crosstab first_move,winner count "$G"
	assert_output "first_move,black,white,draw
d3,1,1,1
c4,1,1,0
f5,1,0,0"
	run summarize --sort --crosstab winner,first_move rate:plies=60 "$G"
	assert_output "winner,c4,d3,f5
black,NA,1,0
draw,,1,
white,1,1,"
}

@test "--partial and --merge equal one run over all the data" {
	awk 'BEGIN { srand(3); print "g,w,x,t"; for (i = 0; i < 3000; i++) printf "%s,%d,%.2f,t%d\n", substr("abcde", i % 5 + 1, 1), rand() < 0.4, rand() * 50 - 10, i }' > all.csv
	ops="count sum:x mean:x sd:x var:x min:x max:x rate:w=1 score:w=1/0 first:t last:t"
	summarize -g g $ops all.csv > whole.csv
	head -1001 all.csv > p1.csv
	{ head -1 all.csv; sed -n 1002,2200p all.csv; } > p2.csv
	{ head -1 all.csv; sed -n 2201,3001p all.csv; } > p3.csv
	for p in p1 p2 p3; do summarize --partial -g g $ops $p.csv > $p.part; done
	run bash -c "summarize --merge p1.part p2.part p3.part | cmp - whole.csv"
	assert_success
	# Partials merge into partials, too.
	summarize --merge --partial p1.part p2.part > p12.part
	run bash -c "summarize --merge p12.part p3.part | cmp - whole.csv"
	assert_success
}

@test "--partial refuses what cannot merge exactly" {
	run summarize --partial median:x "$G"
	assert_failure 2
	assert_line --index 0 "summarize: median:x cannot be merged exactly, so --partial refuses it (mergeable: count, sum, mean, min, max, sd, var, rate, score, first, last)"
}

@test "--merge: mixed or malformed partials are errors" {
	summarize --partial -g first_move count "$G" > a.part
	summarize --partial -g first_move count mean:plies "$G" > b.part
	run summarize --merge a.part b.part
	assert_failure 1
	assert_output "summarize: b.part:1: this partial was made with other groups or operations than a.part"
	printf 'first_move,count#n\nd3,x\n' > bad.part
	run summarize --merge bad.part
	assert_output "summarize: bad.part:2: column 'count#n': 'x' is not a count"
	run summarize --merge "$G"
	assert_output "summarize: $G:1: not a partial table: no OPERATION#FIELD columns"
	run summarize --merge -g x a.part
	assert_failure 2
}

@test "a numeric operation on text names file, line and column" {
	run summarize mean:winner "$G"
	assert_failure 1
	assert_output "summarize: $G:2: column 'winner': 'black' is not a number"
}

@test "unknown columns and operations" {
	run summarize mean:nope "$G"
	assert_failure 1
	assert_output "summarize: $G:1: missing column 'nope'"
	run summarize avg:plies "$G"
	assert_failure 2
	assert_line --index 0 "summarize: unknown operation 'avg' in 'avg:plies'"
	run summarize q:2:plies "$G"
	assert_failure 2
	assert_line --index 0 "summarize: invalid operation 'q:2:plies': expected q:P:COLUMN with P from 0 to 1"
	run summarize rate:winner "$G"
	assert_failure 2
	assert_line --index 0 "summarize: invalid operation 'rate:winner': expected rate:COLUMN=VALUE"
	run summarize "$G" mean:plies
	assert_failure 2
	assert_line --index 0 "summarize: operation 'mean:plies' after a file: operations come first"
	run summarize --crosstab a "$G"
	assert_failure 2
	assert_line --index 0 "summarize: --crosstab needs two columns, ROW,COL"
	run summarize --level 1 count "$G"
	assert_failure 2
}

@test "ragged rows are errors" {
	printf 'a,b\n1,2\n3\n' > r.csv
	run summarize r.csv
	assert_failure 1
	assert_output "summarize: r.csv:3: expected 2 fields, found 1"
}

@test "an empty table gives one row of empty aggregates" {
	printf 'x\n' > e.csv
	run summarize count mean:x sum:x e.csv
	assert_output "count,mean_x,sum_x
0,NA,0"
}

@test "gzip, TSV and BOM input; TSV output; stdin" {
	gzip -c "$G" > g.csv.gz
	run summarize -g winner count g.csv.gz
	assert_line --index 1 "black,3"
	printf '\xef\xbb\xbfa\tb\nx\t1\nx\t2\n' > t.tsv
	run summarize -t -g a mean:b t.tsv
	assert_output "a	mean_b
x	1.5"
	run bash -c "cat '$G' | summarize count"
	assert_output "count
6"
}

@test "decimal sums are exact" {
	printf 'x\n0.1\n0.2\n0.3\n-0.05\n' > d.csv
	run summarize sum:x mean:x d.csv
	assert_output "sum_x,mean_x
0.55,0.1375"
}

@test "numbers in exponent form are summed exactly when their value is a whole count of 1e-6" {
	printf 'x\n1e-3\n2.5E2\n-3.25e+1\n0.0000015e1\n' > e.csv
	run summarize sum:x mean:x e.csv
	assert_success
	assert_output "sum_x,mean_x
217.501015,54.37525375"
	run summarize --partial sum:x e.csv
	assert_output "sum:x#n,sum:x#na,sum:x#sum,sum:x#sumlo,sum:x#sumsq,sum:x#m2,sum:x#min,sum:x#max,sum:x#exact
4,0,217.501015,,63556.250001000225,,-32.5,250,1"
	# 1e-7 is no whole count of 1e-6: the sum is a double, marked inexact.
	printf 'x\n1e-7\n' > f.csv
	run summarize --partial sum:x f.csv
	assert_output "sum:x#n,sum:x#na,sum:x#sum,sum:x#sumlo,sum:x#sumsq,sum:x#m2,sum:x#min,sum:x#max,sum:x#exact
1,0,1e-07,0,,0,1e-07,1e-07,0"
	# Shards merge into exactly the sum of one run.
	printf 'x\n1e-3\n2.5E2\n' > s1.csv
	printf 'x\n-3.25e+1\n0.0000015e1\n' > s2.csv
	summarize --partial sum:x mean:x s1.csv > p1.csv
	summarize --partial sum:x mean:x s2.csv > p2.csv
	run summarize --merge p1.csv p2.csv
	assert_output "sum_x,mean_x
217.501015,54.37525375"
	run summarize sum:x <(printf 'x\n1e\n')
	assert_failure 1
	assert_output --partial ":2: column 'x': '1e' is not a number"
}

@test "every output column name is unique: a repeated one gets _2, _3" {
	printf 'p,w,mean_x,x\na,1,5,1\na,2,6,\nb,1,7,3\n' > u.csv
	run summarize -g p,mean_x score:w=1/2 score:w=2/1 mean:x u.csv
	assert_success
	assert_output "p,mean_x,score_w,score_w_lo,score_w_hi,elo_w,score_w_2,score_w_lo_2,score_w_hi_2,elo_w_2,mean_x_2,x_na
a,5,1,0.20654931437723745,1,Inf,0.5,0.05462075552885198,0.945379244471148,0,1,0
a,6,0.5,0.05462075552885198,0.945379244471148,0,1,0.20654931437723745,1,Inf,NA,1
b,7,1,0.20654931437723745,1,Inf,0.5,0.05462075552885198,0.945379244471148,0,3,0"
	printf 'r,c\nx,r\nx,r_2\n' > c.csv
	run summarize --crosstab r,c count c.csv
	assert_output "r,r_2,r_2_2
x,1,1"
	run summarize mean:x mean:x u.csv
	assert_failure 2
	assert_line --index 0 "summarize: operation 'mean:x' given twice"
}

@test "--round N: N decimals for people; full precision by default" {
	printf 'p,w,x\na,1,0.126\na,0,1e-3\nb,1,2\nb,1,-0.0001\n' > r.csv
	run summarize --round 2 -g p count sum:x mean:x rate:w=1 r.csv
	assert_success
	assert_output "p,count,sum_x,mean_x,rate_w_1,rate_w_1_lo,rate_w_1_hi
a,2,0.13,0.06,0.50,0.09,0.91
b,2,2.00,1.00,1.00,0.34,1.00"
	run summarize --round 0 sum:x min:x r.csv
	assert_output "sum_x,min_x
2,0"
	run summarize --round 16 r.csv
	assert_failure 2
	assert_line --index 0 "summarize: invalid --round '16': expected an integer from 0 to 15"
	run summarize --round 2 --partial count r.csv
	assert_failure 2
	assert_line --index 0 "summarize: --round and --partial exclude each other: a partial keeps every digit"
}

@test "--delimiter C reads semicolon (or any one-character) separated tables" {
	printf 'p;w;note\na;1;"x;y"\na;0;z\nb;1;z\n' > semi.csv
	run summarize --delimiter ';' -g p count mean:w first:note semi.csv
	assert_success
	assert_output "p,count,mean_w,first_note
a,2,0.5,x;y
b,1,1,z"
	# Without it, the header has neither a comma nor a tab: one column.
	run summarize -g p count semi.csv
	assert_failure 1
	assert_output "summarize: semi.csv:1: missing column 'p'"
	printf 'a\tb\n1\t2\n' > t.tsv
	run summarize --delimiter tab sum:b t.tsv
	assert_output "sum_b
2"
	summarize --delimiter ';' --partial -g p count semi.csv > part.csv
	run summarize --merge part.csv
	assert_output "p,count
a,2
b,1"
	run summarize --delimiter ';;' semi.csv
	assert_failure 2
	assert_line --index 0 "summarize: invalid --delimiter ';;': expected one character other than a quote or a line end, or tab"
}

@test "--compare KEY: each rate's and score's difference from group KEY's, Newcombe's interval" {
	# Newcombe (1998), example (a): 56/70 - 48/80 = 0.2, method 10 gives
	# 0.0524 to 0.3339.
	{ echo g,w; for i in $(seq 70); do echo "a,$((i <= 56))"; done
	  for i in $(seq 80); do echo "b,$((i <= 48))"; done; } > n.csv
	run summarize -g g --compare b --round 4 rate:w=1 n.csv
	assert_success
	assert_output "g,rate_w_1,rate_w_1_lo,rate_w_1_hi,diff_rate_w_1,diff_rate_w_1_lo,diff_rate_w_1_hi
a,0.8000,0.6918,0.8770,0.2000,0.0524,0.3339
b,0.6000,0.4905,0.7004,NA,NA,NA"
	printf 'p,w\na,1\na,0\na,1\nb,0\nb,0\nb,2\nb,1\n' > c.csv
	run summarize -g p --compare a count score:w=1/2 c.csv
	assert_output "p,count,score_w,score_w_lo,score_w_hi,elo_w,diff_score_w,diff_score_w_lo,diff_score_w_hi
a,3,0.6666666666666666,0.20765960080204782,0.9385080552796038,120.41199826559247,NA,NA,NA
b,4,0.375,0.09189922917901217,0.7805734799346371,-88.73949984654253,-0.29166666666666663,-0.6841507899155534,0.3208505446343204"
	run summarize -g p --compare z rate:w=1 c.csv
	assert_failure 1
	assert_output "summarize: --compare: no group 'z' in column 'p'"
	run summarize --compare a rate:w=1 c.csv
	assert_failure 2
	assert_line --index 0 "summarize: --compare needs exactly one group column (-g COL)"
	run summarize --compare a --partial -g p rate:w=1 c.csv
	assert_failure 2
	assert_line --index 0 "summarize: --compare excludes --crosstab and --partial"
}

@test "usage, help and version" {
	run summarize --help
	assert_success
	for opt in --group --sort --level --crosstab --compare --partial --merge --round --delimiter --output --tsv --gzip --bom --help --version; do
		assert_output --partial -- "$opt"
	done
	run summarize --version
	assert_output "summarize (yomi) 0.1.0"
	run summarize --no-such-option
	assert_failure 2
}

@test "group keys cannot run into each other, whatever bytes they hold" {
	printf 'a,b\n"x\037y",z\nx,"y\037z"\nx,"y\037z"\n' > k.csv
	run summarize -g a,b count k.csv
	assert_success
	assert_output "$(printf 'a,b,count\nx\037y,z,1\nx,y\037z,2')"
}

@test "--sort is a total order: numbers by value, then text by bytes, whatever the input order" {
	printf 'k\n10\n9\n1a\nNA\n-2.5\n""\n9.0\n' > a.csv
	printf 'k\n1a\n9.0\n""\n10\nNA\n9\n-2.5\n' > b.csv
	run summarize --sort -g k count a.csv
	assert_output "k,count
-2.5,1
9,1
9.0,1
10,1
,1
1a,1
NA,1"
	assert_equal "$(summarize --sort -g k count b.csv)" "$output"
}

@test "partials: Inf sums merge, impossible states and overflowing counts are refused" {
	printf 'g,x\n1,1e200\n1,2e200\n2,3\n' > inf.csv
	summarize --partial -g g mean:x sd:x inf.csv > inf.part
	run bash -c "summarize --merge inf.part | cmp - <(summarize -g g mean:x sd:x inf.csv)"
	assert_success
	printf 'count#n\n9223372036854775807\n' > big.part
	run summarize --merge big.part big.part
	assert_failure 1
	assert_output "summarize: big.part:2: column 'count#n': the merged count passes 2^63 - 1"
	printf 'g,rate:w=1#n,rate:w=1#k\na,3,4\n' > k.part
	run summarize --merge k.part
	assert_failure 1
	assert_output "summarize: k.part:2: column 'rate:w=1#k': 4 counted in 3 rows"
	printf 'mean:x#n,mean:x#na,mean:x#sum,mean:x#sumlo,mean:x#sumsq,mean:x#m2,mean:x#min,mean:x#max,mean:x#exact\n2,0,3,,5,,2,1,1\n' > mm.part
	run summarize --merge mm.part
	assert_failure 1
	assert_output "summarize: mm.part:2: column 'mean:x#min': the minimum is above the maximum"
}

# The sd of the FILEs merged from a partial of each.
merged_sd() {
	for f; do summarize --partial sd:x "$f" > "$f.part" || return; done
	summarize --merge "${@/%/.part}"
}

# shard_partials FILE OP N: OP's partials of FILE's first N rows (s1.part)
# and of the rest (s2.part), each shard with FILE's header.
shard_partials() {
	head -"$(($3 + 1))" "$1" > s1.csv
	{ head -1 "$1"; tail -n +"$(($3 + 2))" "$1"; } > s2.csv
	summarize --partial "$2" s1.csv > s1.part && summarize --partial "$2" s2.csv > s2.part
}

@test "sd and var keep their digits when the mean dwarfs the spread, merged too" {
	# More than six decimals: inexact, so summed in doubles. The squares of
	# the values (1.1e9) would cancel the spread (1e-14) away: sd 0 before.
	# 1.00000761449337e-07 is the exact sd of the three doubles read.
	printf 'x\n33333.0000001234\n33333.0000002234\n33333.0000003234\n' > sp.csv
	run summarize mean:x sd:x var:x sp.csv
	assert_success
	assert_output "mean_x,sd_x,var_x
33333.0000002234,1.00000761449337e-07,1.0000152290447206e-14"
	shard_partials sp.csv sd:x 1
	run cat s2.part
	assert_output "sd:x#n,sd:x#na,sd:x#sum,sd:x#sumlo,sd:x#sumsq,sd:x#m2,sd:x#min,sd:x#max,sd:x#exact
2,0,66666.0000005468,0,,5.000076145223603e-15,33333.0000002234,33333.0000003234,0"
	run summarize --merge s1.part s2.part
	assert_success
	assert_output "sd_x
1.00000761449337e-07"
	# A first value far from the rest: the spread and the mean as well
	# (the exact figures of these doubles: 1000.1233332433,
	# 31622.77269764015).
	{ echo x; echo 1000000; yes 0.1234567 | head -999; } > o.csv
	run summarize mean:x sum:x sd:x o.csv
	assert_output "mean_x,sum_x,sd_x
1000.1233332433,1000123.3332433,31622.77269764013"
	# An exact shard merged with an inexact one keeps the exact one's spread
	# (the true sd 0.00028867499055813714; each shard alone is fine).
	awk 'BEGIN { print "x"; for (i = 1; i <= 1000; i++) printf "999999999.%06d\n", i }' > ex.csv
	printf 'x\n999999999.0005001\n' > in.csv
	run merged_sd ex.csv in.csv
	assert_output "sd_x
0.00028867499055817086"
	# Shards whose mean is 1e15: the sum's lost low part goes with it (without
	# it the merge was 3.5% off), and equal values merge to no spread.
	printf 'x\n1000000000000000.125\n1000000000000000.5\n1000000000000000.875\n' > c1.csv
	printf 'x\n1000000000000000.25\n1000000000000001.375\n1000000000000000.625\n' > c2.csv
	run merged_sd c1.csv c2.csv
	assert_output "sd_x
0.45414755311462374"
	printf 'x\n0.1234567\n0.1234567\n0.1234567\n' > d1.csv
	printf 'x\n0.1234567\n' > d2.csv
	run merged_sd d1.csv d2.csv
	assert_output "sd_x
0"
	# Exact sums whose n S2 passes 128 bits: the spread still exact, and the
	# same on two threads (their parts' sums would overflow together).
	awk 'BEGIN { print "x"; for (i = 0; i < 10; i++) print "1000000000000.25\n1000000000000.75" }' > r20.csv
	run summarize sd:x r20.csv
	assert_output "sd_x
0.2564945880212885"
	printf 'x\n9000000000000.5\n9000000000000.25\n9000000000000.75\n9000000000001\n' > j.csv
	run summarize -j 2 sd:x j.csv
	assert_output "sd_x
0.3227486121839514"
	# A spread whose square of the means' difference alone would overflow.
	printf 'x\n7e153\n' > a1.csv
	printf 'x\n-7e153\n' > a2.csv
	run merged_sd a1.csv a2.csv
	assert_output "sd_x
9.899494936611666e+153"
	# Squares past the double range: Inf, as R's var gives, not NA.
	printf 'x\n1e200\n2e200\n' > huge.csv
	run summarize sd:x var:x huge.csv
	assert_output "sd_x,var_x
Inf,Inf"
}

@test "sums past the double range: 1e308 + 1e308 - 1e308 is 1e308, split or not" {
	# R's sum and mean give 1e+308 and 3.333333333333333e+307 too; its sd
	# gives Inf, the squared deviations being past the range, and 0 for
	# 1e-300 and 2e-300, whose squared deviations are below it.
	printf 'x\n1e308\n1e308\n-1e308\n' > big.csv
	run summarize sum:x mean:x sd:x big.csv
	assert_success
	assert_output "sum_x,mean_x,sd_x
1e+308,3.333333333333333e+307,Inf"
	printf 'x\n1e-300\n2e-300\n' > tiny.csv
	run summarize sum:x mean:x sd:x tiny.csv
	assert_output "sum_x,mean_x,sd_x
3e-300,1.5e-300,0"
	run summarize -j 2 sum:x mean:x big.csv
	assert_output "sum_x,mean_x
1e+308,3.333333333333333e+307"
	# A shard's sum past the range: a long double's 21 digits, read back.
	shard_partials big.csv mean:x 2
	run cat s1.part
	assert_output "mean:x#n,mean:x#na,mean:x#sum,mean:x#sumlo,mean:x#sumsq,mean:x#m2,mean:x#min,mean:x#max,mean:x#exact
2,0,2.00000000000000002196e+308,0,,0,1e+308,1e+308,0"
	run summarize --merge s1.part s2.part
	assert_success
	assert_output "mean_x
3.333333333333333e+307"
	# Past what two values could sum to, or past even a long double.
	h=$(head -1 s1.part)
	printf '%s\n2,0,4e308,0,,0,1e+308,1e+308,0\n' "$h" > b3.part
	run summarize --merge b3.part
	assert_failure 1
	assert_output "summarize: b3.part:2: column 'mean:x#sum': a sum whose mean lies outside the minimum and the maximum"
	printf '%s\n2,0,1e99999,0,,0,1e+308,1e+308,0\n' "$h" > b4.part
	run summarize --merge b4.part
	assert_failure 1
	assert_output "summarize: b4.part:2: column 'mean:x#sum': '1e99999' is not a number"
}

@test "a partial's state must be one mode's: exact sums or an inexact spread" {
	h='mean:x#n,mean:x#na,mean:x#sum,mean:x#sumlo,mean:x#sumsq,mean:x#m2,mean:x#min,mean:x#max,mean:x#exact'
	printf '%s\n2,0,3,,5,1,1,2,1\n' "$h" > e1.part
	run summarize --merge e1.part
	assert_failure 1
	assert_output "summarize: e1.part:2: column 'mean:x#m2': expected NA (empty)"
	printf '%s\n2,0,3,0,5,1,1,2,0\n' "$h" > e2.part
	run summarize --merge e2.part
	assert_failure 1
	assert_output "summarize: e2.part:2: column 'mean:x#sumsq': expected NA (empty)"
	printf '%s\n2,0,3,0,,-1,1,2,0\n' "$h" > e3.part
	run summarize --merge e3.part
	assert_failure 1
	assert_output "summarize: e3.part:2: column 'mean:x#m2': a sum of squares below 0"
	printf '%s\n0,0,3,0,,0,,,0\n' "$h" > e4.part
	run summarize --merge e4.part
	assert_failure 1
	assert_output "summarize: e4.part:2: column 'mean:x#sum': a sum over no values"
	printf '%s\n1,0,3,0,,5,3,3,0\n' "$h" > e5.part
	run summarize --merge e5.part
	assert_failure 1
	assert_output "summarize: e5.part:2: column 'mean:x#m2': a spread of one value"
	printf '%s\n2,0,100,0,,0,1,2,0\n' "$h" > e6.part
	run summarize --merge e6.part
	assert_failure 1
	assert_output "summarize: e6.part:2: column 'mean:x#sum': a sum whose mean lies outside the minimum and the maximum"
	printf '%s\n2,0,Inf,0,,0,1,2,0\n' "$h" > e7.part
	run summarize --merge e7.part
	assert_failure 1
	assert_output "summarize: e7.part:2: column 'mean:x#sum': a sum whose mean lies outside the minimum and the maximum"
	printf '%s\n2,0,3,,1,,1,2,1\n' "$h" > e8.part
	run summarize --merge e8.part
	assert_failure 1
	assert_output "summarize: e8.part:2: column 'mean:x#sumsq': a sum of squares below the square of the sum over n"
	printf '%s\n3,0,6,,14,,2,2,1\n' "$h" > e9.part
	run summarize --merge e9.part
	assert_failure 1
	assert_output "summarize: e9.part:2: column 'mean:x#sumsq': a spread of equal values"
	printf '%s\n2,0,3,0.5,,0.5,1,2,0\n' "$h" > e10.part
	run summarize --merge e10.part
	assert_failure 1
	assert_output "summarize: e10.part:2: column 'mean:x#sumlo': more than the sum rounds away"
	printf '%s\n2,0,3,0,,0.5,1,2,0\n' "$h" > ok.part
	run summarize --merge ok.part
	assert_success
	assert_output "mean_x
1.5"
	# Inf sums (which partials of yomi before 2026-11-28 wrote where a sum
	# overflowed) read back, and NA where an Inf sum met a -Inf one.
	printf '%s\n2,0,Inf,0,,Inf,9e307,1e308,0\n' "$h" > inf1.part
	printf '%s\n2,0,-Inf,0,,Inf,-1e308,-9e307,0\n' "$h" > inf2.part
	run summarize --merge --partial inf1.part inf2.part
	assert_success
	assert_output "$h
4,0,NA,0,,Inf,-1e+308,1e+308,0"
	echo "$output" > nan.part
	run summarize --merge nan.part
	assert_success
	assert_output "mean_x
NA"
}

@test "a bad partial header is bad data, with its file and line" {
	printf 'x,median:y#n\n1,2\n' > m.part
	run summarize --merge m.part
	assert_failure 1
	assert_output "summarize: m.part:1: not a partial table: median:y cannot have been merged"
	printf 'x,foo#n\n1,2\n' > f.part
	run summarize --merge f.part
	assert_failure 1
	assert_output "summarize: f.part:1: not a partial table: 'foo' is not an operation (unknown operation)"
}

@test "names with '#' and of any length survive a partial and its merge" {
	long=$(printf 'c%.0s' $(seq 600))
	printf 'a#b,%s,x#y\nu,1,2\nv,1,4\nu,2,6\n' "$long" > n.csv
	summarize -g "a#b,$long" count mean:x#y "rate:$long=1" n.csv > whole.csv
	summarize --partial -g "a#b,$long" count mean:x#y "rate:$long=1" n.csv > n.part
	run bash -c "summarize --merge n.part | cmp - whole.csv"
	assert_success
	assert_equal "$(head -c 10 whole.csv)" "a#b,cccccc"
}

# Every operation, grouped and not, sorted and crosstab, on one table
# read with 1 thread and with several: the outputs must be equal.
ALL_OPS="count sum:v mean:v min:v max:v sd:v var:v median:v q:0.25:v mode:w distinct:w first:w last:w rate:w=b score:w=b/d"
same_with_jobs() { # FILE: -j 1 and -j 2, 3, 7 give the same bytes
	local f=$1 want
	want=$(summarize -j 1 -g k $ALL_OPS "$f"; summarize -j 1 $ALL_OPS "$f"; summarize -j 1 --sort -g k,w count mean:v "$f"
		summarize -j 1 --crosstab k,w mean:v "$f"; summarize -j 1 --partial -g k count sum:v rate:w=b first:w last:w "$f")
	for j in 2 3 7; do
		[ "$(summarize -j $j -g k $ALL_OPS "$f"; summarize -j $j $ALL_OPS "$f"; summarize -j $j --sort -g k,w count mean:v "$f"
			summarize -j $j --crosstab k,w mean:v "$f"; summarize -j $j --partial -g k count sum:v rate:w=b first:w last:w "$f")" = "$want" ] ||
			{ echo "-j $j differs on $f"; return 1; }
	done
}

# K,V,W rows: a few groups, values with NA, -0, repeats and ties.
make_rows() { # N
	awk -v n="$1" 'BEGIN { print "k,v,w"; for (i = 0; i < n; i++) {
		v = (i % 17 == 0) ? "NA" : (i % 23 == 0) ? "-0" : sprintf("%d.%d", (i * 7919) % 101 - 50, i % 10)
		printf "%s,%s,%s\n", substr("xyzw", i % 4 + 1, 1) (i % 7 == 0 ? "q" : ""), v, substr("bdlbx", i % 5 + 1, 1) (i % 11) } }'
}

@test "-j N: every operation's output equals one thread's, bit for bit" {
	make_rows 5000 > rows.csv
	same_with_jobs rows.csv
	# A file without a line end at its end, and with a blank line.
	make_rows 300 | head -c -1 > nonl.csv
	same_with_jobs nonl.csv
	{ make_rows 200; echo; make_rows 200 | tail -n +2; } > blank.csv
	same_with_jobs blank.csv
	run summarize -j 3 -g k count rows.csv nonl.csv rows.csv
	assert_success
	assert_output "$(summarize -j 1 -g k count rows.csv nonl.csv rows.csv)"
}

@test "-j N: TSV, CRLF, lone CR, quoted line ends and gzip read the same" {
	make_rows 3000 > rows.csv
	tr ',' '\t' < rows.csv > rows.tsv
	same_with_jobs rows.tsv
	sed 's/$/\r/' rows.csv > crlf.csv
	same_with_jobs crlf.csv
	tr '\n' '\r' < rows.csv > cr.csv
	same_with_jobs cr.csv
	# Quoted fields with line ends in them, everywhere: cuts at line ends
	# land inside them and are made again by quote parity.
	awk -F, 'NR == 1 { print; next } { printf "%s,%s,\"%s\nline \"\"two\"\"\r\nthree\"\n", $1, $2, $3 }' rows.csv > quoted.csv
	same_with_jobs quoted.csv
	gzip -c rows.csv > rows.csv.gz
	same_with_jobs rows.csv.gz
	run bash -c "summarize -j 2 -g k count mean:v < rows.csv"
	assert_output "$(summarize -j 1 -g k count mean:v rows.csv)"
}

@test "-j N: errors and inexact sums are those of one thread" {
	make_rows 4000 > rows.csv
	{ cat rows.csv; echo "x,oops,b"; make_rows 100 | tail -n +2; } > bad.csv
	run summarize -j 1 -g k mean:v bad.csv
	assert_failure 1
	assert_output "summarize: bad.csv:4002: column 'v': 'oops' is not a number"
	run summarize -j 3 -g k mean:v bad.csv
	assert_failure 1
	assert_output "summarize: bad.csv:4002: column 'v': 'oops' is not a number"
	# A FIFO is read once, by one thread.
	mkfifo fifo.csv
	cat rows.csv > fifo.csv &
	run summarize -j 2 count fifo.csv
	assert_success
	assert_output "count
4000"
	{ cat rows.csv; echo "x,1,b,extra"; } > wide.csv
	run summarize -j 2 count wide.csv
	assert_failure 1
	assert_output "summarize: wide.csv:4002: expected 3 fields, found 4"
	# Numbers past six decimals are summed in floating point, whose last
	# digits depend on the order: one thread then.
	awk -F, -v OFS=, 'NR > 1 && $2 ~ /\./ { $2 = $2 "000001" } { print }' rows.csv > inexact.csv
	run summarize -j 1 sum:v inexact.csv
	assert_output --regexp "^sum_v,v_na
-?[0-9]+\.[0-9]{7,},[0-9]+$"
	same_with_jobs inexact.csv
	# gzip: one thread inflates while another parses, and its errors come
	# where one thread's come, with the same line.
	make_rows 60000 > big.csv
	gzip -c big.csv > big.csv.gz
	head -c 100000 big.csv.gz > trunc.gz
	cp big.csv.gz corrupt.gz
	printf '\377\023\167\000\221' | dd of=corrupt.gz bs=1 seek=120000 conv=notrunc 2> /dev/null
	for f in big.csv.gz trunc.gz corrupt.gz; do
		want=$(summarize -j 1 -g k count mean:v "$f" 2>&1; echo "rc=$?")
		[ "$(summarize -j 2 -g k count mean:v "$f" 2>&1; echo "rc=$?")" = "$want" ]
		[ "$(summarize -j 2 -g k count mean:v - < "$f" 2>&1; echo "rc=$?")" = "${want//$f/-}" ]
	done
	run summarize -j 2 count trunc.gz
	assert_failure 1
	assert_output --regexp "^summarize: trunc.gz:[0-9]+: truncated gzip data: the stream ends early$"
	run summarize -j 0 count rows.csv
	assert_failure 2
	assert_line --index 0 "summarize: invalid --jobs '0': expected an integer from 1 to 1024"
}
