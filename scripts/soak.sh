#!/usr/bin/env bash
# The soak (docs/reliability.md, "Soak"): long randomized co-simulations of
# every RTL block in both modes over many seeds, the model's property tests at
# many times their usual count, and `gpumem run` over every example config.
# One command, jobs in parallel, a line of progress per finished job, and a
# summary per block of transactions and mismatches. Exit 0 only if every job
# agreed; each failed job is listed with the command that reproduces it.
#   scripts/soak.sh [--build DIR] [--jobs N] [--seeds N] [--first-seed S]
#                   [--transactions N] [--pin-transactions N] [--property-cases N] [--out DIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
build=$root/build
jobs=2
seeds=20
first_seed=1
transactions=5000000      # per fast-mode run: 100 M per block with 20 seeds
pin_transactions=1000000  # per pin-level run (SystemC-clocked, slower); a quarter of the seeds
property_cases=10000      # per property (the default suite runs 100)
out=

usage() {
  sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//' >&2
  exit 2
}
number() {  # number OPTION VALUE: a positive integer, else exit 2
  [[ "$2" =~ ^[1-9][0-9]*$ ]] || { echo "soak: $1 needs a positive integer, not '$2'" >&2; exit 2; }
}
while [ $# -gt 0 ]; do
  [ $# -ge 2 ] || usage
  case $1 in
    --build) build=$2 ;;
    --jobs) number "$1" "$2"; jobs=$2 ;;
    --seeds) number "$1" "$2"; seeds=$2 ;;
    --first-seed) number "$1" "$2"; first_seed=$2 ;;
    --transactions) number "$1" "$2"; transactions=$2 ;;
    --pin-transactions) number "$1" "$2"; pin_transactions=$2 ;;
    --property-cases) number "$1" "$2"; property_cases=$2 ;;
    --out) out=$2 ;;
    *) usage ;;
  esac
  shift 2
done
build=$(cd "$build" 2>/dev/null && pwd) || { echo "soak: no build folder $build (cmake --build build first)" >&2; exit 2; }
gpumem=$build/gpumem
properties=$build/tests/gpumem_property_tests
explorer_properties=$build/tests/gpumem_explorer_property_tests
for f in "$gpumem" "$properties" "$explorer_properties"; do
  [ -x "$f" ] || { echo "soak: $f is missing (cmake --build $build first)" >&2; exit 2; }
done
out=${out:-$build/soak}
rm -rf "$out"
mkdir -p "$out/logs" "$out/waves"

# One job a line: name|block label|transactions|command. The block label
# groups the summary; transactions count towards it.
plan=()
# RapidCheck: random configs and requests through the functional path, each
# property $property_cases times from the first seed. The longest job: first.
plan+=("properties|model properties|0|env RC_PARAMS=max_success=$property_cases\ seed=$first_seed $properties")
plan+=("explorer-properties|model properties|0|env RC_PARAMS=max_success=$property_cases\ seed=$first_seed $explorer_properties")
cosim_jobs() {  # cosim_jobs LABEL CONFIG BLOCK MODE COUNT SEEDS
  local label=$1 config=$2 block=$3 mode=$4 count=$5 n=$6 s
  for ((s = first_seed; s < first_seed + n; s++)); do
    plan+=("$label-$mode-seed$s|$label|$count|$gpumem cosim --config $config --block $block --mode $mode --transactions $count --seed $s --waves $out/waves/$label-$mode-seed$s")
  done
}
pin_seeds=$(( (seeds + 3) / 4 ))
for mode in fast pin; do
  count=$transactions n=$seeds
  [ $mode = pin ] && count=$pin_transactions n=$pin_seeds
  cosim_jobs translator configs/default.yaml translator $mode $count $n
  cosim_jobs tlb-plru configs/default.yaml tlb $mode $count $n
  cosim_jobs tlb-lru configs/examples/tlb-lru.yaml tlb $mode $count $n
done
for cfg in configs/default.yaml configs/examples/*.yaml; do
  name=$(basename "$cfg" .yaml)
  input=""  # a config without a workload is for another simulator's trace (physical-addresses.yaml)
  grep -q '^workload:' "$root/$cfg" || input=" --trace tests/data/importers/dramsim3.trace --trace-format dramsim3"
  plan+=("run-$name|model runs|0|$gpumem run --config $cfg$input --stats-json $out/logs/run-$name.json")
done

total=${#plan[@]}
echo "soak: $total jobs on $jobs at a time; logs in $out/logs"
start=$(date +%s)
declare -A pid_job=()
done_jobs=0
failed=()
declare -A block_transactions=() block_jobs=() block_failed=()

finish() {  # finish PID STATUS
  local job=${pid_job[$1]} status=$2
  unset "pid_job[$1]"
  IFS='|' read -r name label count cmd <<<"$job"
  done_jobs=$((done_jobs + 1))
  block_jobs[$label]=$(( ${block_jobs[$label]:-0} + 1 ))
  block_transactions[$label]=$(( ${block_transactions[$label]:-0} + count ))
  local verdict=ok
  if [ "$status" -ne 0 ]; then
    verdict="FAILED (exit $status)"
    failed+=("$name|$cmd")
    block_failed[$label]=$(( ${block_failed[$label]:-0} + 1 ))
  fi
  local now elapsed eta
  now=$(date +%s)
  elapsed=$((now - start))
  eta=$(( elapsed * (total - done_jobs) / done_jobs ))
  printf 'soak: [%d/%d] %-28s %s  (%ds elapsed, about %ds left)\n' "$done_jobs" "$total" "$name" "$verdict" "$elapsed" "$eta"
}

for job in "${plan[@]}"; do
  while [ ${#pid_job[@]} -ge "$jobs" ]; do
    status=0
    wait -n -p done_pid "${!pid_job[@]}" || status=$?
    finish "$done_pid" "$status"
  done
  IFS='|' read -r name label count cmd <<<"$job"
  (cd "$root" && eval "$cmd") >"$out/logs/$name.log" 2>&1 &
  pid_job[$!]=$job
done
while [ ${#pid_job[@]} -gt 0 ]; do
  status=0
  wait -n -p done_pid "${!pid_job[@]}" || status=$?
  finish "$done_pid" "$status"
done

echo
echo "soak summary ($(( $(date +%s) - start ))s):"
for label in translator tlb-plru tlb-lru "model properties" "model runs"; do
  [ -n "${block_jobs[$label]:-}" ] || continue
  if [ "${block_transactions[$label]}" -gt 0 ]; then
    printf '  %-17s %d runs, %d co-simulated transactions, %d failed runs\n' "$label" "${block_jobs[$label]}" \
      "${block_transactions[$label]}" "${block_failed[$label]:-0}"
  else
    printf '  %-17s %d runs, %d failed\n' "$label" "${block_jobs[$label]}" "${block_failed[$label]:-0}"
  fi
done
if [ ${#failed[@]} -eq 0 ]; then
  echo "soak: zero mismatches, every job passed"
  exit 0
fi
echo "soak: ${#failed[@]} job(s) failed; each reproduces from its seed:"
for f in "${failed[@]}"; do
  IFS='|' read -r name cmd <<<"$f"
  echo "  $name: log $out/logs/$name.log"
  echo "    (cd $root && $cmd)"
done
exit 1
