#!/usr/bin/env bash
# Runs a long sharded job (playouts or a tournament) as parallel shards,
# summarizes each shard with summarize --partial and merges the partials:
# the result equals `COMMAND | summarize OPS` run in one process.
#
#   pipelines/parallel-playouts.sh -n TOTAL [-k SHARDS] [-j JOBS] [-S LOGINS]
#       [-q] -s "SUMMARIZE ARGS" -- COMMAND [ARG]...
#
# COMMAND must accept --first-game K, -n N and -q and write one row per game
# (chain-greedy and chain-lookahead tournaments, playout). -n is the number of
# games in the whole run, -k the number of shards (default: 4 per job), -j
# the jobs at once (default: the number of cores), -S GNU parallel's
# --sshlogin list to spread shards over machines that have yomi on their
# PATH and the same files at the same paths. The merged summary goes to
# stdout; the games done go to a terminal's stderr unless -q (from the
# shards on this machine). A shard that fails stops the run, and its own
# message is shown.
set -euo pipefail
. "$(dirname "$(readlink -f "$0")")/common.sh"

total= shards= jobs=$(nproc) logins= summ="count"
while [ $# -gt 0 ]; do
	case $1 in
	-n) yomi_need "$@"; total=$2; shift 2 ;;
	-k) yomi_need "$@"; shards=$2; shift 2 ;;
	-j) yomi_need "$@"; jobs=$2; shift 2 ;;
	-S | --sshlogin) yomi_need "$@"; logins=$2; shift 2 ;;
	-s) yomi_need "$@"; summ=$2; shift 2 ;;
	-q | --quiet) yomi_quiet=1; shift ;;
	--) shift; break ;;
	-h | --help) yomi_help; exit 0 ;;
	*) echo "$yomi_me: unknown option '$1'" >&2; exit 2 ;;
	esac
done
if [ -z "$total" ] || [ $# -eq 0 ]; then
	echo "$yomi_me: need -n TOTAL and a command after --" >&2
	exit 2
fi
[ -n "$shards" ] || shards=$((jobs * 4))
[ "$shards" -le "$total" ] || shards=$total
yomi_workdir ""

# Shard i plays games first..first+count-1; sizes differ by at most one.
for ((i = 0; i < shards; i++)); do
	first=$((i * total / shards + 1))
	next=$(((i + 1) * total / shards + 1))
	echo "$first $((next - first))"
done > "$out/shards"

cmd=$(printf '%q ' "$@")
read -r -a summ_args <<<"$summ"
summ_q=$(printf '%q ' "${summ_args[@]}")
parallel_args=(-j "$jobs" -k --colsep ' ' --halt now,fail=1 --files --tmpdir "$out")
[ -n "$logins" ] && parallel_args+=(-S "$logins")
# Each shard's messages go to err.N, shown if it fails (GNU parallel would
# name the failed command only).
parallel "${parallel_args[@]}" \
	"{ YOMI_PROGRESS=$(printf %q "$out")/progress.{#} $cmd --first-game {1} -n {2} -q |
		summarize --partial -q $summ_q; } 2> $(printf %q "$out")/err.{#}" \
	< "$out/shards" > "$out/partials" 2> "$out/parallel.log" &
pid=$!
yomi_watch "$out" "$total" games "$pid"
if ! wait "$pid"; then
	for f in "$out"/err.*; do
		[ -s "$f" ] || continue
		k=${f##*.}
		read -r first n < <(sed -n "${k}p" "$out/shards")
		echo "$yomi_me: shard $k (games $first to $((first + n - 1))) failed:" >&2
		cat "$f" >&2
		exit 1
	done
	cat "$out/parallel.log" >&2
	exit 1
fi
mapfile -t parts < "$out/partials"
summarize --merge "${parts[@]}"
