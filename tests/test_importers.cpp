// Importers of other simulators' traces (docs/trace-format.md, "Imported
// traces"): each sample under tests/data/importers/ read to the last field of
// the last record, and every malformed line rejected at its file, line,
// column and field.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "base/input_error.hpp"
#include "frontend/l1_sequence.hpp"
#include "sources/thread_trace_io.hpp"
#include "sources/trace_import.hpp"
#include "sources/trace_kind.hpp"
#include "sources/trace_reader.hpp"
#include "params/frontend_from_config.hpp"
#include "test_helpers.hpp"

namespace gpumem::test::importers_test {
namespace {

const std::string kData = std::string(GPUMEM_SOURCE_DIR) + "/tests/data/importers/";

// 32-bit physical addresses, 256-byte granule (largest request), 4 KB pages.
Config physical_config(unsigned address_bits = 32) {
  return config_from(base_yaml("translator: {channel_bits: [8, 9, 10]}\n", 8, address_bits));
}

Config virtual_config() {
  return config_from(base_yaml(
      "translator: {channel_bits: [8, 9, 10]}\n"
      "address_space:\n  va_bits: 32\n  applications:\n"
      "    - {name: a, process: 3, task_type: 1, regions: [{va: 0x10000, size: 0x10000, page: large}]}\n"));
}

ImportOptions options(unsigned process, std::vector<unsigned> vector_bits = {}) {
  ImportOptions o;
  o.process = process;
  o.address_vector_bits = std::move(vector_bits);
  return o;
}

std::vector<Request> drain(RequestSource& src) {
  std::vector<Request> out;
  Request r;
  while (src.next(r)) out.push_back(r);
  return out;
}

std::vector<Request> import_file(const Config& cfg, ImportFormat f, const std::string& file, const ImportOptions& o) {
  auto src = open_imported_trace(request_limits(cfg), f, kData + file, o);
  return drain(*src);
}

std::vector<Request> import_text(const Config& cfg, ImportFormat f, const std::string& text, const ImportOptions& o) {
  std::istringstream in(text);
  auto src = read_imported_trace(request_limits(cfg), f, in, "t.trace", o);
  return drain(*src);
}

struct Expected {
  uint64_t cycle;
  Op op;
  uint64_t address;
};

// Every field of every request: ids in order, the one size, the task type
// (or process) from the options, the cycle, op and aligned address.
void expect_requests(const std::vector<Request>& got, const std::vector<Expected>& want, unsigned task_type,
                     unsigned process = 0, unsigned size = 64) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    SCOPED_TRACE("request " + std::to_string(i));
    EXPECT_EQ(got[i].id, i);
    EXPECT_EQ(got[i].cycle, want[i].cycle);
    EXPECT_EQ(got[i].op, want[i].op);
    EXPECT_EQ(got[i].address, want[i].address);
    EXPECT_EQ(got[i].size, size);
    EXPECT_EQ(got[i].task_type, task_type);
    EXPECT_EQ(got[i].process, process);
    EXPECT_EQ(got[i].data, default_write_data(i, want[i].address));
  }
}

constexpr Op R = Op::kRead;
constexpr Op W = Op::kWrite;

TEST(ImportFormats, NamesRoundTrip) {
  for (const auto f : {ImportFormat::kDramsim3, ImportFormat::kRamulatorDram, ImportFormat::kRamulatorCpu,
                       ImportFormat::kRamulator2LoadStore, ImportFormat::kRamulator2ReadWrite, ImportFormat::kAccelSim})
    EXPECT_EQ(import_format_from_name(import_format_name(f)), f) << import_format_name(f);
  EXPECT_STREQ(import_format_name(ImportFormat::kDramsim3), "dramsim3");
  EXPECT_STREQ(import_format_name(ImportFormat::kRamulatorDram), "ramulator-dram");
  EXPECT_STREQ(import_format_name(ImportFormat::kRamulatorCpu), "ramulator-cpu");
  EXPECT_STREQ(import_format_name(ImportFormat::kRamulator2LoadStore), "ramulator2-ldst");
  EXPECT_STREQ(import_format_name(ImportFormat::kRamulator2ReadWrite), "ramulator2-rw");
  EXPECT_STREQ(import_format_name(ImportFormat::kAccelSim), "accel-sim");
  EXPECT_FALSE(import_format_from_name("DRAMsim3"));
  EXPECT_FALSE(import_format_from_name("ramulator"));
  EXPECT_EQ(import_format_names(), "dramsim3, ramulator-dram, ramulator-cpu, ramulator2-ldst, ramulator2-rw, accel-sim");
}

TEST(ImportDramsim3, SampleReadsExactly) {
  // The cycle column as written; 0x2000D604 aligned down to its 64-byte line.
  expect_requests(import_file(physical_config(), ImportFormat::kDramsim3, "dramsim3.trace", options(5)),
                  {{30, R, 0x2000D5C0}, {160, W, 0x1FF96FC0}, {165, R, 0x2000D600}, {192, R, 0x1FF97000},
                   {192, W, 0x2000A340}, {305, R, 0x1FF97080}},
                  5);
}

TEST(ImportDramsim3, WordsAddressFormsAndCyclesAsDramsim3ReadsThem) {
  // Hex with or without 0x; its write words and read words; a cycle that has
  // passed issues at once after the one before (DRAMsim3's ClockTick); tabs,
  // blank lines and a CRLF end.
  expect_requests(import_text(physical_config(), ImportFormat::kDramsim3,
                              "40 P_MEM_RD 5\r\n\n0x80\twrite\t9\r\nC0 BOFF 3\n0x100 P_MEM_WR 12\nabc0 read 12\n0x200 P_FETCH 13\n",
                              options(0)),
                  {{5, R, 0x40}, {9, W, 0x80}, {9, W, 0xC0}, {12, W, 0x100}, {12, R, 0xABC0}, {13, R, 0x200}}, 0);
}

TEST(ImportDramsim3, RequestSizeOptionAlignsDown) {
  ImportOptions o = options(2);
  o.request_bytes = 256;
  expect_requests(import_text(physical_config(), ImportFormat::kDramsim3, "0x1FF READ 0\n0xFFFFFFFF WRITE 1\n", o),
                  {{0, R, 0x100}, {1, W, 0xFFFFFF00}}, 2, 0, 256);
  o.request_bytes = 4;
  expect_requests(import_text(physical_config(), ImportFormat::kDramsim3, "0x1FF READ 0\n", o), {{0, R, 0x1FC}}, 2, 0, 4);
}

