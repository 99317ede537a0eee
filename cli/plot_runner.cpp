#include "plot_runner.hpp"

#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "base/child_process.hpp"
#include "base/input_error.hpp"

namespace gpumem::cli {

namespace {

// Runs `args` (args[0] looked up on PATH), its output to /dev/null when
// `quiet`, else to our stdout, which is the report; the exit code, or -1
// when args[0] is on no PATH.
int spawn(const std::vector<std::string>& args, bool quiet) {
  std::vector<std::string> argv = args;
  argv[0] = find_tool(args[0]);
  if (argv[0].empty()) return -1;
  ChildSetup setup;
  if (quiet) setup.out = setup.err = "/dev/null";
  else setup.err_to_out = true;
  return run_child(argv, setup);
}

}  // namespace

std::string plot_script() {
  const char* env = std::getenv("GPUMEM_PLOT_SCRIPT");
  return env && *env ? env : GPUMEM_PLOT_SCRIPT;
}

// /usr/bin/python3 is tried after PATH's: Debian's python3-matplotlib
// installs for that one, and a python3 of pyenv or a virtual environment on
// PATH may lack it.
std::string plot_python() {
  const std::string script = plot_script();
  std::error_code ec;
  if (!std::filesystem::is_regular_file(script, ec))
    throw InputError("", 0, "--plot", "the plot script " + script +
                                          " is missing (set GPUMEM_PLOT_SCRIPT to scripts/plot_channels.py of a gpumem source tree)");
  const char* env = std::getenv("GPUMEM_PYTHON");
  const std::vector<std::string> tried = env && *env ? std::vector<std::string>{env} : std::vector<std::string>{"python3", "/usr/bin/python3"};
  bool started = false;
  for (const std::string& python : tried) {
    const int status = spawn({python, "-c", "import matplotlib"}, true);
    if (status == 0) return python;
    started = started || status > 0;
  }
  const std::string which = env && *env ? tried[0] + ", from GPUMEM_PYTHON" : "python3 on PATH, /usr/bin/python3";
  if (!started)
    throw InputError("", 0, "--plot", "python3 not found (tried " + which +
                                          "); install python3 and python3-matplotlib (scripts/install-deps.sh)");
  throw InputError("", 0, "--plot", "python3 cannot import matplotlib (tried " + which +
                                        "); install python3-matplotlib (apt-get install python3-matplotlib, or scripts/install-deps.sh)");
}

void run_plot_script(const std::string& python, const std::string& json, const std::string& png) {
  const int status = spawn({python, plot_script(), json, "--output", png}, false);
  if (status != 0)
    throw std::runtime_error("the plot script " + plot_script() + " failed on " + json + " (exit status " +
                             std::to_string(status) + "); its message is above");
}

TemporaryFile::TemporaryFile(const std::string& text) {
  if (text.empty()) return;
  std::string name = (std::filesystem::temp_directory_path() / "gpumem-plot-XXXXXX.json").string();
  const int fd = mkstemps(name.data(), 5);
  if (fd < 0) throw std::runtime_error("cannot create a temporary file " + name + ": " + std::strerror(errno));
  path_ = name;
  pending_ = std::make_unique<PendingFile>(path_, "");
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size());
  ::close(fd);
  if (!ok) {
    std::remove(path_.c_str());
    throw std::runtime_error("cannot write the temporary file " + path_);
  }
}

TemporaryFile::~TemporaryFile() {
  if (!path_.empty()) std::remove(path_.c_str());
}

}  // namespace gpumem::cli
