// Progress line on a terminal for long runs: requests done, rate, ETA.
// Checks the clock only every 64 Ki requests, so it costs nothing measurable.
#pragma once
#include <chrono>
#include <cstdio>

#include "payload/completion.hpp"

namespace gpumem {

class ProgressReporter : public CompletionObserver {
 public:
  ProgressReporter(std::FILE* out, uint64_t expected_total) : out_(out), total_(expected_total) {}
  ~ProgressReporter() override {
    if (printed_) std::fputs("\r\033[K", out_);  // leave the terminal clean for the report
  }
  void on_completion(const Completion&) override {
    if ((++done_ & 0xFFFF) != 0) return;
    const auto now = std::chrono::steady_clock::now();
    const double elapsed = std::chrono::duration<double>(now - start_).count();
    if (elapsed - last_print_ < 0.5) return;
    last_print_ = elapsed;
    const double rate = done_ / elapsed;
    if (total_ > done_)
      std::fprintf(out_, "\r\033[K%llu / %llu requests, %.2f M/s, ETA %.0f s", static_cast<unsigned long long>(done_),
                   static_cast<unsigned long long>(total_), rate / 1e6, (total_ - done_) / rate);
    else
      std::fprintf(out_, "\r\033[K%llu requests, %.2f M/s", static_cast<unsigned long long>(done_), rate / 1e6);
    std::fflush(out_);
    printed_ = true;
  }

 private:
  std::FILE* out_;
  uint64_t total_;
  uint64_t done_ = 0;
  double last_print_ = 0;
  bool printed_ = false;
  std::chrono::steady_clock::time_point start_ = std::chrono::steady_clock::now();
};

}  // namespace gpumem
