// The shared pieces in sc_models/base/ that every block and bench uses.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <csignal>
#include <cstdio>
#include <deque>
#include <filesystem>
#include <fstream>
#include <queue>
#include <random>
#include <sstream>
#include <unordered_map>
#include <vector>

#include "base/child_process.hpp"
#include "base/completion_calendar.hpp"
#include "base/earliest_tree.hpp"
#include "base/flat_map.hpp"
#include "base/hex.hpp"
#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/junit_report.hpp"
#include "base/nearest_name.hpp"
#include "base/output_file.hpp"
#include "base/ring_buffer.hpp"
#include "base/page_pool.hpp"
#include "base/sparse_memory.hpp"

namespace gpumem::test {
namespace {

TEST(RingBuffer, BehavesAsADequeAcrossWrapsGrowthAndInserts) {
  // Random pushes, pops and inserts against std::deque: growth happens with
  // the head anywhere in the ring, so every unwrap path is taken.
  RingBuffer<int> ring(2);
  std::deque<int> ref;
  std::mt19937 rng(7);
  for (int step = 0; step < 20000; ++step) {
    const unsigned op = rng() % 8;
    if (op < 4) {
      ring.push_back(step);
      ref.push_back(step);
    } else if (op < 7 && !ref.empty()) {
      ASSERT_EQ(ring.pop_front(), ref.front()) << "step " << step;
      ref.pop_front();
    } else {
      const size_t at = ref.empty() ? 0 : rng() % (ref.size() + 1);
      ring.insert(at, -step);
      ref.insert(ref.begin() + static_cast<std::ptrdiff_t>(at), -step);
    }
    ASSERT_EQ(ring.size(), ref.size());
    for (size_t i = 0; i < ref.size(); ++i) ASSERT_EQ(ring[i], ref[i]) << "step " << step << " index " << i;
  }
}

// Against std::priority_queue, as an initiator uses it: retire what is done
// by the next issue, take the earliest when full. Completions spread a few
// cycles, hundreds (the ring grows), beyond kMaxSpan and before the cursor
// (both into the heap beside the ring), with gaps that empty it.
TEST(CompletionCalendar, KeepsTheSameCyclesAsAMinHeap) {
  std::mt19937_64 rng(5);
  for (const uint64_t spread : {uint64_t{4}, uint64_t{700}, CompletionCalendar::kMaxSpan * 3}) {
    CompletionCalendar calendar(8);
    std::priority_queue<uint64_t, std::vector<uint64_t>, std::greater<uint64_t>> heap;
    uint64_t now = 0;
    for (int step = 0; step < 60000; ++step) {
      const uint64_t r = rng();
      now += (r % 100 == 0) ? (r >> 8) % 5000 : (r >> 8) % 2;
      calendar.retire_through(now);
      while (!heap.empty() && heap.top() <= now) heap.pop();
      ASSERT_EQ(calendar.size(), heap.size()) << "step " << step;
      if (heap.size() >= 64 || (r >> 20) % 16 == 0) {
        if (heap.empty()) continue;
        ASSERT_EQ(calendar.take_earliest(), heap.top()) << "step " << step;
        now = std::max(now, heap.top());
        heap.pop();
      }
      // A quarter complete at once (posted writes); a few go back before the cursor.
      const uint64_t back = (r >> 30) % 64 == 0 && now > 10 ? 10 : 0;
      const uint64_t done = (r >> 24) % 4 == 0 ? now - back : now + 1 + (r >> 32) % spread;
      calendar.add(done);
      heap.push(done);
    }
    while (!heap.empty()) {
      ASSERT_EQ(calendar.take_earliest(), heap.top());
      heap.pop();
    }
    EXPECT_TRUE(calendar.empty());
  }
}

// Against std::unordered_map: keys dense, sparse and repeated, through
// several growths; a key's first value stays.
TEST(FlatMap64, KeepsTheFirstValueOfEveryKeyAsAnUnorderedMap) {
  std::mt19937_64 rng(17);
  FlatMap64<std::pair<unsigned, int>> flat;
  std::unordered_map<uint64_t, std::pair<unsigned, int>> shadow;
  for (int step = 0; step < 200000; ++step) {
    const uint64_t r = rng();
    // Small keys, any, pages; now and then the empty slot's own key and its neighbour.
    const uint64_t key = r % 101 == 0 ? ~uint64_t{0} - (r >> 60) % 2
                         : r % 3 == 0 ? (r >> 8) % 5000
                         : r % 3 == 1 ? rng()
                                      : (r >> 8) << 12;
    const std::pair<unsigned, int> value{static_cast<unsigned>(r >> 40) % 16, step};
    const auto [got, inserted] = flat.try_emplace(key, value);
    const auto [want, want_inserted] = shadow.try_emplace(key, value);
    ASSERT_EQ(inserted, want_inserted) << "step " << step;
    ASSERT_EQ(*got, want->second) << "step " << step;
    ASSERT_EQ(flat.size(), shadow.size());
  }
}

// Against a scan of every slot, as the SMs' issue loop did before the tree:
// random keys (some never), floors below, among and above them.
TEST(EarliestTree, FindsWhatAScanOfEverySlotFinds) {
  std::mt19937_64 rng(11);
  for (const size_t slots : {size_t{1}, size_t{3}, size_t{16}, size_t{80}}) {
    EarliestTree tree(slots);
    std::vector<uint64_t> keys(slots, EarliestTree::kNever);
    for (int step = 0; step < 20000; ++step) {
      const uint64_t r = rng();
      const size_t s = r % slots;
      keys[s] = (r >> 16) % 8 == 0 ? EarliestTree::kNever : (r >> 20) % 64;
      tree.set(s, keys[s]);
      ASSERT_EQ(tree.key(s), keys[s]);
      const uint64_t floor = (r >> 32) % 80;
      EarliestTree::Found want;
      for (size_t i = 0; i < slots; ++i) {
        if (keys[i] == EarliestTree::kNever) continue;
        const uint64_t at = std::max(keys[i], floor);
        if (at < want.at) want = {at, i};
      }
      const EarliestTree::Found got = tree.earliest(floor);
      ASSERT_EQ(got.at, want.at) << "step " << step;
      if (want.at != EarliestTree::kNever) {
        ASSERT_EQ(got.slot, want.slot) << "step " << step;
      }
    }
  }
}

// Against a byte-per-entry shadow for each memory: accesses of every size the
// model makes, across page and block boundaries, far apart and reread, the
// memories in turn; unwritten bytes are zero.
void expect_byte_maps(const std::vector<SparseMemory*>& memories, uint64_t seed) {
  std::vector<std::unordered_map<uint64_t, uint8_t>> shadows(memories.size());
  std::mt19937_64 rng(seed);
  const uint64_t bases[] = {0, 4096 - 3, 4096 * 1024 - 5, uint64_t{1} << 39, (uint64_t{1} << 47) - 64};
  for (int i = 0; i < 20000; ++i) {
    const uint64_t r = rng();
    const size_t m = i % memories.size();
    SparseMemory& mem = *memories[m];
    auto& shadow = shadows[m];
    const uint64_t address = bases[r % 5] + ((r >> 8) % 20000);
    const unsigned len = 1u << ((r >> 40) % 8);  // 1..128 bytes
    std::vector<uint8_t> buf(len);
    mem.prefetch(address, len, (r >> 49) & 1);  // a hint only: the contents stay as the shadow says
    if ((r >> 48) & 1) {
      for (unsigned k = 0; k < len; ++k) buf[k] = shadow[address + k] = static_cast<uint8_t>(rng());
      mem.write(address, buf.data(), len);
    } else {
      mem.read(address, buf.data(), len);
      for (unsigned k = 0; k < len; ++k) {
        const auto it = shadow.find(address + k);
        ASSERT_EQ(buf[k], it == shadow.end() ? 0 : it->second) << "memory " << m << ", byte " << address + k;
      }
    }
  }
}

TEST(SparseMemory, BehavesAsAByteMapWhoseUnwrittenBytesAreZero) {
  SparseMemory mem;
  expect_byte_maps({&mem}, 11);
  mem.write_u64(0x1FF8, 0x1122334455667788u);  // across no page; then across one
  mem.write_u64(0x2FFC, 0x99AABBCCDDEEFF00u);
  EXPECT_EQ(mem.read_u64(0x1FF8), 0x1122334455667788u);
  EXPECT_EQ(mem.read_u64(0x2FFC), 0x99AABBCCDDEEFF00u);
  EXPECT_EQ(mem.read_u64(uint64_t{1} << 45), 0u);
}

// The model's channels take their pages from one pool: no memory sees
// another's bytes, and a memory moved (as a vector of them grows) keeps its own.
TEST(SparseMemory, MemoriesSharingAPoolKeepTheirOwnBytes) {
  PagePool pool(true);
  SparseMemory a(&pool), b(&pool), c(&pool);
  expect_byte_maps({&a, &b, &c}, 12);
  std::vector<SparseMemory> own;
  for (int i = 0; i < 3; ++i) own.emplace_back();  // moved as the vector grows, each with its own pool
  for (int i = 0; i < 3; ++i) own[i].write_u64(0x40, 100 + i);
  own.emplace_back(&pool);
  own.back().write_u64(0x40, 7);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(own[i].read_u64(0x40), uint64_t(100 + i));
  EXPECT_EQ(own[3].read_u64(0x40), 7u);
}

TEST(PagePool, PagesAreZeroedDistinctAndAlignedAcrossChunks) {
  for (const bool huge : {false, true}) {
    PagePool pool(huge);
    const size_t chunk = huge ? PagePool::kHugeChunkBytes : PagePool::kSmallChunkBytes;
    std::vector<uint8_t*> pages;
    for (size_t i = 0; i < 2 * chunk / PagePool::kPageBytes + 3; ++i) {  // into a third chunk
      uint8_t* p = pool.new_page();
      ASSERT_EQ(reinterpret_cast<uintptr_t>(p) % PagePool::kPageBytes, 0u);
      if (huge && i % (chunk / PagePool::kPageBytes) == 0) {
        EXPECT_EQ(reinterpret_cast<uintptr_t>(p) % chunk, 0u) << "a huge chunk starts on its own boundary";
      }
      ASSERT_TRUE(std::all_of(p, p + PagePool::kPageBytes, [](uint8_t v) { return v == 0; })) << "page " << i;
      std::fill(p, p + PagePool::kPageBytes, uint8_t(i));
      pages.push_back(p);
    }
    std::vector<uint8_t*> sorted = pages;
    std::sort(sorted.begin(), sorted.end());
    for (size_t i = 1; i < sorted.size(); ++i) ASSERT_GE(sorted[i] - sorted[i - 1], ptrdiff_t(PagePool::kPageBytes));
    for (size_t i = 0; i < pages.size(); ++i) ASSERT_EQ(pages[i][PagePool::kPageBytes - 1], uint8_t(i));
  }
}

TEST(Hex, LowerCaseByDefaultUpperWhereAsked) {
  EXPECT_EQ(hex(0xABCu), "0xabc");
  EXPECT_EQ(hex(0x1Fu, 10), "0x000000001f");
  EXPECT_EQ(hex_upper(0x40u, 4), "0x0040");
  EXPECT_EQ(hex_upper(0xdeadbeefu, 8), "0xDEADBEEF");
  EXPECT_EQ(hex(~uint64_t{0}), "0xffffffffffffffff");
}

namespace fs = std::filesystem;

fs::path scratch_dir() {
  std::string tmpl = ::testing::TempDir() + "gpumem-output-XXXXXX";
  EXPECT_NE(mkdtemp(tmpl.data()), nullptr);
  return tmpl;
}

std::string text_of(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

std::vector<std::string> names_in(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::directory_iterator(dir)) out.push_back(e.path().filename().string());
  std::sort(out.begin(), out.end());
  return out;
}

// While an output is being written, the final name holds what it held
// before (here an older run's file), and the new text appears there whole
// at commit.
TEST(OutputFile, AppearsUnderItsNameOnlyWhenCommitted) {
  const fs::path dir = scratch_dir();
  const std::string final_path = (dir / "stats.json").string();
  std::ofstream(final_path) << "older run\n";
  {
    OutputFile f(final_path, "--stats-json");
    std::fputs("new run, first half\n", f.stream());
    std::fflush(f.stream());
    EXPECT_EQ(text_of(final_path), "older run\n");
    EXPECT_EQ(text_of(partial_path(final_path)), "new run, first half\n");
    std::fputs("second half\n", f.stream());
    f.commit();
  }
  EXPECT_EQ(text_of(final_path), "new run, first half\nsecond half\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"stats.json"});
  fs::remove_all(dir);
}

// A device or a pipe is written in place (`--txn-log /dev/null`, a FIFO
// another program reads): renamed over, it would become a plain file, and
// /dev/null itself for root. Committed or abandoned, it stays what it was.
TEST(OutputFile, APipeIsWrittenInPlaceAndStaysAPipe) {
  const fs::path dir = scratch_dir();
  const std::string fifo = (dir / "stats.fifo").string();
  ASSERT_EQ(mkfifo(fifo.c_str(), 0644), 0);
  // Both ends held here, so that opening it to write never blocks.
  const int fd = open(fifo.c_str(), O_RDWR | O_NONBLOCK);
  ASSERT_GE(fd, 0);
  {
    OutputFile f(fifo, "--stats-json");
    std::fputs("through the pipe\n", f.stream());
    f.commit();
  }
  { OutputFile abandoned(fifo, "--txn-log"); }
  char buf[64] = {};
  const ssize_t n = read(fd, buf, sizeof buf - 1);
  close(fd);
  EXPECT_EQ(std::string(buf, n > 0 ? size_t(n) : 0), "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"stats.fifo"});
  fs::remove_all(dir);
}

// An output abandoned (an exception unwinds past it) leaves nothing behind,
// and the file it would have replaced is untouched.
TEST(OutputFile, AbandonedLeavesNoTraceAndTheOldFileIntact) {
  const fs::path dir = scratch_dir();
  const std::string final_path = (dir / "log.csv").string();
  std::ofstream(final_path) << "older run\n";
  {
    OutputFile f(final_path, "--txn-log");
    std::fputs("half", f.stream());
  }
  EXPECT_EQ(text_of(final_path), "older run\n");
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"log.csv"});
  fs::remove_all(dir);
}

// What a signal handler that exits at once finds (cli/stop_on_signal.cpp):
// the temporary files of the outputs not yet written, which it removes, and
// their final names in the order they were opened; a committed output and a
// scratch file with no final name are not named.
TEST(OutputFile, ASignalExitRemovesTheUnwrittenOnesAndNamesThemInOrder) {
  const fs::path dir = scratch_dir();
  const std::string a = (dir / "a.json").string(), b = (dir / "b.csv").string(), c = (dir / "c.json").string(),
                    scratch = (dir / "scratch").string();
  OutputFile first(b, "--txn-log"), second(a, "--stats-json"), done(c, "--json");
  done.commit();
  std::ofstream(scratch) << "x";
  PendingFile scratch_file(scratch, "");
  const char* names[4] = {};
  ASSERT_EQ(remove_pending_files(names, 4), 2u);
  EXPECT_EQ(std::string(names[0]), b);
  EXPECT_EQ(std::string(names[1]), a);
  EXPECT_EQ(names_in(dir), std::vector<std::string>{"c.json"});
  fs::remove_all(dir);
}

TEST(OutputFile, AnUnwritablePathIsAnInputErrorNamingFileAndOption) {
  const fs::path dir = scratch_dir();
  try {
    OutputFile f((dir / "missing-folder" / "s.json").string(), "--stats-json");
    FAIL() << "opened a file in a folder that does not exist";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), (dir / "missing-folder" / "s.json").string() +
                                         ": --stats-json: cannot write: No such file or directory");
  }
  try {
    OutputFile f(dir.string(), "--txn-log");
    FAIL() << "opened a folder as a file";
  } catch (const InputError& e) {
    EXPECT_EQ(std::string(e.what()), dir.string() + ": --txn-log: is a folder, not a file to write");
  }
  EXPECT_TRUE(names_in(dir).empty());
  fs::remove_all(dir);
}

}  // namespace
TEST(NearestName, ASlipFindsTheNameAndAnythingFurtherOrTiedFindsNone) {
  const std::vector<std::string> keys{"address_bits", "channels", "model", "latency_cycles", "preset"};
  EXPECT_EQ(nearest_name("chanels", keys), "channels") << "a letter left out";
  EXPECT_EQ(nearest_name("chanenls", keys), "channels") << "two neighbours swapped, one more slip";
  EXPECT_EQ(nearest_name("prseet", keys), "preset");
  EXPECT_EQ(nearest_name("colour", keys), "") << "nothing near";
  EXPECT_EQ(nearest_name("mod", keys), "") << "two edits are more than half of three letters";
  EXPECT_EQ(nearest_name("ab", {"ac", "ad"}), "") << "no single nearest";
  EXPECT_EQ(edit_distance("prme", "prime"), 1u);
  EXPECT_EQ(edit_distance("xro", "xor"), 1u) << "a swap of neighbours is one edit";
  EXPECT_EQ(did_you_mean("prme", {"none", "xor", "prime", "matrix"}), "; did you mean 'prime'?");
  EXPECT_EQ(did_you_mean("ipolyx", {"none"}), "");
}

