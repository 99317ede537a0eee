// One line of a blank-separated trace (the imported formats): its fields and
// where each starts, and errors that name file, line, column and field.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "base/input_error.hpp"
#include "base/text.hpp"

namespace gpumem {

class LineFields {
 public:
  explicit LineFields(std::string file) : file_(std::move(file)) {}

  // Takes the next line; false when it is blank.
  bool set(const std::string& line) {
    line_ = line;
    ++line_no_;
    fields_ = split_blanks(line_);
    return !fields_.empty();
  }

  const std::string& file() const { return file_; }
  int line_no() const { return line_no_; }
  size_t size() const { return fields_.size(); }
  const TextField& operator[](size_t i) const { return fields_[i]; }

  [[noreturn]] void fail(int column, const std::string& key, const std::string& msg) const {
    throw InputError(file_, line_no_, column, key, msg);
  }

  // Field `i`; when the line ends before it, an error naming `key` where it
  // would have started.
  const TextField& field(size_t i, const char* key) const {
    if (i >= fields_.size()) fail(end_column(line_), key, std::string("missing ") + key + " field (truncated line?)");
    return fields_[i];
  }

  // `what` names the line's kind: "a dramsim3 line".
  void no_more_fields(size_t n, const std::string& what) const {
    if (fields_.size() <= n) return;
    const TextField& f = fields_[n];
    fail(f.column, "", "unexpected field '" + f.text + "': " + what + " has " + std::to_string(n) + " fields at most");
  }

  template <typename Value>
  Value number(const TextField& f, const char* key, NumberParse (*parse)(std::string_view, Value&)) const {
    Value v{};
    const NumberParse p = parse(f.text, v);
    if (p == NumberParse::kNotANumber) fail(f.column, key, "bad number '" + f.text + "'");
    if (p == NumberParse::kOutOfRange) fail(f.column, key, "number out of range '" + f.text + "'");
    return v;
  }

 private:
  std::string file_;
  std::string line_;
  int line_no_ = 0;
  std::vector<TextField> fields_;
};

}  // namespace gpumem
