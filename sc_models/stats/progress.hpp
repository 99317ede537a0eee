// Progress on a terminal for long commands (base/progress_line.hpp: the
// line, rewritten at most twice a second). The callers print only when
// stderr is a terminal (isatty), so tests and pipes see nothing.
//   ProgressReporter  gpumem run: requests done, the share of the trace, rate, ETA.
//   StageProgress     gpumem explore: the stage it is in and its counts.
#pragma once
#include <cstdint>
#include <cstdio>
#include <functional>
#include <string>

#include "base/progress_line.hpp"
#include "payload/completion.hpp"

namespace gpumem {

// Checks the clock only every 64 Ki requests, so it costs nothing measurable.
// `fraction`: the share of the trace read (fraction_read of the source), or
// null; `read_ahead`: the source is read far ahead of the requests (a
// per-thread trace), so that share gives no ETA (progress_text).
class ProgressReporter : public CompletionObserver {
 public:
  ProgressReporter(std::FILE* out, uint64_t expected_total, std::function<double()> fraction = nullptr,
                   bool read_ahead = false)
      : line_(out), total_(expected_total), fraction_(std::move(fraction)), read_ahead_(read_ahead) {}
  void on_completion(const Completion&) override {
    if ((++done_ & 0xFFFF) != 0 || !line_.due()) return;
    line_.show(progress_text("requests", done_, total_, fraction_ ? fraction_() : -1, line_.elapsed(), read_ahead_));
  }

 private:
  ProgressLine line_;
  uint64_t total_;
  std::function<double()> fraction_;
  bool read_ahead_;
  uint64_t done_ = 0;
};

// "STAGE: DONE / TOTAL requests (S s)"; TOTAL 0 when not known, DONE 0 and
// TOTAL 0 for a stage without a count yet.
class StageProgress {
 public:
  explicit StageProgress(std::FILE* out) : line_(out) {}
  void update(const std::string& stage, uint64_t done, uint64_t total) {
    if (!line_.due()) return;
    std::string text = stage;
    char count[96] = "";
    if (total) std::snprintf(count, sizeof count, ": %.1f M / %.1f M requests", done / 1e6, total / 1e6);
    else if (done) std::snprintf(count, sizeof count, ": %.1f M requests", done / 1e6);
    text += count;
    char time[32];
    std::snprintf(time, sizeof time, " (%.0f s)", line_.elapsed());
    line_.show(text + time);
  }
  void clear() { line_.clear(); }

 private:
  ProgressLine line_;
};

}  // namespace gpumem
