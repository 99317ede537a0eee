// The progress line of a long command on a terminal: one line on stderr,
// rewritten in place at most twice a second and cleared at the end
// (stats/progress.hpp: gpumem run's and explore's; gpumem cosim's).
#pragma once
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

namespace gpumem {

// The line itself: due() says whether half a second passed since the last
// show(); show() rewrites the line.
class ProgressLine {
 public:
  explicit ProgressLine(std::FILE* out) : out_(out) {}
  ~ProgressLine() { clear(); }
  ProgressLine(const ProgressLine&) = delete;
  ProgressLine& operator=(const ProgressLine&) = delete;

  double elapsed() const { return std::chrono::duration<double>(std::chrono::steady_clock::now() - start_).count(); }
  bool due() const { return elapsed() - last_print_ >= 0.5; }
  void show(const std::string& text) {
    last_print_ = elapsed();
    std::fprintf(out_, "\r\033[K%s", text.c_str());
    std::fflush(out_);
    printed_ = true;
  }
  // Leaves the terminal clean for what follows.
  void clear() {
    if (printed_) std::fputs("\r\033[K", out_), std::fflush(out_);
    printed_ = false;
  }

 private:
  std::FILE* out_;
  double last_print_ = 0;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

// The line of a long run: `done` of its `noun` (requests, transactions)
// after `elapsed` seconds, of `total` when that is known (0: not known), and
// `fraction` of the trace read (0 to 1; -1: not known, as for a pipe). The
// ETA follows the share done, which a trace read in order shows well enough;
// `read_ahead`: the reader runs far ahead of what is done (a per-thread
// trace is read a thread block at a time, and a block can hold most of the
// trace), so the share read gives no ETA.
inline std::string progress_text(const char* noun, uint64_t done, uint64_t total, double fraction, double elapsed,
                                 bool read_ahead = false) {
  const double rate = elapsed > 0 ? done / elapsed : 0;
  double share = -1;
  if (total > 0) share = std::min(1.0, static_cast<double>(done) / total);
  else if (fraction > 0) share = std::min(1.0, fraction);
  char text[200];
  int n;
  if (total > 0)
    n = std::snprintf(text, sizeof text, "%llu / %llu %s (%.0f %%), %.2f M/s", static_cast<unsigned long long>(done),
                      static_cast<unsigned long long>(total), noun, 100 * share, rate / 1e6);
  else if (share >= 0)
    n = std::snprintf(text, sizeof text, "%llu %s, %.0f %% of the trace read, %.2f M/s",
                      static_cast<unsigned long long>(done), noun, 100 * share, rate / 1e6);
  else
    n = std::snprintf(text, sizeof text, "%llu %s, %.2f M/s", static_cast<unsigned long long>(done), noun, rate / 1e6);
  const bool eta = share > 0 && share < 1 && !(read_ahead && total == 0);
  if (eta && n > 0 && static_cast<size_t>(n) < sizeof text)
    std::snprintf(text + n, sizeof text - n, ", ETA %.0f s", elapsed * (1 - share) / share);
  return text;
}

}  // namespace gpumem