TEST(ImportDramsim3, WithAnAddressSpaceTheAddressIsAVaOfTheProcess) {
  expect_requests(import_text(virtual_config(), ImportFormat::kDramsim3, "0x10040 READ 0\n0xFFFFFFC0 WRITE 4\n", options(3)),
                  {{0, R, 0x10040}, {4, W, 0xFFFFFFC0}}, 0, 3);
}

TEST(ImportRamulatorDram, SampleReadsExactly) {
  // One request a cycle, as Ramulator's run_dramtrace sends them.
  expect_requests(import_file(physical_config(), ImportFormat::kRamulatorDram, "ramulator-dram.trace", options(1)),
                  {{0, R, 0x12345680}, {1, W, 0x4cbd56c0}, {2, R, 0x35d46f00}, {3, W, 0x696fed40}, {4, R, 0x7876af80}}, 1);
}

TEST(ImportRamulatorDram, NoOpIsARead) {
  expect_requests(import_text(physical_config(), ImportFormat::kRamulatorDram, "0x40\n80 WRITE\n0xc0 READ\r\n", options(0)),
                  {{0, R, 0x40}, {1, W, 0x80}, {2, R, 0xC0}}, 0);
}

TEST(ImportRamulatorCpu, SampleReadsExactly) {
  // One instruction a cycle: bubbles, the load, then its write-back.
  expect_requests(import_file(physical_config(), ImportFormat::kRamulatorCpu, "ramulator-cpu.trace", options(7)),
                  {{3, R, 20734016},
                   {5, R, 20846400},
                   {12, R, 20734208},
                   {21, R, 20841280},
                   {22, W, 20841280},
                   {23, R, 20734144},
                   {26, R, 20918976},
                   {27, W, 20734016}},
                  7);
}

TEST(ImportRamulatorCpu, AddressesAsStrtoulBaseZero) {
  // 0x hexadecimal, a leading 0 octal (0100 = 64), else decimal.
  expect_requests(import_text(physical_config(), ImportFormat::kRamulatorCpu, "0 0x80\n0 0100 0\n0 128\n", options(0)),
                  {{0, R, 0x80}, {1, R, 64}, {2, W, 0}, {3, R, 128}}, 0);
}

TEST(ImportRamulator2, LoadStoreSampleReadsExactly) {
  expect_requests(import_file(physical_config(), ImportFormat::kRamulator2LoadStore, "ramulator2-ldst.trace", options(4)),
                  {{0, R, 0x12340}, {1, W, 4096}, {2, R, 0x1FFC0}, {3, W, 0x12340}}, 4);
}

TEST(ImportRamulator2, ReadWriteSampleComposesTheAddressVector) {
  // Channel, rank, bank, row, column of 1, 1, 3, 15 and 7 bits, first most
  // significant, above the 64-byte transaction: the inverse of ChRaBaRoCo.
  expect_requests(import_file(physical_config(40), ImportFormat::kRamulator2ReadWrite, "ramulator2-rw.trace",
                              options(6, {1, 1, 3, 15, 7})),
                  {{0, R, 0xA00C8800}, {1, W, 0x30190400}, {2, R, 0x1FFFFFFC0}}, 6);
}

TEST(ImportTraces, StreamOneLineAtATime) {
  // The importer has read only the first line when it hands out the first
  // request: nothing is held but the current line.
  std::string text;
  for (int i = 0; i < 10000; ++i) text += "0x" + std::to_string(i * 64) + " READ " + std::to_string(i) + "\n";
  std::istringstream in(text);
  auto src = read_imported_trace(request_limits(physical_config()), ImportFormat::kDramsim3, in, "t.trace", options(0));
  Request r;
  ASSERT_TRUE(src->next(r));
  EXPECT_LT(in.tellg(), 40);
  ASSERT_TRUE(src->next(r));
  EXPECT_EQ(r.id, 1u);
  EXPECT_LT(in.tellg(), 40);
}

// Runs `load`; true when it throws an InputError at exactly this file, line,
// column and key whose message holds `fragment`, printed as the CLI prints it.
template <typename Load>
::testing::AssertionResult rejected_at(Load&& load, const std::string& file, int line, int column, const std::string& key,
                                       const std::string& fragment) {
  try {
    load();
  } catch (const InputError& e) {
    const std::string what = e.what();
    std::string prefix = file;
    if (line > 0) prefix += ":" + std::to_string(line);
    if (line > 0 && column > 0) prefix += ":" + std::to_string(column);
    if (!prefix.empty()) prefix += ": ";
    if (!key.empty()) prefix += key + ": ";
    if (e.file() != file || e.line() != line || e.column() != column || e.key() != key || what.rfind(prefix, 0) != 0 ||
        what.find(fragment) == std::string::npos)
      return ::testing::AssertionFailure() << "got " << e.file() << " line " << e.line() << " column " << e.column() << " key '"
                                           << e.key() << "': " << what;
    return ::testing::AssertionSuccess();
  } catch (const std::exception& e) {
    return ::testing::AssertionFailure() << "threw something other than InputError: " << e.what();
  }
  return ::testing::AssertionFailure() << "accepted";
}

struct BadLine {
  ImportFormat format;
  const char* text;
  int line;
  int column;
  const char* key;
  const char* fragment;
};

