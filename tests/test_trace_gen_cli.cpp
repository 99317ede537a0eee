// gpumem trace gen, driven through its CLI11 declaration under a `trace`
// command as cli/trace_command.cpp declares it: the files it writes are what the
// generators emit, placement from a config region or a physical base, and
// the errors that name a flag or a config key leave no file behind.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "cli/trace_gen_command.hpp"
#include "sources/bfs_trace.hpp"
#include "sources/pattern_generators.hpp"
#include "sources/thread_trace_io.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

// Parses `gpumem trace gen <args>` and runs it; stdout captured.
struct GenRun {
  std::string stdout_text;
};

GenRun gen(const std::vector<std::string>& args) {
  CLI::App app("gpumem");
  CLI::App* trace = app.add_subcommand("trace");
  cli::TraceGenArgs a;
  cli::add_trace_gen_command(*trace, a);
  std::vector<std::string> argv_s = {"gpumem", "trace", "gen"};
  argv_s.insert(argv_s.end(), args.begin(), args.end());
  std::vector<char*> argv;
  for (auto& s : argv_s) argv.push_back(s.data());
  app.parse(static_cast<int>(argv.size()), argv.data());
  EXPECT_TRUE(*a.gen);
  testing::internal::CaptureStdout();
  try {
    cli::trace_gen_command(a);
  } catch (...) {
    testing::internal::GetCapturedStdout();
    throw;
  }
  return {testing::internal::GetCapturedStdout()};
}

// A trace file as lines: kernels, inits and records in the reader's terms.
std::vector<std::string> items_of(ThreadTraceSource& src) {
  std::vector<std::string> out;
  MemoryInit init;
  KernelInfo k;
  ThreadRecord r;
  for (ThreadTraceSource::Item it; (it = src.next(init, k, r)) != ThreadTraceSource::Item::kEnd;) {
    std::ostringstream s;
    if (it == ThreadTraceSource::Item::kMemoryInit) {
      s << "I " << init.process << " " << init.address << " " << init.bytes.size();
      for (uint8_t b : init.bytes) s << " " << unsigned{b};
    } else if (it == ThreadTraceSource::Item::kKernel) {
      s << "K " << k.name << " " << k.process << " " << k.warps_per_block;
    } else {
      s << r.thread_id << " " << r.pc << " " << int(r.op) << " " << r.address << " " << r.width << " " << r.dependent << " "
        << r.has_data << " " << r.data;
    }
    out.push_back(s.str());
  }
  return out;
}

std::vector<std::string> items_of_file(const std::string& path) { return items_of(*open_thread_trace(path)); }

// What a generator emits, through the same reader's terms (via a CSV).
class CsvCapture {
 public:
  CsvCapture() : mem_(open_memstream(&buf_, &len_)), sink_(write_thread_trace(mem_, ThreadTraceForm::kCsv)) {}
  ~CsvCapture() { std::free(buf_); }
  ThreadTraceSink& sink() { return *sink_; }
  std::vector<std::string> items() {
    sink_->finish();
    std::fclose(mem_);
    std::istringstream in(std::string(buf_, len_));
    return items_of(*read_thread_trace(in, "expected"));
  }

 private:
  char* buf_ = nullptr;
  size_t len_ = 0;
  std::FILE* mem_;
  std::unique_ptr<ThreadTraceSink> sink_;
};

std::string temp(const std::string& name) { return ::testing::TempDir() + "gpumem-gen-" + name; }

std::string write_file(const std::string& name, const std::string& text) {
  const std::string path = temp(name);
  std::ofstream(path) << text;
  return path;
}

const char* const kRegionConfig =
    "memory: {address_bits: 40, channels: 1}\n"
    "address_space:\n"
    "  applications:\n"
    "    - name: bfs\n"
    "      process: 4\n"
    "      task_type: 1\n"
    "      regions:\n"
    "        - {name: graph, va: 0x10000000, size: 0x200000, page: large}\n";

