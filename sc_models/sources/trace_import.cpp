// The DRAM-level importers: one line reader, one set of config checks
// (RequestRules, shared with the CSV reader), and per format the few lines
// that say what a line means. docs/trace-format.md, "Imported traces".
#include "sources/trace_import.hpp"

#include <algorithm>
#include <array>
#include <fstream>
#include <initializer_list>
#include <sstream>

#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/text.hpp"
#include "base/types.hpp"
#include "sources/line_fields.hpp"
#include "sources/read_fraction.hpp"
#include "sources/request_rules.hpp"
#include "sources/trace_kind.hpp"

namespace gpumem {

namespace {

struct FormatName {
  ImportFormat format;
  const char* name;
};
constexpr FormatName kFormatNames[] = {
    {ImportFormat::kDramsim3, "dramsim3"},
    {ImportFormat::kRamulatorDram, "ramulator-dram"},
    {ImportFormat::kRamulatorCpu, "ramulator-cpu"},
    {ImportFormat::kRamulator2LoadStore, "ramulator2-ldst"},
    {ImportFormat::kRamulator2ReadWrite, "ramulator2-rw"},
    {ImportFormat::kAccelSim, "accel-sim"},
};

// One request a line asks for, before the config's checks.
struct LineRequest {
  Op op = Op::kRead;
  uint64_t address = 0;  // as written: aligned down later
  std::string text;      // the address as written, for messages
  int column = 0;
  const char* key = "address";
  uint64_t cycle = 0;
};

class DramTraceImporter : public RequestSource {
 public:
  // A probe (dram_level_format_of) reads whether each level of a
  // ramulator2-rw vector is a number, not whether it fits its width.
  DramTraceImporter(const RequestLimits& limits, ImportFormat format, std::unique_ptr<std::ifstream> owned, std::istream& in,
                    std::string name, const ImportOptions& options, bool probe = false)
      : owned_(std::move(owned)),
        in_(in),
        name_(std::move(name)),
        format_(format),
        rules_(limits),
        options_(options),
        line_(name_),
        what_(std::string("a ") + import_format_name(format) + " line"),
        probe_(probe) {
    check_options();
    if (!fill()) throw InputError(name_, 0, "", "empty trace: no records");
  }

  bool next(Request& r) override {
    if (next_ == count_ && !fill()) return false;
    const LineRequest& q = pending_[next_++];
    r.id = id_++;
    r.cycle = q.cycle;
    r.op = q.op;
    r.size = options_.request_bytes;
    // The simulators' address mappers drop the bits below their transaction
    // size; so does the import (docs/trace-format.md, "Request size").
    r.address = q.address & ~uint64_t{options_.request_bytes - 1};
    const std::string msg = rules_.range_error(r.address, r.size, q.text);
    if (!msg.empty()) line_.fail(q.column, q.key, msg);
    rules_.set_owner(r, options_.process);
    r.data = default_write_data(r.id, r.address);
    return true;
  }
  double fraction_read() const override { return fraction_(); }

 private:
  void check_options() {
    std::string msg = rules_.owner_error(options_.process, std::to_string(options_.process));
    if (!msg.empty()) throw InputError("", 0, "--trace-process", msg);
    msg = rules_.size_error(options_.request_bytes);
    if (!msg.empty()) throw InputError("", 0, "--request-bytes", msg);
    if (format_ != ImportFormat::kRamulator2ReadWrite) return;
    if (options_.address_vector_bits.empty())
      throw InputError("", 0, "--address-vector-bits",
                       "a ramulator2-rw trace names DRAM coordinates: give the width in bits of each level of its address "
                       "vector");
    unsigned total = log2_exact(options_.request_bytes);
    for (const unsigned b : options_.address_vector_bits) {
      if (b == 0 || b > 63) throw InputError("", 0, "--address-vector-bits", "a level of " + std::to_string(b) + " bits (1-63)");
      total += b;
    }
    if (total > 64)
      throw InputError("", 0, "--address-vector-bits",
                       "the levels and the request size make a " + std::to_string(total) + "-bit address (at most 64)");
  }

  static unsigned log2_exact(uint64_t v) {
    unsigned n = 0;
    while (v > 1) v >>= 1, ++n;
    return n;
  }

  LineRequest& add(Op op, const TextField& f, uint64_t address, const char* key) {
    LineRequest& q = pending_[count_++];
    q.op = op;
    q.address = address;
    q.text = f.text;
    q.column = f.column;
    q.key = key;
    return q;
  }

