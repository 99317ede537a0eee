#include "sources/thread_trace_io.hpp"

#include <algorithm>
#include <cstring>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "base/bits.hpp"
#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/text.hpp"
#include "sources/read_fraction.hpp"
#include "sources/trace_kind.hpp"

namespace gpumem {

namespace {

bool valid_width(uint64_t w) { return w >= 1 && w <= kMaxThreadAccessBytes && is_pow2(w); }

// The header without its last, optional column.
std::string without_data(const std::string& header) { return header.substr(0, header.rfind(',')); }

// ---------------------------------------------------------------- CSV

class CsvThreadTraceReader : public ThreadTraceSource {
 public:
  CsvThreadTraceReader(std::unique_ptr<std::istream> owned, std::istream& in, std::string name)
      : owned_(std::move(owned)), in_(in), name_(std::move(name)) {
    read_header();
  }

  Item next(MemoryInit& init, KernelInfo& kernel, ThreadRecord& r) override {
    while (next_content_line()) {
      split();
      const std::string& first = fields_[0];
      if (first == "kernel") return read_kernel(kernel);
      if (first == "init") return read_init(init);
      read_record(r);
      return Item::kRecord;
    }
    return Item::kEnd;
  }

  std::string where() const override { return name_ + ":" + std::to_string(line_no_); }
  int address_column() const override { return starts_.size() > 3 ? static_cast<int>(starts_[3]) + 1 : 0; }
  double fraction_read() const override { return fraction_(); }

 private:
  [[noreturn]] void fail(size_t field, const std::string& key, const std::string& msg) const {
    throw InputError(name_, line_no_, field < starts_.size() ? static_cast<int>(starts_[field]) + 1 : 0, key, msg);
  }

  bool next_content_line() {
    while (std::getline(in_, line_)) {
      ++line_no_;
      const size_t b = line_.find_first_not_of(" \t\r");
      if (b != std::string::npos && line_[b] != '#') return true;
    }
    return false;
  }

  // Fields trimmed, with the 0-based column each starts at (for messages).
  void split() {
    fields_.clear();
    starts_.clear();
    size_t pos = 0;
    while (true) {
      const size_t comma = line_.find(',', pos);
      const size_t end = comma == std::string::npos ? line_.size() : comma;
      size_t b = pos;
      while (b < end && (line_[b] == ' ' || line_[b] == '\t' || line_[b] == '\r')) ++b;
      size_t e = end;
      while (e > b && (line_[e - 1] == ' ' || line_[e - 1] == '\t' || line_[e - 1] == '\r')) --e;
      fields_.push_back(line_.substr(b, e - b));
      starts_.push_back(b);
      if (comma == std::string::npos) break;
      pos = comma + 1;
    }
  }

  void read_header() {
    if (!next_content_line()) throw InputError(name_, 0, "", "empty per-thread trace: no header line");
    split();
    const std::string want = kThreadTraceHeader;
    std::string got;
    for (size_t i = 0; i < fields_.size(); ++i) got += (i ? "," : "") + fields_[i];
    if (got == want) has_data_ = true;
    else if (got != without_data(want)) fail(0, "", "header must be '" + want + "' (data optional), got '" + got + "'");
  }

  uint64_t number(size_t i, const char* key) const {
    uint64_t v = 0;
    const NumberParse p = parse_unsigned(fields_[i], v);
    if (p == NumberParse::kNotANumber) fail(i, key, "bad number '" + fields_[i] + "'");
    if (p == NumberParse::kOutOfRange) fail(i, key, "number out of range '" + fields_[i] + "'");
    return v;
  }

  void need_fields(size_t lo, size_t hi, const char* what) const {
    if (fields_.size() < lo || fields_.size() > hi)
      fail(fields_.size() > hi ? hi : SIZE_MAX, "", std::string(what) + ": expected " + std::to_string(lo) +
                                                 (lo == hi ? "" : " or " + std::to_string(hi)) + " fields, found " +
                                                 std::to_string(fields_.size()));
  }

  unsigned process_field(size_t i) const {
    const uint64_t p = number(i, "process");
    if (p >= kMaxProcesses) fail(i, "process", "process " + fields_[i] + " out of range (0-15)");
    return static_cast<unsigned>(p);
  }

