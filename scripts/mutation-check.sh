#!/usr/bin/env bash
# Mutation check of the co-simulation (docs/mutation-check.md): every mutant of
# verilator/mutation/mutants.txt is applied alone to a copy of rtl/, built into
# a runner of its own and co-simulated against the model; the random run must
# fail on every one. Prints how many transactions each needed.
#
#   scripts/mutation-check.sh [--build DIR] [--only NAME,...|--sample] [--transactions N]
#                             [--seed S] [--jobs J] [--table FILE] [--work DIR]
#                             [--hang-cycles N] [--timeout SECONDS]
#                             [--config FILE|built-in]... [--mode fast|pin] [--list]
#
# --sample runs only the table's mutants marked `sample: yes` (the default
# suite's check; the whole table is still read and checked first). --list
# prints the mutants the other options select (name, block, bug) and stops.
# Each mutant runs on the geometries in turn until one kills it: by default
# the built-in geometries (a runner project per mutant, configs/default.yaml,
# and configs/examples/tlb-lru.yaml for the LRU TLB), then
# configs/examples/cosim-tlb-geometry.yaml (32 TLB sets, 1 MiB pages nested
# at the head, a 128-byte granule), configs/examples/cosim-8-channels.yaml
# (8 channels, 10 candidate bits, an 8-way TLB),
# configs/examples/cosim-plru-one-set.yaml (a one-set tree-PLRU TLB, no
# prime scheme) and configs/examples/cosim-lru-sets.yaml (an LRU TLB of 16
# sets, no prime scheme). --config, once or more, replaces that list: a config's mutants
# go through `gpumem cosim --rtl` (verilated at run time for it, held to the
# project's one-cycle latency), the TLB's those of its replacement policy;
# `built-in` is the runner projects. --mode pin runs every geometry at pin
# level (gpumem cosim --rtl --mode pin; `built-in` then means those two configs).
# --hang-cycles is passed to each runner (gpumem cosim's watchdog; default
# the command's own). --timeout (default 600) stops a runner that runs that
# long; it counts as a kill only if the runner had written a hang report.
# Needs the main build configured and built (cmake --build build): the
# runners link its model libraries and Verilated libraries. Work folder (--work,
# default DIR/mutation/run): <block>/<mutant>/ with the RTL copy, build,
# build.log, cosim.log, waves/ and replay.sh; replaced on every run.
#
# Exit status: 0 every mutant killed with a complete report; 1 a mutant
# survived, was stillborn (did not build), or its runner failed otherwise, or a
# report/wave file was missing; 2 bad usage, table or setup (including an
# unmutated baseline that does not build or agree).
set -uo pipefail

src=$(cd "$(dirname "$0")/.." && pwd)
build=$src/build
table=$src/verilator/mutation/mutants.txt
config=$src/configs/default.yaml
transactions=200000
seed=1
jobs=2
only=""
sample=""
list=""
work=""
hang_cycles=""
runner_timeout=600
mode=fast
configs=()

die() { echo "mutation-check: $*" >&2; exit 2; }
usage() { sed -n '7,10p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }

while [ $# -gt 0 ]; do
  case $1 in -h|--help|--sample|--list) ;; --*) [ $# -ge 2 ] || die "$1 needs a value" ;; esac
  case $1 in
    --build) build=$2; shift 2 ;;
    --table) table=$2; shift 2 ;;
    --only) only=$2; shift 2 ;;
    --sample) sample=1; shift ;;
    --list) list=1; shift ;;
    --transactions) transactions=$2; shift 2 ;;
    --seed) seed=$2; shift 2 ;;
    --jobs) jobs=$2; shift 2 ;;
    --work) work=$2; shift 2 ;;
    --hang-cycles) hang_cycles=$2; shift 2 ;;
    --timeout) runner_timeout=$2; shift 2 ;;
    --config) configs+=("$2"); shift 2 ;;
    --mode) mode=$2; shift 2 ;;
    -h|--help) usage ;;
    *) echo "mutation-check: unknown argument $1" >&2; usage ;;
  esac