  // The op a word names: one of `reads` reads, one of `writes` writes.
  Op op_word(const TextField& f, std::initializer_list<const char*> reads, std::initializer_list<const char*> writes,
             const char* expected) const {
    for (const char* w : reads)
      if (f.text == w) return Op::kRead;
    for (const char* w : writes)
      if (f.text == w) return Op::kWrite;
    line_.fail(f.column, "op", "bad operation '" + f.text + "' (" + expected + ")");
  }

  uint64_t advance_clock(uint64_t by, const TextField& f, const char* key) {
    if (by > kLastTraceCycle || clock_ > kLastTraceCycle - by)
      line_.fail(f.column, key, "cycle " + std::to_string(clock_) + " + " + std::to_string(by) + " is past the last a run can count, 2^40 = " +
                                    std::to_string(kLastTraceCycle));
    return clock_ += by;
  }

  // Reads the next line that is not blank into pending_; false at the end.
  bool fill() {
    next_ = count_ = 0;
    std::string text;
    while (std::getline(in_, text)) {
      if (!line_.set(text)) continue;
      parse_line();
      return true;
    }
    return false;
  }

  void parse_line() {
    const char* const addr_key = rules_.address_key();
    switch (format_) {
      case ImportFormat::kDramsim3: {
        // <address, hex with or without 0x> <op word> <cycle, decimal>
        const TextField& a = line_.field(0, addr_key);
        const uint64_t address = line_.number(a, addr_key, parse_hex);
        const Op op = op_word(line_.field(1, "op"), {"READ", "read", "P_MEM_RD", "P_FETCH"},
                              {"WRITE", "write", "P_MEM_WR", "BOFF"}, "READ or WRITE");
        const TextField& c = line_.field(2, "cycle");
        const uint64_t cycle = line_.number(c, "cycle", parse_decimal);
        if (cycle > kLastTraceCycle)
          line_.fail(c.column, "cycle", "cycle " + std::to_string(cycle) + " is past the last a run can count, 2^40 = " + std::to_string(kLastTraceCycle));
        line_.no_more_fields(3, what_);
        // DRAMsim3 issues a record whose cycle has passed at once, in order.
        clock_ = cycle > clock_ ? cycle : clock_;
        add(op, a, address, addr_key).cycle = clock_;
        return;
      }
      case ImportFormat::kRamulatorDram: {
        // <address, hex with or without 0x> [R|W]; no op reads, as Ramulator's.
        const TextField& a = line_.field(0, addr_key);
        const uint64_t address = line_.number(a, addr_key, parse_hex);
        const Op op = line_.size() > 1 ? op_word(line_[1], {"R", "READ"}, {"W", "WRITE"}, "R or W") : Op::kRead;
        line_.no_more_fields(2, what_);
        add(op, a, address, addr_key).cycle = id_;  // one a cycle, as Ramulator sends them
        return;
      }
      case ImportFormat::kRamulatorCpu: {
        // <bubbles, decimal> <address> [<write-back address>], addresses as strtoul base 0.
        const TextField& b = line_.field(0, "bubbles");
        const uint64_t bubbles = line_.number(b, "bubbles", parse_decimal);
        const TextField& a = line_.field(1, addr_key);
        const uint64_t address = line_.number(a, addr_key, parse_c_unsigned);
        // One instruction a cycle: the bubbles, then the load, then the write-back.
        advance_clock(bubbles, b, "bubbles");
        add(Op::kRead, a, address, addr_key).cycle = clock_;
        advance_clock(1, b, "bubbles");
        if (line_.size() > 2) {
          const TextField& w = line_[2];
          add(Op::kWrite, w, line_.number(w, "write_back", parse_c_unsigned), "write_back").cycle = clock_;
          advance_clock(1, w, "write_back");
        }
        line_.no_more_fields(3, what_);
        return;
      }
      case ImportFormat::kRamulator2LoadStore: {
        // LD|ST <address, 0x hex or decimal>
        const Op op = op_word(line_.field(0, "op"), {"LD"}, {"ST"}, "LD or ST");
        const TextField& a = line_.field(1, addr_key);
        const uint64_t address = line_.number(a, addr_key, parse_unsigned);
        line_.no_more_fields(2, what_);
        add(op, a, address, addr_key).cycle = id_;
        return;
      }
      case ImportFormat::kRamulator2ReadWrite: {
        // R|W <level 0>,<level 1>,...: DRAM coordinates, composed as
        // Ramulator 2's ChRaBaRoCo mapper splits an address.
        const Op op = op_word(line_.field(0, "op"), {"R"}, {"W"}, "R or W");
        const TextField& v = line_.field(1, "address_vector");
        line_.no_more_fields(2, what_);
        add(op, v, compose_vector(v), "address_vector").cycle = id_;
        return;
      }
      case ImportFormat::kAccelSim:
        break;
    }
    line_.fail(0, "", "not a DRAM-level format");
  }

