// `gpumem cosim` on RTL verilated at run time (docs/cosim.md, "Any geometry,
// and your own RTL"): a geometry that is not built in goes through the cache
// (built once, then reused), a user's implementation of each block's port
// contract agrees (tests/rtl/), in the fast and the pin-level mode alike, a
// one-line bug in each is caught with the usual report, and contract
// violations are named port by port.
#include <algorithm>
#include <map>
#include <sstream>
#include <tuple>

#include "cli_helpers.hpp"
#include "wave_layout.hpp"

namespace gpumem::test {
namespace {

const std::string kEight = kSource + "/configs/examples/cosim-8-channels.yaml";
const std::string kTwoStage = kSource + "/tests/rtl/two_stage_translator.sv";
const std::string kMatrixOnly = kSource + "/tests/rtl/matrix_translator.sv";
const std::string kExtraStage = kSource + "/tests/rtl/tlb_extra_stage.sv";
const std::string kProjectTlb = kSource + "/rtl/gpumem_nested_tlb.sv";

// Libraries the fixtures' tests share (a build per test would cost minutes):
// concurrent builds of one library are safe (rtl_library.cpp).
const std::string kSharedCache = "GPUMEM_RTL_CACHE=" GPUMEM_RTL_TEST_CACHE;

size_t libraries_in(const fs::path& cache) {
  size_t n = 0;
  for (const auto& e : fs::recursive_directory_iterator(cache)) n += e.path().filename() == "libgpumem_rtl.so";  // fast mode's
  return n;
}

// `text` with `from` (which must occur once) replaced: a one-line edit of a fixture.
std::string edited(const std::string& path, const std::string& from, const std::string& to) {
  std::string text = slurp(path);
  const size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  EXPECT_EQ(text.find(from, at + 1), std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The first line of docs/cosim.md's example block after `intro` that `out`
// does not print ("" when every line of the block is a whole line of `out`,
// in order): the page's examples are runs a test makes.
std::string doc_example_missing_from(const std::string& intro, const std::string& out) {
  const std::string doc = slurp(kSource + "/docs/cosim.md");
  const size_t at_intro = doc.find(intro);
  if (at_intro == std::string::npos) return "docs/cosim.md no longer has the example " + intro;
  const size_t open = doc.find("```\n", at_intro) + 4, close = doc.find("\n   ```", open);
  if (close == std::string::npos) return "the example " + intro + " has no end";
  std::istringstream shown(doc.substr(open, close - open));
  size_t at = 0;
  for (std::string line; std::getline(shown, line);) {
    line.erase(0, std::min<size_t>(3, line.find_first_not_of(' ')));  // the list item's indent
    while (!line.empty() && line.back() == ' ') line.pop_back();
    if (line.empty()) continue;
    size_t found = at;
    for (found = out.find(line, found); found != std::string::npos; found = out.find(line, found + 1)) {
      const size_t end = out.find_first_not_of(' ', found + line.size());
      if ((found == 0 || out[found - 1] == '\n') && (end == std::string::npos || out[end] == '\n')) break;
    }
    if (found == std::string::npos)
      return "docs/cosim.md shows a line the run does not print (after what it matched):\n" + line + "\n---- output:\n" + out;
    at = found + line.size();
  }
  return "";
}

// The summary's count lines (compared, writes; translations, flushes, resets):
// the same run gives the same in either mode.
std::string counts(const std::string& out) {
  std::string lines;
  for (const char* key : {"\ncompared ", "\nwrites ", "\ntranslations ", "\nflushes ", "\nresets "})
    if (const size_t at = out.find(key); at != std::string::npos) lines += out.substr(at, out.find('\n', at + 1) - at);
  return lines;
}

// Every block of an 8-channel config with a 128-entry 8-way TLB: verilated on
// first use, loaded from the cache on the second, agreeing both times; and in
// the pin-level mode, which adds a --sc library, the same run edge for edge.
TEST_F(Cli, CosimOfAGeometryNotBuiltInVerilatesOnceAndThenReusesTheCache) {
  const std::string cache = "GPUMEM_RTL_CACHE=" + path("cache").string();
  for (const char* block : {"translator", "tlb"}) {
    const std::vector<std::string> args{"cosim", "--config", kEight, "--block", block, "--transactions", "20000"};
    const Result first = run_env({cache}, args);
    ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
    EXPECT_NE(first.out.find("(verilated and compiled now, in "), std::string::npos) << first.out;
    EXPECT_NE(first.out.find("result       agreement"), std::string::npos) << first.out;
    const Result second = run_env({cache}, args);
    ASSERT_EQ(second.exit_code, 0) << second.out << second.err;
    EXPECT_NE(second.out.find("(reused from the cache)"), std::string::npos) << second.out;
    EXPECT_EQ(second.out.find("verilated and compiled now"), std::string::npos) << second.out;
    EXPECT_NE(second.out.find("result       agreement"), std::string::npos) << second.out;
    std::vector<std::string> pin_args = args;
    pin_args.insert(pin_args.end(), {"--mode", "pin"});
    const Result pin = run_env({cache}, pin_args);
    ASSERT_EQ(pin.exit_code, 0) << pin.out << pin.err;
    EXPECT_NE(pin.out.find("pin-level mode: SystemC clock"), std::string::npos) << pin.out;
    EXPECT_NE(pin.out.find("(verilated and compiled now, in "), std::string::npos) << pin.out;  // the --sc library
    EXPECT_FALSE(counts(pin.out).empty());
    EXPECT_EQ(counts(pin.out), counts(second.out));
  }
  EXPECT_NE(run_env({cache}, {"cosim", "--config", kEight, "--block", "tlb", "--transactions", "10"})
                .out.find("128 entries, 8 ways"),
            std::string::npos);
  EXPECT_EQ(libraries_in(path("cache")), 2u);  // one per block, nothing rebuilt (and a --sc one beside each)
  // Verilator's runtime was compiled by the first library of each kind and
  // reused by the second: the TLB's build compiled only its own model.
  std::map<std::string, std::string> logs;
  size_t runtimes = 0;
  for (const auto& e : fs::directory_iterator(path("cache"))) {
    const std::string name = e.path().filename().string();
    runtimes += name.rfind("verilated-runtime-", 0) == 0 && fs::exists(e.path() / "verilated.o");
    for (const char* block : {"translator-", "tlb-"})
      if (name.rfind(block, 0) == 0) logs[block] = slurp((e.path() / "build.log").string());
  }
  EXPECT_EQ(runtimes, 2u);  // --cc and --sc
  EXPECT_NE(logs["translator-"].find("/verilated.cpp"), std::string::npos) << logs["translator-"];
  EXPECT_EQ(logs["tlb-"].find("/verilated.cpp"), std::string::npos) << logs["tlb-"];
  EXPECT_NE(logs["tlb-"].find("Vrtl"), std::string::npos) << logs["tlb-"];
  // The built-in geometry does not touch the cache.
  ASSERT_EQ(run_env({cache}, {"cosim", "--config", kDefault, "--transactions", "100"}).exit_code, 0);
  EXPECT_EQ(libraries_in(path("cache")), 2u);
}

// The count of requests compared on task type t's configured mapping, from
// the summary's "configured" line, or -1 when the line does not name it.
long configured_count(const std::string& out, unsigned t, const std::string& scheme) {
  const std::string key = " task type " + std::to_string(t) + " " + scheme + " ";
  const size_t line = out.find("configured   ");
  const size_t at = line == std::string::npos ? line : out.find(key, line);
  return at == std::string::npos ? -1 : std::stol(out.substr(at + key.size()));
}

// Every named baseline is proven in RTL at a channel count it allows (issue
// 32): ipoly, bitwise_xor and random on the built-in geometry, mop4clxor
// with its 64-byte granule and pae on 32 channels verilated for their
// configs; each run loads the config's mapping first and compares requests on it.
TEST_F(Cli, CosimProvesEveryNamedBaselineInRtl) {
  std::string base = slurp(kDefault);
  auto with = [&](std::string text, const std::string& from, const std::string& to) {
    const size_t at = text.find(from);
    EXPECT_NE(at, std::string::npos) << from;
    return at == std::string::npos ? text : text.replace(at, from.size(), to);
  };
  const std::string three = with(base, "    - {task_type: 2, scheme: prime}\n",
                                 "    - {task_type: 2, scheme: prime}\n    - {task_type: 3, scheme: ipoly}\n"
                                 "    - {task_type: 4, scheme: bitwise_xor}\n    - {task_type: 5, scheme: random, seed: 9}\n");
  std::string mop = with(base, "{task_type: 0, scheme: none}", "{task_type: 0, scheme: mop4clxor}");
  mop = with(mop, "  channel_bits: [8, 9, 10, 11]\n", "  channel_bits: [8, 9, 10, 11]\n  granule_bytes: 64\n");
  std::string pae = with(base, "{task_type: 0, scheme: none}", "{task_type: 0, scheme: pae}");
  pae = with(pae, "  channels: 16\n", "  channels: 32\n");
  pae = with(pae, "  channel_bits: [8, 9, 10, 11]\n", "  channel_bits: [7, 8, 9, 10, 11]\n");
  pae = with(pae, "xor_vectors: [0x11, 0x22, 0x44, 0x88]", "xor_vectors: [0x11, 0x22, 0x44, 0x88, 0x10]");
  const std::vector<std::tuple<std::string, std::string, std::vector<std::pair<unsigned, std::string>>>> cases{
      {"three.yaml", three, {{3, "ipoly"}, {4, "bitwise_xor"}, {5, "random"}}},
      {"mop.yaml", mop, {{0, "mop4clxor"}}},
      {"pae.yaml", pae, {{0, "pae"}}}};
  for (const auto& [name, text, tasks] : cases) {
    const Result r = run_env({kSharedCache}, {"cosim", "--config", write(name, text).string(), "--block", "translator",
                                              "--transactions", "20000", "--require-all"});
    ASSERT_EQ(r.exit_code, 0) << name << "\n" << r.out << r.err;
    EXPECT_NE(r.out.find("result       agreement\n"), std::string::npos) << name << "\n" << r.out;
    for (const auto& [t, scheme] : tasks) EXPECT_GT(configured_count(r.out, t, scheme), 0) << name << "\n" << r.out;
  }
}

// What a user does (issue 32's "done when"): `gpumem explore` recommends a
// matrix, the user pastes it into the config, and `gpumem cosim` proves the
// translator RTL implements it: the project's, and a user's that builds
// none and matrix only (--rtl, --schemes).
TEST_F(Cli, CosimProvesTheExplorersRecommendationPastedIntoTheConfig) {
  const std::string config = kSource + "/configs/examples/profile-transpose.yaml";
  const Result ex = run({"explore", "--config", config, "--emit-yaml", path("rec.yaml").string()});
  ASSERT_EQ(ex.exit_code, 0) << ex.out << ex.err;
  const std::string rec = slurp(path("rec.yaml"));
  const size_t list = rec.find("tasks:\n");
  ASSERT_NE(list, std::string::npos) << rec;
  ASSERT_NE(rec.find("scheme: ipoly"), std::string::npos) << "the recommendation is a matrix (a baseline)\n" << rec;
  std::string text = slurp(config);
  const std::string own = "  tasks:\n    - {task_type: 0, scheme: none}\n";
  ASSERT_NE(text.find(own), std::string::npos);
  std::string pasted;  // the emitted list, indented under translator:
  std::istringstream lines(rec.substr(list));
  for (std::string line; std::getline(lines, line);) pasted += "  " + line + "\n";
  text.replace(text.find(own), own.size(), pasted);
  const std::string pasted_file = write("pasted.yaml", text).string();
  const Result r = run_env({kSharedCache}, {"cosim", "--config", pasted_file, "--block", "translator", "--transactions",
                                            "20000", "--require-all"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_GT(configured_count(r.out, 0, "ipoly"), 0) << r.out;
  EXPECT_NE(r.out.find("result       agreement\n"), std::string::npos) << r.out;
  const Result user = run_env({kSharedCache}, {"cosim", "--config", pasted_file, "--rtl", kMatrixOnly, "--top",
                                               "matrix_translator", "--schemes", "none,matrix", "--transactions", "20000"});
  ASSERT_EQ(user.exit_code, 0) << user.out << user.err;
  EXPECT_GT(configured_count(user.out, 0, "ipoly"), 0) << user.out;
  EXPECT_NE(user.out.find("result       agreement"), std::string::npos) << user.out;
}

// A co-simulation never passes what it did not check (issue 29): the
// two-stage translator declares no MATRIX, so it is checked without the
// matrix scheme, and task 0 on ipoly (a matrix) is checked on neither side:
// the run says so before it starts and in its verdict; --require-all refuses.
TEST_F(Cli, CosimOfAnRtlWithoutMatrixSaysWhichTaskTypesItDidNotCheck) {
  const std::string file = write("ipoly.yaml", default_config_with_tasks("{task_type: 0, scheme: ipoly}")).string();
  const std::vector<std::string> args{"cosim", "--config", file, "--rtl", kTwoStage, "--top", "two_stage_translator"};
  std::vector<std::string> run_args = args;
  run_args.insert(run_args.end(), {"--transactions", "2000"});
  const Result r = run_env({kSharedCache}, run_args);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_EQ(r.out.find("parameter    MATRIX"), std::string::npos) << r.out;
  const size_t before = r.out.find("unchecked    task type 0: not checked, scheme ipoly (the RTL translator does not implement it");
  const size_t compared = r.out.find("compared ");
  ASSERT_NE(before, std::string::npos) << r.out;
  EXPECT_LT(before, compared) << "said before the run's counts";
  EXPECT_NE(r.out.find("result       agreement (task type 0: not checked, scheme ipoly)\n"), std::string::npos) << r.out;
  std::vector<std::string> strict_args = args;
  strict_args.push_back("--require-all");
  const Result strict = run_env({kSharedCache}, strict_args);
  EXPECT_EQ(strict.exit_code, 2) << strict.out << strict.err;
  EXPECT_NE(strict.err.find("--require-all: task type 0: not checked, scheme ipoly"), std::string::npos) << strict.err;
  EXPECT_EQ(strict.out.find("compared"), std::string::npos) << "refused before anything ran";
  // The same config on the TLB leaves nothing unchecked.
  const Result tlb = run({"cosim", "--config", file, "--block", "tlb", "--transactions", "200", "--require-all"});
  EXPECT_EQ(tlb.exit_code, 0) << tlb.out << tlb.err;
  EXPECT_NE(tlb.out.find("result       agreement\n"), std::string::npos) << tlb.out;
}

// A user's translator with two schemes, none and matrix (a GPU's hash
// block), on a config with ipoly and bitwise_xor tasks beside xor and prime:
// told with --schemes, the run checks both baselines and every matrix bin and
// names the task types it cannot check; without it the model expects no
// matrix scheme and the first row write differs; a commit check that lets a
// dependent row through is caught; --contract says what the port must answer.
TEST_F(Cli, CosimOfAMatrixOnlyTranslatorChecksWhatItsSchemesCoverAndCatchesItsRankBug) {
  const std::string file = write("baselines.yaml", default_config_with_tasks("{task_type: 0, scheme: ipoly}\n    - {task_type: 3, scheme: bitwise_xor}")).string();
  const std::vector<std::string> args{"cosim", "--config", file, "--rtl", kMatrixOnly, "--top", "matrix_translator"};
  auto with = [&](std::vector<std::string> extra) {
    std::vector<std::string> a = args;
    a.insert(a.end(), extra.begin(), extra.end());
    return a;
  };

  const Result good = run_env({kSharedCache}, with({"--schemes", "none,matrix", "--transactions", "200000"}));
  ASSERT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_NE(good.out.find("unchecked    task types 1, 2: not checked, schemes xor, prime (the RTL translator does not "
                          "implement it"),
            std::string::npos)
      << good.out;
  EXPECT_EQ(good.out.find("\nlint "), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("coverage     scheme: none "), std::string::npos) << good.out;
  EXPECT_EQ(good.out.find("scheme: none 0"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("\nunhit bins   none\n"), std::string::npos) << good.out;  // every matrix class, both baselines
  for (const char* task : {"task type 0 ipoly ", "task type 3 bitwise_xor "}) {
    const size_t at = good.out.find(task);
    ASSERT_NE(at, std::string::npos) << good.out;
    EXPECT_GT(std::stoull(good.out.substr(at + std::string(task).size())), 0u) << task;
  }
  EXPECT_NE(good.out.find("result       agreement (task types 1, 2: not checked, schemes xor, prime)\n"), std::string::npos);

  const Result strict = run_env({kSharedCache}, with({"--schemes", "none,matrix", "--require-all"}));
  EXPECT_EQ(strict.exit_code, 2) << strict.out << strict.err;
  EXPECT_NE(strict.err.find("--require-all: task types 1, 2: not checked, schemes xor, prime"), std::string::npos) << strict.err;

  // Without --schemes, a module that declares no MATRIX has none, xor and prime.
  const Result unsaid = run_env({kSharedCache}, with({"--transactions", "2000", "--waves", path("unsaid").string()}));
  ASSERT_EQ(unsaid.exit_code, 1) << unsaid.out << unsaid.err;
  EXPECT_NE(unsaid.out.find("(MATRIX_ROW_LO), value"), std::string::npos) << unsaid.out;
  EXPECT_NE(unsaid.out.find("answer    refused (unmapped offset)    accepted"), std::string::npos) << unsaid.out;

  // The basis insertion without its dependence test: a singular commit taken.
  const fs::path bug = write("matrix_translator.sv", edited(kMatrixOnly, "if (!placed) return 1'b0;", ""));
  const Result bad = run_env({kSharedCache}, {"cosim", "--config", file, "--rtl", bug.string(), "--top", "matrix_translator",
                                              "--schemes", "none,matrix", "--waves", path("waves").string()});
  ASSERT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("(TASK_SCHEME), value 0x00000003"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("answer    refused (value not allowed)  accepted"), std::string::npos) << bad.out;
  EXPECT_NE(slurp(path("waves/translator-seed1.replay")).find("--top matrix_translator --schemes none,matrix"),
            std::string::npos);

  const Result contract = run({"cosim", "--config", file, "--contract", "--schemes", "none,matrix"});
  ASSERT_EQ(contract.exit_code, 0) << contract.err;
  EXPECT_NE(contract.out.find("| `MATRIX` | `1` |"), std::string::npos) << contract.out;
  EXPECT_NE(contract.out.find("| xor | no | TASK_SCHEME[t] = 1 and every XOR_VECTOR write: refused |"), std::string::npos)
      << contract.out;
  EXPECT_NE(contract.out.find("| prime | no | TASK_SCHEME[t] = 2: refused |"), std::string::npos) << contract.out;
  EXPECT_NE(contract.out.find("| matrix | yes | MATRIX_ROW_LO/HI[t][j < m]: accepted"), std::string::npos) << contract.out;
}

TEST_F(Cli, CosimOfATwoStagePipelinedTranslatorAgreesAndCatchesItsOneLineBug) {
  const std::vector<std::string> args{"cosim", "--config", kDefault, "--rtl", kTwoStage,
                                      "--top", "two_stage_translator", "--transactions", "100000"};
  const Result good = run_env({kSharedCache}, args);
  ASSERT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_NE(good.out.find("top two_stage_translator"), std::string::npos);
  EXPECT_NE(good.out.find("compared     100000 transactions"), std::string::npos) << good.out;
  EXPECT_NE(good.out.find("latency      any (the --hang-cycles watchdog bounds the wait)"), std::string::npos);
  std::vector<std::string> pin_args = args;
  pin_args.insert(pin_args.end(), {"--mode", "pin"});
  const Result pin = run_env({kSharedCache}, pin_args);
  ASSERT_EQ(pin.exit_code, 0) << pin.out << pin.err;
  EXPECT_EQ(counts(pin.out), counts(good.out));
  // Held to the project's one-cycle latency, the second stage is late.
  std::vector<std::string> strict = args;
  strict.insert(strict.end(), {"--max-latency", "1", "--waves", path("strict").string()});
  const Result late = run_env({kSharedCache}, strict);
  ASSERT_EQ(late.exit_code, 1) << late.out << late.err;
  EXPECT_NE(late.out.find("latency: no response 1 cycles after the operation was accepted (the interface answers within 1)"),
            std::string::npos)
      << late.out;

  // Every channel bit flipped by channel bit 0's parity.
  const fs::path bug = write("two_stage_translator.sv", edited(kTwoStage, "s1_addr[c(j)] ^ s1_flip[j]", "s1_addr[c(j)] ^ s1_flip[0]"));
  const Result bad = run_env({kSharedCache}, {"cosim", "--config", kDefault, "--rtl", bug.string(), "--top",
                                              "two_stage_translator", "--waves", path("waves").string()});
  ASSERT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("translator mismatch: transaction "), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("<-- differs"), std::string::npos);
  EXPECT_GT(fs::file_size(path("waves/translator-seed1.fst")), 0u);
  const std::string replay = slurp(path("waves/translator-seed1.replay"));
  EXPECT_NE(replay.find("--rtl '" + bug.string() + "' --top two_stage_translator"), std::string::npos) << replay;
  // Verilator's warnings on a user's RTL do not stop it, and a run from the
  // cache shows them too (the bug leaves s1_flip[3:1] unread).
  auto lint = [](const std::string& out) {
    std::string lines;
    for (size_t at = out.find("\nlint "); at != std::string::npos; at = out.find("\nlint ", at + 1))
      lines += out.substr(at, out.find('\n', at + 1) - at);
    return lines;
  };
  EXPECT_NE(lint(bad.out).find("UNUSEDSIGNAL"), std::string::npos) << bad.out;
  const Result again = run_env({kSharedCache}, {"cosim", "--config", kDefault, "--rtl", bug.string(), "--top",
                                                "two_stage_translator", "--waves", path("waves").string()});
  EXPECT_NE(again.out.find("(reused from the cache)"), std::string::npos);
  EXPECT_EQ(lint(again.out), lint(bad.out));
}

// A verification engineer proving their own translator, in their own folder
// with paths relative to it: the report names its files from there, shows
// the failing task type's registers and ends with the mismatch, the
// coverage above it and no line longer than a terminal's couple of widths;
// the layout lists the contract's ports, then the design's own signals, each
// in the waves; the replay file reproduces the failure from any folder.
TEST_F(Cli, CosimOfAUsersRtlReportsItsOwnWavesAndAReplayThatRunsFromAnyFolder) {
  fs::create_directories(path("mine"));
  fs::create_directories(path("elsewhere"));
  fs::copy_file(kDefault, path("mine/my.yaml"));
  write("mine/my.sv", edited(kTwoStage, "s1_addr[c(j)] ^ s1_flip[j]", "s1_addr[c(j)] ^ s1_flip[0]"));
  const Result bad = run_env_in({kSharedCache}, path("mine").string(),
                                {"cosim", "--config", "my.yaml", "--rtl", "my.sv", "--top", "two_stage_translator"});
  ASSERT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("\nwaves        waves/translator-seed1.fst ("), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("\nlayout       waves/translator-seed1.gtkw (the contract's 16 ports, then "), std::string::npos)
      << bad.out;
  EXPECT_NE(bad.out.find("\nreplay       waves/translator-seed1.replay ("), std::string::npos) << bad.out;
  EXPECT_EQ(bad.out.find(kSource + "/waves"), std::string::npos) << bad.out;
  std::istringstream lines(bad.out);
  for (std::string line; std::getline(lines, line);) EXPECT_LE(line.size(), 200u) << line;
  EXPECT_NE(bad.out.find(" more unhit bins (--json lists every bin)\n"), std::string::npos) << bad.out;

  const size_t mismatch = bad.out.find("\nMISMATCH (1, stopped at the first)\n");
  ASSERT_NE(mismatch, std::string::npos) << bad.out;
  EXPECT_LT(bad.out.find("\nunhit bins"), mismatch);
  EXPECT_LT(bad.out.find("\nopen         gtkwave waves/translator-seed1.gtkw"), mismatch);
  const std::string report = bad.out.substr(mismatch);
  EXPECT_NE(report.find("\n  the model's registers for task type "), std::string::npos) << report;
  EXPECT_NE(report.find("\n    CTRL.INTERLEAVE_ENABLE 1"), std::string::npos) << report;
  EXPECT_NE(report.find("\n    TASK_SCHEME["), std::string::npos) << report;
  EXPECT_NE(report.find("\n    XOR_VECTOR["), std::string::npos) << report;  // the bug is in xor's channel bits
  EXPECT_EQ(report.rfind("\n  scheme    "), report.rfind('\n', report.size() - 2)) << "not the last line:\n" << report;

  const fs::path fst = path("mine/waves/translator-seed1.fst"), view = path("mine/waves/translator-seed1.gtkw");
  EXPECT_EQ(layout_file_check(view.string(), fst.string()), "");
  const std::string layout = slurp(view);
  for (const char* row : {"translator.clk_i", "translator.reg_error_o", "translator.rsp_scheme_o[1:0]",
                          "translator.two_stage_translator.s1_flip[3:0]", "translator.two_stage_translator.interleave_q"})
    EXPECT_NE(layout.find(std::string("\n") + row + "\n"), std::string::npos) << row << " not in\n" << layout;
  EXPECT_LT(layout.find("\ntranslator.rsp_scheme_o"), layout.find("\ntranslator.two_stage_translator."));
  EXPECT_EQ(layout.find("gpumem_xor_translator"), std::string::npos) << layout;
  EXPECT_EQ(layout.find("translator.two_stage_translator.clk_i"), std::string::npos) << "a port twice:\n" << layout;

  const std::string replay = slurp(path("mine/waves/translator-seed1.replay"));
  EXPECT_NE(replay.find("\"${GPUMEM:-" GPUMEM_BINARY "}\" cosim --config '" + path("mine/my.yaml").string() + "'"),
            std::string::npos)
      << replay;
  EXPECT_NE(replay.find(" --rtl '" + path("mine/my.sv").string() + "' --top two_stage_translator"), std::string::npos)
      << replay;
  const std::string again = path("again").string();
  const int status = std::system(("cd '" + path("elsewhere").string() + "' && env '" + kSharedCache + "' bash '" +
                                  path("mine/waves/translator-seed1.replay").string() + "' >'" + again + "' 2>&1")
                                     .c_str());
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), bad.exit_code) << slurp(again);
  const std::string replayed = slurp(again);
  ASSERT_NE(replayed.find("\nMISMATCH ("), std::string::npos) << replayed;
  EXPECT_EQ(replayed.substr(replayed.find("\nMISMATCH (")), report);
  EXPECT_TRUE(fs::is_empty(path("elsewhere"))) << "the replay's files go where the run's went";

  // docs/cosim.md ("Debugging a mismatch with waves") shows this run.
  EXPECT_EQ(doc_example_missing_from("Example (`tests/rtl/two_stage_translator.sv`", bad.out), "");
}

// The TLB's example of the same page: the project's RTL with the mutation
// check's tree-PLRU mutant (its row of verilator/mutation/mutants.txt, so the
// example is that mutant's report), run as the page says.
TEST_F(Cli, CosimOfAMutantTlbPrintsTheReportDocsCosimShows) {
  const std::string table = slurp(kSource + "/verilator/mutation/mutants.txt");
  const size_t row = table.find("[tlb_plru_victim_inverted]\n");
  ASSERT_NE(row, std::string::npos) << "the mutant left the table";
  auto field = [&](const std::string& key) {
    const size_t at = table.find("\n" + key + ":", row);
    const size_t from = table.find_first_not_of(' ', at + key.size() + 2);
    return table.substr(from, table.find('\n', from) - from);
  };
  fs::create_directories(path("mine"));
  fs::copy_file(kDefault, path("mine/my.yaml"));
  write("mine/gpumem_nested_tlb.sv", edited(kProjectTlb, field("from"), field("to")));
  const Result bad = run_env_in({kSharedCache}, path("mine").string(),
                                {"cosim", "--config", "my.yaml", "--block", "tlb", "--rtl", "gpumem_nested_tlb.sv"});
  ASSERT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_EQ(doc_example_missing_from("Example (rtl/gpumem_nested_tlb.sv with the mutant", bad.out), "");
}

TEST_F(Cli, CosimOfATlbWithAnotherResponseLatencyAgreesAndCatchesItsOneLineBug) {
  const std::vector<std::string> args{"cosim", "--config", kDefault, "--block", "tlb", "--rtl", kExtraStage,
                                      "--rtl", kProjectTlb, "--top", "tlb_extra_stage", "--transactions", "30000"};
  const Result good = run_env({kSharedCache}, args);
  ASSERT_EQ(good.exit_code, 0) << good.out << good.err;
  EXPECT_NE(good.out.find("translations 30000"), std::string::npos) << good.out;
  std::vector<std::string> pin_args = args;
  pin_args.insert(pin_args.end(), {"--mode", "pin"});
  const Result pin = run_env({kSharedCache}, pin_args);
  ASSERT_EQ(pin.exit_code, 0) << pin.out << pin.err;
  EXPECT_EQ(counts(pin.out), counts(good.out));

  // The extra stage takes a new response while its own is held. Seed 4's
  // first held response is overwritten before a response shows the bug to
  // the scoreboard (seed 1's shows it as a wrong set one operation later).
  const fs::path bug = write("tlb_extra_stage.sv", edited(kExtraStage, "assign inner_ready = !held_valid || rsp_ready_i;",
                                                          "assign inner_ready = 1'b1;"));
  const Result bad = run_env({kSharedCache}, {"cosim", "--config", kDefault, "--block", "tlb", "--rtl", bug.string(),
                                              "--rtl", kProjectTlb, "--top", "tlb_extra_stage", "--seed", "4", "--waves",
                                              path("waves").string()});
  ASSERT_EQ(bad.exit_code, 1) << bad.out << bad.err;
  EXPECT_NE(bad.out.find("tlb protocol violation: operation 0"), std::string::npos) << bad.out;
  EXPECT_NE(bad.out.find("response changed while stalled"), std::string::npos) << bad.out;
  EXPECT_GT(fs::file_size(path("waves/tlb-seed4.fst")), 0u);
}

// --code-coverage: the project's RTL verilated with line coverage, each
// run's points kept beside the runs already in the folder and all merged
// into lcov's .info and genhtml's HTML; the report counts lines and branch
// arms and names those never run.
TEST_F(Cli, CosimCodeCoverageMergesItsRunsIntoLcovAndHtml) {
  const std::string dir = path("cov").string();
  const std::vector<std::string> args{"cosim", "--config", kDefault, "--transactions", "20000", "--code-coverage", dir};
  const Result first = run_env({kSharedCache}, args);
  ASSERT_EQ(first.exit_code, 0) << first.out << first.err;
  EXPECT_NE(first.out.find("block        translator (RTL rtl/gpumem_xor_translator.sv verilated for this config, with line "
                           "coverage"),
            std::string::npos)
      << first.out;
  EXPECT_NE(first.out.find(", 1 run\n             " + dir + "/translator.info, " + dir + "/translator-html/index.html\n"),
            std::string::npos)
      << first.out;
  std::vector<std::string> second = args;
  second.insert(second.end(), {"--seed", "2"});
  const Result merged = run_env({kSharedCache}, second);
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  EXPECT_NE(merged.out.find(", 2 runs merged\n"), std::string::npos) << merged.out;
  for (const char* f : {"translator-seed1.dat", "translator-seed2.dat", "translator.info", "translator-html/index.html"})
    EXPECT_TRUE(fs::is_regular_file(path("cov") / f)) << f;
  // The .info's lines are the report's: lines with a point, and those run.
  const std::string info = slurp(path("cov/translator.info"));
  EXPECT_NE(info.find("SF:" + kSource + "/rtl/gpumem_xor_translator.sv\n"), std::string::npos) << info.substr(0, 200);
  size_t lines = 0, run_lines = 0;
  for (size_t at = info.find("\nDA:"); at != std::string::npos; at = info.find("\nDA:", at + 1)) {
    ++lines;
    const size_t comma = info.find(',', at), end = info.find('\n', at + 1);
    run_lines += info.substr(comma + 1, end - comma - 1) != "0";
  }
  ASSERT_GT(lines, 50u);
  EXPECT_NE(merged.out.find("rtl coverage lines " + std::to_string(run_lines) + " of " + std::to_string(lines) + " ("),
            std::string::npos)
      << merged.out;
  EXPECT_NE(merged.out.find("), branches "), std::string::npos) << merged.out;
  // Pin level keeps no coverage: refused before anything runs.
  const Result pin = run_env({kSharedCache}, {"cosim", "--config", kDefault, "--mode", "pin", "--code-coverage", dir});
  EXPECT_EQ(pin.exit_code, 2) << pin.out;
}

// The default million of each block (and the LRU TLB) runs every line and
// both arms of every branch of the RTL that a simulation can run
// (docs/cosim.md, "Code coverage of the RTL": the one exclusion is code
// evaluated at elaboration only).
TEST_F(Cli, CosimDefaultRunCoversEveryLineAndBranchOfTheRtl) {
  for (const auto& [config, block] : {std::pair<std::string, std::string>{kDefault, "translator"}, {kDefault, "tlb"},
                                      {kSource + "/configs/examples/tlb-lru.yaml", "tlb"}}) {
    const std::string dir = path("cov-" + block + std::to_string(config.size())).string();
    const Result r = run_env({kSharedCache}, {"cosim", "--config", config, "--block", block, "--code-coverage", dir});
    ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
    const size_t at = r.out.find("rtl coverage lines ");
    ASSERT_NE(at, std::string::npos) << r.out;
    const std::string line = r.out.substr(at, r.out.find('\n', at) - at);
    EXPECT_NE(line.find("(100.0 %), branches "), std::string::npos) << config << " " << block << ": " << r.out.substr(at);
    // Branch arms are counted, not "0 of 0" (100 % of nothing).
    const size_t arms = line.find("branches ");
    ASSERT_NE(arms, std::string::npos) << line;
    EXPECT_GE(std::stoul(line.substr(line.find(" of ", arms) + 4)), 20u) << line;
    EXPECT_NE(line.find("(100.0 %), 1 run"), std::string::npos) << config << " " << block << ": " << r.out.substr(at);
    EXPECT_EQ(r.out.find("lines unrun"), std::string::npos) << r.out.substr(at);
  }
}

// A soak's code coverage: sweep merge merges the .dat files its cosim
// points wrote with --code-coverage, per block, as one run's report does.
TEST_F(Cli, SweepMergeMergesItsPointsCodeCoverage) {
  const std::string spec = write("soak.yaml", "base: " + kDefault + "\ncommand: cosim\n"
                                 "flags: '--transactions 2000 --code-coverage cov'\naxes:\n  seed: [1, 2]\n").string();
  const Result r = run_env({kSharedCache}, {"sweep", spec, "--jobs", "1"});
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const Result merged = run_env({kSharedCache}, {"sweep", "merge", spec, "--out", path("m.csv").string()});
  ASSERT_EQ(merged.exit_code, 0) << merged.out << merged.err;
  const std::string dir = path("soak.sweep/code-coverage").string();
  EXPECT_NE(merged.out.find(", 2 runs merged\n             " + dir + "/translator.info, " + dir + "/translator-html/index.html\n"),
            std::string::npos)
      << merged.out;
  EXPECT_TRUE(fs::is_regular_file(path("soak.sweep/code-coverage/translator.info")));
}

// A missing port, a wrong width and a wrong direction: one error each, by
// port name, before anything is verilated.
TEST_F(Cli, CosimNamesEveryPortThatBreaksTheContract) {
  std::string text = slurp(kTwoStage);
  for (const auto& [from, to] : std::vector<std::pair<std::string, std::string>>{
           {"output scheme_e                       rsp_scheme_o", "output scheme_e                       rsp_kind_o"},
           {"rsp_scheme_o  <= s1_scheme", "rsp_kind_o  <= s1_scheme"},
           {"input  logic [ADDRESS_BITS-1:0]       req_addr_i", "input  logic [ADDRESS_BITS-3:0]       req_addr_i"},
           {"input  logic                          rsp_ready_i", "output logic                          rsp_ready_i"},
           {"input  logic                          reg_we_i", "input  logic                          reg_we_i,\n  input  logic debug_i"}}) {
    const size_t at = text.find(from);
    ASSERT_NE(at, std::string::npos) << from;
    text.replace(at, from.size(), to);
  }
  const fs::path bad = write("broken.sv", text);
  const std::string cache = "GPUMEM_RTL_CACHE=" + path("cache").string();
  const Result r = run_env({cache}, {"cosim", "--config", kDefault, "--rtl", bad.string(), "--top", "two_stage_translator"});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_EQ(r.out, "");
  const std::string e = "gpumem: error: " + bad.string() + ": ";
  EXPECT_EQ(r.err, e + "two_stage_translator does not meet the translator port contract (docs/cosim.md)\n" +
                       e + "port req_addr_i: 38 bits, the contract says 40 (memory.address_bits)\n" +
                       e + "port rsp_ready_i: an output, the contract says input\n" +
                       e + "port rsp_scheme_o: missing (the contract: output, 2 bits, the scheme that mapped it: none, xor, prime or matrix)\n" +
                       e + "port debug_i: an input the contract does not have (nothing would drive it)\n");
  EXPECT_EQ(libraries_in(path("cache")), 0u);
  // A module that is not there, and a file Verilator cannot parse.
  const Result top = run_env({cache}, {"cosim", "--config", kDefault, "--rtl", kTwoStage, "--top", "no_such_module"});
  EXPECT_EQ(top.exit_code, 2);
  EXPECT_NE(top.err.find("Verilator cannot read the RTL"), std::string::npos) << top.err;
  EXPECT_NE(top.err.find("no_such_module"), std::string::npos) << top.err;
  const fs::path garbage = write("garbage.sv", "module two_stage_translator(input logic clk_i;\nendmodule\n");
  const Result parse = run_env({cache}, {"cosim", "--config", kDefault, "--rtl", garbage.string(), "--top", "two_stage_translator"});
  EXPECT_EQ(parse.exit_code, 2);
  EXPECT_NE(parse.err.find("gpumem: error: " + garbage.string() + ": %Error: " + garbage.string() + ":1:"),
            std::string::npos)
      << parse.err;
}

// On a terminal (here a pseudo-terminal from script(1), of Debian's
// essential bsdutils), each step of a first use is announced as it starts;
// piped, nothing is (the other tests read stderr whole).
TEST_F(Cli, CosimAnnouncesEachStepOfAFirstUseOnATerminal) {
  const std::string command = "GPUMEM_RTL_CACHE='" + path("cache").string() + "' '" GPUMEM_BINARY "' cosim --config '" +
                              kDefault + "' --rtl '" + kTwoStage + "' --top two_stage_translator --transactions 100";
  const int status = std::system(("script -qec \"" + command + "\" /dev/null > '" + path("tty.txt").string() + "' 2>&1").c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << slurp(path("tty.txt"));
  const std::string tty = slurp(path("tty.txt"));
  for (const char* step : {"gpumem: checking the ports of two_stage_translator against the translator contract",
                           "gpumem: verilating two_stage_translator for this config (the first time; later runs reuse ",
                           "gpumem: built in "})
    EXPECT_NE(tty.find(step), std::string::npos) << step << "\n" << tty;
}

// On a terminal, a random run long enough to wait for (about a second
// here) keeps a progress line; it is cleared before the summary.
TEST_F(Cli, CosimShowsItsProgressOnATerminal) {
  const std::string command =
      "'" GPUMEM_BINARY "' cosim --config '" + kDefault + "' --block translator --transactions 2000000";
  const int status = std::system(("script -qec \"" + command + "\" /dev/null > '" + path("tty.txt").string() + "' 2>&1").c_str());
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0) << slurp(path("tty.txt"));
  const std::string tty = slurp(path("tty.txt"));
  const size_t line = tty.find("\r\033[K");
  ASSERT_NE(line, std::string::npos) << tty.substr(0, 2000);
  EXPECT_NE(tty.find(" / 2000000 transactions (", line), std::string::npos) << tty.substr(0, 2000);
  EXPECT_NE(tty.find("\r\033[Kblock        translator"), std::string::npos) << "cleared before the summary\n" << tty.substr(0, 2000);
}

TEST_F(Cli, CosimNamesAMissingToolOrCacheFolder) {
  const std::string cache = "GPUMEM_RTL_CACHE=" + path("cache").string();
  const std::vector<std::string> args{"cosim", "--config", kEight, "--transactions", "10"};
  const Result v = run_env({cache, "GPUMEM_VERILATOR=/no/such/verilator"}, args);
  EXPECT_EQ(v.exit_code, 2);
  EXPECT_EQ(v.err, "gpumem: error: cannot verilate the RTL: no Verilator (/no/such/verilator, from GPUMEM_VERILATOR); "
                   "install it with scripts/install-deps.sh\n");
  const Result c = run_env({cache, "CXX=/no/such/c++"}, args);
  EXPECT_EQ(c.exit_code, 2);
  EXPECT_EQ(c.err, "gpumem: error: cannot compile the verilated RTL: no C++ compiler (/no/such/c++, from CXX); "
                   "install it with scripts/install-deps.sh\n");
  // No make on PATH (Verilator and the compiler given by path).
  const Result m = run_env({cache, "PATH=" + path("empty").string(), "GPUMEM_VERILATOR=/usr/bin/verilator",
                            "CXX=/usr/bin/c++"},
                           args);
  EXPECT_EQ(m.exit_code, 2);
  EXPECT_EQ(m.err, "gpumem: error: cannot build the verilated RTL: no make on PATH; "
                   "install it with scripts/install-deps.sh\n");
  // A cache folder that cannot be made (a file is in the way).
  write("file", "");
  const Result f = run_env({"GPUMEM_RTL_CACHE=" + path("file").string() + "/rtl"}, args);
  EXPECT_EQ(f.exit_code, 2);
  EXPECT_EQ(f.out, "");
  EXPECT_EQ(f.err, "gpumem: error: cannot make the RTL cache folder " + path("file").string() +
                       "/rtl (GPUMEM_RTL_CACHE, XDG_CACHE_HOME or HOME): Not a directory\n");
}

}  // namespace
}  // namespace gpumem::test
