// The per-thread trace front end (CN106407063B): the trace forms, coalescing
// (step 1c) and scheduling and ordering (steps 1b, 1d), on hand-worked cases.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <map>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "frontend/coalescer.hpp"
#include "frontend/l1_sequence.hpp"
#include "frontend/ordered_requests.hpp"
#include "frontend/record_store.hpp"
#include "frontend/sm_issue_order.hpp"
#include "sources/thread_trace_io.hpp"
#include "params/frontend_from_config.hpp"
#include "test_helpers.hpp"

namespace gpumem {
namespace {

ThreadRecord rec(uint32_t tid, uint64_t address, unsigned width = 4, uint64_t pc = 0x10, bool dep = false, Op op = Op::kRead) {
  ThreadRecord r;
  r.thread_id = tid;
  r.pc = pc;
  r.address = address;
  r.width = width;
  r.dependent = dep;
  r.op = op;
  return r;
}

std::vector<CoalescedAccess> coalesced(const std::vector<ThreadRecord>& recs, unsigned line = 128) {
  std::vector<CoalescedAccess> out;
  coalesce(recs.data(), recs.size(), line, out);
  return out;
}

// ---------------------------------------------------------------- coalescing

TEST(Coalescing, ThirtyTwoConsecutiveFourByteAccessesInOneLineAreOneRequest) {
  std::vector<ThreadRecord> recs;
  for (uint32_t t = 0; t < 32; ++t) recs.push_back(rec(t, 0x1000 + 4 * t, 4, 0x40, true));
  const auto out = coalesced(recs);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].thread_id, 0u);
  EXPECT_EQ(out[0].address, 0x1000u);
  EXPECT_EQ(out[0].width, 128u);
  EXPECT_EQ(out[0].threads, 32u);
  EXPECT_EQ(out[0].pc, 0x40u);
  EXPECT_TRUE(out[0].dependent);
}

TEST(Coalescing, EightByteAccessesCoalesceOverHalfWarps) {
  // 32 threads x 8 bytes = 256 consecutive bytes: lanes 0-15 fill line 0x2000,
  // lanes 16-31 line 0x2080; each half warp is its own group.
  std::vector<ThreadRecord> recs;
  for (uint32_t t = 0; t < 32; ++t) recs.push_back(rec(t, 0x2000 + 8 * t, 8));
  const auto out = coalesced(recs);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].address, 0x2000u);
  EXPECT_EQ(out[0].width, 128u);
  EXPECT_EQ(out[0].threads, 16u);
  EXPECT_EQ(out[1].thread_id, 16u);
  EXPECT_EQ(out[1].address, 0x2080u);
  EXPECT_EQ(out[1].threads, 16u);
}

TEST(Coalescing, EightByteAccessesOfTwoHalfWarpsInOneLineDoNotMerge) {
  // Lanes 15 and 16 read the same line, but they are in different groups.
  const auto out = coalesced({rec(15, 0x3000, 8), rec(16, 0x3008, 8)});
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].thread_id, 15u);
  EXPECT_EQ(out[1].thread_id, 16u);
  EXPECT_EQ(out[0].width, 8u);
}

TEST(Coalescing, SixteenByteAccessesCoalesceOverQuarterWarps) {
  std::vector<ThreadRecord> recs;
  for (uint32_t t = 0; t < 32; ++t) recs.push_back(rec(t, 0x4000 + 16 * t, 16));
  const auto out = coalesced(recs);
  ASSERT_EQ(out.size(), 4u);
  for (unsigned g = 0; g < 4; ++g) {
    EXPECT_EQ(out[g].thread_id, 8 * g);
    EXPECT_EQ(out[g].address, 0x4000u + 128 * g);
    EXPECT_EQ(out[g].width, 128u);
    EXPECT_EQ(out[g].threads, 8u);
  }
  // Lanes 7 and 8 share no group even on one line.
  EXPECT_EQ(coalesced({rec(7, 0x5000, 16), rec(8, 0x5010, 16)}).size(), 2u);
}

TEST(Coalescing, AccessesCrossingALineBoundarySplitThere) {
  // 32 x 4 bytes from 0x1040: the first 16 lanes in line 0x1000, the rest in 0x1080.
  std::vector<ThreadRecord> recs;
  for (uint32_t t = 0; t < 32; ++t) recs.push_back(rec(t, 0x1040 + 4 * t));
  const auto out = coalesced(recs);
  ASSERT_EQ(out.size(), 2u);
  EXPECT_EQ(out[0].address, 0x1040u);
  EXPECT_EQ(out[0].width, 64u);
  EXPECT_EQ(out[0].threads, 16u);
  EXPECT_EQ(out[1].thread_id, 16u);
  EXPECT_EQ(out[1].address, 0x1080u);
  EXPECT_EQ(out[1].width, 64u);
  // With 64-byte lines the same accesses take two lines of 64 too, and
  // with 256-byte lines one request covering 0x1000-0x10FF.
  EXPECT_EQ(coalesced(recs, 64).size(), 2u);
  const auto wide = coalesced(recs, 256);
  ASSERT_EQ(wide.size(), 1u);
  EXPECT_EQ(wide[0].width, 256u);
  EXPECT_EQ(wide[0].base(), 0x1000u);
}

TEST(Coalescing, MergedRecordTakesTheSmallerThreadIdItsAddressAndTheSmallestCoveringWidth) {
  // Thread 5 at 0x40 comes first; thread 7 at 0x00 merges into it: thread 5
  // and its address stay, the width covers 0x00-0x43, so 128 (aligned).
  auto out = coalesced({rec(5, 0x40, 4, 0x99, true), rec(7, 0x00, 4, 0x99, true)});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].thread_id, 5u);
  EXPECT_EQ(out[0].address, 0x40u);
  EXPECT_EQ(out[0].width, 128u);
  EXPECT_EQ(out[0].base(), 0x0u);
  EXPECT_EQ(out[0].pc, 0x99u);
  EXPECT_TRUE(out[0].dependent);
  // In lane order whatever order the records come in.
  out = coalesced({rec(7, 0x00), rec(5, 0x40)});
  EXPECT_EQ(out[0].thread_id, 5u);
  EXPECT_EQ(out[0].address, 0x40u);
  // Two neighbours: 8 bytes; 0x4 and 0x8 straddle an 8-byte block: 16.
  EXPECT_EQ(coalesced({rec(0, 0x0), rec(1, 0x4)})[0].width, 8u);
  EXPECT_EQ(coalesced({rec(1, 0x4), rec(2, 0x8)})[0].width, 16u);
  // The same address twice: one access's width.
  EXPECT_EQ(coalesced({rec(0, 0x8), rec(1, 0x8)})[0].width, 4u);
}

TEST(Coalescing, RequestsKeepTheOrderOfTheirFirstThread) {
  const auto out = coalesced({rec(0, 0x300), rec(1, 0x100), rec(2, 0x304), rec(3, 0x200)});
  ASSERT_EQ(out.size(), 3u);
  EXPECT_EQ(out[0].address, 0x300u);
  EXPECT_EQ(out[0].threads, 2u);
  EXPECT_EQ(out[1].address, 0x100u);
  EXPECT_EQ(out[2].address, 0x200u);
}