  uint64_t compose_vector(const TextField& v) const {
    const auto& bits = options_.address_vector_bits;
    uint64_t address = 0;
    size_t pos = 0;
    for (size_t level = 0; level < bits.size(); ++level) {
      const size_t comma = v.text.find(',', pos);
      if ((comma == std::string::npos) != (level + 1 == bits.size()))
        line_.fail(v.column, "address_vector",
             "'" + v.text + "' does not have " + std::to_string(bits.size()) + " levels (--address-vector-bits)");
      const TextField part{v.text.substr(pos, comma == std::string::npos ? std::string::npos : comma - pos),
                           v.column + static_cast<int>(pos)};
      const uint64_t value = line_.number(part, "address_vector", parse_decimal);
      if (value >> bits[level] && !probe_)
        line_.fail(part.column, "address_vector",
             "level " + std::to_string(level) + " value " + part.text + " does not fit its " + std::to_string(bits[level]) +
                 " bits");
      address = (address << bits[level]) | value;
      pos = comma + 1;
    }
    return address << log2_exact(options_.request_bytes);
  }

  std::unique_ptr<std::ifstream> owned_;
  std::istream& in_;
  ReadFraction fraction_{in_};
  std::string name_;
  ImportFormat format_;
  RequestRules rules_;
  ImportOptions options_;
  LineFields line_;
  std::string what_;
  std::array<LineRequest, 2> pending_;  // a line asks for at most two requests
  size_t count_ = 0;
  size_t next_ = 0;
  uint64_t id_ = 0;     // requests handed out so far
  uint64_t clock_ = 0;  // dramsim3: the latest cycle; ramulator-cpu: the next instruction's cycle
  bool probe_;
};

void refuse_accel_sim(ImportFormat format) {
  if (format == ImportFormat::kAccelSim)
    throw InputError("", 0, "--trace-format",
                     "accel-sim is a per-thread trace: give it as --threads FILE --threads-format accel-sim");
}

}  // namespace

const char* import_format_name(ImportFormat format) {
  for (const auto& f : kFormatNames)
    if (f.format == format) return f.name;
  return "?";
}

std::optional<ImportFormat> import_format_from_name(const std::string& name) {
  for (const auto& f : kFormatNames)
    if (name == f.name) return f.format;
  return std::nullopt;
}

std::string import_format_names() {
  std::string s;
  for (const auto& f : kFormatNames) s += (s.empty() ? "" : ", ") + std::string(f.name);
  return s;
}

std::optional<ImportFormat> dram_level_format_of(const std::string& line) {
  for (const auto& f : kFormatNames) {
    if (f.format == ImportFormat::kAccelSim) continue;
    ImportOptions probe;
    if (f.format == ImportFormat::kRamulator2ReadWrite)  // a level for each comma of the vector
      probe.address_vector_bits.assign(std::count(line.begin(), line.end(), ',') + 1, 1);
    std::istringstream in(line);
    try {
      DramTraceImporter(RequestLimits{}, f.format, nullptr, in, "", probe, true);
      return f.format;
    } catch (const InputError&) {
    }
  }
  return std::nullopt;
}

std::unique_ptr<RequestSource> open_imported_trace(const RequestLimits& limits, ImportFormat format, const std::string& path,
                                                   const ImportOptions& options) {
  refuse_accel_sim(format);
  auto file = open_input_file(path, "trace");
  std::istream& in = *file;
  expect_trace_kind(in, path, TraceKind::kDramLevel, format);
  return std::make_unique<DramTraceImporter>(limits, format, std::move(file), in, path, options);
}

std::unique_ptr<RequestSource> read_imported_trace(const RequestLimits& limits, ImportFormat format, std::istream& in,
                                                   const std::string& name, const ImportOptions& options) {
  refuse_accel_sim(format);
  expect_trace_kind(in, name, TraceKind::kDramLevel, format);
  return std::make_unique<DramTraceImporter>(limits, format, nullptr, in, name, options);
}

}  // namespace gpumem
