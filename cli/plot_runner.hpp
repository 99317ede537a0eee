// Running the plot script (scripts/plot_channels.py; docs/explorer.md,
// "Plots") from gpumem: finding a Python that imports matplotlib before the
// work, and handing the script a JSON file. `gpumem explore --plot` and
// `gpumem run --compare-prefetch --plot` use it.
#pragma once
#include <memory>
#include <string>

#include "base/output_file.hpp"

namespace gpumem::cli {

// The plot script: $GPUMEM_PLOT_SCRIPT, else the one in the source tree
// gpumem was built from.
std::string plot_script();

// The Python that will run the plot script: $GPUMEM_PYTHON if set; else the
// first of python3 on PATH and /usr/bin/python3 that imports matplotlib.
// Throws InputError (key --plot) saying what is missing.
std::string plot_python();

// The script on `json`, drawing into `png`; a failure on gpumem's own JSON
// is the model's fault (std::runtime_error).
void run_plot_script(const std::string& python, const std::string& json, const std::string& png);

// A file in the temporary folder holding `text`, removed with the object;
// none for an empty text.
class TemporaryFile {
 public:
  explicit TemporaryFile(const std::string& text);
  ~TemporaryFile();
  TemporaryFile(const TemporaryFile&) = delete;
  TemporaryFile& operator=(const TemporaryFile&) = delete;
  const std::string& path() const { return path_; }

 private:
  std::string path_;
  std::unique_ptr<PendingFile> pending_;  // removed too when a signal ends gpumem at once
};

}  // namespace gpumem::cli