  Item read_kernel(KernelInfo& k) {
    need_fields(3, 4, "kernel line 'kernel,NAME,PROCESS[,WARPS_PER_BLOCK]'");
    if (fields_[1].empty()) fail(1, "name", "empty kernel name");
    k.name = fields_[1];
    k.process = process_field(2);
    k.warps_per_block = 0;
    if (fields_.size() == 4) {
      const uint64_t w = number(3, "warps_per_block");
      if (w == 0 || w > 32) fail(3, "warps_per_block", "warps per block " + fields_[3] + " out of range (1-32)");
      k.warps_per_block = static_cast<unsigned>(w);
    }
    return Item::kKernel;
  }

  Item read_init(MemoryInit& m) {
    need_fields(4, 4, "memory-init line 'init,PROCESS,ADDRESS,HEXBYTES'");
    m.process = process_field(1);
    m.address = number(2, "address");
    const std::string& hex = fields_[3];
    if (hex.empty() || hex.size() % 2 || hex.size() / 2 > kMemoryInitChunk)
      fail(3, "bytes", "want an even number of hex digits, 2 to " + std::to_string(2 * kMemoryInitChunk));
    m.bytes.resize(hex.size() / 2);
    for (size_t i = 0; i < m.bytes.size(); ++i) {
      auto nibble = [&](char c) -> int {
        if (c >= '0' && c <= '9') return c - '0';
        if (c >= 'a' && c <= 'f') return c - 'a' + 10;
        if (c >= 'A' && c <= 'F') return c - 'A' + 10;
        fail(3, "bytes", std::string("bad hex digit '") + c + "'");
      };
      m.bytes[i] = static_cast<uint8_t>(nibble(hex[2 * i]) << 4 | nibble(hex[2 * i + 1]));
    }
    if (m.address + (m.bytes.size() - 1) < m.address) fail(2, "address", "bytes run past 2^64");
    return Item::kMemoryInit;
  }

  void read_record(ThreadRecord& r) {
    const size_t want = has_data_ ? 7 : 6;
    if (fields_.size() != want)
      fail(fields_.size() > want ? want : SIZE_MAX, "",
           "expected " + std::to_string(want) + " fields (" + kThreadTraceHeader + (has_data_ ? "" : " without data") +
               "), found " + std::to_string(fields_.size()));
    const uint64_t tid = number(0, "thread");
    if (tid > UINT32_MAX) fail(0, "thread", "thread id " + fields_[0] + " does not fit 32 bits");
    r.thread_id = static_cast<uint32_t>(tid);
    r.pc = number(1, "pc");
    const std::string& op = fields_[2];
    if (op == "R" || op == "r" || op == "read") r.op = Op::kRead;
    else if (op == "W" || op == "w" || op == "write") r.op = Op::kWrite;
    else fail(2, "op", "bad operation '" + op + "' (R or W)");
    r.address = number(3, "address");
    const uint64_t width = number(4, "width");
    if (!valid_width(width)) fail(4, "width", "width " + fields_[4] + " must be 1, 2, 4, 8 or 16");
    r.width = static_cast<unsigned>(width);
    if (r.address % width) fail(3, "address", "address " + fields_[3] + " is not aligned to its width " + fields_[4]);
    if (r.address + (width - 1) < r.address) fail(3, "address", "address " + fields_[3] + " runs past 2^64");
    const uint64_t dep = number(5, "dependent");
    if (dep > 1) fail(5, "dependent", "dependency flag must be 0 or 1, got " + fields_[5]);
    r.dependent = dep == 1;
    r.has_data = has_data_ && !fields_[6].empty();
    r.data = r.has_data ? number(6, "data") : 0;
  }

