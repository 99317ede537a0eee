// The plots (docs/explorer.md, "Plots"): scripts/plot_channels.py on the
// JSON that gpumem run and gpumem explore write, gpumem explore --plot, and
// the errors of docs/errors.md's "Plots" table. A test that draws skips when
// no python3 here can import matplotlib (CTest reports it as skipped).
#include <gtest/gtest.h>

#include <cstdlib>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "cli_helpers.hpp"

namespace gpumem::test {
namespace {

const std::string kScript = kSource + "/scripts/plot_channels.py";

#define REQUIRE_MATPLOTLIB(python)                                                                      \
  const std::string python = python_with_matplotlib();                                                \
  if (python.empty()) GTEST_SKIP() << "no python3 here imports matplotlib (install python3-matplotlib)"

// A PNG file: its signature and something after it.
bool is_png(const fs::path& p) {
  const std::string s = slurp(p);
  return s.size() > 1000 && s.compare(0, 8, "\x89PNG\r\n\x1a\n") == 0;
}

// Nothing left beside the outputs: no .partial-<pid> file.
bool no_partial_files(const fs::path& dir) {
  for (const auto& e : fs::directory_iterator(dir))
    if (e.path().filename().string().find(".partial-") != std::string::npos) return false;
  return true;
}

class Plot : public Cli {
 protected:
  void TearDown() override {
    unsetenv("GPUMEM_PYTHON");
    unsetenv("GPUMEM_PLOT_SCRIPT");
    Cli::TearDown();
  }

  // A sweep of `spec_text` (its base.yaml already written) run, then merged
  // into r.csv with --plot p.png and the plot flags `x`, `y`, `lines`.
  Result sweep_and_plot(const std::string& spec_text, const std::string& x, const std::string& y, const std::string& lines) {
    const std::string spec = write("s.yaml", spec_text).string();
    const Result swept = run({"sweep", spec});
    if (swept.exit_code != 0) return swept;
    return run({"sweep", "merge", spec, "--out", path("r.csv").string(), "--plot", path("p.png").string(), "--x", x, "--y", y,
                "--lines", lines});
  }

  // `python script ARGS` in the scratch folder.
  Result script(const std::string& python, const std::string& args) const {
    const std::string cmd = "cd '" + dir_.string() + "' && " + python + " '" + kScript + "' " + args + " >stdout 2>stderr </dev/null";
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(path("stdout")), slurp(path("stderr"))};
  }
};

TEST_F(Plot, OneRunAndTwoRunsCompared) {
  REQUIRE_MATPLOTLIB(python);
  for (const char* config : {"table1-identity", "table1-xor"}) {
    const Result r = run({"run", "--config", kSource + "/configs/examples/" + config + ".yaml", "--quiet", "--stats-json",
                          path(std::string(config) + ".json").string()});
    ASSERT_EQ(r.exit_code, 0) << r.err;
  }
  Result r = script(python, "table1-xor.json --output one.png");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("one.png")));
  r = script(python, "table1-identity.json table1-xor.json -o two.png --title 'table 1'");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("two.png")));
  EXPECT_TRUE(r.err.empty()) << r.err;
  EXPECT_TRUE(no_partial_files(dir_));
}

