# Loaded by every bats file: the assertion libraries, the programs on PATH,
# and a scratch directory per test.
load '/usr/lib/bats/bats-support/load'
load '/usr/lib/bats/bats-assert/load'

TOP="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
FIX="$TOP/tests/fixtures"
export PATH="$TOP/bin:$PATH"
export LC_ALL=C.UTF-8

setup() {
	cd "$BATS_TEST_TMPDIR" || return 1
}
bats_require_minimum_version 1.5.0
