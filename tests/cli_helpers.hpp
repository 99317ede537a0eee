// The gpumem executable as a user runs it: a scratch folder per test, the
// command's exit code and output, and the files it writes.
#pragma once
#include <gtest/gtest.h>
#include <sys/wait.h>

#include <cstdlib>
#include <filesystem>
#include <iomanip>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

namespace gpumem::test {

namespace fs = std::filesystem;

inline const std::string kSource = GPUMEM_SOURCE_DIR;
inline const std::string kDefault = kSource + "/configs/default.yaml";

inline std::string slurp(const fs::path& p) {
  std::ifstream in(p);
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// configs/default.yaml with task type 0's entry of translator.tasks,
// `{task_type: 0, scheme: none}`, replaced by `entries` (one or more).
inline std::string default_config_with_tasks(const std::string& entries) {
  std::string cfg = slurp(kSource + "/configs/default.yaml");
  const std::string none = "{task_type: 0, scheme: none}";
  const size_t at = cfg.find(none);
  EXPECT_NE(at, std::string::npos) << "configs/default.yaml no longer has " << none;
  return at == std::string::npos ? cfg : cfg.replace(at, none.size(), entries);
}

// A command line as a user types it, split into arguments ("quoted words" stay one).
inline std::vector<std::string> words(const std::string& s) {
  std::vector<std::string> out;
  std::istringstream in(s);
  std::string w;
  while (in >> std::quoted(w)) out.push_back(w);
  return out;
}

// gpumem's own rule (cli/plot_runner.cpp): python3 on PATH, else
// /usr/bin/python3, the first that imports matplotlib; "" for none.
inline std::string python_with_matplotlib() {
  for (const char* python : {"python3", "/usr/bin/python3"})
    if (std::system((std::string(python) + " -c 'import matplotlib' >/dev/null 2>&1").c_str()) == 0) return python;
  return "";
}

struct Result {
  int exit_code;
  std::string out, err;
};

// Each test gets its own directory, so ctest -j cannot mix up their files.
class Cli : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = ::testing::TempDir() + "gpumem-cli-XXXXXX";
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { remove_dir(); }
  // RapidCheck's fixture properties (RC_GTEST_FIXTURE_PROP) make a fixture
  // per case and call its SetUp but not its TearDown: the destructor cleans
  // up after them (they had left hundreds of empty folders in /tmp a run).
  ~Cli() override { remove_dir(); }

  fs::path path(const std::string& name) const { return dir_ / name; }

  fs::path write(const std::string& name, const std::string& text) const {
    std::ofstream(path(name)) << text;
    return path(name);
  }

  // Arguments are single-quoted; none of ours contain a quote.
  Result run(const std::vector<std::string>& args) const { return run_in("", args); }

  // The same, started in `dir` (relative paths in `args` are then from there).
  Result run_in(const std::string& dir, const std::vector<std::string>& args) const { return run_with("", dir, args); }

  // The same with environment settings ("NAME=value") for the run.
  Result run_env(const std::vector<std::string>& env, const std::vector<std::string>& args) const {
    return run_env_in(env, "", args);
  }
  // Both: the settings, started in `dir`.
  Result run_env_in(const std::vector<std::string>& env, const std::string& dir, const std::vector<std::string>& args) const {
    std::string settings;
    for (const auto& e : env) settings += "'" + e + "' ";
    return run_with(settings, dir, args);
  }

 private:
  void remove_dir() {
    if (dir_.empty()) return;
    std::error_code ec;
    fs::remove_all(dir_, ec);
    dir_.clear();
  }

  Result run_with(const std::string& env, const std::string& dir, const std::vector<std::string>& args) const {
    std::string cmd = dir.empty() ? "" : "cd '" + dir + "' && ";
    cmd += (env.empty() ? "" : "env " + env) + "'" + std::string(GPUMEM_BINARY) + "'";
    for (const auto& a : args) cmd += " '" + a + "'";
    cmd += " >'" + path("stdout").string() + "' 2>'" + path("stderr").string() + "' </dev/null";
    const int status = std::system(cmd.c_str());
    EXPECT_TRUE(WIFEXITED(status)) << cmd << ": did not exit normally (status " << status << ")";
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(path("stdout")), slurp(path("stderr"))};
  }

 public:

  nlohmann::json json(const std::string& name) const {
    const std::string text = slurp(path(name));
    EXPECT_FALSE(text.empty()) << name << " missing or empty";
    return nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  }

  fs::path dir_;
};

}  // namespace gpumem::test