  std::unique_ptr<std::istream> owned_;
  std::istream& in_;
  ReadFraction fraction_{in_};
  std::string name_;
  std::string line_;
  int line_no_ = 0;
  bool has_data_ = false;
  std::vector<std::string> fields_;
  std::vector<size_t> starts_;
};

class CsvThreadTraceWriter : public ThreadTraceSink {
 public:
  explicit CsvThreadTraceWriter(std::FILE* f) : f_(f) { std::fprintf(f_, "%s\n", kThreadTraceHeader); }
  void memory_init(const MemoryInit& m) override {
    std::fprintf(f_, "init,%u,0x%llx,", m.process, static_cast<unsigned long long>(m.address));
    static const char kHex[] = "0123456789abcdef";
    std::string hex(2 * m.bytes.size(), '0');
    for (size_t i = 0; i < m.bytes.size(); ++i) {
      hex[2 * i] = kHex[m.bytes[i] >> 4];
      hex[2 * i + 1] = kHex[m.bytes[i] & 15];
    }
    std::fwrite(hex.data(), 1, hex.size(), f_);
    std::fputc('\n', f_);
  }
  void kernel(const KernelInfo& k) override {
    if (k.name.empty() || k.name.find_first_of(",\n\r") != std::string::npos)
      throw std::invalid_argument("kernel name '" + k.name + "' is empty or holds a comma or a line break");
    std::fprintf(f_, "kernel,%s,%u", k.name.c_str(), k.process);
    if (k.warps_per_block) std::fprintf(f_, ",%u", k.warps_per_block);
    std::fputc('\n', f_);
  }
  void record(const ThreadRecord& r) override {
    char buf[128];
    int n = std::snprintf(buf, sizeof buf, "%u,0x%llx,%c,0x%llx,%u,%d,", r.thread_id, static_cast<unsigned long long>(r.pc),
                          r.op == Op::kWrite ? 'W' : 'R', static_cast<unsigned long long>(r.address), r.width, r.dependent ? 1 : 0);
    if (r.has_data) n += std::snprintf(buf + n, sizeof buf - n, "0x%llx", static_cast<unsigned long long>(r.data));
    buf[n++] = '\n';
    std::fwrite(buf, 1, static_cast<size_t>(n), f_);
  }
  void finish() override { std::fflush(f_); }

 private:
  std::FILE* f_;
};

// ---------------------------------------------------------------- binary
//
// Item by item after the 8 magic bytes (docs/trace-format.md); fixed-width
// fields little-endian, "var" fields LEB128 (7 bits a byte, low first):
//   'R' flags:u8 thread:var pc:var address-delta:var [data:var when flags bit 2]
//       flags: bit 0 write, bit 1 dependent, bit 2 has data, bits 4-6 log2(width)
//       address-delta: the address minus the previous record's (0 before the
//       first), modulo 2^64, zigzag-coded so small steps back stay short
//   'K' process:u32 warps_per_block:u32 name_length:u16 name
//   'I' process:u32 address:u64 length:u32 bytes

constexpr uint8_t kTagRecord = 'R', kTagKernel = 'K', kTagInit = 'I';

class BinaryThreadTraceReader : public ThreadTraceSource {
 public:
  BinaryThreadTraceReader(std::unique_ptr<std::istream> owned, std::istream& in, std::string name)
      : owned_(std::move(owned)), in_(in), name_(std::move(name)) {
    char magic[sizeof kThreadTraceMagic];
    if (!in_.read(magic, sizeof magic) || std::memcmp(magic, kThreadTraceMagic, sizeof magic) != 0)
      throw InputError(name_, 0, "", "not a binary per-thread trace (bad magic bytes)");
    offset_ = sizeof magic;
  }

  Item next(MemoryInit& init, KernelInfo& kernel, ThreadRecord& r) override {
    const uint64_t item_start = offset_;
    if (pos_ == end_ && !refill()) return Item::kEnd;
    const uint8_t tag = *pos_++;
    ++offset_;
    ++item_;
    item_offset_ = item_start;
    if (tag == kTagRecord) {
      const uint8_t flags = u8();
      const uint64_t thread = var();
      if (thread > UINT32_MAX) fail("thread", "thread id does not fit 32 bits");
      r.thread_id = static_cast<uint32_t>(thread);
      r.pc = var();
      const uint64_t zz = var();
      last_address_ += (zz >> 1) ^ (~(zz & 1) + 1);
      r.address = last_address_;
      r.op = flags & 1 ? Op::kWrite : Op::kRead;
      r.dependent = flags & 2;
      r.has_data = flags & 4;
      const unsigned log_width = flags >> 4;
      if ((flags & 8) || log_width > 4) fail("flags", "bad flags byte " + std::to_string(flags));
      r.width = 1u << log_width;
      r.data = r.has_data ? var() : 0;
      if (r.address % r.width || r.address + (r.width - 1) < r.address)
        fail("address", "address " + hex(r.address) + " is not aligned to its width " + std::to_string(r.width));
      return Item::kRecord;
    }
    if (tag == kTagKernel) {
      kernel.process = u32();
      kernel.warps_per_block = u32();
      const uint16_t len = u16();
      if (kernel.process >= kMaxProcesses) fail("process", "process " + std::to_string(kernel.process) + " out of range (0-15)");
      if (kernel.warps_per_block > 32) fail("warps_per_block", "warps per block out of range (0-32)");
      if (len == 0) fail("name", "empty kernel name");
      kernel.name.resize(len);
      bytes(&kernel.name[0], len);
      return Item::kKernel;
    }
    if (tag == kTagInit) {
      init.process = u32();
      init.address = u64();
      const uint32_t len = u32();
      if (init.process >= kMaxProcesses) fail("process", "process " + std::to_string(init.process) + " out of range (0-15)");
      if (len == 0 || len > kMemoryInitChunk) fail("length", "memory-init length " + std::to_string(len) + " out of range (1-4096)");
      init.bytes.resize(len);
      bytes(init.bytes.data(), len);
      if (init.address + (len - 1) < init.address) fail("address", "bytes run past 2^64");
      return Item::kMemoryInit;
    }
    fail("tag", "unknown item tag " + std::to_string(tag));
  }

