#include "sources/trace_reader.hpp"

#include <array>
#include <string_view>

#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/text.hpp"
#include "sources/trace_kind.hpp"

namespace gpumem {

namespace {
// Without an address space a record names its task type and a physical
// address; with one, its process and a virtual address (the PTE gives the task).
const char* const kPhysicalColumns[] = {"cycle", "task_type", "op", "address", "size"};
const char* const kVirtualColumns[] = {"cycle", "process", "op", "va", "size"};
constexpr size_t kColumnCount = 5;

// The fields of a record, trimmed views into its line: at most kMaxFields
// kept, every one counted (a record with too many is an error that says how
// many). Without a copy per field: a trace of 10 M records is read in seconds.
constexpr size_t kMaxFields = kColumnCount + 1;  // the optional data column
struct Fields {
  std::array<std::string_view, kMaxFields> at;
  size_t count = 0;
  const std::string_view& operator[](size_t i) const { return at[i]; }
};

Fields split(std::string_view line) {
  Fields f;
  while (true) {
    const size_t comma = line.find(',');
    if (f.count < kMaxFields) f.at[f.count] = trimmed(line.substr(0, comma));
    ++f.count;
    if (comma == std::string_view::npos) break;
    line.remove_prefix(comma + 1);
  }
  return f;
}
// Whether `cols` are `columns`, with or without the data column after them.
bool header_has(const Fields& cols, const char* const* columns) {
  bool ok = cols.count == kColumnCount || (cols.count == kColumnCount + 1 && cols[kColumnCount] == "data");
  for (size_t i = 0; ok && i < kColumnCount; ++i) ok = cols[i] == columns[i];
  return ok;
}
}  // namespace

bool is_request_trace_header(std::string_view line) {
  const Fields cols = split(trimmed(line));
  return header_has(cols, kPhysicalColumns) || header_has(cols, kVirtualColumns);
}

CsvTraceReader::CsvTraceReader(const RequestLimits& limits, const std::string& path)
    : CsvTraceReader(limits, open_input_file(path, "trace"), path, nullptr) {}

CsvTraceReader::CsvTraceReader(const RequestLimits& limits, std::istream& in, std::string display_name)
    : CsvTraceReader(limits, nullptr, std::move(display_name), &in) {}

CsvTraceReader::CsvTraceReader(const RequestLimits& limits, std::unique_ptr<std::ifstream> owned, std::string name, std::istream* in)
    : owned_(std::move(owned)),
      in_(in ? *in : *owned_),
      name_(std::move(name)),
      rules_(limits),
      columns_(limits.virtual_addresses ? kVirtualColumns : kPhysicalColumns),
      page_bytes_(limits.page_bytes) {
  expect_trace_kind(in_, name_, TraceKind::kRequests);
  read_header();
}

void CsvTraceReader::fail(const std::string& column, const std::string& msg) const {
  throw InputError(name_, line_no_, column, msg);
}

// The next line that is neither blank nor a comment, trimmed (a view into
// line_, good until the next call); false at the end.
bool CsvTraceReader::next_content_line(std::string_view& t) {
  while (std::getline(in_, line_)) {
    ++line_no_;
    t = trimmed(line_);
    if (!t.empty() && t[0] != '#') return true;
  }
  return false;
}

void CsvTraceReader::read_header() {
  std::string_view t;
  if (next_content_line(t)) {
    const Fields cols = split(t);
    const size_t want = kColumnCount;
    if (!header_has(cols, columns_)) {
      std::string header;
      for (size_t i = 0; i < want; ++i) header += (i ? "," : "") + std::string(columns_[i]);
      fail("", "header must be '" + header + "' with an optional ',data' column" +
                   (rules_.virtual_addresses() ? " (the config has an address space)" : "") + ", got '" +
                   std::string(t) + "'");
    }
    has_data_column_ = cols.count == want + 1;
    return;
  }
  fail("", "empty trace: no header line");
}

bool CsvTraceReader::next(Request& r) {
  std::string_view t;
  while (next_content_line(t)) {
    const Fields cols = split(t);
    const size_t want = has_data_column_ ? 6 : 5;
    if (cols.count != want)
      fail("", "expected " + std::to_string(want) + " columns, found " + std::to_string(cols.count));
    auto number = [&](size_t i, const char* column) -> uint64_t {
      uint64_t v = 0;
      const NumberParse p = parse_unsigned(cols[i], v);
      if (p == NumberParse::kNotANumber) fail(column, "bad number '" + std::string(cols[i]) + "'");
      if (p == NumberParse::kOutOfRange) fail(column, "number out of range '" + std::string(cols[i]) + "'");
      return v;
    };
    r.id = next_id_;
    r.cycle = number(0, "cycle");
    if (r.cycle > kLastTraceCycle)
      fail("cycle", "cycle " + std::to_string(r.cycle) + " is past the last a run can count, 2^40 = " + std::to_string(kLastTraceCycle));
    if (r.cycle < last_cycle_)
      fail("cycle", "cycle " + std::to_string(r.cycle) + " is before the previous record's " + std::to_string(last_cycle_) +
                        " (records must be in issue order)");
    const char* const owner_column = columns_[1];
    const uint64_t owner = number(1, owner_column);
    const std::string owner_msg = rules_.owner_error(owner, cols[1]);
    if (!owner_msg.empty()) fail(owner_column, owner_msg);
    rules_.set_owner(r, owner);
    const char* const address_column = columns_[3];
    const std::string_view op = cols[2];
    if (op == "R" || op == "r" || op == "read") r.op = Op::kRead;
    else if (op == "W" || op == "w" || op == "write") r.op = Op::kWrite;
    else fail("op", "bad operation '" + std::string(op) + "' (R or W)");
    r.address = number(3, address_column);
    const uint64_t size = number(4, "size");
    std::string msg = rules_.size_error(size);
    if (!msg.empty()) fail("size", msg);
    r.size = static_cast<unsigned>(size);
    msg = rules_.range_error(r.address, size, cols[3]);
    if (msg.empty()) msg = RequestRules::alignment_error(r.address, size, cols[3]);
    if (!msg.empty()) fail(address_column, msg);
    r.data = has_data_column_ && !cols[5].empty() ? number(5, "data") : default_write_data(r.id, r.address);
    // Physical mode only: with an address space the PTEs carry the task types.
    if (!rules_.virtual_addresses()) {
      const auto [first, inserted] = page_task_.try_emplace(r.address / page_bytes_, {r.task_type, line_no_});
      if (!inserted && first->first != r.task_type)
        fail("task_type", "page of address " + std::string(cols[3]) + " was used as task type " + std::to_string(first->first) + " at line " +
                         std::to_string(first->second) + "; a page carries one task type");
    }
    last_cycle_ = r.cycle;
    ++next_id_;
    return true;
  }
  return false;
}

}  // namespace gpumem
