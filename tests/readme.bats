#!/usr/bin/env bats
# The README's examples, read from README.md itself so that the test
# cannot drift from it, run as a user would: from a `make install
# DESTDIR=...` tree, with only that tree's bin/ on PATH besides the
# system's, in one scratch directory, in order.

load test_helper/common

setup_file() {
	export ROOT="$BATS_FILE_TMPDIR/root"
	make -C "$BATS_TEST_DIRNAME/.." -s install DESTDIR="$ROOT" PREFIX=/usr/local > /dev/null
}

# README's code blocks (4-space indented after a blank line): "## LINE"
# (where the block starts), then its lines, continuations joined.
blocks() {
	awk '
	function flush() {
		if (n) { print "## " start; for (i = 1; i <= n; i++) print b[i] }
		n = 0
	}
	/^    / && (blank || n) {
		if (!n) start = NR
		line = substr($0, 5)
		if (joining) b[n] = b[n] " " line; else b[++n] = line
		joining = sub(/\\$/, "", b[n])
		blank = 0
		next
	}
	{ flush(); blank = ($0 ~ /^[[:space:]]*$/) }
	END { flush() }' "$TOP/README.md"
}

# Whether LINE is a command: its first word is an installed program or
# pipeline, or printf, echo, export or make.
command_line() {
	local w=${1%% *}
	case $w in printf | echo | export | make) return 0 ;; esac
	[ -n "$w" ] && [ -x "$ROOT/usr/local/bin/$w" ]
}

# The blocks' lines that are commands; make is left out (it built the tree
# under test), and a block whose first line is no command is text.
commands() {
	local first= line
	while IFS= read -r line; do
		if [[ $line == "## "* ]]; then first=1; continue; fi
		[[ $line == "#"* || -z $line ]] && continue
		if [ "$first" = 1 ]; then
			first=0
			command_line "$line" || first=skip
		fi
		[ "$first" = skip ] && continue
		[[ $line == make* ]] && continue
		echo "$line"
	done < <(blocks)
}

@test "README: the code blocks that are not commands are the tables, R, Hadoop and the layout" {
	run bash -c "$(declare -f blocks command_line); export ROOT='$ROOT' TOP='$TOP'
		blocks | awk '/^## / { getline; print }' | while IFS= read -r l; do
			[[ \$l == '#'* ]] && continue
			command_line \"\$l\" || echo \"\${l:0:24}\" | sed 's/ *$//'
		done"
	assert_success
	assert_output "depth    games  win rate
dictionary   depth     g
% perfect  random      m
% kept     random      m
disc loss  random      m
policy
mapper.sh:   while read
hadoop jar hadoop-stream
d <- read.csv(\"results.c
Makefile          all, c"
}

@test "README: every command in a block of commands is one" {
	# A block of commands holds nothing but commands, so that a line that
	# is not one cannot be skipped unseen.
	run bash -c "$(declare -f blocks command_line); export ROOT='$ROOT' TOP='$TOP'
		blocks | awk '/^## / { first = 1; next } first && !/^#/ { print \"B\" } { print }' |
		while IFS= read -r l; do
			case \$l in B) read -r l; command_line \"\$l\" && on=1 || on=0; continue ;; esac
			[[ \$l == '#'* || -z \$l ]] && continue
			[ \"\$on\" = 1 ] && ! command_line \"\$l\" && echo \"not a command: \$l\"
		done; true"
	assert_success
	assert_output ""
}

@test "README: every example runs as printed from the installed tree" {
	mkdir ex && cd ex
	ln -s "$ROOT/usr/local/share/yomi" dictionaries
	export PATH="$ROOT/usr/local/bin:/usr/local/bin:/usr/bin:/bin"
	n=0
	while IFS= read -r line; do
		n=$((n + 1))
		if ! bash -c "$line" < /dev/null > out.txt 2> err.txt; then
			echo "failed: $line"
			cat err.txt
			return 1
		fi
		# Every example shows something (on stdout or stderr, or in the
		# file it writes).
		if [ ! -s out.txt ] && [ ! -s err.txt ] && ! [[ $line == *" -o "* || $line == *" > "* || $line == export* ]]; then
			echo "no output: $line"
			return 1
		fi
	done < <(commands)
	# The examples of the sections above, and none lost.
	[ "$n" -ge 40 ] || { echo "only $n examples"; return 1; }
	# The files the later examples read were written by earlier ones.
	[ -s results.csv ] && [ -s playouts.csv.gz ] && [ -s sas.csv ] && [ -s en.csv ]
}