  std::string where() const override {
    return name_ + ": item " + std::to_string(item_) + " at byte " + std::to_string(item_offset_);
  }
  double fraction_read() const override { return fraction_.of(offset_); }

 private:
  static std::string hex(uint64_t v) {
    char b[24];
    std::snprintf(b, sizeof b, "0x%llx", static_cast<unsigned long long>(v));
    return b;
  }
  [[noreturn]] void fail(const std::string& field, const std::string& msg) const {
    throw InputError(name_, 0, "item " + std::to_string(item_) + " at byte " + std::to_string(item_offset_) + ": " + field, msg);
  }
  // Reads go through a buffer of the reader's own: a varint byte is then a
  // pointer step, not an istream call.
  bool refill() {
    in_.read(reinterpret_cast<char*>(buffer_.data()), static_cast<std::streamsize>(buffer_.size()));
    pos_ = buffer_.data();
    end_ = pos_ + in_.gcount();
    return pos_ != end_;
  }
  void bytes(void* dst, size_t n) {
    auto* out = static_cast<uint8_t*>(dst);
    for (size_t done = 0; done < n;) {
      if (pos_ == end_ && !refill()) fail("", "truncated item (the file ends inside it)");
      const size_t take = std::min<size_t>(n - done, static_cast<size_t>(end_ - pos_));
      std::memcpy(out + done, pos_, take);
      pos_ += take;
      done += take;
    }
    offset_ += n;
  }
  uint64_t le(size_t n) {
    uint8_t b[8];
    bytes(b, n);
    uint64_t v = 0;
    for (size_t i = n; i-- > 0;) v = v << 8 | b[i];
    return v;
  }
  uint64_t var() {
    uint64_t v = 0;
    if (end_ - pos_ >= 10) {  // the longest number is in the buffer: no refill check a byte
      for (unsigned shift = 0;; shift += 7) {
        const uint8_t b = *pos_++;
        ++offset_;
        if (shift == 63 && b > 1) fail("", "variable-length number longer than 64 bits");
        v |= uint64_t{b & 0x7Fu} << shift;
        if (!(b & 0x80)) return v;
      }
    }
    for (unsigned shift = 0;; shift += 7) {
      const uint8_t b = u8();
      if (shift == 63 && b > 1) fail("", "variable-length number longer than 64 bits");
      v |= uint64_t{b & 0x7Fu} << shift;
      if (!(b & 0x80)) return v;
    }
  }
  uint8_t u8() {
    if (pos_ == end_ && !refill()) fail("", "truncated item (the file ends inside it)");
    ++offset_;
    return *pos_++;
  }
  uint16_t u16() { return static_cast<uint16_t>(le(2)); }
  uint32_t u32() { return static_cast<uint32_t>(le(4)); }
  uint64_t u64() { return le(8); }

