// How far a trace reader has got through its file, for the progress line of
// a long run (stats/progress.hpp): the read position over the file's size.
// A pipe or a terminal has neither: then -1, and the line shows no share.
#pragma once
#include <cstdint>
#include <istream>

namespace gpumem {

class ReadFraction {
 public:
  // Measures the size, leaving the read position where it was.
  explicit ReadFraction(std::istream& in) : in_(in) {
    std::streambuf* buffer = in.rdbuf();
    if (!buffer) return;
    const std::streampos here = buffer->pubseekoff(0, std::ios::cur, std::ios::in);
    if (here == std::streampos(-1)) return;
    const std::streampos end = buffer->pubseekoff(0, std::ios::end, std::ios::in);
    buffer->pubseekpos(here, std::ios::in);
    if (end != std::streampos(-1) && end > 0) size_ = static_cast<uint64_t>(end);
  }
  // The stream's read position over the size. Asks the file for the
  // position (a system call): for a line rewritten twice a second.
  double operator()() const {
    if (!size_ || !in_.rdbuf()) return -1;
    const std::streampos here = in_.rdbuf()->pubseekoff(0, std::ios::cur, std::ios::in);
    return here == std::streampos(-1) ? -1 : of(static_cast<uint64_t>(here));
  }
  // `position` bytes read (a reader that counts its own) over the size.
  double of(uint64_t position) const {
    if (!size_) return -1;
    return position >= size_ ? 1.0 : static_cast<double>(position) / static_cast<double>(size_);
  }

 private:
  std::istream& in_;
  uint64_t size_ = 0;  // 0: not known
};

}  // namespace gpumem
