#!/usr/bin/env bats
# The manual pages: each renders in the tree without a warning, and every
# option a program's --help lists has an entry of its own in the page.

load test_helper/common

PROGRAMS="wordload chain-greedy chain-lookahead summarize nimtable playout"

@test "every manual page renders with man -l in the tree, without warnings" {
	for p in $PROGRAMS; do
		run bash -c "MANWIDTH=80 man --warnings -l '$TOP/bin/$p.1' 2>&1 > /dev/null"
		assert_success
		assert_output ""
		run bash -c "MANWIDTH=80 man -l '$TOP/bin/$p.1' 2> /dev/null | head -1"
		assert_output --regexp "^$(tr a-z A-Z <<<"${p%%-*}")"
	done
}

@test "every option of --help has an entry (a .TP tag) in the manual page" {
	for p in $PROGRAMS; do
		# The tags: the line after each .TP, dashes unescaped.
		tags=$(awk 'prev == ".TP" { print } { prev = $0 }' "$TOP/bin/$p.1" | sed 's/\\-/-/g')
		for o in $("$p" --help | grep -oE '(^|[ ,])--?[a-zA-Z][a-z-]*' | sed 's/^[ ,]//' | sort -u); do
			grep -qE -- "(^|[^a-z-])$o([^a-z-]|\$)" <<<"$tags" || echo "$p: $o has no entry"
		done
	done > missing.txt
	run cat missing.txt
	assert_output ""
}
