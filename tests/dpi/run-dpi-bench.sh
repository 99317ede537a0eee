#!/usr/bin/env bash
# The proof of the DPI-C library (docs/dpi.md): tests/dpi/translator_dpi_tb.sv,
# a SystemVerilog bench with no C++ of its own, is built with
# `verilator --binary` against libgpumem_dpi.so as docs/dpi.md shows, and
#   - on the project's translator it must agree and print the same summary as
#     `gpumem cosim --block translator` on the same seed;
#   - with --mutant NAME (a translator mutant of verilator/mutation/mutants.txt)
#     it must stop at a mismatch, the same transaction and cycle at which
#     `gpumem cosim --rtl` stops on the same mutated source.
#
#   tests/dpi/run-dpi-bench.sh --build DIR --work DIR [--mutant NAME]
#       [--seed S] [--transactions N] [--cxx COMPILER] [--cxxflags=FLAGS] [--ldflags=FLAGS]
#
# --cxx and the flags build the bench with the build's own compiler (the
# sanitizer build's clang and -fsanitize flags, say). Exit 0 when it holds.
set -uo pipefail

src=$(cd "$(dirname "$0")/../.." && pwd)
build="" work="" mutant="" seed=1 transactions=200000 cxx="" cxxflags="" ldflags=""
die() { echo "run-dpi-bench: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  # --key=value too: CTest drops an empty argument, so an empty flag list comes that way.
  if [[ $1 == --*=* ]]; then set -- "${1%%=*}" "${1#*=}" "${@:2}"; fi
  [ $# -ge 2 ] || die "$1 needs a value"
  case $1 in
    --build) build=$2 ;; --work) work=$2 ;; --mutant) mutant=$2 ;; --seed) seed=$2 ;;
    --transactions) transactions=$2 ;; --cxx) cxx=$2 ;; --cxxflags) cxxflags=$2 ;; --ldflags) ldflags=$2 ;;
    *) die "unknown argument $1" ;;
  esac
  shift 2
done
[ -n "$build" ] && [ -n "$work" ] || die "--build and --work are required"
build=$(cd "$build" && pwd) || die "no build folder $build"
lib=$build/tb/dpi/libgpumem_dpi.so
[ -f "$lib" ] || die "no $lib (build the project first)"
rm -rf "$work" && mkdir -p "$work" || die "cannot make $work"
config=$src/configs/default.yaml

# The translator source: rtl/'s, or a copy with one mutant of the table applied.
rtl=$src/rtl/gpumem_xor_translator.sv
if [ -n "$mutant" ]; then
  rtl=$work/gpumem_xor_translator.sv
  python3 - "$src/verilator/mutation/mutants.txt" "$mutant" "$src" "$rtl" <<'EOF' || die "cannot apply mutant $mutant"
import sys
table, name, src, out = sys.argv[1:]
records, cur = {}, None
for line in open(table):
    line = line.rstrip("\n")
    if not line.strip() or line.lstrip().startswith("#"):
        continue
    if line.startswith("["):
        cur = records.setdefault(line.strip()[1:-1], {})
    elif cur is not None and ":" in line:
        key, value = line.split(":", 1)
        cur[key.strip()] = value.strip().replace("\\n", "\n")
m = records.get(name)
if not m or m.get("block") != "translator":
    sys.exit(f"no translator mutant {name} in {table}")
text = open(f"{src}/{m['file']}").read()
if text.count(m["from"]) != 1:
    sys.exit(f"mutant {name}: its 'from' text does not occur exactly once")
open(out, "w").write(text.replace(m["from"], m["to"]))
EOF
fi

