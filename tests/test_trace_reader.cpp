// CSV trace reader: what a good trace turns into, and that every bad line is
// reported at the line a user has to fix, counting header and comment lines.
#include <gtest/gtest.h>

#include <sstream>
#include <vector>

#include "base/input_error.hpp"
#include "sources/trace_reader.hpp"
#include "params/frontend_from_config.hpp"
#include "test_helpers.hpp"

namespace gpumem::test {
namespace {

// 32-bit addresses, 256-byte granule (largest request), 4 KB pages.
Config trace_config() { return config_from(base_yaml("translator: {channel_bits: [8, 9, 10]}\n")); }

std::vector<Request> read_all(const std::string& text) {
  const Config cfg = trace_config();
  std::istringstream in(text);
  CsvTraceReader reader(request_limits(cfg), in, "trace.csv");
  std::vector<Request> out;
  Request r;
  while (reader.next(r)) out.push_back(r);
  return out;
}

// The share of the trace read, for a run's progress line: rising to 1 at
// the end; not known (-1) on a stream that cannot seek, as a pipe.
TEST(TraceReader, SaysHowMuchOfItsTraceIsRead) {
  const Config cfg = trace_config();
  std::string text = "cycle,task_type,op,address,size\n";
  for (int i = 0; i < 100; ++i) text += std::to_string(i) + ",0,R,0x" + std::to_string(100 + i) + "00,64\n";
  std::istringstream in(text);
  CsvTraceReader reader(request_limits(cfg), in, "trace.csv");
  Request r;
  double last = reader.fraction_read();
  EXPECT_GE(last, 0.0);
  EXPECT_LT(last, 0.1) << "the header read";
  while (reader.next(r)) {
    EXPECT_GE(reader.fraction_read(), last);
    last = reader.fraction_read();
  }
  EXPECT_EQ(last, 1.0);

  struct NoSeeking : std::stringbuf {
    explicit NoSeeking(const std::string& s) : std::stringbuf(s) {}
    pos_type seekoff(off_type, std::ios::seekdir, std::ios::openmode) override { return pos_type(-1); }
    pos_type seekpos(pos_type, std::ios::openmode) override { return pos_type(-1); }
  } pipe(text);
  std::istream piped(&pipe);
  CsvTraceReader from_pipe(request_limits(cfg), piped, "-");
  EXPECT_TRUE(from_pipe.next(r));
  EXPECT_EQ(from_pipe.fraction_read(), -1.0);
}

TEST(TraceReader, GoodTraceParsesIntoRequests) {
  const auto rs = read_all(
      "# produced by hand\n"
      "cycle,task_type,op,address,size,data\n"
      "0,0,R,0x100,64,\n"
      "\n"
      "   # an indented comment\n"
      "1,3,W,4096,8,0xDEADbeef\n"
      " 1 , 3 , w , 0x1008 , 8 , 42 \r\n"
      "7,15,write,0xFFFFFF00,256,\n"
      "9,0,read,0X0,4,\n");
  ASSERT_EQ(rs.size(), 5u);
  for (size_t i = 0; i < rs.size(); ++i) EXPECT_EQ(rs[i].id, i) << "ids count records, not lines";
  EXPECT_EQ(rs[0].cycle, 0u);
  EXPECT_EQ(rs[0].task_type, 0u);
  EXPECT_EQ(rs[0].op, Op::kRead);
  EXPECT_EQ(rs[0].address, 0x100u);
  EXPECT_EQ(rs[0].size, 64u);
  EXPECT_EQ(rs[1].cycle, 1u);
  EXPECT_EQ(rs[1].task_type, 3u);
  EXPECT_EQ(rs[1].op, Op::kWrite);
  EXPECT_EQ(rs[1].address, 4096u);
  EXPECT_EQ(rs[1].size, 8u);
  EXPECT_EQ(rs[1].data, 0xDEADBEEFu);
  EXPECT_EQ(rs[2].op, Op::kWrite);
  EXPECT_EQ(rs[2].address, 0x1008u);
  EXPECT_EQ(rs[2].data, 42u);
  EXPECT_EQ(rs[3].task_type, 15u);
  EXPECT_EQ(rs[3].address, 0xFFFFFF00u) << "the last granule of the address space is in range";
  EXPECT_EQ(rs[3].size, 256u);
  EXPECT_EQ(rs[4].op, Op::kRead);
  EXPECT_EQ(rs[4].size, 4u);
  // An empty data cell takes the generated pattern, which differs per request.
  EXPECT_NE(rs[0].data, rs[3].data);
}

TEST(TraceReader, DataColumnIsOptional) {
  const auto rs = read_all("cycle,task_type,op,address,size\n5,2,W,0x40,64\n5,2,R,0x40,64\n");
  ASSERT_EQ(rs.size(), 2u);
  EXPECT_EQ(rs[0].cycle, 5u);
  EXPECT_EQ(rs[0].task_type, 2u);
  EXPECT_EQ(rs[0].address, 0x40u);
  EXPECT_EQ(rs[1].id, 1u);
  EXPECT_TRUE(read_all("cycle,task_type,op,address,size\n# nothing yet\n").empty());
}

struct BadTrace {
  const char* what;
  const char* text;
  int line;             // 1-based, counting header, comments and blank lines
  const char* column;   // the key; empty when no single column is at fault
  const char* message;  // fragment of what()
};

::testing::AssertionResult rejected_as(const BadTrace& c) {
  return input_error_at([&] { read_all(c.text); }, "trace.csv", c.line, c.column, c.message);
}

TEST(TraceReader, BadLinesNameFileLineAndColumn) {
  const BadTrace cases[] = {
      {"bad hex address", "cycle,task_type,op,address,size\n0,0,R,0xZZ,64\n", 2, "address", "bad number '0xZZ'"},
      {"bare 0x", "cycle,task_type,op,address,size\n0,0,R,0x,64\n", 2, "address", "bad number"},
      {"bad cycle", "# c\ncycle,task_type,op,address,size\nx,0,R,0,64\n", 3, "cycle", "bad number 'x'"},
      {"negative task", "cycle,task_type,op,address,size\n0,-1,R,0,64\n", 2, "task_type", "bad number"},
      {"decimal with a fraction", "cycle,task_type,op,address,size\n0,0,R,0,64.0\n", 2, "size", "bad number"},
      {"bad data", "cycle,task_type,op,address,size,data\n0,0,W,0,64,zz\n", 2, "data", "bad number 'zz'"},
      {"number too large", "cycle,task_type,op,address,size\n99999999999999999999999,0,R,0,64\n", 2, "cycle", "out of range"},
      {"missing column", "cycle,task_type,op,address,size\n0,0,R,0x40,64\n\n# gap\n1,0,R,0x80\n", 5, "",
       "expected 5 columns, found 4"},
      {"missing data column", "cycle,task_type,op,address,size,data\n0,0,R,0x40,64\n", 2, "", "expected 6 columns, found 5"},
      {"extra column", "cycle,task_type,op,address,size\n0,0,R,0x40,64,7\n", 2, "", "expected 5 columns, found 6"},
      {"address beyond 32 bits", "cycle,task_type,op,address,size\n0,0,R,0x100000000,64\n", 2, "address", "out of range"},
      {"request ends beyond 32 bits", "cycle,task_type,op,address,size\n0,0,R,0xFFFFFFF0,32\n", 2, "address", "out of range"},
      {"misaligned address", "cycle,task_type,op,address,size\n0,0,R,0x20,64\n", 2, "address", "not aligned to its size 64"},
      {"size not a power of two", "cycle,task_type,op,address,size\n0,0,R,0,48\n", 2, "size", "size 48 must be a power of two"},
      {"size zero", "cycle,task_type,op,address,size\n0,0,R,0,0\n", 2, "size", "power of two"},
      {"size above the granule", "cycle,task_type,op,address,size\n0,0,R,0,512\n", 2, "size", "interleave granule (256 bytes)"},
      {"unknown op", "cycle,task_type,op,address,size\n0,0,X,0,64\n", 2, "op", "bad operation 'X'"},
      {"task 16", "cycle,task_type,op,address,size\n0,15,R,0,64\n1,16,R,0x1000,64\n", 3, "task_type", "task type 16 out of range"},
      {"cycle going backwards", "cycle,task_type,op,address,size\n5,0,R,0,64\n# later\n4,0,R,0x40,64\n", 4, "cycle",
       "cycle 4 is before the previous record's 5"},
      {"two task types on one page", "cycle,task_type,op,address,size\n0,1,R,0x2000,64\n1,0,R,0x40,64\n\n2,2,W,0x2FC0,64\n", 5,
       "task_type", "was used as task type 1 at line 2"},
      {"bad header", "# trace\ncycle,task_type,op,addr,size\n0,0,R,0,64\n", 2, "", "header must be"},
      {"header with a wrong extra column", "cycle,task_type,op,address,size,value\n", 1, "", "header must be"},
      {"header missing", "0,0,R,0,64\n", 1, "", "header must be"},
      {"empty file", "", 0, "", "empty trace"},
  };
  for (const auto& c : cases) EXPECT_TRUE(rejected_as(c)) << c.what;
}

TEST(TraceReader, ReaderStreamsRecordsBeforeABadLine) {
  const Config cfg = trace_config();
  std::istringstream in("cycle,task_type,op,address,size\n0,0,R,0x0,64\n1,0,W,0x40,64\n2,0,R,0x41,64\n3,0,R,0x80,64\n");
  CsvTraceReader reader(request_limits(cfg), in, "trace.csv");
  Request r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.address, 0x0u);
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.address, 0x40u);
  EXPECT_EQ(r.op, Op::kWrite);
  try {
    reader.next(r);
    FAIL() << "the misaligned line was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.line(), 4);
    EXPECT_EQ(e.key(), "address");
  }
}