TEST(Coalescing, WritesKeepEachThreadsBytes) {
  ThreadRecord a = rec(0, 0x108, 4, 0x20, false, Op::kWrite), b = rec(1, 0x10C, 4, 0x20, false, Op::kWrite);
  a.has_data = true;
  a.data = 0x11223344;
  const auto out = coalesced({a, b});
  ASSERT_EQ(out.size(), 1u);
  EXPECT_EQ(out[0].base(), 0x108u);
  EXPECT_EQ(out[0].width, 8u);
  ASSERT_EQ(out[0].writes.size(), 2u);
  EXPECT_EQ(out[0].writes[0].offset, 0u);
  EXPECT_EQ(out[0].writes[0].value, 0x11223344u);
  EXPECT_EQ(out[0].writes[1].offset, 4u);
  EXPECT_EQ(out[0].writes[1].value, default_write_value(b));
}

// ------------------------------------------------------- strided requests

std::optional<CoalescedAccess> strided(const std::vector<ThreadRecord>& recs, unsigned line = 128) {
  CoalescedAccess a;
  if (!stride_instruction(recs.data(), recs.size(), static_cast<unsigned>(coalesced(recs, line).size()), a)) return std::nullopt;
  return a;
}

TEST(StridedRequests, EquallySpacedAddressesAcrossLinesBecomeOne) {
  // 8 threads, 8 bytes each, 0x100 apart, listed out of order: 8 lines.
  std::vector<ThreadRecord> recs;
  for (uint32_t t : {3u, 0u, 1u, 2u, 7u, 4u, 5u, 6u}) recs.push_back(rec(10 + t, 0x4000 + 0x100 * t, 8, 0x30, true));
  const auto a = strided(recs);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->address, 0x4000u);
  EXPECT_EQ(a->stride, 0x100u);
  EXPECT_EQ(a->elements, 8u);
  EXPECT_EQ(a->width, 8u);
  EXPECT_EQ(a->bytes(), 64u);
  EXPECT_EQ(a->line_requests, 8u);
  EXPECT_EQ(a->thread_id, 10u);
  EXPECT_EQ(a->threads, 8u);
  EXPECT_EQ(a->pc, 0x30u);
  EXPECT_TRUE(a->dependent);
}

TEST(StridedRequests, OnlyOneProgressionOfOneOperationAndWidthOverSeveralLines) {
  std::vector<ThreadRecord> one_line, uneven, widths, ops, single;
  for (uint32_t t = 0; t < 8; ++t) one_line.push_back(rec(t, 8 * t));                    // one line: nothing to save
  for (uint32_t t = 0; t < 8; ++t) uneven.push_back(rec(t, 0x200 * t + (t == 5 ? 4 : 0)));  // one address off
  for (uint32_t t = 0; t < 8; ++t) widths.push_back(rec(t, 0x200 * t, t == 3 ? 8 : 4));
  for (uint32_t t = 0; t < 8; ++t) ops.push_back(rec(t, 0x200 * t, 4, 0x10, false, t == 3 ? Op::kWrite : Op::kRead));
  for (uint32_t t = 0; t < 8; ++t) single.push_back(rec(t, 0x200));                       // one address
  EXPECT_FALSE(strided(one_line));
  EXPECT_FALSE(strided(uneven));
  EXPECT_FALSE(strided(widths));
  EXPECT_FALSE(strided(ops));
  EXPECT_FALSE(strided(single));
  // The same spacing across lines of 32 bytes instead of 128: now it saves.
  EXPECT_TRUE(strided(one_line, 32));
}

TEST(StridedRequests, ThreadsSharingAnAddressShareAnElementAndTheLastWriteWins) {
  // Threads 0-3 write two addresses 0x400 apart, two threads each; the
  // later thread in lane order gives each element's value.
  std::vector<ThreadRecord> recs;
  for (uint32_t t = 0; t < 4; ++t) {
    ThreadRecord r = rec(t, 0x2000 + 0x400 * (t / 2), 4, 0x18, false, Op::kWrite);
    r.has_data = true;
    r.data = 0xA0 + t;
    recs.push_back(r);
  }
  const auto a = strided(recs);
  ASSERT_TRUE(a);
  EXPECT_EQ(a->elements, 2u);
  EXPECT_EQ(a->threads, 4u);
  ASSERT_EQ(a->writes.size(), 2u);
  EXPECT_EQ(a->writes[0].offset, 0u);
  EXPECT_EQ(a->writes[0].value, 0xA1u);
  EXPECT_EQ(a->writes[1].offset, 4u);
  EXPECT_EQ(a->writes[1].value, 0xA3u);
}

// ---------------------------------------------------------------- trace forms

const char* const kSmallTrace =
    "# two kernels\n"
    "thread,pc,op,address,width,dependent,data\n"
    "init,1,0x1000,00112233\n"
    "kernel,first,1,2\n"
    "0,0x10,R,0x1000,4,1,\n"
    "1,0x10,R,0x1004,4,1,\n"
    "32,0x18,W,0xfffffffffffffff0,16,0,0x55\n"
    "kernel,second,1\n"
    "3,0x20,r,0x2000,8,0,\n";

TEST(ThreadTraceForms, CsvAndBinaryHoldTheSameItems) {
  std::istringstream in(kSmallTrace);
  auto csv = read_thread_trace(in, "t.csv");
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  auto sink = write_thread_trace(mem, ThreadTraceForm::kBinary);
  MemoryInit init;
  KernelInfo k;
  ThreadRecord r;
  std::vector<std::string> seen;
  auto describe = [&](ThreadTraceSource::Item it) {
    char s[200];
    if (it == ThreadTraceSource::Item::kMemoryInit) std::snprintf(s, sizeof s, "I %u %llx %zu", init.process, (unsigned long long)init.address, init.bytes.size());
    else if (it == ThreadTraceSource::Item::kKernel) std::snprintf(s, sizeof s, "K %s %u %u", k.name.c_str(), k.process, k.warps_per_block);
    else std::snprintf(s, sizeof s, "R %u %llx %d %llx %u %d %d %llx", r.thread_id, (unsigned long long)r.pc, (int)r.op,
                       (unsigned long long)r.address, r.width, r.dependent, r.has_data, (unsigned long long)r.data);
    return std::string(s);
  };
  for (ThreadTraceSource::Item it; (it = csv->next(init, k, r)) != ThreadTraceSource::Item::kEnd;) {
    seen.push_back(describe(it));
    if (it == ThreadTraceSource::Item::kMemoryInit) sink->memory_init(init);
    else if (it == ThreadTraceSource::Item::kKernel) sink->kernel(k);
    else sink->record(r);
  }
  std::fclose(mem);
  ASSERT_EQ(seen.size(), 7u);
  EXPECT_EQ(seen[0], "I 1 1000 4");
  EXPECT_EQ(seen[1], "K first 1 2");
  EXPECT_EQ(seen[3], "R 1 10 0 1004 4 1 0 0");
  EXPECT_EQ(seen[4], "R 32 18 1 fffffffffffffff0 16 0 1 55");  // 64-bit addresses end to end
  EXPECT_EQ(seen[5], "K second 1 0");
  EXPECT_EQ(seen[6], "R 3 20 0 2000 8 0 0 0");
  std::string bytes(buf, len);
  free(buf);
  EXPECT_EQ(bytes.compare(0, 8, std::string(kThreadTraceMagic, 8)), 0);
  std::istringstream bin(bytes);
  auto back = read_thread_trace(bin, "t.bin");
  std::vector<std::string> again;
  for (ThreadTraceSource::Item it; (it = back->next(init, k, r)) != ThreadTraceSource::Item::kEnd;) again.push_back(describe(it));
  EXPECT_EQ(again, seen);
}

