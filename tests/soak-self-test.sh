#!/usr/bin/env bash
# Self-test of scripts/soak.sh (CTest soak.self_test, default suite): against
# a stand-in build whose gpumem fails one seed of one block, the soak must
# exit 1, count the failure under its block, and print the command that
# reproduces it; with nothing failing it must exit 0 and say zero mismatches.
# Bad options exit 2 before anything runs.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/build/tests"
cat >"$work/build/gpumem" <<'STUB'
#!/usr/bin/env bash
# Fails the TLB's fast-mode seed 2 on the LRU config, as a mismatch would.
case " $* " in
  *"tlb-lru.yaml --block tlb --mode fast "*" --seed 2 "*) echo "tlb mismatch at transaction 7"; exit 1 ;;
esac
echo "result       agreement"
STUB
for p in gpumem_property_tests gpumem_explorer_property_tests; do
  printf '#!/bin/sh\necho "RC_PARAMS=$RC_PARAMS"\n' >"$work/build/tests/$p"
  chmod +x "$work/build/tests/$p"
done
chmod +x "$work/build/gpumem"
fail() { echo "soak self-test: $*" >&2; exit 1; }
run() { "$root/scripts/soak.sh" --build "$work/build" --out "$work/out" "$@" >"$work/log" 2>&1; }

status=0
run --seeds 3 --transactions 10 --pin-transactions 5 --property-cases 7 || status=$?
[ $status -eq 1 ] || fail "a failing job must exit 1, got $status: $(cat "$work/log")"
grep -q "tlb-lru-fast-seed2 *FAILED (exit 1)" "$work/log" || fail "no progress line for the failed job"
grep -q "tlb-lru .* 4 runs, 35 co-simulated transactions, 1 failed runs" "$work/log" || fail "summary: $(cat "$work/log")"
grep -q "translator .* 4 runs, 35 co-simulated transactions, 0 failed runs" "$work/log" || fail "summary: $(cat "$work/log")"
grep -q -- "--block tlb --mode fast --transactions 10 --seed 2 " "$work/log" || fail "no command to reproduce the failure"
grep -q "tlb mismatch at transaction 7" "$work/out/logs/tlb-lru-fast-seed2.log" || fail "the job's log lost its output"
for log in properties explorer-properties; do
  grep -q "RC_PARAMS=max_success=7 seed=1" "$work/out/logs/$log.log" || fail "property cases not passed on to $log"
done

run --seeds 1 --first-seed 5 --transactions 10 --pin-transactions 5 --property-cases 7 || fail "passing jobs must exit 0: $(cat "$work/log")"
grep -q "soak: zero mismatches, every job passed" "$work/log" || fail "no all-clear"

for bad in "--seeds 0" "--jobs x" "--transactions" "--bogus 1"; do
  status=0
  # shellcheck disable=SC2086
  run $bad || status=$?
  [ $status -eq 2 ] || fail "'$bad' must exit 2, got $status"
done
status=0
"$root/scripts/soak.sh" --build "$work/nowhere" >"$work/log" 2>&1 || status=$?
[ $status -eq 2 ] && grep -q "no build folder" "$work/log" || fail "a missing build folder must exit 2 naming it"
echo "soak self-test: ok"
