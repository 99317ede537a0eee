#!/usr/bin/env bash
# Runs one fuzz target of the reliability build for a bounded time
# (docs/reliability.md, "Fuzzing"): first every input of its seed corpus and
# its kept regressions, then new inputs until the time is up. New inputs go
# to a working corpus in the build tree, never into the source tree; a
# crashing or hanging input is written beside it, with the command that
# replays it.
#   tests/fuzz/run-fuzzer.sh BINARY WORK_DIR SECONDS [SEED_DIR...]
set -euo pipefail
if [ $# -lt 3 ]; then
  echo "usage: $0 BINARY WORK_DIR SECONDS [SEED_DIR...]" >&2
  exit 2
fi
binary=$1 work=$2 seconds=$3
shift 3
name=$(basename "$binary")
mkdir -p "$work/corpus" "$work/findings"
seeds=()
for d in "$@"; do
  [ -d "$d" ] && seeds+=("$d")
done
status=0
# -timeout: one input running this long is a hang. -rss_limit_mb: one input
# growing the process past this is a finding, not a machine out of memory.
"$binary" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=4096 -print_final_stats=1 \
  -artifact_prefix="$work/findings/" "$work/corpus" "${seeds[@]}" || status=$?
if [ "$status" -ne 0 ]; then
  echo "$name: finding(s) in $work/findings:" >&2
  for f in "$work"/findings/*; do
    [ -e "$f" ] || continue
    echo "  $f" >&2
    echo "    replay: $binary $f" >&2
  done
  echo "  keep each as a regression: copy it into tests/fuzz/regressions/${name#gpumem_fuzz_}/" >&2
fi
exit "$status"