TEST(ImportTraces, MalformedRecordsNameFileLineColumnAndField) {
  const Config cfg = physical_config();
  using F = ImportFormat;
  const BadLine cases[] = {
      {F::kDramsim3, "", 0, 0, "", "empty trace: no records"},
      {F::kDramsim3, "\n  \n\r\n", 0, 0, "", "empty trace: no records"},
      {F::kDramsim3, "0x40 READ\n", 1, 10, "cycle", "missing cycle field"},
      {F::kDramsim3, "0x40 READ 1\n0x40 READ   \r\n", 2, 10, "cycle", "missing cycle field"},
      {F::kDramsim3, "0x40\n", 1, 5, "op", "missing op field"},
      {F::kDramsim3, "0x4G READ 5\n", 1, 1, "address", "bad number '0x4G'"},
      {F::kDramsim3, "0x40 READ 5x\n", 1, 11, "cycle", "bad number '5x'"},
      {F::kDramsim3, "-40 READ 5\n", 1, 1, "address", "bad number '-40'"},
      {F::kDramsim3, "0x40 READ 99999999999999999999\n", 1, 11, "cycle", "number out of range"},
      {F::kDramsim3, "0x40 FETCH 5\n", 1, 6, "op", "bad operation 'FETCH' (READ or WRITE)"},
      {F::kDramsim3, "0x40 Read 5\n", 1, 6, "op", "bad operation 'Read'"},
      {F::kDramsim3, "0x0 READ 0\n\n0x100000000 WRITE 5\n", 3, 1, "address",
       "address 0x100000000 out of range of the configured physical address space"},
      {F::kDramsim3, "0x40 READ 5 7\n", 1, 13, "", "unexpected field '7': a dramsim3 line has 3 fields at most"},
      {F::kDramsim3, "# a comment\n", 1, 1, "address", "bad number '#'"},
      {F::kRamulatorDram, "0x40 X\n", 1, 6, "op", "bad operation 'X' (R or W)"},
      {F::kRamulatorDram, "zz R\n", 1, 1, "address", "bad number 'zz'"},
      {F::kRamulatorDram, "0x40 R\n0x1ffffffff W\n", 2, 1, "address", "out of range"},
      {F::kRamulatorDram, "0x40 R 9\n", 1, 8, "", "unexpected field '9'"},
      {F::kRamulatorCpu, "3\n", 1, 2, "address", "missing address field"},
      {F::kRamulatorCpu, "x 0x40\n", 1, 1, "bubbles", "bad number 'x'"},
      {F::kRamulatorCpu, "-1 0x40\n", 1, 1, "bubbles", "bad number '-1'"},
      {F::kRamulatorCpu, "0 09\n", 1, 3, "address", "bad number '09'"},
      {F::kRamulatorCpu, "3 0x40 0x1_0\n", 1, 8, "write_back", "bad number '0x1_0'"},
      {F::kRamulatorCpu, "3 0x40 0x80 9\n", 1, 13, "", "unexpected field '9'"},
      {F::kRamulatorCpu, "3 4294967296\n", 1, 3, "address", "address 4294967296 out of range"},
      {F::kRamulatorCpu, "3 0x40 0x100000000\n", 1, 8, "write_back", "address 0x100000000 out of range"},
      {F::kRamulatorCpu, "18446744073709551615 0x40\n", 1, 1, "bubbles", "is past the last a run can count, 2^40"},
      {F::kRamulatorCpu, "1099511627775 0x40\n1 0x80\n", 2, 1, "bubbles", "cycle 1099511627776 + 1 is past the last a run can count"},
      {F::kRamulator2LoadStore, "LOAD 0x40\n", 1, 1, "op", "bad operation 'LOAD' (LD or ST)"},
      {F::kRamulator2LoadStore, "ld 0x40\n", 1, 1, "op", "bad operation 'ld'"},
      {F::kRamulator2LoadStore, "LD\n", 1, 3, "address", "missing address field"},
      {F::kRamulator2LoadStore, "LD 0x\n", 1, 4, "address", "bad number '0x'"},
      {F::kRamulator2LoadStore, "ST 40h\n", 1, 4, "address", "bad number '40h'"},
      {F::kRamulator2LoadStore, "ST 0x100000000\r\n", 1, 4, "address", "out of range"},
      {F::kRamulator2ReadWrite, "X 0,0,0,0,0\n", 1, 1, "op", "bad operation 'X' (R or W)"},
      {F::kRamulator2ReadWrite, "R 0,1,2\n", 1, 3, "address_vector", "'0,1,2' does not have 5 levels"},
      {F::kRamulator2ReadWrite, "R 0,1,2,3,4,5\n", 1, 3, "address_vector", "does not have 5 levels"},
      {F::kRamulator2ReadWrite, "R 0,1,9,0,0\n", 1, 7, "address_vector", "level 2 value 9 does not fit its 3 bits"},
      {F::kRamulator2ReadWrite, "W 0,1,2,x,0\n", 1, 9, "address_vector", "bad number 'x'"},
      {F::kRamulator2ReadWrite, "W 0,1,2,,0\n", 1, 9, "address_vector", "bad number ''"},
      {F::kRamulator2ReadWrite, "R\n", 1, 2, "address_vector", "missing address_vector field"},
      // The composed address 0x100000000 is beyond the config's 32 bits.
      {F::kRamulator2ReadWrite, "R 1,0,0,0,0\n", 1, 3, "address_vector", "address 1,0,0,0,0 out of range"},
  };
  // Levels of 1, 1, 3, 15 and 7 bits for ramulator2-rw; the others ignore them.
  const ImportOptions o = options(0, {1, 1, 3, 15, 7});
  for (const auto& c : cases)
    EXPECT_TRUE(rejected_at([&] { import_text(cfg, c.format, c.text, o); }, "t.trace", c.line, c.column, c.key, c.fragment))
        << import_format_name(c.format) << ": " << c.text;
}

