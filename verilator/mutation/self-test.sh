#!/usr/bin/env bash
# The mutation check must be able to fail: a stale table row stops it before
# anything builds, and a mutant that survives or does not build fails it.
# CTest rtl.mutation.self_test; usage: self-test.sh BUILD_DIR
set -uo pipefail
build=${1:?usage: self-test.sh BUILD_DIR}
check=$(cd "$(dirname "$0")/../.." && pwd)/scripts/mutation-check.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failures=0
fail() { echo "self-test: FAILED: $*" >&2; failures=$((failures + 1)); }

# 1. Texts that occur 0 or 2 times, and a mutation made twice: exit 2, each
# mutant named, nothing run.
cat > "$tmp/stale.txt" <<'EOF'
[text_gone]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   the RTL no longer holds the text
from:  this text is not in the RTL
to:    x

[text_twice]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   the text is ambiguous
from:  end else begin
to:    end else if (1'b1) begin

[change_once]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   a change
from:  assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:    assign req_ready_o = rsp_ready_i;

[same_change_again]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   the same change under another name
from:  assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:    assign req_ready_o = rsp_ready_i;
EOF
out=$("$check" --build "$build" --table "$tmp/stale.txt" --work "$tmp/work-stale" 2>&1)
rc=$?
echo "$out"
[ $rc -eq 2 ] || fail "a stale table exits with $rc, not 2"
grep -q "mutant text_gone: its 'from' text occurs 0 times" <<< "$out" || fail "text_gone not named"
grep -qE "mutant text_twice: its 'from' text occurs [2-9] times" <<< "$out" || fail "text_twice not named"
grep -q "mutant same_change_again: the same file, from and to as change_once" <<< "$out" || fail "a repeated mutation not named"
[ ! -d "$tmp/work-stale/translator" ] || fail "something was built from a stale table"

# Bad options: exit 2, the option named, nothing built.
for bad in "--timeout 0" "--timeout soon" "--hang-cycles -1"; do
  # shellcheck disable=SC2086
  out=$("$check" --build "$build" $bad --work "$tmp/work-bad" 2>&1)
  rc=$?
  [ $rc -eq 2 ] || fail "$bad exits with $rc, not 2"
  grep -q -- "--timeout and --hang-cycles take numbers" <<< "$out" || fail "$bad: the options are not named: $out"
  [ ! -d "$tmp/work-bad" ] || fail "$bad: something was built"
done
# --config of a file that is not there.
out=$("$check" --build "$build" --config "$tmp/no-such.yaml" --work "$tmp/work-bad" 2>&1)
[ $? -eq 2 ] && grep -q -- "--config: no file $tmp/no-such.yaml" <<< "$out" || fail "--config of a missing file: $out"
[ ! -d "$tmp/work-bad" ] || fail "--config of a missing file: something was built"
# --mode other than fast or pin.
out=$("$check" --build "$build" --mode slow --work "$tmp/work-bad" 2>&1)
[ $? -eq 2 ] && grep -q -- "--mode: fast or pin, not slow" <<< "$out" || fail "--mode slow: $out"
[ ! -d "$tmp/work-bad" ] || fail "--mode slow: something was built"

# The sample: --sample --list names the marked mutants alone; a bad mark,
# a sample that is empty, and --sample with --only stop it (exit 2).
cat > "$tmp/sample.txt" <<'EOF'
[in_the_sample]
block:  translator
sample: yes
file:   rtl/gpumem_xor_translator.sv
bug:    marked
from:   assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:     assign req_ready_o = rsp_ready_i;

[outside_the_sample]
block:  translator
file:   rtl/gpumem_xor_translator.sv
bug:    not marked
from:   assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:     assign req_ready_o = !rsp_valid_q;
EOF
out=$("$check" --build "$build" --table "$tmp/sample.txt" --sample --list 2>&1)
[ $? -eq 0 ] && grep -q '^in_the_sample ' <<< "$out" && ! grep -q outside_the_sample <<< "$out" ||
  fail "--sample --list does not name the marked mutant alone: $out"
[ "$("$check" --build "$build" --table "$tmp/sample.txt" --list 2>&1 | wc -l)" -eq 2 ] || fail "--list does not name both mutants"
sed 's/^sample: yes/sample: maybe/' "$tmp/sample.txt" > "$tmp/sample-bad.txt"
out=$("$check" --build "$build" --table "$tmp/sample-bad.txt" --sample --work "$tmp/work-bad" 2>&1)
[ $? -eq 2 ] && grep -q "line 3: mutant in_the_sample: sample: yes (or no such line), not 'maybe'" <<< "$out" ||
  fail "a bad sample mark: $out"
grep -v '^sample:' "$tmp/sample.txt" > "$tmp/sample-none.txt"
out=$("$check" --build "$build" --table "$tmp/sample-none.txt" --sample --work "$tmp/work-bad" 2>&1)
[ $? -eq 2 ] && grep -q "no mutant of the sample applies" <<< "$out" || fail "an empty sample: $out"
out=$("$check" --build "$build" --only in_the_sample --sample --work "$tmp/work-bad" 2>&1)
[ $? -eq 2 ] && grep -q -- "--only and --sample: one or the other" <<< "$out" || fail "--only with --sample: $out"
[ ! -d "$tmp/work-bad" ] || fail "the sample's bad uses built something"

# A mutant named by --only whose block none of the geometries has: exit 2.
cat > "$tmp/lru-only.txt" <<'EOF'
[lru_only]
block: tlb_lru
file:  rtl/gpumem_nested_tlb.sv
bug:   a mutant of the LRU variant's block
from:  assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:    assign req_ready_o = rsp_ready_i;
EOF
out=$("$check" --build "$build" --table "$tmp/lru-only.txt" --only lru_only --config "$(dirname "$check")/../configs/examples/bfs-prefetch.yaml" \
  --work "$tmp/work-bad" 2>&1)
[ $? -eq 2 ] && grep -q -- "--only: lru_only (tlb_lru) applies to none of " <<< "$out" || fail "--only of a mutant no geometry has: $out"
[ ! -d "$tmp/work-bad" ] || fail "--only of a mutant no geometry has: something was built"

# 2. An equivalent mutant survives, a lint failure is stillborn, and a runner
# that hangs with the watchdog out of reach is stopped by --timeout and not
# counted as a kill (no hang report): exit 1.
cat > "$tmp/weak.txt" <<'EOF'
[equivalent_ready]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   the same function written differently: nothing can kill it
from:  assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:    assign req_ready_o = rsp_ready_i || !rsp_valid_q;

[unused_signal]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   an undriven, unread signal: verilator -Wall refuses it
from:  logic [CHANNEL_BIT_COUNT-1:0]  channel;
to:    logic [CHANNEL_BIT_COUNT-1:0]  channel; logic never_read;

[dead_ready_unwatched]
block: translator
file:  rtl/gpumem_xor_translator.sv
bug:   a dead ready with the watchdog set beyond the timeout: the runner never ends by itself
from:  assign req_ready_o = !rsp_valid_q || rsp_ready_i;
to:    assign req_ready_o = rsp_valid_q && rsp_ready_i;
EOF
out=$("$check" --build "$build" --table "$tmp/weak.txt" --work "$tmp/work-weak" --hang-cycles 1000000000000 \
  --timeout 5 --config built-in 2>&1)
rc=$?
echo "$out"
[ $rc -eq 1 ] || fail "a surviving and a stillborn mutant exit with $rc, not 1"
grep -qE '^equivalent_ready +translator +survived' <<< "$out" || fail "equivalent_ready not reported as survived"
grep -qE '^unused_signal +translator +stillborn' <<< "$out" || fail "unused_signal not reported as stillborn"
grep -q '%Warning-UNUSED\|%Warning-UNDRIVEN\|%Error' <<< "$out" || fail "the stillborn mutant's Verilator message is not shown"
grep -qE '^dead_ready_unwatched +translator +timeout' <<< "$out" || fail "dead_ready_unwatched not reported as timeout"
grep -q 'with no hang report' <<< "$out" || fail "the timeout's note does not say the watchdog did not fire"

[ $failures -eq 0 ] && echo "self-test: the mutation check fails when it should"
exit $((failures > 0))