  std::unique_ptr<std::istream> owned_;
  std::istream& in_;
  ReadFraction fraction_{in_};
  std::string name_;
  uint64_t offset_ = 0, item_offset_ = 0, item_ = 0;
  uint64_t last_address_ = 0;
  std::vector<uint8_t> buffer_ = std::vector<uint8_t>(1 << 16);
  const uint8_t* pos_ = nullptr;
  const uint8_t* end_ = nullptr;
};

class BinaryThreadTraceWriter : public ThreadTraceSink {
 public:
  explicit BinaryThreadTraceWriter(std::FILE* f) : f_(f) { std::fwrite(kThreadTraceMagic, 1, sizeof kThreadTraceMagic, f_); }
  void memory_init(const MemoryInit& m) override {
    if (m.bytes.empty() || m.bytes.size() > kMemoryInitChunk) throw std::invalid_argument("memory-init chunk of bad length");
    put(kTagInit, 1);
    put(m.process, 4);
    put(m.address, 8);
    put(m.bytes.size(), 4);
    std::fwrite(m.bytes.data(), 1, m.bytes.size(), f_);
  }
  void kernel(const KernelInfo& k) override {
    if (k.name.empty() || k.name.size() > UINT16_MAX) throw std::invalid_argument("kernel name of bad length");
    put(kTagKernel, 1);
    put(k.process, 4);
    put(k.warps_per_block, 4);
    put(k.name.size(), 2);
    std::fwrite(k.name.data(), 1, k.name.size(), f_);
  }
  void record(const ThreadRecord& r) override {
    unsigned log_width = 0;
    while ((1u << log_width) < r.width) ++log_width;
    put(kTagRecord, 1);
    put((r.op == Op::kWrite ? 1u : 0u) | (r.dependent ? 2u : 0u) | (r.has_data ? 4u : 0u) | log_width << 4, 1);
    var(r.thread_id);
    var(r.pc);
    const uint64_t delta = r.address - last_address_;
    var(delta << 1 ^ (0 - (delta >> 63)));
    last_address_ = r.address;
    if (r.has_data) var(r.data);
  }
  void finish() override { std::fflush(f_); }

 private:
  void var(uint64_t v) {
    uint8_t b[10];
    size_t n = 0;
    do {
      b[n++] = static_cast<uint8_t>((v & 0x7F) | (v > 0x7F ? 0x80 : 0));
      v >>= 7;
    } while (v);
    std::fwrite(b, 1, n, f_);
  }
  void put(uint64_t v, size_t n) {
    uint8_t b[8];
    for (size_t i = 0; i < n; ++i) b[i] = static_cast<uint8_t>(v >> (8 * i));
    std::fwrite(b, 1, n, f_);
  }
  std::FILE* f_;
  uint64_t last_address_ = 0;
};

std::unique_ptr<ThreadTraceSource> open_stream(std::unique_ptr<std::istream> owned, std::istream& in, const std::string& name) {
  expect_trace_kind(in, name, TraceKind::kPerThread);
  char magic[sizeof kThreadTraceMagic] = {};
  in.read(magic, sizeof magic);
  const bool binary = in.gcount() == sizeof magic && std::memcmp(magic, kThreadTraceMagic, sizeof magic) == 0;
  in.clear();
  in.seekg(0);
  if (binary) return std::make_unique<BinaryThreadTraceReader>(std::move(owned), in, name);
  return std::make_unique<CsvThreadTraceReader>(std::move(owned), in, name);
}

}  // namespace

bool is_thread_trace_header(std::string_view line) {
  std::string got;
  for (size_t pos = 0;;) {
    const size_t comma = line.find(',', pos);
    got += (pos ? "," : "") + trim(std::string(line.substr(pos, comma == std::string_view::npos ? comma : comma - pos)));
    if (comma == std::string_view::npos) break;
    pos = comma + 1;
  }
  return got == kThreadTraceHeader || got == without_data(kThreadTraceHeader);
}

std::unique_ptr<ThreadTraceSource> open_thread_trace(const std::string& path) {
  std::unique_ptr<std::ifstream> f = open_input_file(path, "per-thread trace");
  std::istream& in = *f;
  return open_stream(std::move(f), in, path);
}

std::unique_ptr<ThreadTraceSource> read_thread_trace(std::istream& in, const std::string& name) {
  return open_stream(nullptr, in, name);
}

std::unique_ptr<ThreadTraceSink> write_thread_trace(std::FILE* out, ThreadTraceForm form) {
  if (form == ThreadTraceForm::kBinary) return std::make_unique<BinaryThreadTraceWriter>(out);
  return std::make_unique<CsvThreadTraceWriter>(out);
}

ThreadTraceForm thread_trace_form_for(const std::string& path) {
  auto ends_with = [&](const char* s) {
    const size_t n = std::strlen(s);
    return path.size() >= n && path.compare(path.size() - n, n, s) == 0;
  };
  return ends_with(".bin") || ends_with(".thrb") ? ThreadTraceForm::kBinary : ThreadTraceForm::kCsv;
}

}  // namespace gpumem
