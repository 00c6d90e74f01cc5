#!/usr/bin/env bats
# Progress (lib/core/progress.h): by time on a terminal, with the rate and
# the time left; counts for pipelines through YOMI_PROGRESS; -q everywhere.

load test_helper/common

# Runs COMMAND under a pseudo-terminal; its terminal output, each \r a
# line break, in $output.
on_tty() {
	run bash -c "set -o pipefail; script -qec $(printf %q "$*") /dev/null | tr '\r' '\n' | sed 's/\x1b\[K//g'"
}

@test "-q and --quiet: every program takes them and writes the same" {
	wordload --upcase "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	for args in "wordload $TOP/dictionaries/japanese-nouns.txt" "chain-greedy -d sas.csv --starts all --vs greedy" \
		"chain-lookahead -d sas.csv --start SCAN --vs greedy" "summarize -g p1 count" "nimtable --max 5" \
		"playout -n 10" "playout -g calc -n 10"; do
		run bash -c "chain-greedy -d sas.csv --starts all --vs greedy | $args"
		assert_success
		plain=$output
		for q in -q --quiet; do
			run bash -c "chain-greedy -d sas.csv --starts all --vs greedy | $args $q"
			assert_success
			assert_equal "$output" "$plain"
		done
	done
}

@test "on a terminal: the games done, the rate and the time left, then the total" {
	on_tty playout -n 2000000 -o /dev/null
	assert_success
	assert_line --regexp '^playout: [0-9]+ of 2000000 games \([0-9]+%\), [0-9.]+[kM]?/s, [0-9]+:[0-9]{2} left$'
	assert_line --regexp '^playout: 2000000 games in [0-9]+\.[0-9]{2} s, [0-9.]+[kM]?/s$'
	# A short run shows nothing, and -q nothing at all.
	on_tty playout -n 1000 -o /dev/null
	assert_output ""
	on_tty playout -n 2000000 -q -o /dev/null
	assert_output ""
}

@test "a message after the progress line starts on a line of its own" {
	# Rows arriving for a second, then a bad one.
	mkfifo x.csv
	{ echo x; for i in 1 2 3 4 5 6 7 8 9 10; do seq 1000; sleep 0.1; done; echo nope; } > x.csv &
	on_tty summarize mean:x x.csv
	assert_failure 1
	assert_line --regexp '^summarize: [0-9]+ rows, [0-9.]+[kM]?/s$'
	assert_line "summarize: x.csv:10002: column 'x': 'nope' is not a number"
	# Reading a pipe, summarize leaves progress to the program writing it.
	on_tty "playout -n 2000000 | summarize -g first_move count"
	assert_success
	assert_line --regexp '^playout: 2000000 games in'
	refute_line --partial "rows"
}

@test "YOMI_PROGRESS: DONE TOTAL SECONDS for a pipeline, whatever -q says" {
	wordload --upcase "$TOP/dictionaries/sas-functions.txt" -o sas.csv
	check() {
		YOMI_PROGRESS=p.txt "$@" -q > /dev/null
		run awk '{ print $1, $2, ($3 >= 0) }' p.txt
	}
	check playout -n 100
	assert_output "100 100 1"
	check playout -g calc -n 70
	assert_output "70 70 1"
	printf 'moves\nf5 d6\n' > pos.csv
	check playout --per-move 10 pos.csv
	assert_output "50 50 1"
	check chain-greedy -d sas.csv --starts all --vs greedy --both-sides
	assert_output "1668 1668 1"
	check nimtable --max 9
	assert_output "1000 1000 1"
	check summarize sas.csv
	assert_output "834 0 1"
	YOMI_PROGRESS=/nonexistent/p.txt run playout -n 1 -q
	assert_success
	assert_line --index 0 "playout: YOMI_PROGRESS: cannot write /nonexistent/p.txt: No such file or directory"
}

@test "a pipeline's shards add up to one line: othello-first-move.sh, parallel-playouts.sh" {
	on_tty "$TOP/pipelines/othello-first-move.sh" -n 3000000 -o out
	assert_success
	assert_line --regexp '^othello-first-move.sh: [0-9]+ of 3000000 games \([0-9]+%\), [0-9.]+[kM]?/s, [0-9]+:[0-9]{2} left$'
	assert_line --regexp '^othello-first-move.sh: 3000000 games in [0-9]+\.[0-9]{2} s, [0-9.]+[kM]?/s$'
	refute_line --partial "summarize:"
	on_tty "$TOP/pipelines/othello-first-move.sh" -n 3000000 -q -o out
	assert_success
	refute_output --partial "games"
	on_tty "$TOP/pipelines/parallel-playouts.sh" -n 3000000 -s count -- playout
	assert_line --regexp '^parallel-playouts.sh: 3000000 games in [0-9]+\.[0-9]{2} s, [0-9.]+[kM]?/s$'
	assert_line "3000000"
}