TEST(ImportTraces, BadOptionsNameTheFlag) {
  const Config cfg = physical_config();
  auto open = [&](ImportFormat f, const ImportOptions& o) {
    return [&cfg, f, o] { import_text(cfg, f, "0x40 READ 0\n", o); };
  };
  ImportOptions o = options(16);
  EXPECT_TRUE(rejected_at(open(ImportFormat::kDramsim3, o), "", 0, 0, "--trace-process", "task type 16 out of range (0-15)"));
  o = options(0);
  o.request_bytes = 48;
  EXPECT_TRUE(rejected_at(open(ImportFormat::kDramsim3, o), "", 0, 0, "--request-bytes", "size 48 must be a power of two"));
  o.request_bytes = 512;
  EXPECT_TRUE(rejected_at(open(ImportFormat::kDramsim3, o), "", 0, 0, "--request-bytes", "interleave granule (256 bytes)"));
  EXPECT_TRUE(rejected_at(open(ImportFormat::kRamulator2ReadWrite, options(0)), "", 0, 0, "--address-vector-bits",
                          "give the width in bits of each level"));
  EXPECT_TRUE(rejected_at(open(ImportFormat::kRamulator2ReadWrite, options(0, {20, 20, 20})), "", 0, 0,
                          "--address-vector-bits", "66-bit address"));
  EXPECT_TRUE(rejected_at(open(ImportFormat::kRamulator2ReadWrite, options(0, {3, 0})), "", 0, 0, "--address-vector-bits",
                          "a level of 0 bits"));
  EXPECT_TRUE(rejected_at(open(ImportFormat::kAccelSim, options(0)), "", 0, 0, "--trace-format", "--threads-format accel-sim"));
  const Config vcfg = virtual_config();
  EXPECT_TRUE(rejected_at([&] { import_text(vcfg, ImportFormat::kDramsim3, "0x40 READ 0\n", options(4)); }, "", 0, 0,
                          "--trace-process", "no application has process id 4"));
  EXPECT_TRUE(rejected_at([&] { import_text(vcfg, ImportFormat::kDramsim3, "0x100000000 READ 0\n", options(3)); }, "t.trace", 1,
                          1, "va", "out of range of the configured virtual address space"));
  EXPECT_TRUE(rejected_at([&] { open_imported_trace(request_limits(cfg), ImportFormat::kDramsim3, kData + "missing.trace", options(0)); },
                          kData + "missing.trace", 0, 0, "", "cannot open trace file"));
}

TEST(ImportTraces, RangeCheckIsTheCsvReadersCheck) {
  // One rule, one message: the CSV reader and an importer refuse the same
  // address in the same words.
  const Config cfg = physical_config();
  std::string csv_message, import_message;
  try {
    std::istringstream in("cycle,task_type,op,address,size\n0,0,R,0xFFFFFFC0,64\n1,0,R,0x100000000,64\n");
    CsvTraceReader reader(request_limits(cfg), in, "t.csv");
    Request r;
    while (reader.next(r)) {
    }
  } catch (const InputError& e) {
    csv_message = std::string(e.what()).substr(std::string("t.csv:3: address: ").size());
  }
  try {
    import_text(cfg, ImportFormat::kDramsim3, "0xFFFFFFC0 READ 0\n0x100000000 READ 1\n", options(0));
  } catch (const InputError& e) {
    import_message = std::string(e.what()).substr(std::string("t.trace:2:1: address: ").size());
  }
  EXPECT_FALSE(csv_message.empty());
  EXPECT_EQ(csv_message, import_message);
}

// ---- Accel-Sim ----

struct Run {
  uint32_t first_thread;
  unsigned count;  // consecutive threads
  uint64_t pc;
  uint64_t first_address;
  int64_t step;  // address step from one thread to the next
  unsigned width;
  Op op;
  bool dependent;
  int line;
};

struct Item {
  enum Kind { kKernel, kRecord } kind;
  KernelInfo kernel;
  ThreadRecord record;
  std::string where;
};

std::vector<Item> drain(ThreadTraceSource& src) {
  std::vector<Item> out;
  MemoryInit init;
  KernelInfo kernel;
  ThreadRecord record;
  while (true) {
    const auto item = src.next(init, kernel, record);
    if (item == ThreadTraceSource::Item::kEnd) break;
    EXPECT_NE(item, ThreadTraceSource::Item::kMemoryInit) << "Accel-Sim traces carry no memory contents";
    out.push_back({item == ThreadTraceSource::Item::kKernel ? Item::kKernel : Item::kRecord, kernel, record, src.where()});
  }
  return out;
}

// Checks items [pos, ...) against the runs, each record field by field.
void expect_runs(const std::vector<Item>& items, size_t& pos, const std::string& file, const std::vector<Run>& runs) {
  for (const Run& run : runs)
    for (unsigned k = 0; k < run.count; ++k, ++pos) {
      SCOPED_TRACE(file + ":" + std::to_string(run.line) + " thread " + std::to_string(run.first_thread + k));
      ASSERT_LT(pos, items.size());
      ASSERT_EQ(items[pos].kind, Item::kRecord);
      const ThreadRecord& r = items[pos].record;
      EXPECT_EQ(r.thread_id, run.first_thread + k);
      EXPECT_EQ(r.pc, run.pc);
      EXPECT_EQ(r.address, run.first_address + static_cast<uint64_t>(run.step * k));
      EXPECT_EQ(r.width, run.width);
      EXPECT_EQ(r.op, run.op);
      EXPECT_EQ(r.dependent, run.dependent);
      EXPECT_FALSE(r.has_data);
      EXPECT_EQ(items[pos].where, file + ":" + std::to_string(run.line));
    }
}

void expect_kernel(const std::vector<Item>& items, size_t& pos, const std::string& name, unsigned process,
                   unsigned warps_per_block) {
  ASSERT_LT(pos, items.size());
  ASSERT_EQ(items[pos].kind, Item::kKernel);
  EXPECT_EQ(items[pos].kernel.name, name);
  EXPECT_EQ(items[pos].kernel.process, process);
  EXPECT_EQ(items[pos].kernel.warps_per_block, warps_per_block);
  ++pos;
}

// kernel-1.traceg: grid (2,1,1) of 48-thread blocks (2 warps, the second of
// 16 threads); every address format, a skipped ALU instruction, a generic
// load into shared memory (skipped), a generic store to global memory, a
// reduction and an atomic, a warp instruction with no active lane.
void expect_kernel_1(const std::vector<Item>& items, size_t& pos, const std::string& file) {
  expect_kernel(items, pos, "_Z6vecAddPfS_S_i", 3, 2);
  const uint64_t a = 0x7f1b5e000000;
  expect_runs(items, pos, file,
              {
                  {0, 32, 0x10, a, 4, 4, R, true, 25},                 // base_stride, all 32 lanes
                  {4, 1, 0x20, a + 0x1000, 0, 8, R, true, 26},         // list_all, lanes 4-7
                  {5, 1, 0x20, a + 0x1008, 0, 8, R, true, 26},
                  {6, 1, 0x20, a + 0x1100, 0, 8, R, true, 26},
                  {7, 1, 0x20, a + 0x1018, 0, 8, R, true, 26},
                  {0, 1, 0x30, a + 0x2000, 0, 4, W, false, 27},        // base_delta: +4, -8, +16
                  {1, 1, 0x30, a + 0x2004, 0, 4, W, false, 27},
                  {2, 1, 0x30, a + 0x1ffc, 0, 4, W, false, 27},
                  {3, 1, 0x30, a + 0x200c, 0, 4, W, false, 27},
                  {0, 1, 0x50, a + 0x3000, 0, 4, R, false, 29},        // RED: a read, no destination
                  {32, 16, 0x10, a + 0x80, 4, 4, R, true, 34},         // warp 1: threads 32-47
                  {32, 16, 0x60, a + 0x4000, 2, 2, W, false, 35},      // ST.E.U16 outside both windows
                  {64, 32, 0x10, a + 0x100, 4, 4, R, true, 45},        // block 1: threads 64-95
                  {64, 1, 0x70, a + 0x3000, 0, 4, R, true, 46},        // ATOMG with a destination
              });
}