done
[[ $transactions =~ ^[1-9][0-9]*$ && $seed =~ ^[0-9]+$ && $jobs =~ ^[1-9][0-9]*$ ]] ||
  die "--transactions, --seed and --jobs take numbers"
[[ $runner_timeout =~ ^[1-9][0-9]*$ && ( -z $hang_cycles || $hang_cycles =~ ^[1-9][0-9]*$ ) ]] ||
  die "--timeout and --hang-cycles take numbers"
[[ $mode == fast || $mode == pin ]] || die "--mode: fast or pin, not $mode"
[[ -z $only || -z $sample ]] || die "--only and --sample: one or the other"
[ -f "$table" ] || die "no mutant table $table"
[ ${#configs[@]} -gt 0 ] ||
  configs=(built-in "$src/configs/examples/cosim-tlb-geometry.yaml" "$src/configs/examples/cosim-8-channels.yaml"
           "$src/configs/examples/cosim-plru-one-set.yaml" "$src/configs/examples/cosim-lru-sets.yaml")
# The geometries in order: a config path, or "" for the built-in runner
# projects (at pin level: configs/default.yaml and tlb-lru.yaml through --rtl).
geometries=()
for c in "${configs[@]}"; do
  if [ "$c" = built-in ]; then
    if [ $mode = pin ]; then geometries+=("$src/configs/default.yaml" "$src/configs/examples/tlb-lru.yaml")
    else geometries+=(""); fi
    continue
  fi
  [ -f "$c" ] || die "--config: no file $c"
  geometries+=("$(cd "$(dirname "$c")" && pwd)/$(basename "$c")")
done
build=$(cd "$build" 2>/dev/null && pwd) || die "no build folder (cmake -S . -B build && cmake --build build)"
main=$build/mutation
[[ -f $main/main-build.cmake && -f $build/CMakeCache.txt ]] ||
  die "$build has no mutation setup: configure it with this source tree (cmake -S . -B build)"
generator=$(sed -n 's/^CMAKE_GENERATOR:INTERNAL=//p' "$build/CMakeCache.txt")
built_from=$(sed -n 's/^CMAKE_HOME_DIRECTORY:INTERNAL=//p' "$build/CMakeCache.txt")
[ "$built_from" = "$src" ] || die "$build was configured from $built_from, not from $src"

# ---------------------------------------------------------------------------
# The table: [name] then key: value lines. Checked whole before anything builds.
# ---------------------------------------------------------------------------
names=() blocks=() files=() bugs=() froms=() tos=() samples=() keys=()
table_errors=0
table_error() { echo "mutation-check: $table: $*" >&2; table_errors=$((table_errors + 1)); }

trim() { local s=$1; s=${s#"${s%%[![:space:]]*}"}; s=${s%"${s##*[![:space:]]}"}; printf '%s' "$s"; }

n=-1
lineno=0
while IFS= read -r line || [ -n "$line" ]; do
  lineno=$((lineno + 1))
  [[ $line =~ ^[[:space:]]*(#|$) ]] && continue
  if [[ $line =~ ^\[([A-Za-z0-9_.-]+)\][[:space:]]*$ ]]; then
    n=$((n + 1))
    names[n]=${BASH_REMATCH[1]} blocks[n]="" files[n]="" bugs[n]="" froms[n]="" tos[n]="" samples[n]="" keys[n]=" "
    continue
  fi
  if [ $n -lt 0 ] || ! [[ $line =~ ^(block|file|bug|from|to|sample):(.*)$ ]]; then
    table_error "line $lineno: expected [name] or block|file|bug|from|to|sample: value, got: $line"
    continue
  fi
  key=${BASH_REMATCH[1]}
  value=$(trim "${BASH_REMATCH[2]}")
  [[ ${keys[n]} == *" $key "* ]] && table_error "line $lineno: mutant ${names[n]}: a second '$key'"
  keys[n]+="$key "
  case $key in
    block) blocks[n]=$value ;; file) files[n]=$value ;; bug) bugs[n]=$value ;;
    from) froms[n]=${value//'\n'/$'\n'} ;; to) tos[n]=${value//'\n'/$'\n'} ;;
    sample) [ "$value" = yes ] || table_error "line $lineno: mutant ${names[n]}: sample: yes (or no such line), not '$value'"
            samples[n]=1 ;;
  esac
done < "$table"

# Occurrences of a literal text in a file's contents.
count_in() {
  local text=$1 content=$2 rest
  rest=${content//"$text"/}
  echo $(((${#content} - ${#rest}) / ${#text}))
}

declare -A seen=()
for i in "${!names[@]}"; do
  name=${names[i]}
  [ -z "${seen[$name]:-}" ] || table_error "mutant $name: named twice"
  seen[$name]=1
  for key in block file bug from to; do
    [[ ${keys[i]} == *" $key "* ]] || table_error "mutant $name: no '$key:' line"
  done
  for key in block file bug from; do
    declare -n field="${key}s"
    [[ ${keys[i]} != *" $key "* || -n ${field[i]} ]] || table_error "mutant $name: empty '$key'"
    unset -n field
  done
  [ -n "${froms[i]}" ] && [ "${froms[i]}" = "${tos[i]}" ] && table_error "mutant $name: from and to are the same"
  [ -n "${blocks[i]}" ] && [ ! -f "$main/blocks/${blocks[i]}.cmake" ] &&
    table_error "mutant $name: block '${blocks[i]}' is not built by $build (gpumem_verilate() in verilator/CMakeLists.txt)"
  if [ -n "${files[i]}" ] && [ -n "${froms[i]}" ]; then
    if [[ ${files[i]} != rtl/* || ! -f $src/${files[i]} ]]; then
      table_error "mutant $name: no file $src/${files[i]} (an RTL file under rtl/)"
    else
      IFS= read -r -d '' content < "$src/${files[i]}"
      count=$(count_in "${froms[i]}" "$content")
      [ "$count" -eq 1 ] ||
        table_error "mutant $name: its 'from' text occurs $count times in ${files[i]} (must be exactly once): ${froms[i]}"
    fi
  fi
done
# Two rows making the same change would count one fault twice.
declare -A mutation_of=()
for i in "${!names[@]}"; do
  key="${files[i]}"$'\x1f'"${froms[i]}"$'\x1f'"${tos[i]}"
  [ -z "${files[i]}" ] || [ -z "${mutation_of[$key]:-}" ] ||
    table_error "mutant ${names[i]}: the same file, from and to as ${mutation_of[$key]}"
  mutation_of[$key]=${mutation_of[$key]:-${names[i]}}
done
[ ${#names[@]} -gt 0 ] || table_error "no mutants"
[ $table_errors -eq 0 ] || die "$table_errors error(s) in the mutant table, nothing was run"

# On a config the TLB mutants of the other replacement policy do not apply
# (its code is not elaborated), and none do without an MMU; the built-in
# geometries hold every block.
tlb_variants=()
for g in "${!geometries[@]}"; do
  tlb_variants[g]=""
  [ -n "${geometries[g]}" ] || continue
  contract=$("$build/gpumem" cosim --config "${geometries[g]}" --block tlb --contract 2>/dev/null)
  case $contract in *'`PLRU` | `1`'*) tlb_variants[g]=tlb_plru ;; *'`PLRU` | `0`'*) tlb_variants[g]=tlb_lru ;; esac
done
applies_on() { [ -z "${geometries[$2]}" ] || [ "$1" = translator ] || [ "$1" = "${tlb_variants[$2]}" ]; }
applies() {
  local g
  for g in "${!geometries[@]}"; do applies_on "$1" "$g" && return 0; done
  return 1
}

selected=()
if [ -n "$only" ]; then
  IFS=, read -r -a wanted <<< "$only"
  for w in "${wanted[@]}"; do
    found=""
    for i in "${!names[@]}"; do [ "${names[i]}" = "$w" ] && found=$i; done
    [ -n "$found" ] || die "--only: no mutant named $w"
    applies "${blocks[found]}" || die "--only: $w ($(printf '%s' "${blocks[found]}")) applies to none of ${configs[*]}"
    selected+=("$found")
  done
else
  for i in "${!names[@]}"; do
    [[ -z $sample || -n ${samples[i]} ]] && applies "${blocks[i]}" && selected+=("$i")
  done
fi
[ ${#selected[@]} -gt 0 ] || die "no mutant ${sample:+of the sample }applies to ${configs[*]}"
if [ -n "$list" ]; then
  for i in "${selected[@]}"; do printf '%-38s %-10s %s\n' "${names[i]}" "${blocks[i]}" "${bugs[i]}"; done
  exit 0
fi

# ---------------------------------------------------------------------------
# One runner per folder: configure, build, co-simulate, classify.
# ---------------------------------------------------------------------------
# Replaced on every run: the default one, or a --work folder this script made
# (it holds the marker).
if [ -z "$work" ]; then
  work=$main/run
  rm -rf "$work"
elif [ -e "$work" ]; then
  [ -f "$work/.mutation-check" ] || [ -z "$(ls -A "$work")" ] ||
    die "--work $work exists and was not made by this script; not deleting it"
  rm -rf "$work"
fi
{ mkdir -p "$work" && touch "$work/.mutation-check"; } || die "cannot make $work"
build_jobs=$(( jobs >= 2 ? 1 : 2 ))  # two cores: two runners at -j1, or one at -j2

now_ms() { echo $(( ${EPOCHREALTIME/./} / 1000 )); }
secs() { printf '%d.%d' $(($1 / 1000)) $(($1 % 1000 / 100)); }

# build_runner DIR BLOCK CONFIG: 0 when DIR/build/gpumem-mutant was built.
# On a config there is nothing to build here: gpumem cosim --rtl verilates.
build_runner() {
  local dir=$1 block=$2
  [ -z "$3" ] || return 0
  cmake -S "$src/verilator/mutation" -B "$dir/build" -G "$generator" -C "$main/main-build.cmake" \
      -DGPUMEM_BLOCK="$block" -DGPUMEM_RTL_DIR="$dir/rtl" \
      > "$dir/build.log" 2>&1 &&
    cmake --build "$dir/build" -j "$build_jobs" >> "$dir/build.log" 2>&1 &&
    [ -x "$dir/build/gpumem-mutant" ]
}

# The first line that says why a build failed: Verilator's, else the compiler's.
build_failure() {
  grep -m1 -E '%(Error|Warning)' "$1/build.log" || grep -m1 -E 'error' "$1/build.log" || echo "see $1/build.log"
}

# A verilated block (gpumem_verilate() target after gpumem_rtl_) is run as the
# `gpumem cosim --block` it belongs to, with the config that selects it: the
# TLB's variants are tlb_plru (configs/default.yaml) and tlb_lru
# (configs/examples/tlb-lru.yaml).
cosim_block() { case $1 in tlb_*) echo tlb ;; *) echo "$1" ;; esac; }
# block_config BLOCK CONFIG: the config a run uses (CONFIG, or the built-in one).
block_config() {
  case $2$1 in tlb_lru) echo "$src/configs/examples/tlb-lru.yaml" ;; tlb_plru|translator) echo "$config" ;; *) echo "$2" ;; esac
}
# The block's RTL file in a mutated copy (for gpumem cosim --rtl).
block_rtl() { case $1 in tlb_*) echo "$2/rtl/gpumem_nested_tlb.sv" ;; *) echo "$2/rtl/gpumem_xor_translator.sv" ;; esac; }

# run_runner DIR RUNDIR BLOCK CONFIG: the mutated copy in DIR co-simulated
# on CONFIG ("": built-in), its log, waves and replay.sh in RUNDIR.
run_runner() {
  local dir=$1 rundir=$2 block=$3 on=$4
  local args=(--config "$(block_config "$block" "$on")" --block "$(cosim_block "$block")" --transactions "$transactions"
              --seed "$seed" --waves "$rundir/waves")
  [ -z "$hang_cycles" ] || args+=(--hang-cycles "$hang_cycles")
  local runner=("$dir/build/gpumem-mutant")
  if [ -n "$on" ]; then
    runner=(env "GPUMEM_RTL_CACHE=$work/rtl-cache" "$build/gpumem" cosim)
    args+=(--rtl "$(block_rtl "$block" "$dir")" --max-latency 1)
    [ $mode = fast ] || args+=(--mode pin)
  fi
  mkdir -p "$rundir"
  printf '%q ' "${runner[@]}" "${args[@]}" > "$rundir/replay.sh"
  echo >> "$rundir/replay.sh"
  timeout -k 5 "$runner_timeout" "${runner[@]}" "${args[@]}" > "$rundir/cosim.log" 2>&1
}

# A failing run must print the report and write non-empty waves and replay files.
check_report() {
  local log=$1 missing="" f path
  for f in waves replay; do
    path=$(sed -n "s/^$f  *\([^ ]*\).*/\1/p" "$log" | head -1)
    [ -n "$path" ] && [ -s "$path" ] || missing+=" $f-file"
    [ $f = waves ] || [ ! -s "$path" ] || grep -q -- "--seed $seed\b" "$path" || missing+=" seed-in-replay"
  done
  if grep -qE '(protocol violation|hang): (transaction|operation) ' "$log"; then
    grep -qE "(protocol violation|hang): (transaction|operation) [0-9]+, cycle [0-9]+, seed $seed\b" "$log" ||
      missing+=" transaction/cycle/seed"
    grep -q '^  rule: ' "$log" || missing+=" rule"
  elif grep -q 'mismatch: transaction' "$log"; then
    grep -qE "mismatch: transaction [0-9]+( \([^)]*\))?, cycle [0-9]+, seed $seed\b" "$log" || missing+=" transaction/cycle/seed"
    grep -qiE '\bmodel\b.*\brtl\b' "$log" || missing+=" model-and-RTL-columns"
    grep -q 'differs' "$log" || missing+=" differing-field"
  elif ! grep -qE "assertion failed: after [0-9]+ transactions, cycle [0-9]+.*seed $seed\b" "$log"; then
    missing+=" report"
  fi
  echo "${missing# }"
}

# result file: status|transactions|cycle|caught by|build ms|run ms|note|geometry
write_result() { mkdir -p "$1"; printf '%s|%s|%s|%s|%s|%s|%s|%s\n' "$2" "$3" "$4" "$5" "$6" "$7" "$8" "${9:-}" > "$1/result"; }

# geometry_name CONFIG BLOCK: what the table calls the geometry of a run.
geometry_name() { basename "$(block_config "$2" "$1")" .yaml; }

# check_one DIR BLOCK FILE FROM TO: the mutated copy in DIR, then a run on
# each geometry that applies, in order, until one is not a survival (a kill,
# or a failure of the check itself). DIR/result holds the last run's result
# and the geometry it ran on; a run after the first goes in DIR/on-<geometry>.
check_one() {
  local dir=$1 block=$2 file=$3 from=$4 to=$5
  local content g rundir runs=0 build_ms=0 run_ms=0 status tx cycle by b r note name tried=""
  mkdir -p "$dir"
  cp -r "$src/rtl" "$dir/rtl"
  if [ -n "$file" ]; then
    IFS= read -r -d '' content < "$src/$file"
    printf '%s' "${content/"$from"/"$to"}" > "$dir/$file"
    cmp -s "$src/$file" "$dir/$file" && { write_result "$dir" error "" "" "" 0 0 "mutation changed nothing" ""; return; }
  fi
  for g in "${!geometries[@]}"; do
    applies_on "$block" "$g" || continue
    name=$(geometry_name "${geometries[g]}" "$block")
    rundir=$dir
    [ $runs -eq 0 ] || rundir=$dir/on-$name
    run_on "$dir" "$rundir" "$block" "${geometries[g]}"
    runs=$((runs + 1))
    IFS='|' read -r status tx cycle by b r note _ < "$rundir/result"
    build_ms=$((build_ms + b)) run_ms=$((run_ms + r)) tried+="${tried:+, }$name"
    [ "$status" = survived ] || break
  done
  [ "$status" != survived ] || note="survived on every geometry it applies to: $tried"
  write_result "$dir" "$status" "$tx" "$cycle" "$by" "$build_ms" "$run_ms" "$note" "$name"
}

# run_on DIR RUNDIR BLOCK CONFIG: one run of the mutated copy in DIR on
# CONFIG ("": built-in), classified into RUNDIR/result.
run_on() {
  local dir=$1 rundir=$2 block=$3 on=$4
  local t0 t1 t2 rc status tx="" cycle="" by="" note=""
  t0=$(now_ms)
  if ! build_runner "$dir" "$block" "$on"; then
    t1=$(now_ms)
    write_result "$rundir" stillborn "" "" "" $((t1 - t0)) 0 "$(build_failure "$dir")"
    return
  fi
  t1=$(now_ms)
  run_runner "$dir" "$rundir" "$block" "$on"
  rc=$?
  t2=$(now_ms)
  if [ -n "$on" ]; then  # the build was part of the run: split it out
    [ $rc -ne 2 ] || { write_result "$rundir" stillborn "" "" "" $((t2 - t1)) 0 "$(grep -m1 'gpumem: error' "$rundir/cosim.log")"; return; }
    local built
    # "in 10.374 s" (or "in 9.9 s"): milliseconds
    built=$(sed -n 's/.*(verilated and compiled now, in \([0-9]*\)\.\([0-9]*\) s).*/\1 \2/p' "$rundir/cosim.log" |
            awk '{ f = substr($2 "000", 1, 3); print $1 * 1000 + f }')
    [ -z "$built" ] || { t1=$((t1 + 10#$built)); [ $t1 -le $t2 ] || t1=$t2; }
  fi
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
    # Killed by the timeout: a kill only if the watchdog had reported the hang.
    if m=$(grep -m1 -oE 'hang: (transaction|operation) [0-9]+, cycle [0-9]+' "$rundir/cosim.log"); then
      [[ $m =~ ([0-9]+),\ cycle\ ([0-9]+) ]]
      write_result "$rundir" killed $((BASH_REMATCH[1] + 1)) "${BASH_REMATCH[2]}" "hang (then timeout)" $((t1 - t0)) \
        $((t2 - t1)) ""
    else
      write_result "$rundir" timeout "" "" "" $((t1 - t0)) $((t2 - t1)) \
        "runner still running after --timeout $runner_timeout s, with no hang report: the watchdog did not fire"
    fi
    return
  fi
  if [ $rc -eq 0 ] && grep -q '^result *agreement' "$rundir/cosim.log"; then
    status=survived
  elif [ $rc -eq 1 ]; then
    status=killed
    local m assertion
    if m=$(grep -m1 -oE 'assertion failed: after [0-9]+ transactions, cycle [0-9]+' "$rundir/cosim.log"); then
      [[ $m =~ after\ ([0-9]+)\ transactions,\ cycle\ ([0-9]+) ]]
      tx=${BASH_REMATCH[1]} cycle=${BASH_REMATCH[2]}
      assertion=$(grep -m1 -oE 'Assertion failed in [^:]*' "$rundir/cosim.log" | sed 's/.*\.//')
      by="assertion ${assertion:-?}"
    fi
    # The scoreboard's mismatch, when there is one, counts (the same cycle as
    # an assertion, or the only failure).
    # The TLB's first line adds "(operation N, lookup attempt A)" after the transaction.
    if m=$(grep -m1 -oE 'mismatch: transaction [0-9]+( \([^)]*\))?, cycle [0-9]+' "$rundir/cosim.log"); then
      [[ $m =~ transaction\ ([0-9]+).*,\ cycle\ ([0-9]+) ]]
      tx=$((BASH_REMATCH[1] + 1)) cycle=${BASH_REMATCH[2]} by="mismatch${by:+ + $by}"
    fi
    # A broken handshake or a hang stops the run before any later comparison.
    if m=$(grep -m1 -oE '(protocol violation|hang): (transaction|operation) [0-9]+, cycle [0-9]+' "$rundir/cosim.log"); then
      [[ $m =~ ^(protocol\ violation|hang):\ [a-z]+\ ([0-9]+),\ cycle\ ([0-9]+) ]]
      tx=$((BASH_REMATCH[2] + 1)) cycle=${BASH_REMATCH[3]}
      if [ "${BASH_REMATCH[1]}" = hang ]; then by="hang${by:+ + $by}"; else
        by="protocol: $(sed -n 's/^  rule: *\([^:]*\).*/\1/p' "$rundir/cosim.log" | head -1)${by:+ + $by}"
      fi
    fi
    note=$(check_report "$rundir/cosim.log")
    [ -z "$note" ] || { status=incomplete; note="report lacks: $note"; }
  else
    status=error
    if grep -q 'Assertion failed' "$rundir/cosim.log"; then
      note="runner aborted (rc $rc) on an RTL assertion without a report; see VerilatedHarness::assertion_failed"
    else
      note="runner exited with $rc: $(grep -m1 -v '^ *$' "$rundir/cosim.log" | tail -c 200)"
    fi
  fi
  write_result "$rundir" "$status" "$tx" "$cycle" "$by" $((t1 - t0)) $((t2 - t1)) "$note"
}

# Runs "$@" in the background, at most $jobs at a time.
pool() {
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
  "$@" &
}

start=$(now_ms)
declare -A used_blocks=()
for i in "${selected[@]}"; do used_blocks[${blocks[i]}]=1; done

# Baselines: the unmutated RTL through the same steps must build and agree,
# or the check itself is broken (and every "kill" would mean nothing).
echo "mutation-check: ${#selected[@]} mutant(s), blocks: ${!used_blocks[*]}; $transactions transactions, seed $seed, $mode mode;" \
     "on ${configs[*]}; work $work"
for block in "${!used_blocks[@]}"; do
  pool check_one "$work/$block/baseline" "$block" "" "" ""
done
wait
for block in "${!used_blocks[@]}"; do
  dir=$work/$block/baseline
  IFS='|' read -r status _ _ _ build_ms _ note on < "$dir/result"
  if [ "$status" != survived ]; then
    echo "mutation-check: the unmutated $block RTL does not pass through the check on $on ($status):" \
         "${note:-see the cosim.log under $dir}" >&2
    [ -f "$dir/build.log" ] && tail -20 "$dir/build.log" >&2
    echo "mutation-check: is the main build built? (cmake --build $build)" >&2
    exit 2
  fi
  echo "baseline $block: builds in $(secs "$build_ms") s and agrees (${note#survived on every geometry it applies to: })"
done

for i in "${selected[@]}"; do
  block=${blocks[i]}
  pool check_one "$work/$block/${names[i]}" "$block" "${files[i]}" "${froms[i]}" "${tos[i]}"
done
wait

# ---------------------------------------------------------------------------
# The table.
# ---------------------------------------------------------------------------
killed=0 failed=0 build_total=0
summary=$work/summary.tsv
printf 'mutant\tblock\tresult\ton\ttransactions\tcycle\tcaught by\tbuild s\trun s\tbug\n' > "$summary"
printf '\n%-38s %-10s %-10s %-19s %12s %9s %-38s %7s %6s\n' mutant block result on transactions cycle "caught by" "build s" "run s"
for i in "${selected[@]}"; do
  dir=$work/${blocks[i]}/${names[i]}
  IFS='|' read -r status tx cycle by build_ms run_ms note on < "$dir/result"
  build_total=$((build_total + build_ms))
  printf '%-38s %-10s %-10s %-19s %12s %9s %-38s %7s %6s\n' "${names[i]}" "${blocks[i]}" "$status" "${on:--}" "${tx:--}" \
    "${cycle:--}" "${by:--}" "$(secs "$build_ms")" "$(secs "$run_ms")"
  [ -z "$note" ] || printf '    %s\n' "$note"
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "${names[i]}" "${blocks[i]}" "$status" "$on" "$tx" "$cycle" "$by" \
    "$(secs "$build_ms")" "$(secs "$run_ms")" "${bugs[i]}" >> "$summary"
  if [ "$status" = killed ]; then killed=$((killed + 1)); else failed=$((failed + 1)); fi
done
total=$(( $(now_ms) - start ))
echo
echo "mutation-check: $killed of ${#selected[@]} mutants killed in $(secs "$total") s" \
     "(mean build $(secs $((build_total / ${#selected[@]}))) s per mutant, $jobs at a time); table: $summary"
if [ $failed -gt 0 ]; then
  echo "mutation-check: FAILED: $failed mutant(s) not killed with a complete report (logs in $work/<block>/<mutant>/)" >&2
  exit 1
fi
