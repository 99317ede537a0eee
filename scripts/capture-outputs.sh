#!/usr/bin/env bash
# Every output a change that should not change behaviour must leave alone,
# from one gpumem binary into one folder, with a checksum list to compare:
#   scripts/capture-outputs.sh BUILD/gpumem OUT     (then: diff OUT1/sums.txt OUT2/sums.txt)
# Runs every config in configs/ (stats JSON, transaction log, report), BFS
# traces of R-MAT scales 12 to 16 through configs/examples/bfs.yaml and
# bfs-prefetch.yaml with both issue timings on simple and HBM2 channels,
# transpose, stencil, random and strided traces, BFS 12 to 14 and those
# traces again in simulation.timing at, and `gpumem trace order`
# on them; and `gpumem explore` on every config (as given, and with
# --beam 1 --window 32) and on a page-striding CSV trace at K = 16 (one
# thread and two). Paths in the outputs are the same from run to run: the
# derived configs and traces go under OUT/../capture-inputs, shared by
# captures. sums.txt lists the run outputs first, then explore/*.
set -euo pipefail
[ $# -eq 2 ] || { echo "usage: $0 GPUMEM OUT" >&2; exit 2; }
G=$(realpath "$1")
OUT=$(realpath -m "$2")
SRC=$(cd "$(dirname "$0")/.." && pwd)
IN=$(dirname "$OUT")/capture-inputs
mkdir -p "$OUT/run" "$OUT/explore" "$IN"
cd "$SRC"

run() {  # NAME ARGS...: the report, stats JSON and transaction log of one run, and its exit code
  local n=$1
  shift
  "$G" run "$@" --stats-json "$OUT/run/$n.json" --txn-log "$OUT/run/$n.txn" --no-timing > "$OUT/run/$n.out" 2>&1 &&
    echo "exit 0" >> "$OUT/run/$n.out" || echo "exit $?" >> "$OUT/run/$n.out"
}

for c in configs/default.yaml configs/examples/*.yaml; do run "$(basename "$c" .yaml)" --config "$c"; done

# The traces, made once (by the binary of the first capture) and shared.
for s in 12 13 14 15 16; do
  [ -f "$IN/bfs$s.bin" ] || "$G" trace gen bfs --scale $s --config configs/examples/bfs.yaml --app bfs --region graph --out "$IN/bfs$s.bin" --quiet
done
for k in transpose stencil random strided; do
  [ -f "$IN/$k.bin" ] || "$G" trace gen $k --config configs/examples/bfs.yaml --app bfs --region graph --out "$IN/$k.bin" --quiet
done

for base in bfs bfs-prefetch; do
  for timing in ordering memory; do
    for memory in simple hbm2; do
      cfg=$IN/$base-$timing-$memory.yaml
      python3 - "configs/examples/$base.yaml" "$cfg" "$timing" "$memory" <<'PY'
import sys, yaml
src, dst, timing, memory = sys.argv[1:]
d = yaml.safe_load(open(src))
d.setdefault('frontend', {})['issue_timing'] = timing
if memory != 'simple':
    d['memory']['preset'] = memory
    d['memory'].pop('service_cycles', None)
yaml.safe_dump(d, open(dst, 'w'), sort_keys=False)
PY
      for s in 12 13 14 15 16; do run "$base-$timing-$memory-$s" --config "$cfg" --threads "$IN/bfs$s.bin"; done
    done
  done
done
for k in transpose stencil random strided; do
  for timing in ordering memory; do run "$k-$timing" --config "$IN/bfs-$timing-hbm2.yaml" --threads "$IN/$k.bin"; done
done
# simulation.timing at (its outputs must repeat too): the SMs as the memory
# answers on HBM2 channels, with and without the L1s and the BFS prefetcher,
# and the CSV trace player on a DRAM config.
for base in bfs bfs-prefetch; do
  cfg=$IN/$base-at-hbm2.yaml
  python3 - "$IN/$base-memory-hbm2.yaml" "$cfg" <<'PY'
import sys, yaml
d = yaml.safe_load(open(sys.argv[1]))
d.setdefault('simulation', {})['timing'] = 'at'
yaml.safe_dump(d, open(sys.argv[2], 'w'), sort_keys=False)
PY
  for s in 12 13 14; do run "$base-at-hbm2-$s" --config "$cfg" --threads "$IN/bfs$s.bin"; done
done
for k in transpose stencil random strided; do run "$k-at" --config "$IN/bfs-at-hbm2.yaml" --threads "$IN/$k.bin"; done
for t in bfs12 bfs14 bfs16 transpose stencil random strided; do
  "$G" trace order --config configs/examples/bfs.yaml --threads "$IN/$t.bin" --out "$OUT/run/order-$t.csv" > "$OUT/run/order-$t.out" 2>&1 &&
    echo "exit 0" >> "$OUT/run/order-$t.out" || echo "exit $?" >> "$OUT/run/order-$t.out"
done
explore() {  # NAME ARGS...: the report, JSON and tasks list of one explore, and its exit code
  local n=$1
  shift
  "$G" explore "$@" --json "$OUT/explore/$n.json" --emit-yaml "$OUT/explore/$n.tasks.yaml" > "$OUT/explore/$n.out" 2>&1 &&
    echo "exit 0" >> "$OUT/explore/$n.out" || echo "exit $?" >> "$OUT/explore/$n.out"
}
for c in configs/default.yaml configs/examples/*.yaml; do
  explore "$(basename "$c" .yaml)" --config "$c"
  explore "$(basename "$c" .yaml)-beam1-w32" --config "$c" --beam 1 --window 32
done
# gpumem_bench_explorer's strided stream (eight warps, each its own page
# stride; the line in address bits 8-11), 200,000 requests, K = 16.
if [ ! -f "$IN/strided-pages.csv" ]; then
  printf 'memory: {address_bits: 40, channels: 16, service_cycles: 1, max_outstanding: 64}\ntranslator:\n  channel_bits: [8, 9, 10, 11]\n  candidate_bits: [12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27]\n' > "$IN/k16.yaml"
  python3 - "$IN/strided-pages.csv" <<'PY'
import sys
page = [w << 20 for w in range(8)]
with open(sys.argv[1], 'w') as f:
    f.write("cycle,task_type,op,address,size\n")
    for i in range(200000):
        w = i % 8
        page[w] += 1 + w
        f.write("0,0,R,0x%x,64\n" % (page[w] << 12 | ((i // 8) & 15) << 8))
PY
fi
explore k16-strided --config "$IN/k16.yaml" --trace "$IN/strided-pages.csv"
explore k16-strided-threads2 --config "$IN/k16.yaml" --trace "$IN/strided-pages.csv" --jobs 2 --beam 2
(cd "$OUT/run" && md5sum -- * > ../sums.txt)
(cd "$OUT" && md5sum -- explore/* >> sums.txt)
echo "$(wc -l < "$OUT/sums.txt") outputs in $OUT; compare: diff OTHER/sums.txt $OUT/sums.txt"