// What a run's progress line shows as the share of the trace read: the
// read position over the size, rising to 1 at the end, in either form.
TEST(ThreadTraceForms, EitherFormSaysHowMuchOfItIsRead) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  auto sink = write_thread_trace(mem, ThreadTraceForm::kBinary);
  std::istringstream csv_in(kSmallTrace);
  auto csv = read_thread_trace(csv_in, "t.csv");
  MemoryInit init;
  KernelInfo k;
  ThreadRecord r;
  std::vector<double> seen;
  for (ThreadTraceSource::Item it; (it = csv->next(init, k, r)) != ThreadTraceSource::Item::kEnd;) {
    seen.push_back(csv->fraction_read());
    if (it == ThreadTraceSource::Item::kMemoryInit) sink->memory_init(init);
    else if (it == ThreadTraceSource::Item::kKernel) sink->kernel(k);
    else sink->record(r);
  }
  std::fclose(mem);
  const std::string bytes(buf, len);
  free(buf);
  ASSERT_EQ(seen.size(), 7u);
  EXPECT_GT(seen.front(), 0.0);
  EXPECT_LT(seen.front(), 0.5) << "the first item is near the start";
  EXPECT_TRUE(std::is_sorted(seen.begin(), seen.end()));
  EXPECT_EQ(csv->fraction_read(), 1.0) << "at the end";
  std::istringstream bin_in(bytes);
  auto bin = read_thread_trace(bin_in, "t.bin");
  EXPECT_DOUBLE_EQ(bin->fraction_read(), 8.0 / bytes.size()) << "the magic bytes read";
  double last = 0;
  while (bin->next(init, k, r) != ThreadTraceSource::Item::kEnd) {
    EXPECT_GT(bin->fraction_read(), last);
    last = bin->fraction_read();
  }
  EXPECT_EQ(last, 1.0);
}

TEST(ThreadTraceForms, BinaryRecordsAreTheDocumentedBytes) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* mem = open_memstream(&buf, &len);
  auto sink = write_thread_trace(mem, ThreadTraceForm::kBinary);
  ThreadRecord r = rec(3, 0x2000, 8, 0x20);
  sink->record(r);
  r = rec(4, 0x1ff8, 8, 0x20, true, Op::kWrite);  // 8 bytes back: zigzag 15
  r.has_data = true;
  r.data = 0x81;
  sink->record(r);
  std::fclose(mem);
  const std::string bytes(buf, len);
  free(buf);
  // 'R', flags (log2 width 3 << 4), thread 3, pc 0x20, delta 0x2000 zigzagged
  // to 0x4000 = LEB128 80 80 01; then flags 0x37 (write, dependent, data),
  // thread 4, pc 0x20, delta -8 = zigzag 15, data 0x81 = 81 01.
  const std::string want = std::string(kThreadTraceMagic, 8) +
                           std::string("R\x30\x03\x20\x80\x80\x01" "R\x37\x04\x20\x0f\x81\x01", 14);
  EXPECT_EQ(bytes, want);
}

std::string csv_error(const std::string& text) {
  std::istringstream in(text);
  try {
    auto src = read_thread_trace(in, "t.csv");
    MemoryInit init;
    KernelInfo k;
    ThreadRecord r;
    while (src->next(init, k, r) != ThreadTraceSource::Item::kEnd) {}
  } catch (const InputError& e) {
    return e.what();
  }
  return "accepted";
}

TEST(ThreadTraceForms, MalformedCsvLinesNameLineAndColumn) {
  const std::string h = std::string(kThreadTraceHeader) + "\nkernel,k,0\n";
  EXPECT_EQ(csv_error(""), "t.csv: empty per-thread trace: no header line");
  EXPECT_EQ(csv_error("tid,pc\n"), "t.csv:1:1: header must be 'thread,pc,op,address,width,dependent,data' (data optional), got 'tid,pc'");
  EXPECT_EQ(csv_error(h + "0,0x10,R,0x1000,3,0,\n"), "t.csv:3:17: width: width 3 must be 1, 2, 4, 8 or 16");
  EXPECT_EQ(csv_error(h + "0,0x10,X,0x1000,4,0,\n"), "t.csv:3:8: op: bad operation 'X' (R or W)");
  EXPECT_EQ(csv_error(h + "0,0x10,R,0x1002,4,0,\n"), "t.csv:3:10: address: address 0x1002 is not aligned to its width 4");
  EXPECT_EQ(csv_error(h + "0,0x10,R,0x1000,4,2,\n"), "t.csv:3:19: dependent: dependency flag must be 0 or 1, got 2");
  EXPECT_EQ(csv_error(h + "4294967296,0x10,R,0x1000,4,0,\n"), "t.csv:3:1: thread: thread id 4294967296 does not fit 32 bits");
  EXPECT_EQ(csv_error(h + "0,zz,R,0x1000,4,0,\n"), "t.csv:3:3: pc: bad number 'zz'");
  EXPECT_EQ(csv_error(h + "0,0x10,R,0x1000,4\n"), "t.csv:3: expected 7 fields (thread,pc,op,address,width,dependent,data), found 5");
  EXPECT_EQ(csv_error(h + "kernel,k,16\n"), "t.csv:3:10: process: process 16 out of range (0-15)");
  EXPECT_EQ(csv_error(h + "init,0,0x0,abc\n"), "t.csv:3:12: bytes: want an even number of hex digits, 2 to 8192");
  EXPECT_EQ(csv_error(h + "init,0,0x0,zz\n"), "t.csv:3:12: bytes: bad hex digit 'z'");
}

TEST(ThreadTraceForms, TruncatedOrForeignBinaryIsRefused) {
  std::string bytes(kThreadTraceMagic, 8);
  bytes += "R";
  bytes += char(2 << 4);  // flags: a 4-byte read, then nothing
  std::istringstream in(bytes);
  auto src = read_thread_trace(in, "t.bin");
  MemoryInit init;
  KernelInfo k;
  ThreadRecord r;
  try {
    src->next(init, k, r);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "t.bin: item 1 at byte 8: : truncated item (the file ends inside it)");
  }
  std::string tag(kThreadTraceMagic, 8);
  tag += "Z";
  std::istringstream in2(tag);
  auto src2 = read_thread_trace(in2, "t.bin");
  try {
    src2->next(init, k, r);
    FAIL() << "accepted";
  } catch (const InputError& e) {
    EXPECT_STREQ(e.what(), "t.bin: item 1 at byte 8: tag: unknown item tag 90");
  }
}

// ---------------------------------------------------------------- ordering

Config frontend_config(const std::string& frontend) {
  return test::config_from(test::base_yaml("translator: {channel_bits: [8, 9, 10]}\nfrontend: " + frontend));
}

// Runs a CSV per-thread trace to the end; the sequence, and the stats.
std::vector<L1Request> order(const Config& cfg, const std::string& text, SequenceStats* stats = nullptr,
                             InstructionOrder how = InstructionOrder::kPerRequest) {
  std::istringstream in(text);
  auto src = read_thread_trace(in, "t.csv");
  L1SequenceGenerator gen(frontend_params(cfg), *src, how);
  std::vector<L1Request> out;
  while (gen.tick(out)) {}
  if (stats) *stats = gen.stats();
  return out;
}

std::string header() { return std::string(kThreadTraceHeader) + "\n"; }

// A warp instruction of one lane at `address`.
std::string line(uint32_t tid, uint64_t pc, uint64_t address, bool dep) {
  char b[96];
  std::snprintf(b, sizeof b, "%u,0x%llx,R,0x%llx,4,%d,\n", tid, (unsigned long long)pc, (unsigned long long)address, dep ? 1 : 0);
  return b;
}

