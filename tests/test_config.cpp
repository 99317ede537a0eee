// Config loading: every rejection must point at the file, the line and the key
// a user has to edit, and the shipped configs must mean what they say.
#include <gtest/gtest.h>

#include <filesystem>

#include "base/input_error.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

TEST(Config, RejectionsNameFileLineAndKey) {
  const BadConfig cases[] = {
      // Translator geometry.
      {"candidate bit is a channel bit",
       "memory:\n  channels: 8\ntranslator:\n  channel_bits: [8, 9, 10]\n  candidate_bits:\n    - 11\n    - 9\n",
       7, "translator.candidate_bits[1]", "candidate bit 9 is also a channel bit"},
      {"channel bit on the 4 KB page bit (default page sizes)",
       "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, 9, 12]\n",
       3, "translator.channel_bits[2]", "channel bit 12 lies at or above bit 12 of the smallest page that carries its own task type (4096 bytes)"},
      {"channel bit on the 8 KB page bit",
       "memory: {channels: 8}\nmmu: {page_sizes: [8192]}\ntranslator:\n  channel_bits: [8, 9, 13]\n",
       4, "translator.channel_bits[2]", "channel bit 13 lies at or above bit 13 of the smallest page that carries its own task type (8192 bytes)"},
      {"too few channel bits", "memory:\n  channels: 8\ntranslator:\n  channel_bits: [8, 9]\n",
       4, "translator.channel_bits", "2 channel bits give 4 channels but memory.channels is 8"},
      {"too many channel bits", "memory:\n  channels: 2\ntranslator:\n  channel_bits: [8, 9]\n",
       4, "translator.channel_bits", "memory.channels is 2"},
      {"channel bits for a non-power-of-two count",
       "memory:\n  channels: 6\ntranslator:\n  granule_bytes: 256\n  channel_bits: [8, 9]\n",
       5, "translator.channel_bits", "not a power of two"},
      {"duplicate channel bit", "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, 9, 8]\n",
       3, "translator.channel_bits[2]", "bit 8 listed twice"},
      {"duplicate candidate bit",
       "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, 9, 10]\n  candidate_bits: [11, 12, 11]\n",
       4, "translator.candidate_bits[2]", "bit 11 listed twice"},
      {"bit beyond the address width",
       "memory: {address_bits: 32, channels: 8}\ntranslator:\n  channel_bits: [8, 9, 10]\n  candidate_bits: [11, 32]\n",
       4, "translator.candidate_bits[1]", "must be below 32"},
      // The memory model and the DRAM.
      {"unknown memory model", "memory:\n  channels: 8\n  model: sdram\n", 3, "memory.model", "'sdram' is not one of: simple, dram"},
      {"unknown preset", "memory:\n  channels: 8\n  preset: ddr9\n", 3, "memory.preset", "unknown preset 'ddr9' (ddr4, gddr6, hbm2, hbm3, ddr5, lpddr5)"},
      {"preset on the simple model", "memory:\n  channels: 8\n  model: simple\n  preset: hbm2\n", 4, "memory.preset",
       "applies to memory.model: dram only"},
      {"service cycles on the dram model", "memory:\n  channels: 8\n  preset: hbm2\n  service_cycles: 4\n", 4,
       "memory.service_cycles", "applies to memory.model: simple only"},
      {"tRC below tRAS + tRP", "memory:\n  channels: 8\n  preset: ddr4\n  dram:\n    timing:\n      tRC: 70\n", 6,
       "memory.dram.timing.tRC", "tRC (70) < tRAS + tRP (74): the standard requires tRC >= tRAS + tRP"},
      {"tRAS below tRCD", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing: {tRAS: 10, tRC: 30}\n", 5,
       "memory.dram.timing.tRAS", "tRAS (10) < tRCD (14)"},
      {"tRAS below tRCD_WR", "memory:\n  channels: 8\n  preset: hbm3\n  dram:\n    timing: {tRCD_WR: 50}\n", 5,
       "memory.dram.timing.tRAS", "tRAS (45) < tRCD_WR (50)"},
      {"tCCD_L_WR below tCCD_L", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    timing: {tCCD_L_WR: 10}\n", 5,
       "memory.dram.timing.tCCD_L_WR", "tCCD_L_WR (10) < tCCD_L (12): two writes are never closer than two reads"},
      {"no room for an activate between bank refreshes",
       "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    refresh: per_bank\n    timing: {tREFI: 2000}\n", 6, "memory.dram.timing.tREFI",
       "per-bank refresh every 62 cycles (tREFI 2000 / 32) leaves an activate no room after tRREFD: it needs more than tRREFD + tRP + tRCD + tFAW (189)"},
      {"bank refreshes due faster than tPBR2PBR spaces them",
       "memory:\n  channels: 8\n  preset: lpddr5\n  dram:\n    refresh: per_bank\n    timing: {tREFI: 1000}\n", 6, "memory.dram.timing.tREFI",
       "per-bank refresh every 62 cycles (tREFI 1000 / 16) falls due faster than tPBR2PBR (72) lets one follow another: it needs more than tPBR2PBR"},
      {"tPBR2PBR negative", "memory:\n  channels: 8\n  preset: lpddr5\n  dram:\n    timing: {tPBR2PBR: -3}\n", 5,
       "memory.dram.timing.tPBR2PBR", "expected an unsigned integer, got '-3'"},
      {"tPBR2PBR too long", "memory:\n  channels: 8\n  preset: lpddr5\n  dram:\n    timing: {tPBR2PBR: 2000000}\n", 5,
       "memory.dram.timing.tPBR2PBR", "value 2000000 outside [0, 1048576]"},
      {"tRREFD negative", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing: {tRREFD: -1}\n", 5,
       "memory.dram.timing.tRREFD", "expected an unsigned integer, got '-1'"},
      {"tRREFD too long", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing: {tRREFD: 2000000}\n", 5,
       "memory.dram.timing.tRREFD", "value 2000000 outside [0, 1048576]"},
      {"tRREFD above tRFCb", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    refresh: per_bank\n    timing: {tRREFD: 200}\n", 6,
       "memory.dram.timing.tRREFD", "tRREFD (200) > tRFCb (160): a bank's refresh never keeps other banks longer than its own"},
      {"tCCD_L below tCCD_S", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing: {tCCD_S: 3}\n", 5,
       "memory.dram.timing.tCCD_L", "tCCD_L (2) < tCCD_S (3)"},
      {"refresh longer than its interval", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing:\n      tREFI: 200\n", 6,
       "memory.dram.timing.tREFI", "tREFI (200) <= tRFC (260)"},
      {"zero timing", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing:\n      tRCD: 0\n", 6,
       "memory.dram.timing.tRCD", "outside [1,"},
      {"tPPD too large", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    timing: {tPPD: 2000000}\n", 5,
       "memory.dram.timing.tPPD", "value 2000000 outside [0, 1048576]"},
      {"tPPD negative", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    timing: {tPPD: -1}\n", 5,
       "memory.dram.timing.tPPD", "expected an unsigned integer, got '-1'"},
      {"current not a number", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    power: {idd0: lots}\n", 5,
       "memory.dram.power.idd0", "expected a number"},
      {"voltage out of range", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    power:\n      vdd: 12\n", 6,
       "memory.dram.power.vdd", "12 is out of range [0.5, 5]"},
      {"unknown power figure", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    power: {idd5pb: 30}\n", 5,
       "memory.dram.power.idd5pb", "unknown key"},
      {"activate current below its standby", "memory:\n  channels: 8\n  preset: ddr4\n  dram:\n    power: {idd0: 40}\n", 5,
       "memory.dram.power.idd0", "idd0 x tRC (2960) < idd3n x tRAS + idd2n x tRP (3518): an activate would take energy back"},
      {"standby currents the wrong way round", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    power: {idd2n: 60}\n", 5,
       "memory.dram.power.idd3n", "idd3n (55) < idd2n (60)"},
      {"VPP figures partly given", "memory:\n  channels: 8\n  preset: ddr4\n  dram:\n    power: {vpp: 2.5, ipp0: 4}\n", 5,
       "memory.dram.power.ipp2n", "ipp2n is not given: VPP's figures are all or none"},
      {"VPP figures without VDD's", "memory:\n  channels: 8\n  preset: hbm3\n  dram:\n    power: {vpp: 1.8}\n", 5,
       "memory.dram.power.vdd", "vdd is not given: VPP's figures add to VDD's"},
      {"VPP read current below its standby", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    power: {ipp4r: 2}\n", 5,
       "memory.dram.power.ipp4r", "ipp4r (2) < ipp3n (3): it draws on top of active standby"},
      {"VPP standby currents the wrong way round", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    power: {ipp0: 10, ipp2n: 5}\n", 5,
       "memory.dram.power.ipp3n", "ipp3n (3) < ipp2n (5): an open bank never draws less than none"},
      {"VPP out of range", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    power: {vpp: 0}\n", 5,
       "memory.dram.power.vpp", "0 is out of range [0.5, 5]"},
      {"epochs of no cycles", "memory:\n  channels: 8\n  preset: hbm2\nstats:\n  epoch_cycles: 0\n", 5, "stats.epoch_cycles",
       "outside [1,"},
      {"no devices", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    devices: 0\n", 5, "memory.dram.devices", "outside [1,"},
      {"unknown prefetch priority", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    prefetch_priority: high\n", 5,
       "memory.dram.prefetch_priority", "'high' is not one of: low, equal"},
      {"prefetch priority with lt", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    prefetch_priority: equal\n", 5,
       "memory.dram.prefetch_priority", "applies to simulation.timing: at only"},
      {"unknown row commands", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    row_commands: youngest\n", 5,
       "memory.dram.row_commands", "'youngest' is not one of: oldest, any"},
      {"row commands with lt", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    row_commands: any\n", 5,
       "memory.dram.row_commands", "applies to simulation.timing: at only"},
      {"dram section not a map", "memory:\n  channels: 8\n  preset: hbm2\n  dram: 5\n", 4, "memory.dram", "expected a mapping"},
      {"unknown timing", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    timing:\n      tXYZ: 3\n", 6,
       "memory.dram.timing.tXYZ", "unknown key"},
      {"banks not a power of two", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    banks_per_group: 3\n", 5,
       "memory.dram.banks_per_group", "3 is not a power of two"},
      {"address order missing a field", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    address_order: row-bank-column\n",
       5, "memory.dram.address_order", "name every field once"},
      {"address order unknown field", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    address_order: row-rank-bg-bank-column\n",
       5, "memory.dram.address_order", "unknown field 'bg'"},
      {"address order field twice", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    address_order: row-rank-row-bank-column\n",
       5, "memory.dram.address_order", "field 'row' given twice"},
      {"high watermark above the queue", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    write_queue: 16\n    write_high: 20\n",
       6, "memory.dram.write_high", "high watermark 20 above the write queue's 16 entries"},
      {"low watermark not below the high", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    write_low: 32\n", 5,
       "memory.dram.write_low", "low watermark 32 not below the high watermark 32"},
      {"bank queue too deep", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    bank_queue: 70000\n", 5,
       "memory.dram.bank_queue", "outside [0,"},
      {"bank queue negative", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    bank_queue: -1\n", 5,
       "memory.dram.bank_queue", "expected an unsigned integer, got '-1'"},
      {"empty read queue", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    read_queue: 0\n", 5,
       "memory.dram.read_queue", "outside [1,"},
      {"unknown page policy", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    page_policy: adaptive\n", 5,
       "memory.dram.page_policy", "'adaptive' is not one of: open, closed"},
      {"unknown refresh", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    refresh: none\n", 5, "memory.dram.refresh",
       "'none' is not one of: all_bank, per_bank, same_bank"},
      {"same-bank refresh too often", "memory:\n  channels: 8\n  preset: ddr5\n  dram:\n    refresh: same_bank\n    timing: {tREFI: 3, tRFC: 2, tRFCb: 1, tRREFD: 1}\n",
       5, "memory.dram.refresh", "same-bank refresh needs tREFI of at least one cycle per bank of a group"},
      {"columns hold no burst", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    columns: 2\n", 5,
       "memory.dram.columns", "2 columns hold no burst of 4"},
      {"bank xor reads a bank bit", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    bank_xor: [[15], [13]]\n", 5,
       "memory.dram.bank_xor[1][0]", "bit 13 is itself a bank or bank group bit"},
      {"bank xor inside the access", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    bank_xor: [[5]]\n", 5,
       "memory.dram.bank_xor[0][0]", "bit 5 lies inside one access (64 bytes)"},
      {"bank xor too long", "memory:\n  channels: 8\n  preset: hbm2\n  dram:\n    bank_xor: [[15], [16], [17], [18], [19]]\n", 5,
       "memory.dram.bank_xor", "5 lists for 4 bank address bits"},
      // The matrix scheme.
      {"singular matrix",
       "memory: {channels: 4}\ntranslator:\n  channel_bits: [8, 9]\n  tasks:\n    - task_type: 1\n      scheme: matrix\n"
       "      matrix: [[8, 12], [8, 13, 12]]\n",
       7, "translator.tasks[0].matrix", "not invertible: restricted to the channel bits the rows have GF(2) rank 1 of 2"},
      {"matrix row inside the granule",
       "memory: {channels: 4}\ntranslator:\n  channel_bits: [8, 9]\n  tasks:\n    - task_type: 1\n      scheme: matrix\n"
       "      matrix:\n        - [8, 12]\n        - [9, 7]\n",
       9, "translator.tasks[0].matrix[1]", "row 1 reads bit 7, inside the 256-byte interleave granule"},
      {"matrix row beyond the VA before the MMU",
       "memory: {channels: 4}\ntranslator:\n  position: before_mmu\n  channel_bits: [8, 9]\n  tasks:\n"
       "    - {task_type: 0, scheme: matrix, matrix: [[8, 33], [9]]}\n"
       "address_space:\n  va_bits: 32\n  applications:\n    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0, size: 0x1000, page: small}]}\n",
       6, "translator.tasks[0].matrix[0]", "row 0 reads bit 33, beyond the 32-bit address space"},
      {"matrix on an xor task",
       "memory: {channels: 4}\ntranslator:\n  channel_bits: [8, 9]\n  candidate_bits: [12]\n  tasks:\n"
       "    - {task_type: 1, scheme: xor, xor_vectors: [1, 0], matrix: [[8], [9]]}\n",
       6, "translator.tasks[0].matrix", "only a task with scheme matrix takes a matrix"},
      {"matrix scheme without a matrix",
       "memory: {channels: 4}\ntranslator:\n  channel_bits: [8, 9]\n  tasks:\n    - {task_type: 1, scheme: matrix}\n",
       5, "translator.tasks[0].matrix", "scheme matrix needs one row of address bits per channel bit"},
      {"matrix with too few rows",
       "memory: {channels: 4}\ntranslator:\n  channel_bits: [8, 9]\n  tasks:\n    - {task_type: 1, scheme: matrix, matrix: [[8]]}\n",
       5, "translator.tasks[0].matrix", "1 rows for 2 channel bits"},
      // Unknown keys list what is allowed.
      {"unknown top-level key", "memory: {channels: 1}\nmemroy: {channels: 1}\n",
       2, "memroy", "unknown key (allowed: description, memory, mmu, translator, simulation, stats, address_space, frontend, l1, prefetch, workload)"},
      // Before any value is read: not the check the misspelt key's default trips.
      {"misspelt key beside a check of its default", "memory: {channels: 1}\nl1: {ways: 4}\nprefetch:\n  kind: bfs\n  range: {}\n",
       5, "prefetch.range", "unknown key (allowed: kind, queue_entries, fill, buffer_lines, edge_window, stride, ranges); did you mean 'ranges'?"},
      {"unknown nested key", "memory:\n  channels: 1\n  chanels: 2\n",
       3, "memory.chanels", "unknown key (allowed: address_bits, channels, model, service_cycles, latency_cycles, max_outstanding, preset, dram)"},
      {"unknown key in a task",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {task_type: 1, scheme: none, vectors: [1]}\n",
       5, "translator.tasks[0].vectors", "allowed: task_type, scheme, xor_vectors, matrix, seed"},
      {"the key a task type had before it had one name",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {task: 1, scheme: none}\n",
       5, "translator.tasks[0].task", "unknown key (allowed: task_type, scheme, xor_vectors, matrix, seed); 'task' is now 'task_type'"},
      {"task type 16 in a mapping",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {task_type: 16, scheme: none}\n",
       5, "translator.tasks[0].task_type", "value 16 outside [0, 15]"},
      {"task type 16 in a generator", "memory: {channels: 1}\nworkload:\n  - {kind: strided, task_type: 16}\n",
       3, "workload[0].task_type", "value 16 outside [0, 15]"},
      {"the old key in a generator", "memory: {channels: 1}\nworkload:\n  - {kind: strided, task: 1}\n",
       3, "workload[0].task", "'task' is now 'task_type'"},
      // Wrong types.
      {"string for a number", "memory:\n  channels: eight\n", 2, "memory.channels", "expected an unsigned integer, got 'eight'"},
      {"string in a list of numbers", "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, nine, 10]\n",
       3, "translator.channel_bits[1]", "expected an unsigned integer"},
      {"negative number", "memory:\n  max_outstanding: -4\n", 2, "memory.max_outstanding", "expected an unsigned integer"},
      {"map for a list", "memory: {channels: 8}\ntranslator:\n  channel_bits: {c0: 8}\n",
       3, "translator.channel_bits", "expected a list of bit positions"},
      {"list for a section", "memory:\n  - channels: 8\n", 2, "memory", "expected a mapping"},
      {"not a bool", "memory: {channels: 1}\ntranslator:\n  interleave_enable: maybe\n",
       3, "translator.interleave_enable", "expected true or false"},
      {"not a float", "memory: {channels: 1}\nsimulation:\n  cycle_ns: fast\n", 3, "simulation.cycle_ns", "expected a number"},
      {"non-scalar key", "memory: {channels: 1}\n[1, 2]: 3\n", 2, "", "expected a plain key"},
      {"NaN write fraction", "memory: {channels: 1}\nworkload:\n  - {kind: strided, write_fraction: .nan}\n",
       3, "workload[0].write_fraction", "must lie in [0, 1]"},
      {"value out of range", "memory:\n  channels: 512\n", 2, "memory.channels", "outside [1, 256]"},
      {"page size not a power of two", "memory: {channels: 1}\nmmu:\n  page_sizes: [4096, 6000]\n",
       3, "mmu.page_sizes[1]", "power of two"},
      // Missing required values.
      {"no memory section", "description: x\nstats: {entropy_window: 4}\n", 1, "memory", "memory section is required"},
      {"empty value, reported at its key", "memory:\n  channels:\n  service_cycles: 1\n", 2, "memory.channels", "missing value"},
      {"empty section", "description: x\nmemory:\n", 2, "memory", "missing value"},
      {"key given twice, the second would be ignored", "memory:\n  channels: 1\nmemory:\n  channels: 8\n",
       3, "memory", "key given twice"},
      {"task without scheme",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {task_type: 3}\n",
       5, "translator.tasks[0].scheme", "missing value"},
      {"task without task", "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {scheme: none}\n",
       5, "translator.tasks[0].task_type", "missing value"},
      {"xor without vectors",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  candidate_bits: [9]\n  tasks:\n    - {task_type: 0, scheme: xor}\n",
       6, "translator.tasks[0].xor_vectors", "missing value"},
      {"prime scheme without prime",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - task_type: 0\n      scheme: prime\n",
       6, "translator.tasks[0].scheme", "needs translator.prime"},
      {"random generator without range",
       "memory: {channels: 1}\nworkload:\n  - {kind: strided, task_type: 0}\n  - {kind: random, task_type: 1, base: 0x10000}\n",
       4, "workload[1].range", "needs its address range"},
      {"generator without kind", "memory: {channels: 1}\nworkload:\n  - task_type: 0\n    count: 4\n",
       3, "workload[0].kind", "missing value"},
      {"default channel bits that would reach the page",
       "memory: {channels: 32}\n", 1, "translator.channel_bits",
       "missing value: 32 channels need 5 channel bits, and from bit 8 (above the 256-byte interleave granule) they would "
       "reach bit 12 of the 4096-byte smallest page (isolation); write them below it, as in translator: {channel_bits: "
       "[7, 8, 9, 10, 11]}"},
      {"default channel bits above a set granule that would reach the page",
       "memory: {channels: 8}\nmmu: {page_sizes: [8192]}\ntranslator:\n  granule_bytes: 2048\n", 4, "translator.channel_bits",
       "from bit 11 (above the 2048-byte interleave granule) they would reach bit 13 of the 8192-byte smallest page "
       "(isolation); write them below it, as in translator: {channel_bits: [10, 11, 12], granule_bytes: 1024}"},
      {"default channel bits above a set granule that would leave the address space",
       "memory: {address_bits: 16, channels: 16}\nmmu: {page_sizes: [131072]}\ntranslator: {granule_bytes: 8192}\n", 3,
       "translator.channel_bits", "from bit 13 (above the 8192-byte interleave granule) they would reach past the 16-bit "
       "physical address space; write them below it, as in translator: {channel_bits: [12, 13, 14, 15], granule_bytes: 4096}"},
      {"a granule that is no power of two", "memory: {channels: 8}\ntranslator:\n  granule_bytes: 384\n", 3,
       "translator.granule_bytes", "must be a power of two"},
      {"a baseline on a non-power-of-two channel count",
       "memory: {channels: 24}\ntranslator:\n  tasks:\n    - {task_type: 0, scheme: none}\n    - task_type: 1\n      scheme: ipoly\n",
       6, "translator.tasks[1].scheme",
       "scheme ipoly maps channel bits, so it takes a power-of-two channel count (2, 4, 8, 16, 32, 64, 128 or 256), not 24; "
       "with 24 channels every task type uses scheme prime or none"},
      {"xor on a non-power-of-two channel count",
       "memory: {channels: 6}\ntranslator:\n  tasks: [{task_type: 3, scheme: xor, xor_vectors: []}]\n", 3,
       "translator.tasks[0].scheme", "scheme xor maps channel bits, so it takes a power-of-two channel count (1, 2, 4, 8"},
      // XOR vectors.
      {"vector wider than the candidate bits",
       "memory: {channels: 4}\ntranslator:\n  channel_bits: [8, 9]\n  candidate_bits: [10, 11]\n  tasks:\n"
       "    - task_type: 0\n      scheme: xor\n      xor_vectors:\n        - 0b01\n        - 0b100\n",
       10, "translator.tasks[0].xor_vectors[1]", "beyond the 2 configured"},
      {"too few vectors",
       "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, 9, 10]\n  candidate_bits: [11]\n  tasks:\n"
       "    - task_type: 0\n      scheme: xor\n      xor_vectors: [1, 1]\n",
       8, "translator.tasks[0].xor_vectors", "2 XOR control vectors for 3 channel bits"},
      {"vectors on a task without xor",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  candidate_bits: [9]\n  tasks:\n"
       "    - task_type: 0\n      scheme: none\n      xor_vectors: [1]\n",
       8, "translator.tasks[0].xor_vectors", "only a task with scheme xor"},
      {"task mapped twice",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [8]\n  tasks:\n    - {task_type: 2, scheme: none}\n"
       "    - {task_type: 2, scheme: none}\n",
       6, "translator.tasks[1].task_type", "task type 2 mapped twice"},
      // Prime scheme.
      {"prime divides the channel count", "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, 9, 10]\n  prime: 2\n",
       4, "translator.prime", "prime 2 divides the channel count 8"},
      {"prime divides a non-power-of-two count",
       "memory: {channels: 6}\ntranslator:\n  granule_bytes: 256\n  prime: 3\n  default_scheme: prime\n",
       4, "translator.prime", "prime 3 divides the channel count 6"},
      {"prime that is not prime", "memory: {channels: 8}\ntranslator:\n  channel_bits: [8, 9, 10]\n  prime: 9\n",
       4, "translator.prime", "9 is not prime"},
      // Found by the property test: a request is mapped by its first byte, so a
      // candidate bit inside the granule sent its other bytes elsewhere.
      {"candidate bit inside the granule",
       "memory: {channels: 2}\ntranslator:\n  channel_bits: [1]\n  candidate_bits: [4, 0]\n",
       4, "translator.candidate_bits[1]", "candidate bit 0 lies inside the 2-byte interleave granule"},
      // Non-power-of-two channels: one scheme for every task type, even with
      // interleave disabled (firmware may enable it; the bank fixes the scheme).
      {"two schemes with interleave disabled",
       "memory: {channels: 3}\ntranslator:\n  granule_bytes: 64\n  prime: 5\n  interleave_enable: false\n"
       "  tasks: [{task_type: 1, scheme: prime}]\n",
       6, "translator.tasks", "all task types must use the same scheme"},
      {"granule as large as the physical space",
       "memory: {channels: 3, address_bits: 16}\ntranslator: {granule_bytes: 0x10000}\n",
       2, "translator.granule_bytes", "smaller than the 16-bit physical address space"},
      // With an address space (issue 8): an 8-byte page table entry must not
      // straddle two channels.
      {"channel bit below a page table entry",
       "memory: {address_bits: 32, channels: 2}\ntranslator: {channel_bits: [2]}\naddress_space:\n  va_bits: 32\n"
       "  applications:\n    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0x10000, size: 0x10000, page: large}]}\n",
       2, "translator.channel_bits[0]", "4-byte interleave granule; with an address space it must hold one 8-byte page table entry"},
      {"lowest of several channel bits below a page table entry",
       "memory: {address_bits: 32, channels: 4}\ntranslator:\n  channel_bits: [6, 1]\naddress_space:\n"
       "  applications:\n    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0x10000, size: 0x10000, page: large}]}\n",
       3, "translator.channel_bits[1]", "channel bit 1 gives a 2-byte interleave granule"},
      {"granule below a page table entry",
       "memory: {address_bits: 32, channels: 3}\ntranslator:\n  granule_bytes: 4\naddress_space:\n"
       "  applications:\n    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0x10000, size: 0x10000, page: large}]}\n",
       3, "translator.granule_bytes", "4-byte interleave granule"},
      // Before the MMU a prime row of a non-power-of-two N crosses virtual pages.
      {"prime before the MMU with three channels",
       "memory: {address_bits: 32, channels: 3}\ntranslator:\n  granule_bytes: 2048\n  prime: 5\n"
       "  default_scheme: prime\n  position: before_mmu\naddress_space:\n"
       "  applications:\n    - {name: a, process: 0, task_type: 0, regions: [{name: r, va: 0x10000, size: 0x10000, page: large}]}\n",
       5, "translator.default_scheme", "before the MMU the prime scheme with 3 channels would move VAs across pages"},
      // Isolation from the workload side.
      {"two task types on one page",
       "memory: {channels: 1}\nworkload:\n  - {kind: strided, task_type: 0, base: 0, count: 4}\n"
       "  - {kind: strided, task_type: 1, base: 0x800, count: 4}\n",
       4, "workload[1]", "shares pages with workload[0]"},
      {"workload past the address space",
       "memory: {address_bits: 16, channels: 1}\nworkload:\n  - {kind: strided, base: 0xFFC0, count: 2}\n",
       3, "workload[0]", "16-bit physical address space"},
      // Not a config at all.
      {"YAML syntax error", "memory:\n  channels: 8\n  service_cycles: [1\ntranslator: {}\n", 4, "", "YAML syntax error"},
      {"empty file", "", 0, "", "empty config"},
      {"only comments", "# nothing here\n\n", 0, "", "empty config"},
  };
  for (const auto& c : cases) EXPECT_TRUE(rejected_as(c)) << c.what;
}

TEST(Config, APresetIsTheDramModelOverriddenKeyByKey) {
  const Config simple = config_from("memory: {channels: 8}\n");
  EXPECT_EQ(simple.memory.model, MemoryModel::kSimple);
  const Config c = config_from(
      "memory:\n  channels: 8\n  preset: ddr4\n  latency_cycles: 40\n  dram:\n    page_policy: closed\n"
      "    address_order: row-bank-bankgroup-rank-column\n    timing: {tRCD: 24, tRAS: 54, tRC: 76}\n");
  EXPECT_EQ(c.memory.model, MemoryModel::kDram);
  EXPECT_EQ(c.memory.latency_cycles, 40u);
  EXPECT_EQ(c.memory.dram.preset, "ddr4");
  EXPECT_EQ(c.memory.dram.timing.tRCD, 24u);
  EXPECT_EQ(c.memory.dram.timing.tRP, dram_preset("ddr4")->timing.tRP) << "the rest stays the preset's";
  EXPECT_EQ(c.memory.dram.page_policy, PagePolicy::kClosed);
  EXPECT_EQ(address_order_text(c.memory.dram.address_order), "row-bank-bankgroup-rank-column");
  const Config d = config_from("memory: {channels: 8, model: dram}\n");
  EXPECT_EQ(d.memory.dram.preset, "hbm2") << "the dram model's default preset";
  // The power figures likewise; devices any count (an ECC rank of x8 devices: nine).
  const Config e = config_from("memory:\n  channels: 8\n  preset: ddr4\n  dram:\n    devices: 9\n    power: {vdd: 1.25, idd4r: 170.5}\n");
  EXPECT_EQ(e.memory.dram.org.devices, 9u);
  EXPECT_DOUBLE_EQ(e.memory.dram.power.vdd, 1.25);
  EXPECT_DOUBLE_EQ(e.memory.dram.power.idd4r, 170.5);
  EXPECT_DOUBLE_EQ(e.memory.dram.power.idd0, dram_preset("ddr4")->power.idd0);
}

TEST(Config, MissingFileIsAnInputError) {
  const std::string path = std::string(GPUMEM_SOURCE_DIR) + "/configs/no-such-config.yaml";
  try {
    load_config(path);
    FAIL() << "a missing file loaded";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), path);
    EXPECT_EQ(e.line(), 0);
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

TEST(Config, IsolationBoundFollowsTheSmallestPage) {
  // The same channel bit is legal or not depending only on the page sizes.
  const std::string bit12 = "translator: {channel_bits: [8, 9, 12]}\n";
  EXPECT_NO_THROW(config_from(base_yaml("mmu: {page_sizes: [8192]}\n" + bit12)));
  EXPECT_NO_THROW(config_from(base_yaml("mmu: {page_sizes: [65536, 8192]}\n" + bit12)));
  EXPECT_THROW(config_from(base_yaml("mmu: {page_sizes: [65536, 4096]}\n" + bit12)), InputError);
  EXPECT_EQ(config_from(base_yaml("mmu: {page_sizes: [65536, 8192]}\n" + bit12)).mmu.smallest_page(), 8192u);
}

TEST(Config, NumbersInHexBinaryAndWithUnderscores) {
  const Config c = config_from(
      "memory: {address_bits: 0x20, channels: 0b1000, max_outstanding: 1_000}\n"
      "translator:\n"
      "  channel_bits: [0x8, 0b1001, 1_0]\n"
      "  candidate_bits: [11, 12, 13, 14]\n"
      "  tasks:\n"
      "    - {task_type: 0xF, scheme: xor, xor_vectors: [0b0000_0001, 0x0_A, 0xf]}\n"
      "workload:\n"
      "  - {kind: strided, base: 0x1_0000, stride: 0X40, count: 1_000_000, size: 0b100_0000}\n");
  EXPECT_EQ(c.memory.address_bits, 32u);
  EXPECT_EQ(c.memory.channels, 8u);
  EXPECT_EQ(c.memory.max_outstanding, 1000u);
  EXPECT_EQ(c.translator.channel_bits, (std::vector<unsigned>{8, 9, 10}));
  ASSERT_NE(c.task_mapping(15), nullptr);
  EXPECT_EQ(c.task_mapping(15)->xor_vectors, (std::vector<uint32_t>{1, 10, 15}));
  ASSERT_EQ(c.workload.size(), 1u);
  EXPECT_EQ(c.workload[0].base, 0x10000u);
  EXPECT_EQ(c.workload[0].stride, 64u);
  EXPECT_EQ(c.workload[0].count, 1000000u);
  EXPECT_EQ(c.workload[0].size, 64u);
  EXPECT_EQ(c.workload[0].line, 8);

  for (const char* bad : {"0x", "0b", "0b102", "0xG", "12a", "1.5", "_"}) {
    try {
      config_from(std::string("memory: {channels: 1, service_cycles: ") + bad + "}\n");
      ADD_FAILURE() << "'" << bad << "' parsed as a number";
    } catch (const InputError& e) {
      EXPECT_EQ(e.key(), "memory.service_cycles") << bad;
      EXPECT_EQ(e.line(), 1) << bad;
    }
  }
}

TEST(Config, DefaultConfigMeansWhatItSays) {
  const Config c = load_config(std::string(GPUMEM_SOURCE_DIR) + "/configs/default.yaml");
  EXPECT_EQ(c.memory.channels, 16u);
  EXPECT_EQ(c.memory.service_cycles, 4u);
  EXPECT_EQ(c.granule_shift(), 8u);
  EXPECT_EQ(c.granule_bytes(), 256u);
  EXPECT_EQ(c.entropy_window(), 64u) << "no stats section: the window is memory.max_outstanding";
  EXPECT_EQ(c.translator.candidate_bits.size(), 8u);
  EXPECT_EQ(c.translator.prime, 7u);
  EXPECT_EQ(c.scheme_of(0), Scheme::kNone);
  EXPECT_EQ(c.scheme_of(1), Scheme::kXor);
  EXPECT_EQ(c.scheme_of(2), Scheme::kPrime);
  EXPECT_EQ(c.scheme_of(3), Scheme::kNone) << "unlisted task types take default_scheme";
  ASSERT_NE(c.task_mapping(1), nullptr);
  EXPECT_EQ(c.task_mapping(1)->xor_vectors, (std::vector<uint32_t>{0x11, 0x22, 0x44, 0x88}));
  ASSERT_TRUE(c.has_mmu());
  EXPECT_EQ(c.translator.position, TranslatorPosition::kAfterMmu);
  EXPECT_EQ(c.mmu.tlb.entries, 64u);
  EXPECT_EQ(c.mmu.tlb.replacement, Replacement::kPlru);
  ASSERT_EQ(c.address_space.applications.size(), 3u);
  EXPECT_EQ(c.address_space.application(2)->name, "graph");
  ASSERT_EQ(c.workload.size(), 4u);
  EXPECT_EQ(c.workload[3].kind, GeneratorConfig::Kind::kRandom);
  EXPECT_EQ(c.workload[3].process, 2u);
  EXPECT_EQ(c.workload[3].base, 0x100000000u);
}

TEST(Config, Table1ExamplesMeanWhatTheySay) {
  const std::string dir = std::string(GPUMEM_SOURCE_DIR) + "/configs/examples/";
  const Config id = load_config(dir + "table1-identity.yaml");
  const Config x = load_config(dir + "table1-xor.yaml");
  for (const Config* c : {&id, &x}) {
    EXPECT_EQ(c->memory.channels, 8u);
    EXPECT_EQ(c->granule_shift(), 8u);
    EXPECT_EQ(c->entropy_window(), 8u);
    EXPECT_EQ(c->translator.candidate_bits, (std::vector<unsigned>{11, 12, 13}));
    ASSERT_EQ(c->workload.size(), 1u);
    EXPECT_EQ(c->workload[0].stride, 2048u) << "8 granules of 256 bytes";
    EXPECT_EQ(c->workload[0].count, 7u);
  }
  EXPECT_EQ(id.scheme_of(0), Scheme::kNone);
  EXPECT_EQ(x.scheme_of(0), Scheme::kXor);
  ASSERT_NE(x.task_mapping(0), nullptr);
  EXPECT_EQ(x.task_mapping(0)->xor_vectors, (std::vector<uint32_t>{1, 2, 4}));
}

TEST(Config, EveryShippedConfigLoads) {
  const std::filesystem::path root(GPUMEM_SOURCE_DIR);
  std::vector<std::filesystem::path> files{root / "configs/default.yaml"};
  for (const auto& e : std::filesystem::directory_iterator(root / "configs/examples"))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  EXPECT_GE(files.size(), 3u);
  for (const auto& f : files) {
    try {
      EXPECT_EQ(load_config(f.string()).source, f.string());
    } catch (const InputError& e) {
      ADD_FAILURE() << e.what();
    }
  }
}

// docs/config-reference.md, "Default channel layout": a config that names
// no layout interleaves its channels at 256 bytes.
TEST(Config, ChannelLayoutDefaultsToA256ByteGranule) {
  const Config eight = config_from("memory: {channels: 8}\n");
  EXPECT_EQ(eight.translator.channel_bits, (std::vector<unsigned>{8, 9, 10})) << "the 3 bits above the granule";
  EXPECT_EQ(eight.granule_bytes(), 256u);
  EXPECT_EQ(eight.translator.granule_bytes, 0u) << "with channel bits the granule is 2^c_min";
  EXPECT_EQ(config_from("memory: {channels: 16}\n").translator.channel_bits, (std::vector<unsigned>{8, 9, 10, 11}))
      << "the most the default reaches below a 4 KB page";
  EXPECT_EQ(config_from("memory: {channels: 32}\nmmu: {page_sizes: [8192]}\n").translator.channel_bits,
            (std::vector<unsigned>{8, 9, 10, 11, 12}));
  EXPECT_EQ(config_from("memory: {channels: 8}\ntranslator: {granule_bytes: 64}\n").translator.channel_bits,
            (std::vector<unsigned>{6, 7, 8}))
      << "above a granule the config sets";
  const Config six = config_from("memory: {channels: 6}\ntranslator: {prime: 7, default_scheme: prime}\n");
  EXPECT_TRUE(six.translator.channel_bits.empty());
  EXPECT_EQ(six.granule_bytes(), 256u);
  EXPECT_EQ(config_from("memory: {channels: 1}\n").granule_bytes(), 4096u) << "one channel: the smallest page, as before";
  // A translator section without channel bits takes them too, before its
  // XOR vectors are counted against them.
  const Config x = config_from(
      "memory: {channels: 4}\ntranslator:\n  candidate_bits: [12, 13]\n  tasks: [{task_type: 1, scheme: xor, xor_vectors: [1, 2]}]\n");
  EXPECT_EQ(x.translator.channel_bits, (std::vector<unsigned>{8, 9}));
  // Written out, the list is the user's, even when empty.
  EXPECT_THROW(config_from("memory: {channels: 8}\ntranslator: {channel_bits: []}\n"), InputError);
}

TEST(Config, StatsWindowOverridesMaxOutstanding) {
  const Config c = config_from(base_yaml("translator: {channel_bits: [8, 9, 10]}\nstats: {entropy_window: 5}\n"));
  EXPECT_EQ(c.entropy_window(), 5u);
  EXPECT_EQ(config_from(base_yaml("translator: {channel_bits: [8, 9, 10]}\n")).entropy_window(), 16u);
}

}  // namespace
}  // namespace gpumem::test
