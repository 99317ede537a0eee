#!/usr/bin/env python3
"""Write the DRAM comparison traces that gpumem, DRAMsim3 and Ramulator 2 run.

    scripts/dram_peer_traces.py OUTDIR [--requests N]      (N = 100000 by default)

For each device (ddr4, hbm2, ddr4_2r, ddr5, hbm3, lpddr5) and each trace below it writes, under OUTDIR/DEVICE/:

    TRACE.trc    DRAMsim3's trace format, `0xADDR READ|WRITE CYCLE`; gpumem reads it
                 with `--trace-format dramsim3` (hbm3's and lpddr5's with `--request-bytes 32`)
    TRACE.csv    gpumem's own trace, `cycle,task_type,op,address,size`
    TRACE.ldst   Ramulator 2's LoadStoreTrace, `LD|ST 0xADDR` (no cycle: it offers one
                 request a memory cycle; run `unloaded` with the memory system's
                 clock_ratio at 200 and the front end's at 1; hbm3, whose Ramulator
                 2.1 controller ticks twice a memory cycle: 2 and 400)

Requests are 64 bytes (hbm3 and lpddr5: 32, REQUEST_BYTES) at physical addresses of one channel,
request i offered at cycle i (except `unloaded`). A request is one column access
in every simulator: hbm3's access is 32 bytes (BL8 on a 32-bit pseudo-channel);
Ramulator 2.1 gives each request one read or write command of its 32-byte
transaction, and gpumem would serve a 64-byte request with one 32-byte access
too, so with 64-byte requests both would skip every other column and count 64
bytes for 32 moved. Addresses follow the order row-rank-bankgroup-bank-column
(gpumem `memory.dram.address_order`, DRAMsim3 `address_mapping`) with one rank:

    ddr4 (DDR4_8Gb_x8_3200, one rank, 8 GiB): column 6-12, bank group 13-14, bank 15-16,
         row 17-32; gpumem `row-rank-bank-bankgroup-column`, DRAMsim3 `rochrababgco`,
         Ramulator 2 `RoBaRaCoCh` (it decodes these addresses as they are)
    hbm2 (HBM2_8Gb_x128, one channel, 1 GiB): column 6-10, bank 11-12, bank group 13-14,
         row 15-29; gpumem `row-rank-bankgroup-bank-column`, DRAMsim3 `rorabgbachco`.
         Ramulator 2's `RoBaRaCoCh` puts the bank group below the bank, so the .ldst
         file has bits 11-12 and 13-14 swapped: it decodes to the same bank group,
         bank, row and column (and is not for gpumem).
    ddr4_2r (DDR4_8Gb_x8_3200 as its preset, two ranks, 16 GiB): column 6-12, bank group
         13-14, bank 15-16, rank 17, row 18-33; gpumem `row-rank-bank-bankgroup-column`
         (the ddr4 preset as it is), DRAMsim3 `rochrababgco` (its stock configuration).
         Ramulator 2's `RoBaRaCoCh` puts the rank below the bank, so the .ldst file has
         bit 17 moved to bit 13 and bits 13-16 to 14-17.
    ddr5 (DDR5_16Gb_x8, one 32-bit sub-channel, one rank, 8 GiB): column 6-11, bank group
         12-14, bank 15-16, row 17-32; gpumem `row-rank-bank-bankgroup-column` (the ddr5
         preset), Ramulator 2 `RoBaRaCoCh` (as written). "16 banks" below are the eight
         bank groups' banks 0 and 1.
    hbm3 (HBM3_4Gb, one 32-bit pseudo-channel, one stack ID, 256 MiB; 32-byte requests):
         column 5-9, bank 10-11, bank group 12-13, row 14-27; gpumem
         `row-rank-bankgroup-bank-column` (the hbm3 preset). Ramulator 2.1's
         `RoBaRaCoCh` decodes column 5-9, pseudo-channel 10, bank group 11-12, bank
         13-14, row 15-28 (its channel is the 64-bit channel of two pseudo-channels),
         so the .ldst file has pseudo-channel 0 at bit 10, the bank group at 11-12,
         the bank at 13-14 and the row from bit 15.
    lpddr5 (LPDDR5_16Gb_x16, one 16-bit channel, one rank, bank-group mode: four bank groups
         of four banks, 2 KiB rows, 2 GiB; BL16: 32-byte requests): column 5-10, bank group
         11-12, bank 13-14, row 15-30; gpumem `row-rank-bank-bankgroup-column`, Ramulator
         2.1 `RoBaRaCoCh` (it decodes column, bank group, bank, row from bit 5 up: the
         trace addresses as written).

The traces ("16 banks" means the 16 pairs of bank group and bank; on hbm3 and
lpddr5 each 64 bytes of a request's size or step below is 32):

    sequential         addresses 0, 64, 128, ...
    random             uniformly random 64-byte blocks over the device
    one_bank           bank 0, a new row each access (row i)
    banks_in_turn      the 16 banks in turn, the row + 1 each round
    mixed              random addresses, two reads then a write
    two_streams        reads alternating between a[i] at 0 and b[i] at 1 MiB, each
                       advancing 64 bytes: the same bank, another row
    two_streams_apart  two_streams with b in the next bank of the same bank group (its lowest
                       bank bit flipped: where gpumem's bank_xor of address bit 20 puts it)
    two_streams_write  c[i] = a[i] + b[i]: read a[i], read b[i], write c[i] (c at 2 MiB)
    bursty             64 sequential reads from a random 4 KiB-aligned spot, then a jump
    stride_4k          addresses 0, 4096, 8192, ... (wrapping over the device)
    gpu_lines          random 128-byte lines, each two consecutive 64-byte requests;
                       every fourth line written
    rmw                read-modify-write: read X then write X, X random
    unloaded           N / 10 random reads, one every 200 cycles

Every random choice comes from random.Random with a fixed seed: the files are the
same on every run.
"""
import argparse
import os
import random