TEST(Ordering, ADependentRequestBlocksItsWarpForExactlyItsLatency) {
  // sigma 0: every latency is M = 5. Warp 0 (block 0): a dependent load,
  // then another. Warp 1 (block 1, same SM): ten independent loads.
  const Config cfg = frontend_config("{num_sms: 1, blocks_per_sm: 2, warps_per_block: 1, mshr_entries: 32, latency_min: 5, latency_sigma: 0}");
  std::string t = header() + "kernel,k,0\n" + line(0, 0x10, 0x1000, true) + line(0, 0x18, 0x2000, false);
  for (int i = 0; i < 10; ++i) t += line(32, 0x20 + 8 * i, 0x3000 + 0x100 * i, false);
  const auto seq = order(cfg, t);
  ASSERT_EQ(seq.size(), 12u);
  std::vector<uint64_t> warp0;
  for (const L1Request& r : seq) {
    EXPECT_EQ(r.latency, 5u);
    if (r.warp == 0) warp0.push_back(r.slot);
  }
  ASSERT_EQ(warp0.size(), 2u);
  // Issued at tick s, its latency runs out at s + 5 (the warp is released
  // after that tick's pick): the next request goes at s + 6, and the other
  // warp issues exactly 5 requests in between.
  EXPECT_EQ(warp0[1] - warp0[0], 6u);
  unsigned between = 0;
  for (const L1Request& r : seq) between += r.warp == 1 && r.slot > warp0[0] && r.slot < warp0[1];
  EXPECT_EQ(between, 5u);
  // Round robin: the two warps alternate while both are ready.
  EXPECT_EQ(seq[0].warp, 0u);
  EXPECT_EQ(seq[1].warp, 1u);
}

// Warp 0: a dependent load of four lanes in four lines (four line requests), then
// a dependent load of one line; warp 1 (block 1, same SM): ten independent
// loads. sigma 0: every latency is M = 5.
std::vector<L1Request> four_line_instruction(InstructionOrder how) {
  const Config cfg = frontend_config(
      "{num_sms: 1, blocks_per_sm: 2, warps_per_block: 1, mshr_entries: 32, latency_min: 5, latency_sigma: 0, strided_requests: false}");
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t lane = 0; lane < 4; ++lane) t += line(lane, 0x10, 0x1000 + 0x100 * lane, true);
  t += line(0, 0x18, 0x2000, true);
  for (int i = 0; i < 10; ++i) t += line(32, 0x20 + 8 * i, 0x3000 + 0x100 * i, false);
  return order(cfg, t, nullptr, how);
}

std::vector<uint64_t> slots_of_warp(const std::vector<L1Request>& seq, uint32_t warp) {
  std::vector<uint64_t> slots;
  for (const L1Request& r : seq)
    if (r.warp == warp) slots.push_back(r.slot);
  return slots;
}

TEST(Ordering, PerRequestEachLineOfADependentInstructionWaitsForTheLineBefore) {
  // CN106407063B (trace order, issue_timing: ordering): each dependent request
  // blocks the warp for its latency, so the four lines go 6 ticks apart.
  const auto seq = four_line_instruction(InstructionOrder::kPerRequest);
  ASSERT_EQ(seq.size(), 15u);
  EXPECT_EQ(slots_of_warp(seq, 0), (std::vector<uint64_t>{0, 6, 12, 18, 24}));
}

TEST(Ordering, WholeInstructionsLinesGoInConsecutiveTicksAndTheWarpWaitsForAllOfThem) {
  // issue_timing: memory: the four lines at ticks 0-3, warp 1 not between
  // them; the last one's latency ends at 3 + 5, so the next load goes at 9.
  const auto seq = four_line_instruction(InstructionOrder::kWholeInstruction);
  ASSERT_EQ(seq.size(), 15u);
  EXPECT_EQ(slots_of_warp(seq, 0), (std::vector<uint64_t>{0, 1, 2, 3, 9}));
  unsigned between = 0;
  for (const L1Request& r : seq) between += r.warp == 1 && r.slot > 3 && r.slot < 9;
  EXPECT_EQ(between, 5u) << "the other warp issues while warp 0 waits";
  std::vector<bool> first;
  for (const L1Request& r : seq)
    if (r.warp == 0) first.push_back(r.first_of_instruction);
  EXPECT_EQ(first, (std::vector<bool>{true, false, false, false, true}));
}

TEST(Ordering, ReadyWarpsTakeTurnsRoundRobin) {
  // One SM, one block of three warps, three independent loads each: the
  // warps take turns, 0 1 2 0 1 2 0 1 2, not one warp to its end.
  const Config cfg = frontend_config("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 3, mshr_entries: 32, latency_min: 2, latency_sigma: 0}");
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t w = 0; w < 3; ++w)
    for (int i = 0; i < 3; ++i) t += line(32 * w, 0x10 + 8 * i, 0x1000 * w + 0x100 * i, false);
  const auto seq = order(cfg, t);
  ASSERT_EQ(seq.size(), 9u);
  for (size_t i = 0; i < seq.size(); ++i) {
    EXPECT_EQ(seq[i].warp, i % 3) << i;
    EXPECT_EQ(seq[i].slot, i) << "one issue a tick while a warp is ready";
  }
}

TEST(Ordering, IssueStallsWhileOutstandingRequestsFillTheMshrs) {
  // Two MSHRs, latency 10, six independent loads of one warp: two go at
  // ticks 0 and 1, the next only when the first expires (tick 10), and so on.
  const Config cfg = frontend_config("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 2, latency_min: 10, latency_sigma: 0}");
  std::string t = header() + "kernel,k,0\n";
  for (int i = 0; i < 6; ++i) t += line(0, 0x10 + 8 * i, 0x1000 + 0x100 * i, false);
  SequenceStats st;
  const auto seq = order(cfg, t, &st);
  ASSERT_EQ(seq.size(), 6u);
  const uint64_t want[] = {0, 1, 10, 11, 20, 21};
  for (size_t i = 0; i < 6; ++i) EXPECT_EQ(seq[i].slot, want[i]) << i;
  EXPECT_EQ(st.sm[0].mshr_full_ticks, 8u + 8u);  // ticks 2-9 and 12-19
}

std::string busy_trace() {
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t w = 0; w < 16; ++w)
    for (int i = 0; i < 6; ++i)
      for (uint32_t lane = 0; lane < 32; lane += 8) t += line(w * 32 + lane, 0x10 + 8 * i, 0x100000 * w + 0x1000 * i + lane * 64, i % 2 == 0);
  return t;
}

std::string sequence_text(const std::vector<L1Request>& seq) {
  char* buf = nullptr;
  size_t len = 0;
  std::FILE* f = open_memstream(&buf, &len);
  for (const L1Request& r : seq) write_l1_request(f, r);
  std::fclose(f);
  std::string s(buf, len);
  free(buf);
  return s;
}

TEST(Ordering, EveryTickOfEverySmIsCountedOnce) {
  // Each SM, each tick, issues or is counted as idle, blocked or waiting on
  // full MSHRs: also over the ticks in which no SM can act, which the
  // ordering skips rather than steps through.
  SequenceStats st;
  const auto seq = order(frontend_config("{num_sms: 3, blocks_per_sm: 1, warps_per_block: 2, mshr_entries: 2, latency_min: 4, "
                                         "latency_sigma: 6}"),
                         busy_trace(), &st);
  uint64_t idle = 0, blocked = 0, full = 0;
  for (size_t s = 0; s < st.sm.size(); ++s) {
    const SmSequenceStats& m = st.sm[s];
    EXPECT_EQ(m.requests + m.idle_ticks + m.blocked_ticks + m.mshr_full_ticks, st.ticks) << "SM " << s;
    idle += m.idle_ticks;
    blocked += m.blocked_ticks;
    full += m.mshr_full_ticks;
  }
  EXPECT_GT(idle, 0u);
  EXPECT_GT(blocked, 0u);
  EXPECT_GT(full, 0u);
  EXPECT_EQ(seq.back().slot + seq.back().latency + 1, st.ticks) << "the run ends in the tick the last latency ends";
}

