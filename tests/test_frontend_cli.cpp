// gpumem trace convert | order and gpumem run --threads / --trace-format,
// end to end through the binary.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <sstream>
#include <vector>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

const char* const kConfig =
    "memory: {address_bits: 32, channels: 4, service_cycles: 2, max_outstanding: 16}\n"
    "translator: {channel_bits: [7, 8]}\n"
    "frontend: {num_sms: 3, blocks_per_sm: 2, warps_per_block: 2, mshr_entries: 4, latency_min: 3, latency_sigma: 5}\n";

// Four two-warp blocks: each warp a dependent coalesced load, then stores
// 0x800 bytes apart (one strided request of 8 elements, or 8 line requests).
std::string trace() {
  std::ostringstream t;
  t << "thread,pc,op,address,width,dependent,data\nkernel,k,1\n";
  for (unsigned w = 0; w < 8; ++w) {
    for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x10,R," << 0x1000 + 4 * (32 * w + lane) << ",4,1,\n";
    for (unsigned lane = 0; lane < 32; lane += 4) t << 32 * w + lane << ",0x18,W," << 0x100000 + 0x200 * (32 * w + lane) << ",4,0,7\n";
  }
  return t.str();
}

TEST_F(Cli, TraceConvertRoundTripsThroughTheBinaryForm) {
  const auto csv = write("t.csv", trace());
  ASSERT_EQ(run({"trace", "convert", csv.string(), path("t.bin").string(), "--quiet"}).exit_code, 0);
  const Result back = run({"trace", "convert", path("t.bin").string(), path("back.csv").string()});
  ASSERT_EQ(back.exit_code, 0) << back.err;
  EXPECT_NE(back.out.find("321 items"), std::string::npos) << back.out;  // a kernel and 8 x (32 + 8) records
  EXPECT_LT(fs::file_size(path("t.bin")) * 3, fs::file_size(csv));
  // Ordering either form gives the same sequence.
  const auto cfg = write("c.yaml", kConfig);
  ASSERT_EQ(run({"trace", "order", "--config", cfg.string(), "--threads", csv.string(), "--out", path("a.csv").string(), "--quiet"}).exit_code, 0);
  ASSERT_EQ(run({"trace", "order", "--config", cfg.string(), "--threads", path("t.bin").string(), "--out", path("b.csv").string(), "--quiet"}).exit_code, 0);
  EXPECT_EQ(slurp(path("a.csv")), slurp(path("b.csv")));
}