TEST(TraceReader, MissingFileIsAnInputError) {
  const Config cfg = trace_config();
  try {
    CsvTraceReader reader(request_limits(cfg), std::string("/nonexistent/trace.csv"));
    FAIL() << "a missing trace opened";
  } catch (const InputError& e) {
    EXPECT_EQ(e.file(), "/nonexistent/trace.csv");
    EXPECT_NE(std::string(e.what()).find("cannot open"), std::string::npos) << e.what();
  }
}

TEST(TraceReader, SixtyFourBitAddressesReachTheTop) {
  // 2^64 does not fit the 64-bit limit arithmetic; the last granule must still be usable.
  const Config wide = config_from(base_yaml("translator: {channel_bits: [8, 9, 10]}\n", 8, 64));
  std::istringstream in("cycle,task_type,op,address,size\n0,0,R,0xFFFFFFFFFFFFFF00,256\n1,0,R,0xFFFFFFFFFFFFFFFF,1\n");
  CsvTraceReader reader(request_limits(wide), in, "trace.csv");
  Request r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.address, 0xFFFFFFFFFFFFFF00u);
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.address, ~uint64_t{0});
  EXPECT_FALSE(reader.next(r));
}

TEST(TraceReader, PageSizeBoundsSharingBetweenTaskTypes) {
  // With 8 KB pages, 0x0 and 0x1000 share a page; with 4 KB they do not.
  const std::string trace = "cycle,task_type,op,address,size\n0,0,R,0x0,64\n1,1,R,0x1000,64\n";
  EXPECT_EQ(read_all(trace).size(), 2u);
  const Config big = config_from(base_yaml("mmu: {page_sizes: [8192]}\ntranslator: {channel_bits: [8, 9, 10]}\n"));
  std::istringstream in(trace);
  CsvTraceReader reader(request_limits(big), in, "trace.csv");
  Request r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_THROW(reader.next(r), InputError);
}