TEST(Ordering, TheSameSeedGivesTheSameOrderAnotherSeedAnother) {
  const std::string fe = "{num_sms: 2, blocks_per_sm: 2, warps_per_block: 2, mshr_entries: 4, latency_min: 3, latency_sigma: 6, seed: ";
  const std::string a = sequence_text(order(frontend_config(fe + "11}"), busy_trace()));
  const std::string b = sequence_text(order(frontend_config(fe + "11}"), busy_trace()));
  const std::string c = sequence_text(order(frontend_config(fe + "12}"), busy_trace()));
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  EXPECT_EQ(std::count(a.begin(), a.end(), '\n'), std::count(c.begin(), c.end(), '\n'));  // the same requests, reordered
}

TEST(Ordering, BlocksGoRoundRobinAndWaitForAFreeSlot) {
  // Two SMs with one slot each, four one-warp blocks: blocks 0 and 1 start on
  // SMs 0 and 1; block 2 waits for the first slot to free, block 3 for the next.
  const Config cfg = frontend_config("{num_sms: 2, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 8, latency_min: 2, latency_sigma: 0}");
  std::string t = header() + "kernel,k,0\n";
  const int loads[] = {1, 4, 1, 1};
  for (uint32_t b = 0; b < 4; ++b)
    for (int i = 0; i < loads[b]; ++i) t += line(b * 32, 0x10 + 8 * i, 0x1000 * b + 0x100 * i, false);
  SequenceStats st;
  const auto seq = order(cfg, t, &st);
  // Block 0 (one load at tick 0, expiring at 2) ends first: block 2 takes
  // SM 0 at tick 3. Blocks 1 and 2 both end at tick 5; the round robin goes
  // on after SM 0, the last SM given a block, so block 3 takes SM 1.
  std::map<uint32_t, unsigned> where;
  for (const L1Request& r : seq) where[r.block] = r.sm;
  EXPECT_EQ(where[0], 0u);
  EXPECT_EQ(where[1], 1u);
  EXPECT_EQ(where[2], 0u);
  EXPECT_EQ(where[3], 1u);
  EXPECT_EQ(st.sm[0].blocks, 2u);
  EXPECT_EQ(st.sm[1].blocks, 2u);
  for (const L1Request& r : seq) {
    if (r.block == 2) {
      EXPECT_EQ(r.slot, 3u);
    }
    if (r.block == 3) {
      EXPECT_EQ(r.slot, 6u);
    }
  }
}

TEST(Ordering, KernelsRunOneAfterTheOther) {
  const Config cfg = frontend_config("{num_sms: 2, blocks_per_sm: 4, warps_per_block: 1, mshr_entries: 8, latency_min: 4, latency_sigma: 0}");
  const std::string t = header() + "kernel,a,0\n" + line(0, 0x10, 0x1000, false) + line(0, 0x18, 0x1100, false) +
                        "kernel,b,3\n" + line(0, 0x10, 0x2000, false);
  const auto seq = order(cfg, t);
  ASSERT_EQ(seq.size(), 3u);
  EXPECT_EQ(seq[2].kernel, 1u);
  EXPECT_EQ(seq[2].process, 3u);
  // Kernel a's last load issued at tick 1 expires at 5: kernel b starts at 6.
  EXPECT_EQ(seq[2].slot, 6u);
}