# The two commands docs/dpi.md shows, so the page cannot drift from what
# runs (tests/dpi/doc_command.py makes its paths this run's).
read_command() {
  local -n out=$1
  out=()
  while IFS= read -r -d '' a; do out+=("$a"); done < <(
    python3 "$src/tests/dpi/doc_command.py" "$src/docs/dpi.md" "$2" "$src" "$build" "$work" "$rtl")
}
read_command build_cmd build
read_command run_cmd run
[ ${#build_cmd[@]} -gt 0 ] && [ ${#run_cmd[@]} -gt 0 ] || die "cannot read the commands from docs/dpi.md"
for i in "${!run_cmd[@]}"; do  # the run's seed and length are the test's
  case ${run_cmd[i]} in +seed=*) run_cmd[i]=+seed=$seed ;; +transactions=*) run_cmd[i]=+transactions=$transactions ;; esac
done

build_bench() {
  local extra=()
  [ -z "$cxx" ] || extra+=(-MAKEFLAGS "CXX=$cxx LINK=$cxx")
  [ -z "$cxxflags" ] || extra+=(-CFLAGS "$cxxflags")
  [ -z "$ldflags" ] || extra+=(-LDFLAGS "$ldflags")
  echo "${build_cmd[*]} ${extra[*]}" > "$work/build.log"
  "${build_cmd[@]}" "${extra[@]}" >> "$work/build.log" 2>&1
}
build_bench || { tail -20 "$work/build.log"; die "the bench did not build (see $work/build.log)"; }

"${run_cmd[@]}" > "$work/bench.log" 2>&1
bench_rc=$?
cat "$work/bench.log"

cosim=("$build/gpumem" cosim --config "$config" --block translator --seed "$seed" --transactions "$transactions"
       --waves "$work/waves")
[ -z "$mutant" ] || cosim+=(--rtl "$rtl")
"${cosim[@]}" > "$work/cosim.log" 2>&1
cosim_rc=$?

if [ -z "$mutant" ]; then
  [ $bench_rc -eq 0 ] || { echo "FAIL: the DPI bench did not agree with the project's RTL (exit $bench_rc)"; exit 1; }
  [ $cosim_rc -eq 0 ] || { cat "$work/cosim.log"; echo "FAIL: gpumem cosim did not agree (exit $cosim_rc)"; exit 1; }
  for key in compared writes; do
    a=$(grep -m1 "^$key " "$work/bench.log") b=$(grep -m1 "^$key " "$work/cosim.log")
    [ -n "$a" ] && [ "$a" = "$b" ] || { echo "FAIL: '$key' differs: DPI bench '$a', gpumem cosim '$b'"; exit 1; }
  done
  if [ "$seed" = 1 ] && [ "$transactions" = 200000 ]; then  # the run docs/dpi.md shows: its output too
    while IFS= read -r line; do
      grep -qxF -- "$line" "$work/bench.log" || { echo "FAIL: docs/dpi.md shows '$line', the bench did not print it"; exit 1; }
    done < <(python3 "$src/tests/dpi/doc_command.py" "$src/docs/dpi.md" run --output)
  fi
  echo "PASS: the DPI bench and gpumem cosim agree with the RTL, with the same counts"
  exit 0
fi

[ $bench_rc -ne 0 ] || { echo "FAIL: the DPI bench did not catch mutant $mutant"; exit 1; }
dpi=$(sed -n 's/^MISMATCH transaction \([0-9]*\).*, cycle \([0-9]*\),.*/\1 \2/p' "$work/bench.log" | head -1)
[ -n "$dpi" ] || { echo "FAIL: the DPI bench failed without a mismatch report"; exit 1; }
cat "$work/cosim.log"
[ $cosim_rc -eq 1 ] || { echo "FAIL: gpumem cosim --rtl did not catch mutant $mutant (exit $cosim_rc)"; exit 1; }
ref=$(sed -n 's/^translator mismatch: transaction \([0-9]*\).*, cycle \([0-9]*\),.*/\1 \2/p' "$work/cosim.log" | head -1)
[ "$dpi" = "$ref" ] || { echo "FAIL: transaction and cycle: DPI bench '$dpi', gpumem cosim '$ref'"; exit 1; }
echo "PASS: mutant $mutant caught by the DPI bench and by gpumem cosim at transaction and cycle $dpi"
