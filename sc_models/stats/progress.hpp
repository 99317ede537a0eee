// Progress on a terminal for long commands: one line on stderr, rewritten
// in place at most twice a second and cleared at the end. The callers print
// only when stderr is a terminal (isatty), so tests and pipes see nothing.
//   ProgressReporter  gpumem run: requests done, rate, ETA.
//   StageProgress     gpumem explore: the stage it is in and its counts.
#pragma once
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <string>

#include "payload/completion.hpp"

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

// Checks the clock only every 64 Ki requests, so it costs nothing measurable.
class ProgressReporter : public CompletionObserver {
 public:
  ProgressReporter(std::FILE* out, uint64_t expected_total) : line_(out), total_(expected_total) {}
  void on_completion(const Completion&) override {
    if ((++done_ & 0xFFFF) != 0 || !line_.due()) return;
    const double rate = done_ / line_.elapsed();
    char text[160];
    if (total_ > done_)
      std::snprintf(text, sizeof text, "%llu / %llu requests, %.2f M/s, ETA %.0f s", static_cast<unsigned long long>(done_),
                    static_cast<unsigned long long>(total_), rate / 1e6, (total_ - done_) / rate);
    else
      std::snprintf(text, sizeof text, "%llu requests, %.2f M/s", static_cast<unsigned long long>(done_), rate / 1e6);
    line_.show(text);
  }

 private:
  ProgressLine line_;
  uint64_t total_;
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
