#!/usr/bin/env bats
# Bad input: every row of tests/badinput.tsv, through the plain programs
# and through the sanitized ones (CONTRACT_BIN, default build/asan/bin):
# the exit status and the first line of stderr exactly, and nothing left
# in the output directory when the program fails.

load test_helper/common

TABLE="$TOP/tests/badinput.tsv"
ASAN="$TOP/${CONTRACT_BIN:-build/asan/bin}"
export ASAN_OPTIONS=exitcode=86:detect_leaks=0 UBSAN_OPTIONS=halt_on_error=1:exitcode=86

# rows PROGRAM BINDIR TAG: runs PROGRAM's rows in directories TAG1, TAG2,
# ...; prints every one that breaks.
rows() {
	local want_prog=$1 bin=$2 tag=$3 n=0 prog args file input rc msg got left
	while IFS=$'\t' read -r prog args file input rc msg; do
		[ "$prog" = "$want_prog" ] || continue
		n=$((n + 1))
		mkdir "$tag$n" && (
			cd "$tag$n" || exit 1
			mkdir out
			[ "$input" = - ] || bash -c "$input" > "${file/#-/stdin}"
			eval "set -- $args"
			"$bin/$prog" "$@" -o out/result.csv < "$([ "$file" = - ] && [ -f stdin ] && echo stdin || echo /dev/null)" > /dev/null 2> err
			status=$?
			left=$(ls -A out | tr '\n' ' ')
			if [ "$status" = 0 ]; then
				got=$(tail -n 1 out/result.csv 2>/dev/null)
				[ "$left" = "result.csv " ] || echo "$prog $args: exit 0 but out/ holds '$left'"
			else
				got=$(head -n 1 err)
				[ -z "$left" ] || echo "$prog $args: exit $status but out/ holds '$left'"
			fi
			[ "$status" = "$rc" ] && [ "$got" = "$msg" ] ||
				printf '%s %s (%s): exit %s, %s\n  want exit %s, %s\n' "$prog" "$args" "$input" "$status" "$got" "$rc" "$msg"
		)
	done < <(grep -v '^#' "$TABLE")
	[ "$n" -gt 0 ] || echo "no rows for $want_prog"
}

check() {
	[ -x "$ASAN/$1" ] || fail "no sanitized programs in $ASAN: run make asan"
	run rows "$1" "$TOP/bin" plain
	assert_output ""
	run rows "$1" "$ASAN" asan
	assert_output ""
}

@test "bad input: summarize (the table reader, gzip, partials, options)" { check summarize; }
@test "bad input: wordload (each format, encodings, options)" { check wordload; }
@test "bad input: chain-greedy (dictionary, game log, start words, options)" { check chain-greedy; }
@test "bad input: chain-lookahead (search options)" { check chain-lookahead; }
@test "bad input: nimtable (positions, sizes, options)" { check nimtable; }
@test "bad input: playout (positions, decks, options of both games)" { check playout; }