TEST(Ordering, LayoutRulesAreCheckedWithThePosition) {
  const Config cfg = frontend_config("{num_sms: 1, warps_per_block: 1}");
  auto fails = [&](const std::string& text) {
    try {
      order(cfg, text);
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("accepted");
  };
  EXPECT_EQ(fails(header() + line(0, 0x10, 0x1000, false)), "t.csv:2: thread: a record before the first kernel line");
  EXPECT_EQ(fails(header() + "kernel,k,0\n" + line(32, 0x10, 0x1000, false) + line(0, 0x10, 0x1000, false)),
            "t.csv:4: thread: thread 0 is in block 0, after block 1's records: records come block by block in ascending block order");
  EXPECT_EQ(fails(header() + "kernel,k,0\n" + line(0, 0x10, 0x1000, false) + "init,0,0x0,00\n"),
            "t.csv:4: init: memory-init after the first kernel: memory-init items come before every kernel");
  EXPECT_EQ(fails(header() + "kernel,k,16\n"), "t.csv:2:10: process: process 16 out of range (0-15)");
  EXPECT_EQ(fails(header() + "kernel,k,0\n" + line(0, 0x10, 0x100000000, false)),
            "t.csv:3:10: address: address 0x100000000 needs 33 bits: it is outside the 32-bit physical address space");
}

TEST(StridedRequests, TheSwitchOffSendsLineRequests) {
  const std::string t = std::string(kThreadTraceHeader) + "\nkernel,k,0\n0,0x10,R,0x0,4,0,\n1,0x10,R,0x1000,4,0,\n";
  SequenceStats on, off;
  order(frontend_config("{num_sms: 1}"), t, &on);
  order(frontend_config("{num_sms: 1, strided_requests: false}"), t, &off);
  EXPECT_EQ(on.requests, 1u);
  EXPECT_EQ(on.strided_requests, 1u);
  EXPECT_EQ(on.strided_elements, 2u);
  EXPECT_EQ(on.strided_line_requests, 2u);
  EXPECT_EQ(off.requests, 2u);
  EXPECT_EQ(off.strided_requests, 0u);
}

// ---------------------------------------------------------------- one request stream

std::vector<Request> ordered_requests(const Config& cfg, const std::string& text) {
  std::istringstream in(text);
  auto src = read_thread_trace(in, "t.csv");
  OrderedRequests requests(frontend_params(cfg), *src);
  std::vector<Request> out;
  Request r;
  while (requests.next(r)) out.push_back(r);
  return out;
}

// gpumem explore --threads's stream: the ordering's requests as the
// generator gives them, tick by tick, SMs in order, a strided request's
// elements one request each with the strided request's id, its width and
// its element's address; the kernel's process is the task type without an
// address space.
TEST(OrderedRequests, AreTheOrderingsRequestsWithEachStridedElementARequest) {
  for (const char* timing : {"ordering", "memory"}) {
    SCOPED_TRACE(timing);
    const Config cfg = frontend_config(std::string("{num_sms: 2, blocks_per_sm: 1, warps_per_block: 1, latency_min: 3, "
                                                   "latency_sigma: 0, issue_timing: ") + timing + "}");
    // Block 0 (SM 0): a dependent load of four lines, then a strided load of
    // four lanes a page apart. Block 1 (SM 1): three independent loads.
    std::string t = header() + "kernel,k,2\n";
    for (uint32_t lane = 0; lane < 4; ++lane) t += line(lane, 0x10, 0x1000 + 0x100 * lane, true);
    for (uint32_t lane = 0; lane < 4; ++lane) t += line(lane, 0x18, 0x20000 + 0x1000 * lane, false);
    for (int i = 0; i < 3; ++i) t += line(32, 0x20 + 8 * i, 0x8000 + 0x100 * i, false);
    const InstructionOrder how = std::string(timing) == "memory" ? InstructionOrder::kWholeInstruction : InstructionOrder::kPerRequest;
    EXPECT_EQ(instruction_order(frontend_params(cfg).issue_timing), how);
    const auto seq = order(cfg, t, nullptr, how);
    std::vector<Request> want;
    for (size_t i = 0; i < seq.size(); ++i) {
      const CoalescedAccess& a = seq[i].access;
      for (unsigned e = 0; e < std::max(1u, unsigned(a.elements)); ++e) {
        Request r;
        r.id = i;
        r.cycle = seq[i].slot;
        r.address = a.strided() ? a.address + e * a.stride : a.base();
        r.size = a.strided() ? a.width : a.bytes();
        r.task_type = 2;
        r.sm = seq[i].sm;
        r.warp = seq[i].warp;
        want.push_back(r);
      }
    }
    const auto got = ordered_requests(cfg, t);
    ASSERT_EQ(got.size(), want.size());
    ASSERT_EQ(got.size(), 11u) << "four lines, four elements, three loads";
    for (size_t i = 0; i < got.size(); ++i) {
      SCOPED_TRACE(i);
      EXPECT_EQ(got[i].id, want[i].id);
      EXPECT_EQ(got[i].cycle, want[i].cycle);
      EXPECT_EQ(got[i].address, want[i].address);
      EXPECT_EQ(got[i].size, want[i].size);
      EXPECT_EQ(got[i].task_type, 2u);
      EXPECT_EQ(got[i].process, 0u);
      EXPECT_EQ(got[i].sm, want[i].sm);
      EXPECT_EQ(got[i].warp, want[i].warp);
    }
  }
}

// ---------------------------------------------------------------- resident records

PackedRecord packed(uint32_t queue, uint32_t i) {
  PackedRecord p;
  p.thread_id = queue;
  p.address = uint64_t{i} * 4;
  p.pc = 0x100 + i;
  return p;
}

TEST(ResidentRecords, SpilledChunksComeBackInOrderAndTheirSlotsAreReused) {
  constexpr uint32_t kChunk = RecordStore::kChunkRecords;
  constexpr uint32_t kRecords = 4 * kChunk - 24;  // three full chunks and a part
  RecordStore store(0);
  RecordQueue q[3];
  for (uint32_t i = 0; i < kRecords; ++i)
    for (uint32_t k = 0; k < 3; ++k) store.push(q[k], packed(k, i));
  // With no budget the middle two chunks of each queue spill when the next
  // chunk opens; the first (read first) and the last (still filling) stay.
  EXPECT_EQ(store.spilled(), 3u * 2 * kChunk);
  EXPECT_EQ(store.in_memory(), 3u * (kChunk + kChunk - 24));
  EXPECT_EQ(store.in_memory_max(), 3u * 2 * kChunk) << "two full chunks per queue, the moment before the first spill";
  EXPECT_EQ(store.file_bytes(), 6u * kChunk * sizeof(PackedRecord));
  for (uint32_t k = 0; k < 3; ++k) {
    for (uint32_t i = 0; i < kRecords; ++i) {
      ASSERT_FALSE(q[k].empty());
      const PackedRecord& p = store.front(q[k]);
      ASSERT_EQ(p.thread_id, k);
      ASSERT_EQ(p.address, uint64_t{i} * 4) << "queue " << k << " record " << i;
      ASSERT_EQ(p.pc, 0x100u + i);
      store.pop(q[k]);
    }
    EXPECT_TRUE(q[k].empty());
  }
  EXPECT_EQ(store.in_memory(), 0u);
  // Spilling again reuses the slots read back: the file does not grow.
  for (uint32_t i = 0; i < 4 * kChunk; ++i) store.push(q[0], packed(0, i));
  EXPECT_EQ(store.spilled(), 3u * 2 * kChunk + 2 * kChunk);
  EXPECT_EQ(store.file_bytes(), 6u * kChunk * sizeof(PackedRecord));
  store.clear(q[0]);
  EXPECT_TRUE(q[0].empty());
  EXPECT_EQ(store.in_memory(), 0u);
}

TEST(ResidentRecords, WithinTheBudgetNothingSpills) {
  RecordStore store(10000);
  RecordQueue q;
  for (uint32_t i = 0; i < 5000; ++i) store.push(q, packed(0, i));
  EXPECT_EQ(store.spilled(), 0u);
  EXPECT_EQ(store.file_bytes(), 0u);
  EXPECT_EQ(store.in_memory_max(), 5000u);
}

// Four blocks of two warps, each warp 20 instructions of 32 lanes (640
// records, several chunks): some dependent, some strided.
std::string long_warps_trace() {
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t w = 0; w < 8; ++w)
    for (uint32_t i = 0; i < 20; ++i)
      for (uint32_t lane = 0; lane < 32; ++lane) {
        const uint64_t address = i % 3 == 0 ? 0x400000 + 0x1000 * w + 0x200 * lane : 0x100000 * w + 0x800 * i + 4 * lane;
        t += line(w * 32 + lane, 0x10 + 8 * i, address, i % 4 == 1);
      }
  return t;
}

TEST(ResidentRecords, SpillingChangesNothingInTheSequence) {
  const std::string fe = "{num_sms: 2, blocks_per_sm: 2, warps_per_block: 2, mshr_entries: 4, latency_min: 3, latency_sigma: 6";
  SequenceStats kept, spilled;
  const std::string a = sequence_text(order(frontend_config(fe + "}"), long_warps_trace(), &kept));
  const std::string b = sequence_text(order(frontend_config(fe + ", max_records_in_memory: 0}"), long_warps_trace(), &spilled));
  EXPECT_EQ(a, b);
  EXPECT_EQ(kept.records_spilled, 0u);
  EXPECT_EQ(kept.records_in_memory_max, 4u * 2 * 640) << "the four blocks, all resident at once, whole";
  // Each warp spills every chunk but its first and its last.
  static_assert(640 % RecordStore::kChunkRecords == 0, "whole chunks");
  EXPECT_EQ(spilled.records_spilled, 8u * (640 - 2 * RecordStore::kChunkRecords));
  EXPECT_LT(spilled.records_in_memory_max, kept.records_in_memory_max);
  EXPECT_EQ(kept.requests, spilled.requests);
  EXPECT_EQ(kept.strided_requests, spilled.strided_requests);
  EXPECT_GT(spilled.strided_requests, 0u);
}