// kernel-2.traceg: grid (1,2,1) of 32-thread blocks, tracer version 3 with
// line numbers, no immediates, 16- and 1-byte accesses.
void expect_kernel_2(const std::vector<Item>& items, size_t& pos, const std::string& file) {
  expect_kernel(items, pos, "_Z9transposePfS_", 3, 1);
  const uint64_t a = 0x7f1b5e000000;
  expect_runs(items, pos, file,
              {
                  {0, 1, 0x0, a + 0x10000, 0, 16, R, true, 24},
                  {4, 1, 0x0, a + 0x10020, 0, 16, R, true, 24},
                  {0, 2, 0x10, a + 0x20000, 1, 1, W, false, 25},
                  {63, 1, 0x0, a + 0x10400, 0, 16, R, true, 35},
              });
}

TEST(ImportAccelSim, KernelFileReadsExactly) {
  auto src = open_accel_sim_trace(kData + "kernel-1.traceg", options(3));
  const auto items = drain(*src);
  size_t pos = 0;
  expect_kernel_1(items, pos, kData + "kernel-1.traceg");
  EXPECT_EQ(pos, items.size());
}

TEST(ImportAccelSim, KernelListReadsEachKernelInOrder) {
  auto src = open_accel_sim_trace(kData + "kernelslist.g", options(3));
  const auto items = drain(*src);
  size_t pos = 0;
  // The list names its kernels relative to its own folder; memcpy lines are skipped.
  expect_kernel_1(items, pos, kData + "kernel-1.traceg");
  expect_kernel_2(items, pos, kData + "kernel-2.traceg");
  EXPECT_EQ(pos, items.size());
}

