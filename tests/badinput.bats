#!/usr/bin/env bats
# Bad input: every row of tests/badinput.tsv, through the plain programs
# and through the sanitized ones (CONTRACT_BIN, default build/asan/bin):
# the exit status and the first line of stderr exactly, and nothing left
# in the output directory when the program fails.

load test_helper/common

TABLE="$TOP/tests/badinput.tsv"
ASAN="$TOP/${CONTRACT_BIN:-build/asan/bin}"
export ASAN_OPTIONS=exitcode=86:detect_leaks=1 UBSAN_OPTIONS=halt_on_error=1:exitcode=86

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

@test "bad input: an output that cannot be opened leaves nothing allocated" {
	[ -x "$ASAN/summarize" ] || fail "no sanitized programs in $ASAN: run make asan"
	printf 'a\n1\n' > in.csv
	printf 'sa\nab\n' > words.txt
	ln -s missing.csv dangling.csv
	for prog in summarize wordload nimtable playout; do
		case $prog in
		summarize) args="count in.csv" ;;
		wordload) args="words.txt" ;;
		nimtable) args="--sizes 3" ;;
		playout) args="-n 1" ;;
		esac
		run "$ASAN/$prog" -o . $args
		assert_failure 1
		assert_output "$prog: cannot open .: Is a directory"
		run "$ASAN/$prog" -o nodir/out.csv $args
		assert_failure 1
		assert_output "$prog: cannot create nodir/out.csv: No such file or directory"
	done
	# A link whose target does not exist yet: the target is written.
	run "$ASAN/summarize" -o dangling.csv count in.csv
	assert_success
	assert_equal "$(cat missing.csv)" "count
1"
	"$ASAN/wordload" words.txt -o dict.csv
	run "$ASAN/chain-greedy" -d dict.csv --start sa --trace .
	assert_failure 1
	assert_output "chain-greedy: cannot open .: Is a directory"
}

@test "bad input: a long quoted field is read in linear time, sanitized too" {
	[ -x "$ASAN/summarize" ] || fail "no sanitized programs in $ASAN: run make asan"
	{ printf '"'; head -c 16000000 /dev/zero | tr '\0' x; printf '"\n1\n2\n'; } > long.csv
	# Grown 128 bytes at a time, this took minutes under ASan's realloc;
	# now well under a second: a bound 50 times that cannot be missed by
	# a loaded machine, and cannot be met by the quadratic reader.
	run timeout 30 "$ASAN/summarize" count long.csv
	assert_success
	assert_output "count
2"
}