// The one reader of whole files (config, profile store, sweep spec and its
// points' outputs, RTL): the text as written, byte for byte and past 64 KiB;
// a folder or a missing file an InputError naming the path and its role.
TEST(ReadInputFile, ReturnsTheWholeTextOrNamesThePathItCannotRead) {
  std::string big(200000, '\0');
  for (size_t i = 0; i < big.size(); ++i) big[i] = char(i * 7 + i / 300);
  const std::string path = ::testing::TempDir() + "read_input_file.bin";
  std::ofstream(path, std::ios::binary) << big;
  EXPECT_EQ(read_input_file(path, "trace"), big);
  std::remove(path.c_str());
  const auto error_of = [](const std::string& p) {
    try {
      read_input_file(p, "sweep spec");
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_EQ(error_of(::testing::TempDir() + "no-such-file.yaml"),
            ::testing::TempDir() + "no-such-file.yaml: cannot open sweep spec file: No such file or directory");
  EXPECT_EQ(error_of(::testing::TempDir()), ::testing::TempDir() + ": is a folder, not a sweep spec file");
}

TEST(InputErrorText, ControlBytesOfTheUsersTextAreShownNotObeyed) {
  const std::string bad("0x0\0zz\r", 7);
  const InputError e("t.csv", 2, "address", "bad number '" + bad + "'");
  EXPECT_EQ(std::string(e.what()), "t.csv:2: address: bad number '0x0\\x00zz\\x0d'") << "a NUL would end the message where it is printed";
}

// A binary file's bytes are no text: a terminal shows bytes that are not
// UTF-8 as it likes, and may eat the quote after them. UTF-8 stays text.
TEST(InputErrorText, BytesThatAreNotUtf8AreShownAsHex) {
  const std::string bytes = "GPUMTHR1\x8b\xff\x7f caf\xc3\xa9 \xe2\x82 \xf0\x9f\x98\x80";
  const InputError e("t.csv", 1, "", "got '" + bytes + "'");
  EXPECT_EQ(std::string(e.what()), "t.csv:1: got 'GPUMTHR1\\x8b\\xff\\x7f caf\xc3\xa9 \\xe2\\x82 \xf0\x9f\x98\x80'")
      << "a lone continuation byte, 0xff, DEL and a cut sequence are escaped; é and a four-byte character are not";
}

// The JUnit report: counts, a case of each kind, escaping, and no time
// attribute unless one is given (a --no-timing report compares byte for byte).
TEST(JUnitReport, WritesEachKindOfCaseEscapedAndCounted) {
  const std::vector<JUnitCase> cases{{"c", "pass", -1, "", "", ""},
                                     {"c", "a<b & \"q\"", 1.5, "HEAD: line", "\nHEAD\nline\x01 more\n", ""},
                                     {"c", "gone", -1, "", "", "no output"}};
  EXPECT_EQ(junit_report("suite & co", cases),
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites>\n"
            "  <testsuite name=\"suite &amp; co\" tests=\"3\" failures=\"1\" errors=\"0\" skipped=\"1\">\n"
            "    <testcase classname=\"c\" name=\"pass\"/>\n"
            "    <testcase classname=\"c\" name=\"a&lt;b &amp; &quot;q&quot;\" time=\"1.500\">\n"
            "      <failure message=\"HEAD: line\">\nHEAD\nline  more\n</failure>\n    </testcase>\n"
            "    <testcase classname=\"c\" name=\"gone\">\n      <skipped message=\"no output\"/>\n    </testcase>\n"
            "  </testsuite>\n</testsuites>\n");
  EXPECT_EQ(first_divergence("\nMISMATCH (1, stopped at the first)\ntranslator mismatch: request 3\n  rest\n"),
            "MISMATCH (1, stopped at the first): translator mismatch: request 3");
  EXPECT_EQ(first_divergence("exit 2"), "exit 2");
}

// The one helper every program gpumem runs goes through (base/child_process.hpp).
TEST(ChildProcess, RunsInItsFolderWithItsStreamsWhereItSays) {
  const std::string dir = ::testing::TempDir() + "gpumem-child-" + std::to_string(getpid());
  std::filesystem::create_directories(dir);
  const std::string sh = find_tool("sh");
  ASSERT_FALSE(sh.empty());
  ChildSetup s;
  s.folder = dir;
  s.in = "/dev/null";
  s.out = dir + "/out.txt";
  s.err = dir + "/err.txt";
  EXPECT_EQ(run_child({sh, "-c", "pwd; echo oops >&2; cat; exit 3"}, s), 3);
  EXPECT_EQ(read_input_file(dir + "/out.txt", "out"), std::filesystem::canonical(dir).string() + "\n");
  EXPECT_EQ(read_input_file(dir + "/err.txt", "err"), "oops\n");
  s.append = true;  // and both to one file
  s.err = s.out;
  s.folder.clear();
  EXPECT_EQ(run_child({sh, "-c", "echo two; echo three >&2"}, s), 0);
  EXPECT_EQ(read_input_file(dir + "/out.txt", "out"), std::filesystem::canonical(dir).string() + "\ntwo\nthree\n");
  ChildSetup to_out;
  to_out.out = dir + "/merged.txt";
  to_out.err_to_out = true;
  EXPECT_EQ(run_child({sh, "-c", "echo a; echo b >&2"}, to_out), 0);
  EXPECT_EQ(read_input_file(dir + "/merged.txt", "merged"), "a\nb\n");
  std::filesystem::remove_all(dir);
}

TEST(ChildProcess, SaysHowItEnded) {
  const std::string sh = find_tool("sh");
  EXPECT_EQ(run_child({sh, "-c", "kill -TERM $$"}), 128 + SIGTERM);
  EXPECT_EQ(run_child({"/no/such/program"}), 127) << "a child that cannot run the program exits 127";
  ChildSetup bad;
  bad.folder = "/no/such/folder";
  EXPECT_EQ(run_child({sh, "-c", "true"}, bad), 127);
  int status = 0;
  EXPECT_EQ(run_captured({"sh", "-c", "echo out; echo err >&2; exit 4"}, status), "out\nerr\n");
  EXPECT_EQ(status, 4);
  EXPECT_EQ(run_captured({"no-such-program-of-gpumem"}, status), "");
  EXPECT_EQ(status, 127) << "as a shell says a command it cannot find";
}

TEST(ChildProcess, AToolRunsInAGroupOfItsOwnAndAppendsToItsLog) {
  const std::string log = ::testing::TempDir() + "gpumem-tool-" + std::to_string(getpid()) + ".log";
  std::remove(log.c_str());
  const std::string sh = find_tool("sh");
  // Its process group is its own pid (the fifth field of /proc/PID/stat).
  EXPECT_EQ(run_tool({sh, "-c", "echo $$ $(cut -d' ' -f5 /proc/$$/stat)"}, log), 0);
  EXPECT_EQ(run_tool({sh, "-c", "echo again; exit 2"}, log), 2);
  std::istringstream text(read_input_file(log, "log"));
  std::string pid, group, again;
  text >> pid >> group >> again;
  EXPECT_EQ(pid, group);
  EXPECT_EQ(again, "again");
  std::remove(log.c_str());
}

}  // namespace gpumem::test