TEST_F(Cli, TraceOrderIsTheSameForTheSameSeedAndDiffersForAnother) {
  const auto csv = write("t.csv", trace());
  const auto cfg = write("c.yaml", kConfig);
  const auto other = write("d.yaml", std::string(kConfig).replace(std::string(kConfig).find("latency_sigma: 5"), 16, "latency_sigma: 5, seed: 9"));
  for (const char* out : {"a.csv", "b.csv"})
    ASSERT_EQ(run({"trace", "order", "--config", cfg.string(), "--threads", csv.string(), "--out", path(out).string(), "--quiet"}).exit_code, 0);
  const Result r = run({"trace", "order", "--config", other.string(), "--threads", csv.string(), "--out", path("c.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("per-thread accesses 320 -> requests 16"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("strided requests 8 (64 elements, in place of 64 line requests)"), std::string::npos) << r.out;
  EXPECT_EQ(slurp(path("a.csv")), slurp(path("b.csv")));
  EXPECT_NE(slurp(path("a.csv")), slurp(path("c.csv")));
}

// On a terminal (script(1) gives one) a run of a per-thread trace long
// enough to wait for (about a second here) shows the requests done and the
// share of the file read, with no ETA (docs/explorer.md, "Progress").
TEST_F(Cli, RunShowsTheShareOfItsTraceReadOnATerminal) {
  if (std::system("script --version >/dev/null 2>&1") != 0) GTEST_SKIP() << "no script(1) for a terminal";
  ASSERT_EQ(run({"trace", "gen", "bfs", "--scale", "15", "--out", path("bfs.bin").string(), "--quiet"}).exit_code, 0);
  const std::string cmd = "script -qec \"'" + std::string(GPUMEM_BINARY) + "' run --config '" + kSource +
                          "/configs/default.yaml' --threads '" + path("bfs.bin").string() + "'\" /dev/null >'" +
                          path("tty").string() + "' </dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0);
  const std::string tty = slurp(path("tty"));
  const size_t line = tty.find("\r\033[K");
  ASSERT_NE(line, std::string::npos) << tty.substr(0, 2000);
  const size_t share = tty.find(" % of the trace read, ", line);
  ASSERT_NE(share, std::string::npos) << tty.substr(0, 2000);
  EXPECT_EQ(tty.substr(share, tty.find('\r', share) - share).find("ETA"), std::string::npos) << tty.substr(0, 2000);
  EXPECT_NE(tty.find("\r\033[Kconfig "), std::string::npos) << "cleared before the report\n" << tty.substr(0, 2000);
}

TEST_F(Cli, RunThreadsReportsSmsWarpsAndCoalescingAndLogsSmAndWarp) {
  const auto csv = write("t.csv", trace());
  const auto cfg = write("c.yaml", kConfig);
  const Result r = run({"run", "--config", cfg.string(), "--threads", csv.string(), "--stats-json", path("s.json").string(),
                        "--txn-log", path("log.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("front end: 1 kernel, 4 blocks, 8 warps; 320 thread accesses -> 16 requests"), std::string::npos) << r.out;
  // The stores all fall in channel 0 (address bits 7 and 8 are 0): one
  // message each, one access per element (each in its own granule).
  EXPECT_NE(r.out.find("strided requests: 8 with 64 elements took 8 channel messages: 56 saved against one per element, 56 "
                       "against one per line request (64)"),
            std::string::npos)
      << r.out;
  const auto j = json("s.json");
  EXPECT_EQ(j.at("requests"), 72) << "the model's statistics count each element";
  const auto& fe = j.at("frontend");
  EXPECT_EQ(fe.at("thread_accesses"), 320);
  EXPECT_DOUBLE_EQ(fe.at("coalescing_efficiency").get<double>(), 320.0 / 16);
  ASSERT_EQ(fe.at("sms").size(), 3u);
  uint64_t total = 0, blocks = 0;
  for (const auto& s : fe.at("sms")) {
    total += s.at("requests").get<uint64_t>();
    blocks += s.at("blocks").get<uint64_t>();
  }
  EXPECT_EQ(total, 16u);
  EXPECT_EQ(blocks, 4u);
  EXPECT_EQ(fe.at("warps").at("warps"), 8);
  EXPECT_EQ(fe.at("warps").at("requests").at("min"), 2);
  EXPECT_EQ(fe.at("warps").at("requests").at("max"), 2);
  const auto& st = fe.at("strided");
  EXPECT_EQ(st.at("enabled"), true);
  EXPECT_EQ(st.at("requests"), 8);
  EXPECT_EQ(st.at("elements"), 64);
  EXPECT_EQ(st.at("line_requests"), 64);
  EXPECT_EQ(st.at("channel_messages"), 8);
  EXPECT_EQ(st.at("channel_accesses"), 64);
  EXPECT_EQ(st.at("messages_saved_against_elements"), 56);
  EXPECT_EQ(st.at("messages_saved_against_lines"), 56);
  EXPECT_GE(fe.at("queued_max"), 1);
  EXPECT_LE(fe.at("queued_max"), 16) << "no more than the requests there are";
  // Every line of the log names an SM and a warp; the l1 column is empty without an L1.
  std::istringstream log(slurp(path("log.csv")));
  std::string line;
  std::getline(log, line);
  unsigned lines = 0;
  while (std::getline(log, line)) {
    ++lines;
    std::vector<std::string> fields;
    std::istringstream in(line + ",");
    for (std::string f; std::getline(in, f, ',');) fields.push_back(f);
    ASSERT_EQ(fields.size(), 20u) << line;
    EXPECT_FALSE(fields[17].empty()) << line;
    EXPECT_EQ(fields[17].find_first_not_of("0123456789"), std::string::npos) << line;
    EXPECT_FALSE(fields[18].empty()) << line;
    EXPECT_EQ(fields[18].find_first_not_of("0123456789"), std::string::npos) << line;
    EXPECT_EQ(fields[19], "") << line;
  }
  EXPECT_EQ(lines, 72u);
}

TEST_F(Cli, StridedRequestsOffSendsTheLineRequests) {
  const auto csv = write("t.csv", trace());
  std::string off = kConfig;
  off.replace(off.find("latency_sigma: 5"), 16, "latency_sigma: 5, strided_requests: false");
  const Result r = run({"run", "--config", write("c.yaml", off).string(), "--threads", csv.string(), "--stats-json",
                        path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("strided requests: off"), std::string::npos) << r.out;
  const auto fe = json("s.json").at("frontend");
  EXPECT_EQ(fe.at("requests"), 72);
  EXPECT_EQ(fe.at("strided").at("enabled"), false);
  EXPECT_EQ(fe.at("strided").at("requests"), 0);
  EXPECT_EQ(json("s.json").at("requests"), 72);
}

TEST_F(Cli, MaxQueuedBoundsTheRequestsOrderedAhead) {
  // SM 0: 40 independent loads in channel 0 (10 cycles each, two MSHRs): the
  // memory holds it back. SM 1: 40 dependent loads in channel 1: its queue
  // runs dry after each, and its ticks give SM 0 more than it can issue.
  std::string t = "thread,pc,op,address,width,dependent,data\nkernel,k,0\n";
  for (int i = 0; i < 40; ++i) t += "0,0x" + std::to_string(100 + i) + ",R," + std::to_string(0x200 * i) + ",4,0,\n";
  for (int i = 0; i < 40; ++i) t += "32,0x" + std::to_string(100 + i) + ",R," + std::to_string(0x100 + 0x200 * i) + ",4,1,\n";
  const auto csv = write("t.csv", t);
  const std::string yaml =
      "memory: {address_bits: 32, channels: 2, service_cycles: 10, max_outstanding: 16}\n"
      "translator: {channel_bits: [8]}\n"
      "frontend: {num_sms: 2, blocks_per_sm: 1, warps_per_block: 1, mshr_entries: 2, latency_min: 1, latency_sigma: 0";
  for (const char* limit : {"", ", max_queued: 4"}) {
    const Result r = run({"run", "--config", write("c.yaml", yaml + limit + "}\n").string(), "--threads", csv.string(),
                          "--stats-json", path("s.json").string(), "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << r.err;
    const auto fe = json("s.json").at("frontend");
    EXPECT_EQ(fe.at("requests"), 80);
    if (*limit) {
      EXPECT_LE(fe.at("queued_max"), 3 + 2) << "under 4, then one tick: at most one request per SM";
      EXPECT_GT(fe.at("queue_limit_holds"), 0);
    } else {
      EXPECT_GT(fe.at("queued_max"), 5) << "without the bound SM 0's queue grows";
      EXPECT_EQ(fe.at("queue_limit_holds"), 0);
    }
  }
}

TEST_F(Cli, ResidentRecordsSpillWithoutChangingTheSequence) {
  // Two blocks of two warps, each warp 20 coalesced loads (640 records: ten
  // chunks of 64). With no records kept in memory, each warp's chunks but
  // its first and its last go to the file and come back.
  std::ostringstream t;
  t << "thread,pc,op,address,width,dependent,data\nkernel,k,1\n";
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned i = 0; i < 20; ++i)
      for (unsigned lane = 0; lane < 32; ++lane) t << 32 * w + lane << ",0x" << 16 + 8 * i << ",R," << 0x10000 * w + 0x80 * i + 4 * lane << ",4,0,\n";
  const auto csv = write("t.csv", t.str());
  std::string spill = kConfig;
  spill.replace(spill.find("latency_sigma: 5"), 16, "latency_sigma: 5, max_records_in_memory: 0");
  const Result kept = run({"trace", "order", "--config", write("c.yaml", kConfig).string(), "--threads", csv.string(), "--out",
                           path("a.csv").string()});
  ASSERT_EQ(kept.exit_code, 0) << kept.err;
  EXPECT_NE(kept.out.find("resident records: at most 2560 in memory, 0 spilled to a temporary file"), std::string::npos) << kept.out;
  const auto cfg = write("s.yaml", spill);
  const Result spilled = run({"trace", "order", "--config", cfg.string(), "--threads", csv.string(), "--out", path("b.csv").string()});
  ASSERT_EQ(spilled.exit_code, 0) << spilled.err;
  EXPECT_NE(spilled.out.find(", 2048 spilled to a temporary file"), std::string::npos) << spilled.out;
  EXPECT_EQ(slurp(path("a.csv")), slurp(path("b.csv")));
  const Result r = run({"run", "--config", cfg.string(), "--threads", csv.string(), "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto fe = json("s.json").at("frontend");
  EXPECT_EQ(fe.at("records_spilled"), 2048);
  EXPECT_LT(fe.at("records_in_memory_max"), 2560);
  EXPECT_EQ(json("s.json").at("requests"), 80);
  // Nowhere to spill: the run stops and says where it tried.
  const Result nowhere = run_env({"TMPDIR=" + path("missing").string()},
                                 {"trace", "order", "--config", cfg.string(), "--threads", csv.string(), "--out", path("c.csv").string()});
  EXPECT_NE(nowhere.exit_code, 0);
  EXPECT_NE(nowhere.err.find("cannot create the temporary file for spilled per-thread records in " + path("missing").string() +
                             " (set TMPDIR, or raise frontend.max_records_in_memory): No such file or directory"),
            std::string::npos)
      << nowhere.err;
}

TEST_F(Cli, RunThreadsWithAnL1ReportsItAndLogsWhatItDid) {
  // Each warp's 32 loads fall in one line: a miss, then the warp's stores
  // go through. Nothing else touches those lines, so the 8 loads miss.
  const auto csv = write("t.csv", trace());
  const Result r = run({"run", "--config", write("c.yaml", std::string(kConfig) + "l1: {size_bytes: 4096, ways: 2}\n").string(),
                        "--threads", csv.string(), "--stats-json", path("s.json").string(), "--txn-log", path("log.csv").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("L1 data caches (3): 8 reads, 0 hits, 0 merged into a fill in flight, 8 misses (miss rate 1.000)"),
            std::string::npos)
      << r.out;
  const auto l1 = json("s.json").at("l1");
  EXPECT_EQ(l1.at("reads"), 8);
  EXPECT_EQ(l1.at("misses"), 8);
  EXPECT_EQ(l1.at("fills"), 8);
  EXPECT_EQ(l1.at("bypasses"), 8) << "the strided stores";
  ASSERT_EQ(l1.at("sms").size(), 3u);
  uint64_t reads = 0;
  for (const auto& s : l1.at("sms")) reads += s.at("reads").get<uint64_t>();
  EXPECT_EQ(reads, 8u);
  std::istringstream log(slurp(path("log.csv")));
  std::string line;
  std::map<std::string, unsigned> results;
  std::getline(log, line);
  while (std::getline(log, line)) ++results[line.substr(line.rfind(',') + 1)];
  EXPECT_EQ(results["miss"], 8u);
  EXPECT_EQ(results["bypass"], 64u) << "one line per element";
}

const char* const kBfsConfig =
    "memory: {address_bits: 32, channels: 4, service_cycles: 4, max_outstanding: 16}\n"
    "mmu: {tlb: {entries: 16, ways: 4}}\n"
    "translator: {channel_bits: [7, 8]}\n"
    "address_space:\n"
    "  va_bits: 32\n"
    "  applications:\n"
    "    - {name: bfs, process: 0, task_type: 0, regions: [{name: graph, va: 0x400000, size: 0x100000, page: large}]}\n"
    "frontend: {num_sms: 4, blocks_per_sm: 2, warps_per_block: 4, line_bytes: 128, mshr_entries: 8, issue_timing: memory}\n"
    "l1: {size_bytes: 16384, ways: 4}\n";

// A prefetch the MMU cannot translate is dropped and counted as the
// prefetcher's (docs/prefetch.md, "Faults"), not as a fault of the program:
// the visited list's range moved above the graph's region, so every
// visited-list prefetch faults, in both timing modes.
TEST_F(Cli, APrefetchThatFaultsIsTheUnitsNotTheProgramsFault) {
  const auto plain = write("plain.yaml", kBfsConfig);
  const Result gen = run({"trace", "gen", "bfs", "--config", plain.string(), "--app", "bfs", "--region", "graph", "--scale", "10",
                          "--items-per-warp", "64", "--out", path("bfs.bin").string()});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  const std::string prefetch =
      "prefetch: {kind: bfs, ranges: {worklist: [0x400000, 0x401000], vertexlist: [0x401000, 0x402004], edgelist: [0x403000, 0x417a20], "
      "visitedlist: [0x618000, 0x619000]}}\n";
  for (const char* timing : {"lt", "at"}) {
    const auto cfg = write(std::string("c-") + timing + ".yaml", std::string(kBfsConfig) + prefetch + "simulation: {timing: " + timing + "}\n");
    const Result r = run({"run", "--config", cfg.string(), "--threads", path("bfs.bin").string(), "--stats-json", path("s.json").string()});
    ASSERT_EQ(r.exit_code, 0) << timing << ": " << r.err;
    const auto j = json("s.json");
    EXPECT_GT(j.at("prefetch").at("faulted").get<uint64_t>(), 100u) << timing;
    EXPECT_EQ(j.at("prefetch").at("issued_by_array").at("visitedlist"), j.at("prefetch").at("faulted")) << timing;
    EXPECT_EQ(j.at("faults"), 0) << timing;
    EXPECT_EQ(j.at("mmu").at("faults"), 0) << timing;
    EXPECT_TRUE(j.at("fault_records").empty()) << timing;
  }
}

TEST_F(Cli, ComparePrefetchRunsNoneStrideAndBfsOnTheSameTrace) {
  const auto plain = write("plain.yaml", kBfsConfig);
  const Result gen = run({"trace", "gen", "bfs", "--config", plain.string(), "--app", "bfs", "--region", "graph", "--scale", "10",
                          "--items-per-warp", "64", "--out", path("bfs.bin").string()});
  ASSERT_EQ(gen.exit_code, 0) << gen.err;
  // The ranges as trace gen printed them, pasted into the config.
  const std::string key = "prefetch ranges (docs/prefetch.md): ";
  const size_t at = gen.out.find(key);
  ASSERT_NE(at, std::string::npos) << gen.out;
  const std::string ranges = gen.out.substr(at + key.size(), gen.out.find('\n', at) - at - key.size());
  const auto cfg = write("c.yaml", std::string(kBfsConfig) + "prefetch: {ranges: " + ranges + "}\n");
  const Result r = run({"run", "--config", cfg.string(), "--threads", path("bfs.bin").string(), "--compare-prefetch", "--stats-json",
                        path("s.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_NE(r.out.find("none        stride           bfs"), std::string::npos) << r.out;
  for (const char* row : {"makespan (cycles)", "L1 miss rate", "coverage", "accuracy", "lateness"})
    EXPECT_NE(r.out.find(row), std::string::npos) << row;
  const auto j = json("s.json").at("compare_prefetch");
  const auto& none = j.at("none");
  const auto& bfs = j.at("bfs");
  EXPECT_EQ(none.at("prefetch").at("issued"), 0);
  EXPECT_EQ(none.at("coverage"), 0.0);
  EXPECT_GT(bfs.at("prefetch").at("issued").get<uint64_t>(), 0u);
  EXPECT_GT(bfs.at("prefetch").at("useful").get<uint64_t>(), 0u);
  EXPECT_LT(bfs.at("l1_misses").get<uint64_t>(), none.at("l1_misses").get<uint64_t>());
  EXPECT_DOUBLE_EQ(bfs.at("coverage").get<double>(),
                   (none.at("memory_misses").get<double>() - bfs.at("memory_misses").get<double>()) / none.at("memory_misses").get<double>());
  EXPECT_EQ(bfs.at("memory_misses"), bfs.at("l1_misses")) << "no prefetch buffer: every miss went to memory";
  EXPECT_EQ(none.at("l1_reads"), bfs.at("l1_reads")) << "the same trace";
  EXPECT_EQ(j.at("stride").at("l1_reads"), none.at("l1_reads"));
  // What it cannot run.
  const Result no_threads = run({"run", "--config", cfg.string(), "--compare-prefetch"});
  EXPECT_EQ(no_threads.exit_code, 2);
  EXPECT_NE(no_threads.err.find("--compare-prefetch: needs --threads"), std::string::npos) << no_threads.err;
  const Result no_ranges = run({"run", "--config", plain.string(), "--threads", path("bfs.bin").string(), "--compare-prefetch"});
  EXPECT_EQ(no_ranges.exit_code, 2);
  EXPECT_NE(no_ranges.err.find("prefetch.ranges: --compare-prefetch runs the BFS prefetcher too"), std::string::npos) << no_ranges.err;
}

// Issue 14's measure: on a scale-16 R-MAT BFS the data-structure
// prefetcher beats the stride prefetcher on coverage and makespan, and both
// beat no prefetching. The shipped example config and the documented
// commands (docs/prefetch.md, "Comparing prefetchers"), with a memory
// latency of 100 cycles: on the example's 1-cycle memory a warp
// instruction's lines go out together and come back in a few cycles, hit or
// miss, so the three makespans are within 0.1 % of each other.
TEST_F(Cli, OnAScale16BfsTheBfsPrefetcherBeatsStrideAndBothBeatNone) {
  const std::string config = kSource + "/configs/examples/bfs-prefetch.yaml";
  Result r = run({"trace", "gen", "bfs", "--config", config, "--app", "bfs", "--region", "graph", "--scale", "16",
                  "--items-per-warp", "256", "--out", path("bfs16.bin").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::string text = slurp(config);
  const std::string at = "  max_outstanding: 64\n";
  ASSERT_NE(text.find(at), std::string::npos);
  text.insert(text.find(at) + at.size(), "  latency_cycles: 100\n");
  r = run({"run", "--config", write("latency.yaml", text).string(), "--threads", path("bfs16.bin").string(), "--compare-prefetch",
           "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const auto j = json("s.json").at("compare_prefetch");
  const auto& none = j.at("none");
  const auto& stride = j.at("stride");
  const auto& bfs = j.at("bfs");
  EXPECT_GT(bfs.at("coverage").get<double>(), stride.at("coverage").get<double>());
  EXPECT_GT(stride.at("coverage").get<double>(), 0.0);
  EXPECT_LT(bfs.at("makespan").get<uint64_t>(), stride.at("makespan").get<uint64_t>());
  EXPECT_LT(stride.at("makespan").get<uint64_t>(), none.at("makespan").get<uint64_t>());
  EXPECT_GT(bfs.at("prefetch").at("accuracy").get<double>(), 0.5);
}

TEST_F(Cli, ImportedTracesRunUnchanged) {
  const auto cfg = write("c.yaml", kConfig);
  const std::string data = kSource + "/tests/data/importers/";
  const Result d = run({"run", "--config", cfg.string(), "--trace", data + "dramsim3.trace", "--trace-format", "dramsim3",
                        "--stats-json", path("d.json").string(), "--quiet"});
  ASSERT_EQ(d.exit_code, 0) << d.err;
  EXPECT_EQ(json("d.json").at("requests"), 6);
  // Accel-Sim's addresses are a real GPU's: 47 bits.
  std::string wide = kConfig;
  wide.replace(wide.find("address_bits: 32"), 16, "address_bits: 48");
  const Result a = run({"run", "--config", write("w.yaml", wide).string(), "--threads", data + "kernelslist.g", "--threads-format", "accel-sim",
                        "--stats-json", path("a.json").string(), "--quiet"});
  ASSERT_EQ(a.exit_code, 0) << a.err;
  EXPECT_EQ(json("a.json").at("frontend").at("kernels"), 2);
}

// Issue 29: another simulator's trace holds physical addresses. Through
// configs/default.yaml's page tables they are VAs nobody maps, and every
// request faults: the run says so on stderr and names the config that runs
// such a trace, which serves all of it.
TEST_F(Cli, ADramTraceThatMostlyFaultsIsWarnedAboutAndThePhysicalConfigRunsIt) {
  const std::string trace = kSource + "/tests/data/importers/dramsim3.trace";
  const std::string physical = kSource + "/configs/examples/physical-addresses.yaml";
  Result r = run({"run", "--config", kSource + "/configs/default.yaml", "--trace", trace, "--trace-format", "dramsim3",
                  "--stats-json", path("d.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json("d.json").at("faults"), 6);
  EXPECT_EQ(r.err,
            "gpumem: warning: 6 of 6 requests faulted: with an address_space a trace's addresses are virtual, and the page "
            "tables do not map these; a trace of physical addresses (another simulator's, such as DRAMsim3's or "
            "Ramulator's) runs on a config without address_space, such as configs/examples/physical-addresses.yaml "
            "(docs/trace-format.md, \"Imported traces\")\n");

  r = run({"run", "--config", physical, "--trace", trace, "--trace-format", "dramsim3", "--stats-json", path("p.json").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(r.err, "") << "nothing faults, nothing to warn about";
  const auto j = json("p.json");
  EXPECT_EQ(j.at("requests"), 6);
  EXPECT_EQ(j.at("faults"), 0);
  uint64_t served = 0;
  for (const auto& c : j.at("channels")) served += c.at("requests").get<uint64_t>();
  EXPECT_EQ(served, 6u);
  EXPECT_EQ(j.count("mmu"), 0u) << "no MMU";
  for (const char* form : {"ramulator-dram", "ramulator2-ldst"}) {
    r = run({"run", "--config", physical, "--trace", kSource + "/tests/data/importers/" + form + ".trace", "--trace-format",
             form, "--stats-json", path("r.json").string(), "--quiet"});
    ASSERT_EQ(r.exit_code, 0) << form << ": " << r.err;
    EXPECT_EQ(json("r.json").at("faults"), 0) << form;
  }

  // Half faulting is a run about faults, not a wrong config: no warning.
  r = run({"run", "--config", kSource + "/configs/examples/nested-pages.yaml", "--trace",
           kSource + "/configs/examples/nested-pages-faults.csv", "--stats-json", path("n.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(json("n.json").at("faults").get<uint64_t>() * 2, json("n.json").at("requests").get<uint64_t>());
  EXPECT_EQ(r.err, "");
}

// Runs t.csv on `cfg` twice, with simulation.timing lt and at: lt.json and
// lt.csv, at.json and at.csv (stats JSON, transaction log). False if either run failed.
class AtCli : public Cli {
 protected:
  bool run_lt_and_at(const std::string& cfg) {
    write("lt.yaml", cfg);
    write("at.yaml", cfg + "simulation: {timing: at}\n");
    for (const std::string m : {"lt", "at"})
      if (run({"run", "--config", path(m + ".yaml").string(), "--threads", path("t.csv").string(), "--stats-json",
               path(m + ".json").string(), "--txn-log", path(m + ".csv").string(), "--quiet"}).exit_code != 0)
        return false;
    return true;
  }
};

// simulation.timing: at: the SMs issue as the memory's answers let them.
// Where requests do not compete (one warp a SM, a chain of dependent loads,
// channels that serve in arrival order) lt and at are the same machine:
// each load waits for the one before it, whatever timing style works it out.
TEST_F(AtCli, OnSimpleChannelsADependentChainTakesWhatLtGives) {
  std::ostringstream t;
  t << "thread,pc,op,address,width,dependent,data\nkernel,k,0\n";
  for (unsigned w = 0; w < 4; ++w)
    for (unsigned i = 0; i < 20; ++i) t << 32 * w << "," << 0x10 + 8 * i << ",R," << 0x80 * w + 0x200 * i << ",4,1,\n";  // SM w's own channel
  write("t.csv", t.str());
  const std::string cfg =
      "memory: {address_bits: 32, channels: 4, service_cycles: 3, latency_cycles: 40}\n"
      "translator: {channel_bits: [7, 8]}\n"
      "frontend: {num_sms: 4, blocks_per_sm: 1, warps_per_block: 1, issue_timing: memory}\n";
  ASSERT_TRUE(run_lt_and_at(cfg));
  const auto l = json("lt.json"), a = json("at.json");
  EXPECT_EQ(a["makespan"], l["makespan"]);
  for (unsigned s = 0; s < 4; ++s) {
    const auto& sm = a["frontend"]["sms"][s];
    EXPECT_EQ(sm["mean_latency"], 43.0) << "service 3 + latency 40, on an idle channel";
    EXPECT_EQ(sm["requests"], 20u) << s;
    // Each load issues the cycle the one before completes.
    EXPECT_EQ(sm["last_completion"].get<uint64_t>() - sm["first_issue"].get<uint64_t>(), 20u * 43u) << s;
    EXPECT_EQ(sm["last_completion"], l["frontend"]["sms"][s]["last_completion"]) << s;
  }
}

// The MMU in at: a walk's page-table reads go out one after another, each
// when the one before is answered. Where nothing competes (one warp of
// dependent loads, each to a page of its own, channels that serve in
// arrival order) every load takes exactly what lt gives it, walk included.
TEST_F(AtCli, AWalkResumesWhenItsReadIsAnsweredAndTakesWhatLtGives) {
  std::ostringstream t;
  t << "thread,pc,op,address,width,dependent,data\nkernel,k,1\n";
  for (unsigned i = 0; i < 6; ++i) t << 0 << "," << 0x10 + 8 * i << ",R," << 0x20000000 + 0x1000 * i << ",4,1,\n";
  write("t.csv", t.str());
  const std::string cfg =
      "memory: {address_bits: 32, channels: 4, service_cycles: 1, latency_cycles: 50}\n"
      "mmu: {page_sizes: [4096, 65536], tlb: {entries: 4, ways: 4, hit_cycles: 1}, walk_level_cycles: 2}\n"
      "translator: {position: after_mmu, channel_bits: [8, 9], tasks: [{task_type: 1, scheme: none}]}\n"
      "address_space:\n  va_bits: 32\n  applications:\n"
      "    - {name: a, process: 1, task_type: 1, regions: [{name: r, va: 0x20000000, size: 0x6000, page: small}]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, issue_timing: memory}\n";
  ASSERT_TRUE(run_lt_and_at(cfg));
  const auto l = json("lt.json"), a = json("at.json");
  EXPECT_EQ(a["mmu"]["walks"], 6u);
  EXPECT_GT(a["mmu"]["walk_reads"].get<uint64_t>(), 6u) << "more than one level a walk";
  EXPECT_EQ(a["mmu"], l["mmu"]) << "the same walks, reads and walk cycles";
  EXPECT_EQ(a["makespan"], l["makespan"]);
  EXPECT_EQ(slurp(path("at.csv")), slurp(path("lt.csv"))) << "every load issued and completed at the same cycles";
  // Each load: hit time 1, each level's read 1 + 50 cycles and 2 more, then the data's 1 + 50.
  const uint64_t levels = a["mmu"]["walk_reads"].get<uint64_t>() / 6;
  EXPECT_EQ(a["frontend"]["sms"][0]["mean_latency"], double(1 + levels * (51 + 2) + 51));
}

// A TLB entry is there from its walk's start, but in at a request that hits
// it while the walk is out waits for the walk's end, as a TLB's miss entry
// holds the hits under it; lt lets it go on at once.
TEST_F(AtCli, ARequestHittingAnEntryWhoseWalkIsOutWaitsForTheWalk) {
  write("t.csv",
        "thread,pc,op,address,width,dependent,data\nkernel,k,1\n"
        "0,0x10,R,0x20000000,4,0,\n0,0x18,R,0x20000080,4,0,\n");  // one page, two lines, independent loads
  const std::string cfg =
      "memory: {address_bits: 32, channels: 4, service_cycles: 1, latency_cycles: 50}\n"
      "mmu: {page_sizes: [4096, 65536], tlb: {entries: 4, ways: 4, hit_cycles: 1}, walk_level_cycles: 2}\n"
      "translator: {position: after_mmu, channel_bits: [8, 9], tasks: [{task_type: 1, scheme: none}]}\n"
      "address_space:\n  va_bits: 32\n  applications:\n"
      "    - {name: a, process: 1, task_type: 1, regions: [{name: r, va: 0x20000000, size: 0x1000, page: small}]}\n"
      "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, issue_timing: memory}\n";
  ASSERT_TRUE(run_lt_and_at(cfg));
  // completion_cycle (column 16) and tlb (11) of the loads at VA 0x20000000 and 0x20000080.
  auto loads = [&](const std::string& log) {
    std::map<std::string, std::vector<std::string>> by_va;
    std::istringstream in(slurp(path(log)));
    std::string line;
    std::getline(in, line);
    while (std::getline(in, line)) {
      std::vector<std::string> f;
      std::istringstream cells(line);
      for (std::string c; std::getline(cells, c, ',');) f.push_back(c);
      by_va[f.at(5)] = f;
    }
    return by_va;
  };
  for (const std::string m : {"lt", "at"}) {
    const auto j = json(m + ".json");
    EXPECT_EQ(j["mmu"]["walks"], 1u) << m;
    EXPECT_EQ(j["mmu"]["hits"]["small"], 1u) << m << ": the second load hits the entry the first one's walk fills";
  }
  const auto lt = loads("lt.csv"), at = loads("at.csv");
  ASSERT_EQ(at.size(), 2u);
  const uint64_t first = std::stoull(at.at("0x20000000").at(16)), second = std::stoull(at.at("0x20000080").at(16));
  EXPECT_EQ(second, first + 1) << "at: it goes on with the walk's end; the channel serves the two one cycle apart";
  EXPECT_LT(std::stoull(lt.at("0x20000080").at(16)), std::stoull(lt.at("0x20000000").at(16)))
      << "lt: it goes on at once and overtakes the walk";
  EXPECT_EQ(at.at("0x20000080").at(11), lt.at("0x20000080").at(11)) << "a hit in both";
}

// l1.allocate: fill places a line when its data is back, not when the
// memory answers (a simple channel answers at once): a 2-way set keeps line
// 0 while the fills of two other lines of its set are out, and a read of it
// then hits; allocated at the miss, those two evict it and the read misses.
TEST_F(Cli, AtWithAllocateOnFillALineStaysUntilTheOtherFillsDataIsBack) {
  const auto t = write("t.csv",
                       "thread,pc,op,address,width,dependent,data\nkernel,k,0\n"
                       "0,0x10,R,0x0000,4,1,\n0,0x18,R,0x1000,4,0,\n0,0x20,R,0x2000,4,0,\n0,0x24,R,0x0080,4,0,\n0,0x28,R,0x0004,4,0,\n");
  for (const std::string allocate : {"fill", "miss"}) {
    const auto c = write("c.yaml",
                         "memory: {address_bits: 32, channels: 2, service_cycles: 1, max_outstanding: 16, latency_cycles: 100}\n"
                         "translator: {channel_bits: [8]}\n"
                         "frontend: {num_sms: 1, blocks_per_sm: 1, warps_per_block: 1, line_bytes: 128, mshr_entries: 8, issue_timing: memory}\n"
                         "l1: {size_bytes: 512, ways: 2, mshrs: 4, hit_latency: 0, allocate: " + allocate + "}\n"
                         "simulation: {timing: at}\n");
    ASSERT_EQ(run({"run", "--config", c.string(), "--threads", t.string(), "--stats-json", path("s.json").string(), "--quiet"}).exit_code, 0);
    const auto l1 = json("s.json")["l1"];
    EXPECT_EQ(l1["reads"], 5u) << allocate;
    // Line 0 misses at cycle 0 and is in at 101; lines 0x1000 and 0x2000 (set 0) miss at 101 and 102, in at 202 and 203.
    EXPECT_EQ(l1["hits"], allocate == "fill" ? 1u : 0u) << allocate << ": the read of 0x4 at cycle 104";
    EXPECT_EQ(l1["evictions"], allocate == "fill" ? 1u : 2u) << allocate;
  }
}

// On a DRAM, with strided requests split by the router and reassembled, and
// the gto scheduler: every request is answered once and reruns are
// byte-identical.
TEST_F(Cli, AtRunsAPerThreadTraceOnADramAndRerunsAreByteIdentical) {
  const auto csv = write("t.csv", trace());
  const std::string cfg =
      "memory: {address_bits: 32, channels: 4, preset: hbm2, max_outstanding: 16}\n"
      "translator: {channel_bits: [7, 8]}\n"
      "frontend: {num_sms: 3, blocks_per_sm: 2, warps_per_block: 2, mshr_entries: 4, issue_timing: memory, scheduler: gto}\n"
      "simulation: {timing: at}\n";
  const auto c = write("c.yaml", cfg);
  for (const char* k : {"1", "2"})
    ASSERT_EQ(run({"run", "--config", c.string(), "--threads", csv.string(), "--stats-json", path(std::string("s") + k + ".json").string(),
                   "--txn-log", path(std::string("t") + k + ".csv").string(), "--no-timing", "--quiet"}).exit_code, 0);
  EXPECT_EQ(slurp(path("s1.json")), slurp(path("s2.json")));
  EXPECT_EQ(slurp(path("t1.csv")), slurp(path("t2.csv")));
  const auto j = json("s1.json");
  EXPECT_EQ(j["frontend"]["requests"], 16u);
  EXPECT_EQ(j["frontend"]["strided"]["requests"], 8u);
  EXPECT_EQ(j["frontend"]["strided"]["elements"], 64u);
  uint64_t requests = 0, reads = 0;
  for (const auto& s : j["frontend"]["sms"]) requests += s["requests"].get<uint64_t>(), reads += s["reads"].get<uint64_t>();
  EXPECT_EQ(requests, 16u);
  EXPECT_EQ(reads, 8u);
  // One log line a line request and a strided element: 8 loads + 64 elements.
  const std::string log = slurp(path("t1.csv"));
  EXPECT_EQ(std::count(log.begin(), log.end(), '\n'), 1 + 8 + 64);
}

TEST_F(Cli, BadFrontEndInputsExitTwoNamingWhere) {
  const auto cfg = write("c.yaml", kConfig);
  const auto bad = write("bad.csv", "thread,pc,op,address,width,dependent,data\nkernel,k,0\n0,0x10,R,0x1002,4,0,\n");
  Result r = run({"run", "--config", cfg.string(), "--threads", bad.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: " + bad.string() + ":3:10: address: address 0x1002 is not aligned to its width 4\n");
  r = run({"trace", "order", "--config", cfg.string(), "--threads", bad.string(), "--out", path("o.csv").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_FALSE(fs::exists(path("o.csv"))) << "no half-written sequence";
  r = run({"run", "--config", cfg.string(), "--trace", bad.string(), "--threads", bad.string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("excludes"), std::string::npos) << r.err;
  r = run({"run", "--config", cfg.string(), "--trace", bad.string(), "--trace-format", "ramulator"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--trace-format"), std::string::npos) << r.err;
  // A bad trace converts to nothing: no file, not even a partial one.
  r = run({"trace", "convert", bad.string(), path("out.bin").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: " + bad.string() + ":3:10: address: address 0x1002 is not aligned to its width 4\n");
  EXPECT_FALSE(fs::exists(path("out.bin")));
  for (const auto& e : fs::directory_iterator(path("")))
    EXPECT_EQ(e.path().filename().string().find("out.bin"), std::string::npos) << e.path();
  r = run({"trace", "convert", bad.string(), path("out.bin").string(), "--form", "xml"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: --form: xml not in {csv,binary} (gpumem trace convert --help)\n");
  const auto dram = write("d.trace", "0x1000 READ 5\n");
  r = run({"run", "--config", cfg.string(), "--trace", dram.string(), "--trace-format", "dramsim3", "--trace-process", "16"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: --trace-process: Value 16 not in range 0 to 15 (gpumem run --help)\n");
  r = run({"run", "--config", cfg.string(), "--trace", dram.string(), "--trace-format", "dramsim3", "--request-bytes", "3"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.err, "gpumem: error: --request-bytes: size 3 must be a power of two no larger than the interleave granule (128 bytes)\n");
  // A config whose frontend section is wrong names the key, before anything runs.
  const auto badcfg = write("b.yaml", std::string(kConfig) + "\n");
  std::string text = slurp(badcfg);
  text.replace(text.find("mshr_entries: 4"), 15, "mshr_entries: 0");
  write("b.yaml", text);
  r = run({"run", "--config", badcfg.string(), "--threads", bad.string(), "--stats-json", path("s.json").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find(badcfg.string() + ":3: frontend.mshr_entries: value 0 outside [1, 4096]"), std::string::npos) << r.err;
  EXPECT_FALSE(fs::exists(path("s.json")));
}

}  // namespace
}  // namespace gpumem::test
