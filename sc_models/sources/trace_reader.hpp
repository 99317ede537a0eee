// Reads the CSV request trace (docs/trace-format.md) one line at a time and
// validates every record against the limits; errors name the file and line.
#pragma once
#include <fstream>
#include <istream>
#include <memory>
#include <string>
#include <string_view>

#include "base/flat_map.hpp"
#include "sources/read_fraction.hpp"
#include "sources/request_rules.hpp"
#include "payload/request.hpp"

namespace gpumem {

// Whether `line` is a request trace's header, either form (trace_kind.hpp).
bool is_request_trace_header(std::string_view line);

class CsvTraceReader : public RequestSource {
 public:
  CsvTraceReader(const RequestLimits& limits, const std::string& path);                     // opens the file
  CsvTraceReader(const RequestLimits& limits, std::istream& in, std::string display_name);  // for tests
  bool next(Request& r) override;
  double fraction_read() const override { return fraction_(); }

 private:
  CsvTraceReader(const RequestLimits& limits, std::unique_ptr<std::ifstream> owned, std::string name, std::istream* in);
  void read_header();
  bool next_content_line(std::string_view& trimmed);
  [[noreturn]] void fail(const std::string& column, const std::string& msg) const;

  std::unique_ptr<std::ifstream> owned_;
  std::istream& in_;
  ReadFraction fraction_{in_};
  std::string name_;
  std::string line_;  // the line read last: next_content_line's view points into it
  int line_no_ = 0;
  bool has_data_column_ = false;
  const RequestRules rules_;
  const char* const* columns_;
  uint64_t page_bytes_;
  uint64_t next_id_ = 0;
  uint64_t last_cycle_ = 0;
  // page -> (task, first line): a page carries one task type (isolation).
  FlatMap64<std::pair<unsigned, int>> page_task_;
};

}  // namespace gpumem