// With an address space a record names its process and a virtual address.
Config mmu_trace_config() {
  return config_from(base_yaml(
      "translator: {channel_bits: [8, 9, 10]}\n"
      "address_space:\n  va_bits: 32\n  applications:\n"
      "    - {name: a, process: 3, task_type: 1, regions: [{va: 0x10000, size: 0x10000, page: large}]}\n"));
}

TEST(TraceReader, VirtualTraceCarriesProcessAndVa) {
  const Config cfg = mmu_trace_config();
  std::istringstream in("cycle,process,op,va,size\n0,3,W,0x10040,64\n2,3,R,0xFFFFFFC0,64\n");
  CsvTraceReader reader(request_limits(cfg), in, "v.csv");
  Request r;
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.process, 3u);
  EXPECT_EQ(r.address, 0x10040u);
  EXPECT_EQ(r.op, Op::kWrite);
  ASSERT_TRUE(reader.next(r));
  EXPECT_EQ(r.address, 0xFFFFFFC0u) << "an unmapped VA is the MMU's business (a fault), not the reader's";
  EXPECT_FALSE(reader.next(r));
}

TEST(TraceReader, VirtualTraceErrorsNameLineAndColumn) {
  const Config cfg = mmu_trace_config();
  struct Case {
    const char* text;
    int line;
    const char* column;
    const char* fragment;
  } cases[] = {
      {"cycle,task_type,op,address,size\n", 1, "", "the config has an address space"},
      {"cycle,process,op,va,size\n0,4,R,0x10000,64\n", 2, "process", "no application has process id 4"},
      {"cycle,process,op,va,size\n0,3,R,0x100000000,64\n", 2, "va", "virtual address space"},
      {"cycle,process,op,va,size\n0,3,R,0x10010,64\n", 2, "va", "not aligned"},
  };
  for (const auto& c : cases)
    EXPECT_TRUE(input_error_at(
        [&] {
          std::istringstream in(c.text);
          CsvTraceReader reader(request_limits(cfg), in, "v.csv");
          Request r;
          while (reader.next(r)) {
          }
        },
        "v.csv", c.line, c.column, c.fragment))
        << c.text;
}

}  // namespace
}  // namespace gpumem::test
