#!/usr/bin/env bats
# The contract of DESIGN.md on hostile input, under AddressSanitizer and
# UBSan: every file of the fuzz corpora (tests/fuzz/corpus: seeds and every
# crash or hang the fuzzers found) through the sanitized programs in
# CONTRACT_BIN (default build/asan/bin, which make check builds).

load test_helper/common

BIN="$TOP/${CONTRACT_BIN:-build/asan/bin}"

@test "every fuzz corpus file keeps the contract under the sanitizers" {
	[ -x "$BIN/summarize" ] || fail "no sanitized programs in $BIN: run make asan"
	run "$TOP/tests/fuzz/replay" "$BIN"
	assert_success
	assert_output ""
}