TEST(GeneratorCli, BfsFromRmatInCsvAndBinaryIsWhatTheGeneratorEmits) {
  const std::string csv = temp("bfs.csv"), bin = temp("bfs.bin");
  const GenRun run = gen({"bfs", "--scale", "7", "--edge-factor", "8", "--seed", "3", "--base", "0x100000", "--process", "2",
                          "--warps-per-block", "4", "--out", csv});
  gen({"bfs", "--scale", "7", "--edge-factor", "8", "--seed", "3", "--base", "1048576", "--process", "2", "--warps-per-block",
       "4", "--out", bin, "--quiet"});

  RmatOptions r;
  r.scale = 7;
  r.edge_factor = 8;
  r.seed = 3;
  BfsTraceOptions o;
  o.place = physical_placement(2, 0x100000);
  o.warps_per_block = 4;
  CsvCapture expected;
  const BfsTraceSummary s = generate_bfs_trace(build_csr(rmat_edges(r)), o, expected.sink());
  const auto want = expected.items();
  EXPECT_EQ(items_of_file(csv), want);
  EXPECT_EQ(items_of_file(bin), want);
  std::ifstream f(bin, std::ios::binary);
  char magic[8] = {};
  f.read(magic, 8);
  EXPECT_EQ(std::string(magic, 8), std::string(kThreadTraceMagic, 8)) << "a .bin name writes the binary form";
  // The summary names the arrays, for the prefetcher's classifier ranges.
  EXPECT_NE(run.stdout_text.find("128 vertices, 1024 edges"), std::string::npos) << run.stdout_text;
  EXPECT_NE(run.stdout_text.find("worklist 0x100000, vertexlist 0x101000"), std::string::npos) << run.stdout_text;
  EXPECT_NE(run.stdout_text.find(std::to_string(s.records) + " records"), std::string::npos) << run.stdout_text;
  std::remove(csv.c_str());
  std::remove(bin.c_str());
}

TEST(GeneratorCli, BfsFromAnEdgeListInAConfigRegion) {
  const std::string config = write_file("region.yaml", kRegionConfig);
  const std::string edges = write_file("edges.txt", "# a path and a triangle\n0 1\n1 2\n2 3\n5 6\n6 7\n7 5\n");
  const std::string out = temp("region.csv");
  gen({"bfs", "--config", config, "--app", "bfs", "--region", "graph", "--edges", edges, "--source", "5", "--out", out,
       "--form", "csv", "--quiet"});
  const auto items = items_of_file(out);
  ASSERT_FALSE(items.empty());
  EXPECT_EQ(items[0].substr(0, 13), "I 4 268435456") << "process 4 at the region's VA 0x10000000";
  EXPECT_EQ(std::count_if(items.begin(), items.end(), [](const std::string& s) { return s.rfind("K bfs_expand_", 0) == 0; }), 2)
      << "5, then 6 and 7";
  // Errors name the flag or the config key, and leave no file.
  std::remove(out.c_str());
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--config", config, "--app", "bfs", "--region", "nope", "--edges", edges, "--out", out}); },
                          "address_space.applications[0].regions", "no region 'nope'"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--config", config, "--edges", edges, "--out", out}); }, "--app",
                          "the config has an address space"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--app", "bfs", "--region", "graph", "--edges", edges, "--out", out}); }, "--config",
                          "give --config"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--config", config, "--region", "graph", "--edges", edges, "--out", out}); }, "--app",
                          "give --app too"));
  EXPECT_TRUE(input_error_key(
      [&] { gen({"bfs", "--config", config, "--app", "bfs", "--region", "graph", "--base", "0", "--edges", edges, "--out", out}); },
      "--base", "start of the region"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--edges", edges, "--source", "9", "--out", out}); }, "--source", "vertex 9 is not in the graph"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--edges", edges, "--scale", "4", "--out", out}); }, "--scale", "--edges reads one"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--edges", edges, "--out", edges}); }, "--out", "is the edge-list file"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--edges", edges, "--config", config, "--app", "bfs", "--region", "graph", "--out", config}); },
                          "--out", "is the config file"));
  EXPECT_FALSE(std::filesystem::exists(out));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--edges", temp("missing.txt"), "--out", out}); }, "", "cannot open edge-list file"));
  EXPECT_FALSE(std::filesystem::exists(out)) << "a failed generation commits nothing";
  for (const auto& e : std::filesystem::directory_iterator(::testing::TempDir()))
    EXPECT_EQ(e.path().string().find("region.csv.partial"), std::string::npos) << e.path();
  std::remove(config.c_str());
  std::remove(edges.c_str());
}