std::string slurp(const std::string& path) {
  std::ifstream in(path);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

TEST(ImportAccelSim, CrlfFileReadsTheSame) {
  std::string text = slurp(kData + "kernel-1.traceg"), crlf;
  for (const char c : text) crlf += c == '\n' ? std::string("\r\n") : std::string(1, c);
  std::istringstream in(crlf);
  auto src = read_accel_sim_trace(in, kData + "kernel-1.traceg", options(3));
  const auto items = drain(*src);
  size_t pos = 0;
  expect_kernel_1(items, pos, kData + "kernel-1.traceg");
  EXPECT_EQ(pos, items.size());
}

const char* const kHeader =
    "-kernel name = k\n"
    "-grid dim = (4,1,1)\n"
    "-block dim = (64,1,1)\n"
    "-shmem base_addr = 0x00007f0000000000\n"
    "-local mem base_addr = 0x00007f0001000000\n"
    "-accelsim tracer version = 4\n"
    "\n"
    "#traces format = PC mask dest_num [reg_dests] opcode src_num [reg_srcs] mem_width [adrrescompress?] [mem_addresses]\n";
// Line 9 onwards: a body.
std::string body(const std::string& instruction) {
  return std::string(kHeader) + "#BEGIN_TB\nthread block = 1,0,0\nwarp = 1\ninsts = 1\n" + instruction + "\n#END_TB\n";
}
constexpr int kInstructionLine = 13;

std::vector<Item> accel_sim_text(const std::string& text, const ImportOptions& o = options(0)) {
  std::istringstream in(text);
  auto src = read_accel_sim_trace(in, "k.traceg", o);
  return drain(*src);
}

TEST(ImportAccelSim, OlderTracesAndGenericAccesses) {
  // Without "-accelsim tracer version" (version 0, as the parser defaults)
  // each line starts with the block and warp, which the parser ignores.
  const std::string old = std::string("-kernel name = old\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#traces\n") +
                          "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 1\n"
                          "0 0 0 0 0100 00000004 1 R3 LDG.E.U8 1 R2 1 1 0x1001 1\n#END_TB\n";
  auto items = accel_sim_text(old);
  ASSERT_EQ(items.size(), 2u);
  EXPECT_EQ(items[0].kernel.name, "old");
  EXPECT_EQ(items[0].kernel.warps_per_block, 1u);
  EXPECT_EQ(items[1].record.thread_id, 2u);
  EXPECT_EQ(items[1].record.address, 0x1001u);
  EXPECT_EQ(items[1].record.width, 1u);
  EXPECT_EQ(items[1].where, "k.traceg:9");
  // Generic accesses by the first active lane's address: shared window
  // [shmem base, local base) and the 16 KiB local window skipped, the rest global.
  for (const auto& [address, kept] : std::vector<std::pair<std::string, bool>>{{"0x00007f0000000040", false},
                                                                              {"0x00007f0001000040", false},
                                                                              {"0x00007f0001004000", true},
                                                                              {"0x0000000000001000", true}}) {
    items = accel_sim_text(body("0020 00000001 1 R4 LD.E.64 1 R4 8 0 " + address + " 0"));
    ASSERT_EQ(items.size(), kept ? 2u : 1u) << address;
    if (kept) {
      EXPECT_EQ(items[1].record.thread_id, 64u + 32u) << "block 1, warp 1, lane 0 of 2-warp blocks";
      EXPECT_EQ(items[1].record.width, 8u);
      EXPECT_TRUE(items[1].record.dependent);
    }
  }
  // Shared, local and surface memory instructions leave no record; a load
  // into RZ is not dependent.
  for (const char* other : {"LDS.U.128 1 R2 16 0 0x10 0", "STL.64 2 R2 R3 8 0 0x10 0", "ATOMS.ADD 1 R2 4 0 0x10 0"})
    EXPECT_EQ(accel_sim_text(body(std::string("0020 00000001 1 R4 ") + other)).size(), 1u) << other;
  items = accel_sim_text(body("0020 00000001 1 R255 LDG.E 1 R2 4 0 0x40 0"));
  ASSERT_EQ(items.size(), 2u);
  EXPECT_FALSE(items[1].record.dependent);
}

TEST(ImportAccelSim, StreamsOneInstructionAtATime) {
  std::string text = std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 5000\n";
  for (int i = 0; i < 5000; ++i) text += "0010 00000001 1 R2 LDG.E 1 R2 4 0 0x40 0\n";
  text += "#END_TB\n";
  std::istringstream in(text);
  auto src = read_accel_sim_trace(in, "k.traceg", options(0));
  MemoryInit init;
  KernelInfo kernel;
  ThreadRecord record;
  ASSERT_EQ(src->next(init, kernel, record), ThreadTraceSource::Item::kKernel);
  ASSERT_EQ(src->next(init, kernel, record), ThreadTraceSource::Item::kRecord);
  EXPECT_LT(in.tellg(), static_cast<std::streamoff>(std::string(kHeader).size() + 120));
}

// An address a later stage refuses (beyond the address space) is named by
// its field: a listed lane's own, or the base or the stride it is worked out from.
TEST(ImportAccelSim, EachRecordKnowsTheColumnOfItsAddress) {
  for (const auto& [instruction, columns] :
       {std::pair<std::string, std::vector<int>>{"0010 00000003 1 R2 LDG.E 1 R2 4 0 0x40 0x80 0", {35, 40}},
        {"0010 00000007 1 R2 LDG.E 1 R2 4 1 0x40 4 0", {35, 40, 40}}}) {
    std::istringstream in(body(instruction));
    auto src = read_accel_sim_trace(in, "k.traceg", options(0));
    MemoryInit init;
    KernelInfo kernel;
    ThreadRecord record;
    ASSERT_EQ(src->next(init, kernel, record), ThreadTraceSource::Item::kKernel);
    std::vector<int> seen;
    while (src->next(init, kernel, record) == ThreadTraceSource::Item::kRecord) seen.push_back(src->address_column());
    EXPECT_EQ(seen, columns) << instruction;
  }
}

struct BadKernel {
  std::string text;
  int line;
  int column;
  const char* key;
  const char* fragment;
};

TEST(ImportAccelSim, MalformedLinesNameFileLineColumnAndField) {
  const int L = kInstructionLine;
  const BadKernel cases[] = {
      {"", 0, 0, "", "empty kernel trace"},
      {"-kernel name = k\n-grid dim = (1,1,1)\n#traces\n", 3, 1, "-block dim", "no '-block dim = (x,y,z)' line"},
      {"-kernel name = k\n-block dim = (1,1,1)\n#traces\n", 3, 1, "-grid dim", "no '-grid dim = (x,y,z)' line"},
      {"-kernel name = k\n-block dim = (0,1,1)\n", 2, 14, "-block dim", "'(0,1,1)' is not (x,y,z)"},
      {"-kernel name = k\n-grid dim = 4,1,1\n", 2, 13, "-grid dim", "'4,1,1' is not (x,y,z)"},
      {"-kernel name = k\n-accelsim tracer version = four\n", 2, 28, "-accelsim tracer version", "bad number 'four'"},
      {"-kernel name = k\nkernel\n", 2, 1, "", "unexpected line in the kernel header"},
      {"-kernel name = k\n-grid dim =\r\n", 2, 12, "-grid dim", "'' is not (x,y,z)"},
      // Blocks of 2048 threads: block 2^21 - 1 ends at thread 2^32 - 1, the last a 32-bit id holds.
      {"-kernel name = k\n-grid dim = (2097153,1,1)\n-block dim = (2048,1,1)\n#\n#BEGIN_TB\n"
       "thread block = 2097151,0,0\n#END_TB\n#BEGIN_TB\nthread block = 2097152,0,0\n",
       9, 16, "thread block", "block 2097152,0,0 has thread ids beyond 32 bits"},
      // Truncated line, bad number, unknown opcode word, bad address.
      {body("0010 ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0x7f1b5e000000"), L, 53, "stride", "missing stride field"},
      {body("0010 ffffffff 1 R2 LDG.E.SYS 1 R2"), L, 34, "mem_width", "missing mem_width field"},
      {body("0010 fffffffg 1 R2 LDG.E.SYS 1 R2 4 1 0x0 4 0"), L, 6, "mask", "bad number 'fffffffg'"},
      {body("0010 1ffffffff 1 R2 LDG.E.SYS 1 R2 4 1 0x0 4 0"), L, 6, "mask", "wider than 32 lanes"},
      {body("0010 ffffffff 1 X2 LDG.E.SYS 1 R2 4 1 0x0 4 0"), L, 17, "dest", "bad register 'X2'"},
      {body("0010 ffffffff 2 R2 R3 LDG.E.SYS 1 R2 4 1 0x0 4 0"), L, 15, "dest_num", "at most 1 destination"},
      {body("0010 ffffffff 0 LDG.E.SYS 5 R1 R2 R3 R4 R5 4 1 0x0 4 0"), L, 27, "src_num", "at most 4 source"},
      {body("0010 00000001 1 R2 FOO.E.SYS 1 R2 4 0 0x40 0"), L, 20, "opcode", "unknown memory opcode 'FOO'"},
      {body("0010 00000001 1 R2 ldg.e 1 R2 4 0 0x40 0"), L, 20, "opcode", "bad opcode 'ldg.e'"},
      {body("0010 00000001 1 R2 LDG.E.256 1 R2 32 0 0x40 0"), L, 20, "opcode", "accesses 32 bytes a thread"},
      {body("0010 00000003 1 R2 LDG.E 1 R2 4 0 0x40 0xZZ 0"), L, 40, "address", "bad number '0xZZ'"},
      {body("0010 00000003 1 R2 LDG.E 1 R2 4 0 0x40"), L, 39, "address", "missing address field"},
      {body("0010 00000001 1 R2 LDG.E 1 R2 4 3 0x40 0"), L, 33, "address_format", "address format 3"},
      {body("0010 00000005 1 R2 LDG.E 1 R2 4 1 0x40 4 0"), L, 6, "mask", "not one run"},
      {body("0010 00000003 1 R2 LDG.E 1 R2 4 2 0x40 x 0"), L, 40, "delta", "bad number 'x'"},
      {body("0010 00000001 1 R2 LDG.E 1 R2 4 1 0x40 5000000000 0"), L, 40, "stride", "beyond 32 bits"},
      {body("0010 00000003 1 R2 LDG.E.64 1 R2 8 2 0x40 4 0"), L, 43, "address", "lane 1 address 0x44 is not aligned to the access width 8"},
      {body("0010 00000001 1 R2 LDG.E 1 R2 4 0 0x40 0 7"), L, 42, "", "unexpected field '7' after the immediate"},
      {body("0010 00000001 1 R2 LDG.E 1 R2 4 0 0x40 zero"), L, 40, "immediate", "bad number 'zero'"},
      // Structure.
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 2,0,0\n#END_TB\n#BEGIN_TB\nthread block = 1,0,0\n", 13, 16,
       "thread block", "blocks must come in ascending linear order"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 1,0,0\n#END_TB\n#BEGIN_TB\nthread block = 1,0,0\n", 13, 16,
       "thread block", "(linear 1) after block 1"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 4,0,0\n", 10, 16, "thread block", "outside the grid"},
      {std::string(kHeader) + "thread block = 0,0,0\n", 9, 1, "thread block", "outside #BEGIN_TB"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 2\n", 11, 8, "warp", "warp 2 of a block of 2 warps"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 2\n0010 00000001 1 R2 LDG.E 1 R2 4 0 0x40 0\n#END_TB\n",
       14, 1, "insts", "warp 0 has 1 instruction lines"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n0010 00000001 1 R2 LDG.E 1 R2 4 0 0x40 0\n", 13,
       1, "insts", "more instruction lines than 'insts = 0'"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\ninsts = 0\n", 12, 0, "#END_TB", "no #END_TB"},
      {std::string(kHeader) + "#BEGIN_TB\n#BEGIN_TB\n", 10, 1, "#BEGIN_TB", "before the previous block's #END_TB"},
      {std::string(kHeader) + "#BEGIN_TB\nthread block = 0,0,0\nwarp = 0\n0010 00000001 1 R2 LDG.E 1 R2 4 0 0x40 0\n", 12, 1, "",
       "before 'warp = N' and 'insts = N'"},
  };
  for (const auto& c : cases)
    EXPECT_TRUE(rejected_at([&] { accel_sim_text(c.text); }, "k.traceg", c.line, c.column, c.key, c.fragment)) << c.text;
}

TEST(ImportAccelSim, KernelListErrorsNameTheListLine) {
  const std::string dir = std::string(GPUMEM_BINARY_DIR) + "/import-lists";
  std::filesystem::create_directories(dir);
  auto list = [&](const std::string& name, const std::string& text) {
    std::ofstream(dir + "/" + name) << text;
    return dir + "/" + name;
  };
  std::string p = list("missing.g", "MemcpyHtoD,0x00007f1b5e000000,4096\n\nkernel-9.traceg\n");
  EXPECT_TRUE(rejected_at([&] { drain(*open_accel_sim_trace(p, options(0))); }, p, 3, 1, "", "cannot open kernel trace file"));
  p = list("xz.g", "kernel-1.traceg.xz\n");
  EXPECT_TRUE(rejected_at([&] { drain(*open_accel_sim_trace(p, options(0))); }, p, 1, 1, "", "decompress it with xz -d"));
  p = list("odd.g", "kernel-1.traceg\nlaunch kernel-2.traceg\n");
  std::ofstream(dir + "/kernel-1.traceg") << "-kernel name = k\n-grid dim = (1,1,1)\n-block dim = (32,1,1)\n#traces\n";
  EXPECT_TRUE(rejected_at([&] { drain(*open_accel_sim_trace(p, options(0))); }, p, 2, 1, "", "unexpected line 'launch'"));
  p = list("none.g", "MemcpyHtoD,0x00007f1b5e000000,4096\n");
  EXPECT_TRUE(rejected_at([&] { drain(*open_accel_sim_trace(p, options(0))); }, p, 0, 0, "", "names no kernel trace"));
  p = list("empty.g", "");
  EXPECT_TRUE(rejected_at([&] { open_accel_sim_trace(p, options(0)); }, p, 0, 0, "", "empty Accel-Sim trace"));
  p = list("neither.g", "\nhello\n");
  EXPECT_TRUE(rejected_at([&] { open_accel_sim_trace(p, options(0)); }, p, 2, 1, "", "neither an Accel-Sim kernel trace"));
  // A kernel with no blocks is a kernel of no records.
  const auto items = drain(*open_accel_sim_trace(list("one.g", "kernel-1.traceg\n"), options(0)));
  ASSERT_EQ(items.size(), 1u);
  EXPECT_EQ(items[0].kernel.warps_per_block, 1u);
}


// ---------------------------------------------------------------- which trace is which

TraceIdentity identify_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  std::stringstream ss;
  ss << in.rdbuf();
  return identify_trace(ss.str());
}

TEST(TraceKind, EachShippedSampleIsToldFromItsStart) {
  using F = ImportFormat;
  const struct {
    const char* file;
    F format;
  } dram[] = {{"dramsim3.trace", F::kDramsim3},
              {"ramulator-dram.trace", F::kRamulatorDram},
              {"ramulator-cpu.trace", F::kRamulatorCpu},
              {"ramulator2-ldst.trace", F::kRamulator2LoadStore},
              {"ramulator2-rw.trace", F::kRamulator2ReadWrite}};
  for (const auto& d : dram) {
    const TraceIdentity id = identify_file(kData + d.file);
    EXPECT_EQ(id.kind, TraceKind::kDramLevel) << d.file;
    EXPECT_EQ(id.format, d.format) << d.file << " taken for " << import_format_name(id.format);
    EXPECT_EQ(id.line, 1) << d.file;
  }
  for (const char* f : {"kernel-1.traceg", "kernel-2.traceg", "kernelslist.g"})
    EXPECT_EQ(identify_file(kData + f).kind, TraceKind::kAccelSim) << f;
}

TEST(TraceKind, GpumemsOwnFilesAreToldByTheirHeaderOrMagic) {
  const std::string magic(kThreadTraceMagic, sizeof kThreadTraceMagic);
  TraceIdentity id = identify_trace(magic + std::string("\x01\x00\xff", 3));
  EXPECT_EQ(id.kind, TraceKind::kPerThread);
  EXPECT_TRUE(id.binary);
  EXPECT_EQ(id.line, 0) << "a binary file has no lines";
  const struct {
    std::string text;
    TraceKind kind;
    int line;
  } cases[] = {
      {"cycle,task_type,op,address,size\n0,0,R,0x0,64\n", TraceKind::kRequests, 1},
      {"# by hand\n\n  cycle , process , op , va , size , data \r\n", TraceKind::kRequests, 3},
      {"thread,pc,op,address,width,dependent,data\nkernel,k,0\n", TraceKind::kPerThread, 1},
      {"#\nthread,pc,op,address,width,dependent\n", TraceKind::kPerThread, 2},
      {std::string(kL1SequenceHeader) + "\n", TraceKind::kL1Sequence, 1},
      {"-kernel name = k\n", TraceKind::kAccelSim, 1},
      // Of no known kind: each goes to the reader it was given to.
      {"", TraceKind::kUnknown, 0},
      {"# only a comment\n\n", TraceKind::kUnknown, 0},
      {"cycle,task_type,op,addr,size\n", TraceKind::kUnknown, 0},
      {magic.substr(0, 7), TraceKind::kUnknown, 0},
      {"hello\n", TraceKind::kUnknown, 0},
  };
  for (const auto& c : cases) {
    id = identify_trace(c.text);
    EXPECT_EQ(id.kind, c.kind) << c.text;
    EXPECT_EQ(id.line, c.line) << c.text;
    EXPECT_FALSE(id.binary) << c.text;
  }
}

// Each reader refuses the other kinds before reading a record, naming what
// the file is and the flag that reads it; a file of its own kind, or of no
// known kind, it reads (and judges) itself.
TEST(TraceKind, EachReaderRefusesAnotherKindNamingItAndTheFlagThatReadsIt) {
  const Config cfg = physical_config();
  const std::string binary = std::string(kThreadTraceMagic, sizeof kThreadTraceMagic) + "K";
  const std::string threads = "thread,pc,op,address,width,dependent\nkernel,k,0\n0,0x10,R,0x1000,4,0\n";
  const std::string requests = "# mine\ncycle,task_type,op,address,size\n0,0,R,0x0,64\n";
  auto csv = [&](const std::string& text) {
    return [&cfg, text] {
      std::istringstream in(text);
      CsvTraceReader reader(request_limits(cfg), in, "t");
    };
  };
  auto per_thread = [](const std::string& text) {
    return [text] {
      std::istringstream in(text);
      read_thread_trace(in, "t");
    };
  };
  auto accel_sim = [](const std::string& text) {
    return [text] {
      std::istringstream in(text);
      read_accel_sim_trace(in, "t", ImportOptions{});
    };
  };
  auto dramsim3 = [&](const std::string& text) { return [&cfg, text] { import_text(cfg, ImportFormat::kDramsim3, text, {}); }; };
  EXPECT_TRUE(rejected_at(csv(binary), "t", 0, 0, "", "this is a per-thread trace (binary), not a request trace: use --threads"));
  EXPECT_TRUE(rejected_at(csv(threads), "t", 1, 0, "", "this is a per-thread trace (CSV), not a request trace: use --threads"));
  EXPECT_TRUE(rejected_at(csv("0x40 READ 5\n"), "t", 1, 0, "", "this is a DRAMsim3 trace, not a request trace: use --trace --trace-format dramsim3"));
  EXPECT_TRUE(rejected_at(per_thread(requests), "t", 2, 0, "", "this is a request trace (CSV), not a per-thread trace: use --trace"));
  EXPECT_TRUE(rejected_at(per_thread("-kernel name = k\n"), "t", 1, 0, "",
                          "this is an Accel-Sim trace, not a per-thread trace: use --threads --threads-format accel-sim"));
  EXPECT_TRUE(rejected_at(accel_sim(binary), "t", 0, 0, "",
                          "this is a per-thread trace (binary), not an Accel-Sim trace: use --threads without --threads-format"));
  EXPECT_TRUE(rejected_at(dramsim3(requests), "t.trace", 2, 0, "",
                          "this is a request trace (CSV), not a dramsim3 trace: use --trace without --trace-format"));
  EXPECT_TRUE(rejected_at(dramsim3(threads), "t.trace", 1, 0, "", "not a dramsim3 trace: use --threads"));
  // Another DRAM-level format is that importer's to judge: its own line error.
  EXPECT_TRUE(rejected_at(dramsim3("LD 0x40\n"), "t.trace", 1, 1, "address", "bad number 'LD'"));
  // Unknown: the reader's own message, its bytes escaped.
  EXPECT_TRUE(rejected_at(csv(std::string("\x1f\x8b\x08\x00\xff\n", 6)), "t", 1, 0, "", "got '\\x1f\\x8b\\x08\\x00\\xff'"));
  std::istringstream own(requests);
  Request r;
  EXPECT_TRUE(CsvTraceReader(request_limits(cfg), own, "t").next(r));
}

// The check reads the file's start and puts it back: a trace longer than
// what it reads is read whole, from its first record.
TEST(TraceKind, TheCheckLeavesTheReaderItsWholeFile) {
  std::string text = "cycle,task_type,op,address,size\n";
  for (unsigned i = 0; i < 10000; ++i) text += std::to_string(i) + ",0,R," + std::to_string(64 * i) + ",64\n";
  ASSERT_GT(text.size(), 128u * 1024);
  std::istringstream in(text);
  CsvTraceReader reader(request_limits(physical_config()), in, "t");
  Request r;
  unsigned n = 0;
  while (reader.next(r)) EXPECT_EQ(r.address, 64u * n++);
  EXPECT_EQ(n, 10000u);
}

}  // namespace
}  // namespace gpumem::test::importers_test