TEST(Ordering, FrontendConfigIsValidated) {
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{line_bytes: 96}"); }, "test.yaml", 3, "frontend.line_bytes", "power of two"));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{line_bytes: 512}"); }, "test.yaml", 3, "frontend.line_bytes",
                                   "larger than the largest request (256 bytes"));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{mshr_entries: 0}"); }, "test.yaml", 3, "frontend.mshr_entries", ""));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{num_sm: 2}"); }, "test.yaml", 3, "frontend.num_sm", ""));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{num_sms: 0}"); }, "test.yaml", 3, "frontend.num_sms", "outside [1, 1024]"));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{warps_per_block: 33}"); }, "test.yaml", 3, "frontend.warps_per_block", "outside [1, 32]"));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{latency_sigma: -1}"); }, "test.yaml", 3, "frontend.latency_sigma", "must be in [0, 1e6]"));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{latency_sigma: lots}"); }, "test.yaml", 3, "frontend.latency_sigma", "expected a number"));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{strided_requests: maybe}"); }, "test.yaml", 3, "frontend.strided_requests",
                                   "expected true or false"));
  EXPECT_FALSE(frontend_config("{strided_requests: false}").frontend.strided_requests);
  EXPECT_TRUE(frontend_config("{}").frontend.strided_requests);
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{max_queued: 0}"); }, "test.yaml", 3, "frontend.max_queued", "outside [1, "));
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{max_records_in_memory: -1}"); }, "test.yaml", 3,
                                   "frontend.max_records_in_memory", ""));
  EXPECT_EQ(frontend_config("{}").frontend.max_records_in_memory, 262144u);
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{issue_timing: soon}"); }, "test.yaml", 3, "frontend.issue_timing",
                                   "'soon' is not one of: ordering, memory"));
  EXPECT_EQ(frontend_config("{}").frontend.issue_timing, IssueTiming::kOrdering);
  EXPECT_EQ(frontend_config("{issue_timing: memory}").frontend.issue_timing, IssueTiming::kMemory);
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{scheduler: fifo}"); }, "test.yaml", 3, "frontend.scheduler",
                                   "'fifo' is not one of: lrr, gto"));
  // lt issues in CN106407063B's order: a scheduler it cannot honour is refused.
  EXPECT_TRUE(test::input_error_at([] { frontend_config("{scheduler: gto}"); }, "test.yaml", 3, "frontend.scheduler",
                                   "gto applies to simulation.timing: at only"));
  EXPECT_EQ(frontend_config("{}").frontend.scheduler, WarpScheduler::kLrr);
}

// ------------------------------------------- the memory's latencies (at)

// Runs a trace with LatencySource::kMemory: each request is answered
// `latency(r)` cycles after it issues, and the answers are handed back in
// (cycle, issue order) before that cycle's tick, as SmArrayTlm does.
std::vector<L1Request> order_by_memory(const std::string& frontend, const std::string& text,
                                       const std::function<uint64_t(const L1Request&)>& latency, SequenceStats* stats = nullptr) {
  Config cfg = test::config_from(test::base_yaml("translator: {channel_bits: [8, 9, 10]}\nfrontend: " + frontend +
                                                 "\nsimulation: {timing: at}"));
  std::istringstream in(text);
  auto src = read_thread_trace(in, "t.csv");
  L1SequenceGenerator gen(frontend_params(cfg), *src, InstructionOrder::kWholeInstruction, LatencySource::kMemory);
  std::vector<L1Request> out, issued;
  std::multimap<uint64_t, size_t> answers;  // cycle -> index in out (issue order within a cycle)
  bool more = true, started = false;
  for (uint64_t now = 0; more || !answers.empty(); ++now) {
    gen.advance_to(now);
    for (auto it = answers.begin(); it != answers.end() && it->first <= now; it = answers.erase(it)) gen.complete(out[it->second]);
    if (more && (!started || gen.any_awake())) {
      started = true;
      issued.clear();
      more = gen.tick(issued);
      for (L1Request& r : issued) {
        answers.emplace(now + latency(r), out.size());
        out.push_back(std::move(r));
      }
    }
    if (now > 100000) throw std::logic_error("order_by_memory: no end");
  }
  EXPECT_EQ(gen.outstanding(), 0u);
  if (stats) *stats = gen.stats();
  return out;
}

// One SM, one block of two warps, four dependent loads each; warp 0's hit
// (answered the next cycle), warp 1's miss (100 cycles).
std::string hits_and_misses_trace() {
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t w = 0; w < 2; ++w)
    for (int i = 0; i < 4; ++i) t += line(32 * w, 0x10 + 8 * i, 0x10000 * (w + 1) + 0x100 * i, true);
  return t;
}
uint64_t hit_or_miss(const L1Request& r) { return r.warp == 0 ? 1 : 100; }

TEST(MemoryLatencies, AGtoWarpRunsAheadOnItsHits) {
  // gto: warp 0 (the oldest) keeps the SM while it is ready, and its loads
  // hit: it issues in cycles 0-3 back to back, and warp 1 only after it.
  const auto seq = order_by_memory("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 2, scheduler: gto}", hits_and_misses_trace(), hit_or_miss);
  ASSERT_EQ(seq.size(), 8u);
  EXPECT_EQ(slots_of_warp(seq, 0), (std::vector<uint64_t>{0, 1, 2, 3}));
  EXPECT_EQ(slots_of_warp(seq, 1), (std::vector<uint64_t>{4, 104, 204, 304}));
}

TEST(MemoryLatencies, LrrTakesTheNextReadyWarpAfterTheLastPick) {
  // lrr: warp 1 gets cycle 1 though warp 0 is ready again; then warp 1
  // waits for its miss and warp 0 has the SM.
  const auto seq = order_by_memory("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 2, scheduler: lrr}", hits_and_misses_trace(), hit_or_miss);
  ASSERT_EQ(seq.size(), 8u);
  EXPECT_EQ(slots_of_warp(seq, 0), (std::vector<uint64_t>{0, 2, 3, 4}));
  EXPECT_EQ(slots_of_warp(seq, 1), (std::vector<uint64_t>{1, 101, 201, 301}));
}

TEST(MemoryLatencies, GtoFallsBackToTheOldestReadyWarp) {
  // Three warps, two independent loads each, then a dependent one whose
  // miss blocks the warp: gto runs each warp until it blocks and then takes
  // the oldest ready warp, 0 0 0 1 1 1 2 2 2; lrr takes turns.
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t w = 0; w < 3; ++w)
    for (int i = 0; i < 3; ++i) t += line(32 * w, 0x10 + 8 * i, 0x10000 * (w + 1) + 0x100 * i, i == 2);
  const auto fixed = [](const L1Request&) { return uint64_t{50}; };
  std::vector<uint32_t> gto, lrr;
  for (const L1Request& r : order_by_memory("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 3, scheduler: gto}", t, fixed)) gto.push_back(r.warp);
  for (const L1Request& r : order_by_memory("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 3}", t, fixed)) lrr.push_back(r.warp);
  EXPECT_EQ(gto, (std::vector<uint32_t>{0, 0, 0, 1, 1, 1, 2, 2, 2}));
  EXPECT_EQ(lrr, (std::vector<uint32_t>{0, 1, 2, 0, 1, 2, 0, 1, 2}));
}

TEST(MemoryLatencies, AWarpWaitsForTheAnswersOfItsDependentInstructionNotADrawnLatency) {
  // The four-line dependent load of four_line_instruction, answered after
  // 7 cycles (the drawn latency, 5, plays no part): lines at 0-3, the next
  // load when the last answer is in, at 3 + 7.
  std::string t = header() + "kernel,k,0\n";
  for (uint32_t lane = 0; lane < 4; ++lane) t += line(lane, 0x10, 0x1000 + 0x100 * lane, true);
  t += line(0, 0x18, 0x2000, true);
  const auto seq = order_by_memory("{num_sms: 1, warps_per_block: 1, latency_min: 5, latency_sigma: 0, strided_requests: false}", t,
                                   [](const L1Request&) { return uint64_t{7}; });
  EXPECT_EQ(slots_of_warp(seq, 0), (std::vector<uint64_t>{0, 1, 2, 3, 10}));
  for (const L1Request& r : seq) EXPECT_EQ(r.latency, 0u) << "no latency is drawn";
}

TEST(MemoryLatencies, MshrsFreeWhenTheirAnswerComes) {
  // Two MSHRs, answers after 10 cycles: 0, 1, then 10, 11, 20, 21; the
  // cycles held with both MSHRs taken are counted.
  std::string t = header() + "kernel,k,0\n";
  for (int i = 0; i < 6; ++i) t += line(0, 0x10 + 8 * i, 0x1000 + 0x100 * i, false);
  SequenceStats st;
  const auto seq = order_by_memory("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 2}", t,
                                   [](const L1Request&) { return uint64_t{10}; }, &st);
  EXPECT_EQ(slots_of_warp(seq, 0), (std::vector<uint64_t>{0, 1, 10, 11, 20, 21}));
  EXPECT_EQ(st.sm[0].mshr_full_ticks, 8u + 8u);  // cycles 2-9 and 12-19
}