DEVICES = {  # capacity bits, row shift, shift of the 4-bit (bank group, bank) field
    "ddr4": (33, 17, 13),
    "hbm2": (30, 15, 11),
    "ddr4_2r": (34, 18, 13),
    "ddr5": (33, 17, 12),
    "hbm3": (28, 14, 10),
    "lpddr5": (31, 15, 11),
}
# Bytes a request (the trace's step, the gpumem CSV's size): one column access.
REQUEST_BYTES = {"hbm3": 32, "lpddr5": 32}
MiB = 1 << 20
# The lowest bank bit (not bank group): two_streams_apart flips it in the
# second stream, as an XOR of a row bit into it does (gpumem's bank_xor).
BANK_BIT = {"ddr4": 15, "hbm2": 11, "ddr4_2r": 15, "ddr5": 15, "hbm3": 10, "lpddr5": 13}


def request_bytes(device):
    """The size of the device's requests: 64 bytes, or its own (REQUEST_BYTES)."""
    return REQUEST_BYTES.get(device, 64)


def traces(device, n):
    """Yield (name, [(cycle, is_write, address), ...]) for one device."""
    cap_bits, row_shift, bank_shift = DEVICES[device]
    cap = 1 << cap_bits
    size = request_bytes(device)

    def rnd(seed):
        r = random.Random(seed)
        return lambda align=size: r.randrange(cap // align) * align

    def timed(ops):
        return [(i, w, a) for i, (w, a) in enumerate(ops)]

    r = rnd(1)
    yield "sequential", timed((False, size * i) for i in range(n))
    yield "random", timed((False, r()) for i in range(n))
    yield "one_bank", timed((False, (i << row_shift) % cap) for i in range(n))
    yield "banks_in_turn", timed(
        (False, ((i % 16) << bank_shift | (i // 16) << row_shift) % cap) for i in range(n))
    r = rnd(2)
    yield "mixed", timed((i % 3 == 2, r()) for i in range(n))
    yield "two_streams", timed((False, (i % 2) * MiB + size * (i // 2)) for i in range(n))
    yield "two_streams_apart", timed(
        (False, ((i % 2) * MiB + size * (i // 2)) ^ (i % 2) << BANK_BIT[device]) for i in range(n))
    yield "two_streams_write", timed(
        (i % 3 == 2, (i % 3) * MiB + size * (i // 3)) for i in range(n))
    r = rnd(3)
    ops = []
    while len(ops) < n:
        base = r(4096)
        ops += [(False, base + size * k) for k in range(64)]
    yield "bursty", timed(ops[:n])
    yield "stride_4k", timed((False, (4096 * i) % cap) for i in range(n))
    r = rnd(4)
    ops = []
    while len(ops) < n:
        line, write = r(2 * size), len(ops) // 2 % 4 == 3
        ops += [(write, line), (write, line + size)]
    yield "gpu_lines", timed(ops[:n])
    r = rnd(5)
    ops = []
    while len(ops) < n:
        x = r()
        ops += [(False, x), (True, x)]
    yield "rmw", timed(ops[:n])
    r = rnd(6)
    yield "unloaded", [(200 * i, False, r()) for i in range(n // 10)]


def ramulator_address(device, a):
    """The same bank group, bank, rank, row and column under Ramulator 2's RoBaRaCoCh."""
    if device == "hbm3":  # pseudo-channel 0 at bit 10, bank group 11-12, bank 13-14, row from 15
        bank, group, row = (a >> 10) & 3, (a >> 12) & 3, a >> 14
        return a & 0x3FF | group << 11 | bank << 13 | row << 15
    if device == "hbm2":  # swap bank (bits 11-12) and bank group (13-14)
        bank, group = (a >> 11) & 3, (a >> 13) & 3
        return a & ~(0xF << 11) | group << 11 | bank << 13
    if device == "ddr4_2r":  # the rank (bit 17) below the bank group and bank (13-16)
        banks, rank = (a >> 13) & 0xF, (a >> 17) & 1
        return a & ~(0x1F << 13) | rank << 13 | banks << 14
    return a


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("outdir")
    p.add_argument("--requests", type=int, default=100000)
    args = p.parse_args()
    for device in DEVICES:
        d = os.path.join(args.outdir, device)
        os.makedirs(d, exist_ok=True)
        size = request_bytes(device)
        for name, reqs in traces(device, args.requests):
            base = os.path.join(d, name)
            with open(base + ".trc", "w") as trc, open(base + ".csv", "w") as csv, \
                    open(base + ".ldst", "w") as ldst:
                csv.write("cycle,task_type,op,address,size\n")
                for cycle, w, a in reqs:
                    trc.write(f"0x{a:X} {'WRITE' if w else 'READ'} {cycle}\n")
                    csv.write(f"{cycle},0,{'W' if w else 'R'},0x{a:x},{size}\n")
                    ldst.write(f"{'ST' if w else 'LD'} 0x{ramulator_address(device, a):x}\n")


if __name__ == "__main__":
    main()