// The default demo: 600 000 requests, three task types; the script on the
// explorer's JSON, and --plot with and without --json.
TEST_F(Plot, ExploreJsonAndExplorePlot) {
  REQUIRE_MATPLOTLIB(python);
  const std::string config = kSource + "/configs/default.yaml";
  Result r = run({"explore", "--config", config, "--json", path("x.json").string(), "--plot", path("with.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("with.png")));
  EXPECT_TRUE(r.err.empty()) << "nothing on stderr without a terminal: " << r.err;
  r = script(python, "x.json --output script.png");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("script.png")));
  // Without --json the script reads a temporary JSON; the same figure.
  r = run({"explore", "--config", kSource + "/configs/examples/table1-identity.yaml", "--plot", path("alone.png").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("alone.png")));
  EXPECT_TRUE(no_partial_files(dir_));
}

TEST_F(Plot, ComparePrefetchPlotsTheThreeSideBySide) {
  REQUIRE_MATPLOTLIB(python);
  const std::string config = kSource + "/configs/examples/bfs.yaml";
  Result r = run({"trace", "gen", "bfs", "--config", config, "--app", "bfs", "--region", "graph", "--scale", "8", "--out",
                  path("bfs.bin").string()});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const std::string key = "prefetch ranges (docs/prefetch.md): ";
  const size_t at = r.out.find(key);
  ASSERT_NE(at, std::string::npos) << r.out;
  const std::string ranges = r.out.substr(at + key.size(), r.out.find('\n', at) - at - key.size());
  write("c.yaml", slurp(config) + "l1: {size_bytes: 8192}\nprefetch: {ranges: " + ranges + "}\n");
  r = run({"run", "--config", path("c.yaml").string(), "--threads", path("bfs.bin").string(), "--compare-prefetch", "--stats-json",
           path("cmp.json").string(), "--plot", path("cmp.png").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("cmp.png")));
  r = script(python, "cmp.json --output again.png");
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(is_png(path("again.png")));
  EXPECT_TRUE(no_partial_files(dir_));
  // --plot belongs to --compare-prefetch.
  r = run({"run", "--config", path("c.yaml").string(), "--threads", path("bfs.bin").string(), "--plot", path("x.png").string()});
  EXPECT_EQ(r.exit_code, 2);
  EXPECT_NE(r.err.find("--compare-prefetch"), std::string::npos) << r.err;
}

TEST_F(Plot, ADramRunPlotsItsReadLatencyAndBanks) {
  REQUIRE_MATPLOTLIB(python);
  const Result r = run({"run", "--config", kSource + "/configs/examples/hbm2.yaml", "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* metric : {"row_hit_rate", "accesses", "energy_pj"}) {
    const std::string cmd = "cd '" + dir_.string() + "' && " + python + " '" + kSource + "/scripts/plot_dram.py' s.json --output " +
                            metric + ".png --metric " + metric + " >stdout 2>stderr </dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(path("stderr"));
    EXPECT_TRUE(is_png(path(std::string(metric) + ".png")));
  }
  EXPECT_TRUE(no_partial_files(dir_));
}

TEST_F(Plot, ADramRunsEpochsPlotOverTime) {
  REQUIRE_MATPLOTLIB(python);
  write("c.yaml", slurp(kSource + "/configs/examples/hbm2.yaml") + "stats: {epoch_cycles: 200000}\n");
  const Result r = run({"run", "--config", path("c.yaml").string(), "--stats-json", path("s.json").string(), "--quiet"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  for (const char* metric : {"row_hit_rate", "accesses"}) {
    const std::string cmd = "cd '" + dir_.string() + "' && " + python + " '" + kSource + "/scripts/plot_dram.py' s.json --epochs --channel 1 --output " +
                            metric + ".png --metric " + metric + " >stdout 2>stderr </dev/null";
    ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(path("stderr"));
    EXPECT_TRUE(is_png(path(std::string(metric) + ".png")));
  }
  EXPECT_TRUE(no_partial_files(dir_));
}

// docs/errors.md, "Plots": each row run as it says, its line exactly.
// gpumem sweep merge --plot: a metric against an axis, a line per value of another.
TEST_F(Plot, SweepMergeDrawsAMetricAgainstAnAxis) {
  REQUIRE_MATPLOTLIB(python);
  write("base.yaml", "memory:\n  channels: 4\ntranslator:\n  channel_bits: [8, 9]\nworkload:\n"
                     "  - {kind: strided, count: 2000, stride: 4096}\n");
  const Result r = sweep_and_plot("base: base.yaml\naxes:\n  workload[0].stride: [256, 4096, 65536]\n"
                                  "zip:\n  - {memory.channels: [2, 4], translator.channel_bits: [[8], [8, 9]]}\n"
                                  "metrics: [channel_imbalance]\n",
                                  "workload[0].stride", "channel_imbalance", "memory.channels");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  const std::string spec = path("s.yaml").string();
  EXPECT_TRUE(is_png(path("p.png")));
  const Result bad = run({"sweep", "merge", spec, "--out", path("q.csv").string(), "--plot", path("q.png").string(), "--x",
                          "workload[0].stride", "--y", "makespan"});
  EXPECT_EQ(bad.exit_code, 2);
  EXPECT_EQ(bad.err, "gpumem: error: --y: 'makespan' is not a metric of the merge (--metrics or the spec's metrics)\n");
  EXPECT_FALSE(fs::exists(path("q.png")));
  EXPECT_FALSE(fs::exists(path("q.csv"))) << "nothing written when the plot cannot be drawn";
}

// An axis whose values are not numbers (a list of bits here; a scheme, a
// policy) is drawn as groups of bars, one group per value in point order,
// one bar per --lines value, each labelled with its value; ticks are the
// values in YAML's flow form, cut to 24 characters.
TEST_F(Plot, SweepMergeDrawsACategoricalAxisAsGroupedBarsWithTheirValues) {
  REQUIRE_MATPLOTLIB(python);
  write("base.yaml", "memory:\n  channels: 2\ntranslator:\n  channel_bits: [8]\nworkload:\n"
                     "  - {kind: strided, count: 2000, stride: 4096}\n");
  const Result r = sweep_and_plot("base: base.yaml\naxes:\n  translator.channel_bits: [[8], [9], [11]]\n"
                                  "  workload[0].stride: [256, 4096]\nmetrics: [channel_imbalance]\n",
                                  "translator.channel_bits", "channel_imbalance", "workload[0].stride");
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(is_png(path("p.png")));
  EXPECT_TRUE(no_partial_files(dir_));

  // What the script draws, read back from its axes.
  write("sweep.json",
        R"({"sweep": {"x": "translator.scheme", "y": "makespan", "lines": "memory.channels", "points": [)"
        R"({"x": "xor", "line": "4", "y": 1200}, {"x": "xor", "line": "8", "y": 700},)"
        R"({"x": "prime", "line": "4", "y": 1500.7}, {"x": "prime", "line": "8", "y": 650},)"
        R"({"x": "{scheme: matrix, rows: [[12, 13, 14], [15, 16, 17]]}", "line": "4", "y": 1100}]}})");
  // A numeric axis swept by powers: a line per --lines value on a log scale, ticked at the values.
  write("strides.json", R"({"sweep": {"x": "workload[0].stride", "y": "channel_imbalance", "lines": "", "points": [)"
                        R"({"x": "256", "line": "", "y": 1.0}, {"x": "4096", "line": "", "y": 0.35671}, {"x": "65536", "line": "", "y": 0.5}]}})");
  write("read.py", "import json, sys\nsys.path.insert(0, sys.argv[1])\nimport plot_channels as p\n"
                   "sweep, lines, numeric = p.sweep_lines(json.load(open('sweep.json')), 'sweep.json')\n"
                   "ax = p.plot_sweep(sweep, lines, numeric, 'bars.png', None)\n"
                   "print('numeric', numeric)\n"
                   "print('bars', [round(b.get_height(), 1) for b in ax.patches])\n"
                   "print('labels', [t.get_text() for t in ax.texts])\n"
                   "print('ticks', [t.get_text() for t in ax.get_xticklabels()])\n"
                   "print('lines', len(ax.get_lines()))\n"
                   "sweep, lines, numeric = p.sweep_lines(json.load(open('strides.json')), 'strides.json')\n"
                   "ax = p.plot_sweep(sweep, lines, numeric, 'strides.png', None)\n"
                   "print('numeric', numeric, ax.get_xscale())\n"
                   "print('ticks', [t.get_text() for t in ax.get_xticklabels()])\n"
                   "print('labels', [t.get_text() for t in ax.texts])\n");
  const std::string cmd = "cd '" + dir_.string() + "' && " + python + " read.py '" + kSource + "/scripts' >stdout 2>stderr </dev/null";
  ASSERT_EQ(std::system(cmd.c_str()), 0) << slurp(path("stderr"));
  EXPECT_EQ(slurp(path("stdout")),
            "numeric False\n"
            "bars [1200.0, 1500.7, 1100.0, 700.0, 650.0]\n"
            "labels ['1,200', '1,501', '1,100', '700', '650']\n"
            "ticks ['xor', 'prime', '{scheme:matrix,rows:[...']\n"
            "lines 0\n"
            "numeric True log\n"
            "ticks ['256', '4,096', '65,536']\n"
            "labels ['1', '0.3567', '0.5']\n");
  EXPECT_TRUE(is_png(path("bars.png")));
}

struct Row {
  std::string id, setting, command, message;
  int exit_code;
};

std::vector<Row> plot_rows() {
  std::vector<Row> rows;
  std::istringstream in(slurp(kSource + "/docs/errors.md"));
  std::string line;
  bool in_table = false;
  while (std::getline(in, line)) {
    if (line == "<!-- plot-errors -->") in_table = true;
    else if (in_table && line.rfind("| plot_", 0) == 0) {
      std::vector<std::string> c;
      std::string cell;
      for (size_t i = 1; i < line.size(); ++i) {
        if (line[i] == '|') c.push_back(std::regex_replace(cell, std::regex("^\\s*`?|`?\\s*$"), "")), cell.clear();
        else cell += line[i];
      }
      if (c.size() == 5) rows.push_back({c[0], c[1], c[2], c[3], std::stoi(c[4])});
    } else if (in_table && line.empty() && !rows.empty()) {
      break;
    }
  }
  return rows;
}

TEST_F(Plot, ErrorsAsDocumented) {
  const std::vector<Row> rows = plot_rows();
  ASSERT_GE(rows.size(), 5u) << "docs/errors.md lost its Plots table";
  std::error_code ec;
  fs::create_directory_symlink(kSource + "/configs", path("configs"), ec);
  fs::create_directory_symlink(kSource + "/scripts", path("scripts"), ec);
  for (const Row& row : rows) {
    SCOPED_TRACE("docs/errors.md row " + row.id);
    std::smatch m;
    unsetenv("GPUMEM_PYTHON");
    unsetenv("GPUMEM_PLOT_SCRIPT");
    if (std::regex_match(row.setting, m, std::regex(R"((\w+)=(\S+))"))) {
      setenv(m[1].str().c_str(), m[2].str().c_str(), 1);
    } else if (std::regex_match(row.setting, m, std::regex(R"(([\w.]+)`: `(.*))"))) {
      write(m[1], m[2]);
    } else {
      ASSERT_EQ(row.setting, "-");
    }
    std::vector<std::string> args = words(row.command);
    Result r;
    if (args[0] == "gpumem") {
      args.erase(args.begin());
      r = run_in(dir_.string(), args);
    } else {
      const std::string cmd = "cd '" + dir_.string() + "' && " + row.command + " >stdout 2>stderr </dev/null";
      const int status = std::system(cmd.c_str());
      r = {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(path("stdout")), slurp(path("stderr"))};
    }
    EXPECT_EQ(r.exit_code, row.exit_code) << r.out << r.err;
    EXPECT_EQ(r.err, row.message + "\n");
    EXPECT_FALSE(fs::exists(path("p.png"))) << "no plot on an error";
  }
}

}  // namespace
}  // namespace gpumem::test