TEST(MemoryLatencies, TheNextKernelStartsWhenTheLastAnswerOfThisOneIsIn) {
  // Kernel 0: one load answered after 30 cycles, one after 5; kernel 1's
  // first load issues at 30, not when the ordering would have let it.
  std::string t = header() + "kernel,a,0\n" + line(0, 0x10, 0x1000, false) + line(0, 0x18, 0x2000, false) + "kernel,b,0\n" +
                  line(0, 0x10, 0x3000, false);
  const auto seq = order_by_memory("{num_sms: 2, warps_per_block: 1}", t, [](const L1Request& r) { return r.access.pc == 0x10 && r.kernel == 0 ? uint64_t{30} : uint64_t{5}; });
  ASSERT_EQ(seq.size(), 3u);
  EXPECT_EQ(seq[2].kernel, 1u);
  EXPECT_EQ(seq[2].slot, 30u);
}

// ------------------------------------------------------- SM issue order (lt)

struct IssuedRequest {
  SmIssueOrder::Issue issue;
  uint64_t completion = 0;
};

// Issues a CSV per-thread trace as the lt SMs do, into a memory that answers
// each request `latency` cycles after its issue; the issues in order.
std::vector<IssuedRequest> issue_order(const Config& cfg, const std::string& text,
                                       const std::function<uint64_t(const L1Request&)>& latency, uint64_t start = 0) {
  std::istringstream in(text);
  auto src = read_thread_trace(in, "t.csv");
  const FrontendParams fe = frontend_params(cfg);
  L1SequenceGenerator gen(fe, *src, instruction_order(fe.issue_timing));
  SmIssueOrder order(fe, gen);
  order.start(start);
  std::vector<IssuedRequest> out;
  for (int steps = 0;; ++steps) {
    if (steps > 100000) throw std::logic_error("issue_order: no end");
    const SmIssueOrder::Next next = order.next();
    if (next.kind == SmIssueOrder::Next::Kind::kDone) break;
    EXPECT_EQ(next.kind, SmIssueOrder::Next::Kind::kIssue);
    SmIssueOrder::Issue issue = order.take(next);
    EXPECT_EQ(issue.request.sm, next.sm);
    EXPECT_EQ(issue.cycle, next.cycle);
    const uint64_t completion = issue.cycle + latency(issue.request);
    order.issued(issue, completion);
    out.push_back({std::move(issue), completion});
  }
  return out;
}

TEST(SmIssueOrder, TheEarliestIssueGoesFirstTheLowerSmOnATieNoneBeforeItsTick) {
  // Two SMs, a block each, eight independent loads each; SM 1's answers take
  // longer, so the two SMs' issue cycles interleave and meet.
  const Config cfg = frontend_config("{num_sms: 2, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 2, latency_min: 3, latency_sigma: 0}");
  std::string t = header() + "kernel,k,0\n";
  for (int i = 0; i < 8; ++i) t += line(0, 0x10 + 8 * i, 0x1000 + 0x100 * i, false);
  for (int i = 0; i < 8; ++i) t += line(32, 0x10 + 8 * i, 0x9000 + 0x100 * i, false);
  const auto seq = issue_order(cfg, t, [](const L1Request& r) { return r.sm == 0 ? 5u : 9u; }, 100);
  ASSERT_EQ(seq.size(), 16u);
  unsigned ties = 0;
  for (size_t i = 0; i < seq.size(); ++i) {
    const SmIssueOrder::Issue& is = seq[i].issue;
    EXPECT_GE(is.cycle, 100 + is.request.slot) << i;
    if (i == 0) continue;
    const SmIssueOrder::Issue& before = seq[i - 1].issue;
    EXPECT_GE(is.cycle, before.cycle) << i;
    if (is.cycle == before.cycle) {
      ++ties;
      EXPECT_LT(before.request.sm, is.request.sm) << i;
    }
  }
  EXPECT_GT(ties, 0u);
}

TEST(SmIssueOrder, AFullMshrHoldsTheNextIssueUntilTheFirstCompletion) {
  // Two MSHRs, answers after 50 cycles, six independent loads ordered a tick
  // apart: two go at 0 and 1, the next two when their MSHRs free, and so on.
  const Config cfg = frontend_config("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 2, latency_min: 1, latency_sigma: 0}");
  std::string t = header() + "kernel,k,0\n";
  for (int i = 0; i < 6; ++i) t += line(0, 0x10 + 8 * i, 0x1000 + 0x100 * i, false);
  const auto seq = issue_order(cfg, t, [](const L1Request&) { return 50u; });
  ASSERT_EQ(seq.size(), 6u);
  const uint64_t cycle[] = {0, 1, 50, 51, 100, 101}, mshr_wait[] = {0, 0, 48, 0, 48, 0};
  for (size_t i = 0; i < 6; ++i) {
    EXPECT_EQ(seq[i].issue.request.slot, i) << i;
    EXPECT_EQ(seq[i].issue.cycle, cycle[i]) << i;
    EXPECT_EQ(seq[i].issue.mshr_wait, mshr_wait[i]) << i;
    EXPECT_EQ(seq[i].issue.dependency_wait, 0u) << i;
  }
}

TEST(SmIssueOrder, ADependentRequestHoldsItsWarpUntilItsAnswer) {
  // A dependent load, then a load: the second issues when the first is
  // answered (cycle 30), not at its tick in the ordering (6: the drawn
  // latency of 5 ends at 5).
  const Config cfg = frontend_config("{num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 8, latency_min: 5, latency_sigma: 0}");
  const std::string t = header() + "kernel,k,0\n" + line(0, 0x10, 0x1000, true) + line(0, 0x18, 0x2000, false);
  const auto seq = issue_order(cfg, t, [](const L1Request&) { return 30u; });
  ASSERT_EQ(seq.size(), 2u);
  EXPECT_EQ(seq[1].issue.request.slot, 6u);
  EXPECT_EQ(seq[1].issue.cycle, 30u);
  EXPECT_EQ(seq[1].issue.dependency_wait, 24u);
}

TEST(SmIssueOrder, TheNextKernelWaitsForEveryAnswerOfTheLast) {
  // Kernel a's two loads on two SMs, the second answered at 1 + 80; kernel
  // b's load, ordered at tick 6, issues then.
  const Config cfg = frontend_config("{num_sms: 2, blocks_per_sm: 4, warps_per_block: 1, mshr_entries: 8, latency_min: 4, latency_sigma: 0}");
  const std::string t = header() + "kernel,a,0\n" + line(0, 0x10, 0x1000, false) + line(0, 0x18, 0x1100, false) +
                        "kernel,b,3\n" + line(0, 0x10, 0x2000, false);
  const auto seq = issue_order(cfg, t, [](const L1Request& r) { return r.slot == 1 ? 80u : 4u; });
  ASSERT_EQ(seq.size(), 3u);
  EXPECT_FALSE(seq[0].issue.new_kernel);
  EXPECT_FALSE(seq[1].issue.new_kernel);
  EXPECT_TRUE(seq[2].issue.new_kernel);
  EXPECT_EQ(seq[2].issue.request.kernel, 1u);
  EXPECT_EQ(seq[2].issue.cycle, 81u);
}

}  // namespace
}  // namespace gpumem