TEST(GeneratorCli, PatternKindsAndTheirOptions) {
  const std::string out = temp("pattern.csv");
  // A hexadecimal base, and "010" is ten, not octal eight.
  gen({"strided", "--base", "0x2000", "--thread-count", "2", "--count", "010", "--stride", "16", "--width", "8", "--op", "write",
       "--out", out, "--quiet"});
  StridedOptions s;
  s.place = physical_placement(0, 0x2000);
  s.threads = 2;
  s.count = 10;
  s.stride = 16;
  s.width = 8;
  s.op = Op::kWrite;
  CsvCapture strided;
  generate_strided(s, strided.sink());
  EXPECT_EQ(items_of_file(out), strided.items());

  const GenRun t = gen({"transpose", "--rows", "3", "--cols", "5", "--out", out});
  TransposeOptions tr;
  tr.rows = 3;
  tr.cols = 5;
  CsvCapture transpose;
  generate_transpose(tr, transpose.sink());
  EXPECT_EQ(items_of_file(out), transpose.items());
  EXPECT_NE(t.stdout_text.find("transpose: 30 records in 1 kernel, 4156 bytes from 0x0, task type 0"), std::string::npos)
      << t.stdout_text;

  gen({"random", "--seed", "4", "--range", "4096", "--thread-count", "40", "--out", out, "--quiet"});
  RandomOptions ra;
  ra.seed = 4;
  ra.range = 4096;
  ra.threads = 40;
  CsvCapture random;
  generate_random(ra, random.sink());
  EXPECT_EQ(items_of_file(out), random.items());

  gen({"stencil", "--grid-width", "6", "--grid-height", "5", "--thread-count", "7", "--out", out, "--quiet"});
  StencilOptions st;
  st.grid_width = 6;
  st.grid_height = 5;
  st.threads = 7;
  CsvCapture stencil;
  generate_stencil(st, stencil.sink());
  EXPECT_EQ(items_of_file(out), stencil.items());

  // An option of another kind; an address past the config's memory.address_bits.
  EXPECT_TRUE(input_error_key([&] { gen({"strided", "--scale", "4", "--out", out}); }, "--scale", "is not an option of strided"));
  EXPECT_TRUE(input_error_key([&] { gen({"bfs", "--width", "8", "--out", out}); }, "--width", "is not an option of bfs"));
  const std::string config = write_file("phys.yaml", "memory: {address_bits: 32, channels: 1}\n");
  EXPECT_TRUE(input_error_key([&] { gen({"strided", "--config", config, "--base", "0xfffff000", "--thread-count", "2048", "--out", out}); },
                          "--base", "past the last address 0xffffffff"));
  std::remove(config.c_str());
  std::remove(out.c_str());
  // CLI11 refuses values out of a flag's set or range before the command runs.
  EXPECT_THROW(gen({"strided", "--width", "3", "--out", out}), CLI::ValidationError);
  EXPECT_THROW(gen({"strided", "--base", "-1", "--out", out}), CLI::ValidationError);
  EXPECT_THROW(gen({"tiles", "--out", out}), CLI::ValidationError);
}

}  // namespace
}  // namespace gpumem::test
