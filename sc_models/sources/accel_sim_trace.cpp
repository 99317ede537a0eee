// Accel-Sim's per-warp instruction traces (kernel-N.traceg, kernelslist.g)
// as the per-thread trace: the header and block structure as Accel-Sim's
// trace parser reads them, each global memory instruction expanded into one
// record per active lane. docs/trace-format.md, "Accel-Sim".
#include <array>
#include <bitset>
#include <fstream>
#include <optional>

#include "base/input_error.hpp"
#include "base/input_file.hpp"
#include "base/text.hpp"
#include "sources/line_fields.hpp"
#include "sources/read_fraction.hpp"
#include "sources/trace_import.hpp"
#include "sources/trace_kind.hpp"

namespace gpumem {

namespace {

constexpr unsigned kRegisterZero = 255;             // RZ: a load into it keeps nothing
constexpr uint64_t kLocalMemSizeMax = uint64_t{1} << 14;  // gpgpu-sim's LOCAL_MEM_SIZE_MAX
constexpr unsigned kMaxDestinations = 1;            // the parser's MAX_DST
constexpr unsigned kMaxSources = 4;                 // the parser's MAX_SRC

// What a memory instruction is, by its first opcode token, as Accel-Sim's
// opcode maps and trace_driven.cc class it.
enum class MemClass { kGlobalLoad, kGlobalStore, kAtomic, kGenericLoad, kGenericStore, kNotGlobal, kUnknown };

MemClass mem_class(const std::string& base) {
  if (base == "LDG" || base == "LDGSTS") return MemClass::kGlobalLoad;
  if (base == "STG") return MemClass::kGlobalStore;
  if (base == "ATOM" || base == "ATOMG" || base == "RED") return MemClass::kAtomic;
  if (base == "LD") return MemClass::kGenericLoad;
  if (base == "ST") return MemClass::kGenericStore;
  for (const char* other : {"LDS", "STS", "LDSM", "ATOMS", "LDL", "STL", "LDSLK", "STSCUL", "SUBFM", "SUCLAMP", "SUEAU",
                            "SULDGA", "SUSTGA"})
    if (base == other) return MemClass::kNotGlobal;
  return MemClass::kUnknown;
}

// The parser's get_datawidth_from_opcode: the first token that is a number
// of bits ("64"), or U and one ("U16"), over 8; else 4.
unsigned width_from_opcode(const std::string& opcode) {
  size_t pos = 0;
  while (pos <= opcode.size()) {
    const size_t dot = opcode.find('.', pos);
    std::string token = opcode.substr(pos, dot == std::string::npos ? std::string::npos : dot - pos);
    pos = dot == std::string::npos ? opcode.size() + 1 : dot + 1;
    if (!token.empty() && token[0] == 'U') token = token.substr(1);
    uint64_t bits = 0;
    if (parse_decimal(token, bits) == NumberParse::kOk) return static_cast<unsigned>(bits / 8);
  }
  return 4;
}

bool opcode_ok(const std::string& opcode) {
  if (opcode.empty() || !(opcode[0] >= 'A' && opcode[0] <= 'Z')) return false;
  for (const char c : opcode)
    if (!((c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '.')) return false;
  return true;
}

struct Dim3 {
  uint64_t x = 0, y = 0, z = 0;
};

class AccelSimTrace : public ThreadTraceSource {
 public:
  // `list` and `list_name`: a kernelslist.g (null for a single kernel file);
  // `kernel`: the single kernel file's stream.
  AccelSimTrace(const ImportOptions& options, std::unique_ptr<std::istream> list, std::string list_name,
                std::unique_ptr<std::istream> owned_kernel, std::istream* kernel, std::string kernel_name)
      : options_(options),
        list_(std::move(list)),
        list_lines_(std::move(list_name)),
        owned_kernel_(std::move(owned_kernel)),
        kernel_(nullptr),
        single_(kernel),
        line_(std::move(kernel_name)) {
    if (kernel) single_fraction_.emplace(*kernel);
    if (list_) {
      const std::string::size_type slash = list_lines_.file().rfind('/');
      folder_ = slash == std::string::npos ? "." : list_lines_.file().substr(0, slash);
    }
  }

  Item next(MemoryInit&, KernelInfo& kernel, ThreadRecord& record) override {
    while (true) {
      if (next_record_ < record_count_) {
        record = records_[next_record_++];
        return Item::kRecord;
      }
      if (!kernel_) {
        if (!open_next_kernel()) return Item::kEnd;
        read_header(kernel);
        return Item::kKernel;
      }
      if (!read_instruction()) {
        kernel_ = nullptr;
        if (list_) owned_kernel_.reset();
      }
    }
  }

  std::string where() const override { return line_.file() + ":" + std::to_string(line_.line_no()); }
  // Of a lane given by base and stride or delta: the field its address is worked out from.
  int address_column() const override { return next_record_ ? record_columns_[next_record_ - 1] : 0; }
  // Of a single kernel's file; a kernel list's share is not known until its kernels are opened.
  double fraction_read() const override { return single_fraction_ ? (*single_fraction_)() : -1; }

 private:
  // The next kernel of the list (or the single kernel, once); false when done.
  bool open_next_kernel() {
    if (!list_) {
      if (single_done_) return false;
      single_done_ = true;
      kernel_ = single_;
      return true;
    }
    std::string text;
    while (std::getline(*list_, text)) {
      if (!list_lines_.set(text)) continue;
      const TextField& f = list_lines_[0];
      if (f.text.rfind("Memcpy", 0) == 0) continue;  // no data: nothing to load
      if (f.text.rfind("kernel", 0) != 0)
        list_lines_.fail(f.column, "", "unexpected line '" + f.text + "' (a kernel-N.traceg file or a MemcpyHtoD line)");
      list_lines_.no_more_fields(1, "a kernel list line");
      if (f.text.size() > 3 && f.text.compare(f.text.size() - 3, 3, ".xz") == 0)
        list_lines_.fail(f.column, "", "'" + f.text + "' is compressed: decompress it with xz -d first");
      const std::string path = folder_ + "/" + f.text;
      try {
        owned_kernel_ = open_input_file(path, "kernel trace");
      } catch (const InputError& e) {
        list_lines_.fail(f.column, "", e.what());
      }
      kernel_ = owned_kernel_.get();
      line_ = LineFields(path);
      ++kernels_;
      return true;
    }
    if (kernels_ == 0) throw InputError(list_lines_.file(), 0, "", "the kernel list names no kernel trace");
    return false;
  }

  // "-key = value" lines up to the first '#' line.
  void read_header(KernelInfo& kernel) {
    kernel = KernelInfo{};
    kernel.name = line_.file();  // as the parser, when there is no -kernel name
    kernel.process = options_.process;
    grid_ = block_ = Dim3{};
    version_ = 0;
    lineinfo_ = false;
    shmem_base_ = local_base_ = 0;
    std::string text;
    bool any = false;
    while (std::getline(*kernel_, text)) {
      any = true;
      if (!line_.set(text)) continue;
      const std::string t = trim(text);
      if (t[0] == '#') {
        // The format comment ends the header; a #BEGIN_TB (no comment) starts the body.
        pending_begin_ = t == "#BEGIN_TB";
        break;
      }
      if (t[0] != '-') line_.fail(1, "", "unexpected line in the kernel header (expected '-key = value' or a '#' line)");
      const size_t eq = t.find('=');
      if (eq == std::string::npos) line_.fail(1, "", "header line without '='");
      const std::string key = trim(t.substr(1, eq - 1));
      const std::string value = trim(t.substr(eq + 1));
      const size_t value_at = text.find_first_not_of(" \t\r", text.find('=') + 1);
      const int value_column = value_at == std::string::npos ? end_column(text) : static_cast<int>(value_at) + 1;
      auto number = [&](NumberParse (*parse)(std::string_view, uint64_t&)) {
        return line_.number(TextField{value, value_column}, ("-" + key).c_str(), parse);
      };
      if (key == "kernel name") kernel.name = value;
      else if (key == "grid dim") grid_ = dim3(value, value_column, "-grid dim");
      else if (key == "block dim") block_ = dim3(value, value_column, "-block dim");
      else if (key == "accelsim tracer version") version_ = number(parse_decimal);
      else if (key == "enable lineinfo") lineinfo_ = number(parse_decimal) != 0;
      else if (key == "shmem base_addr") shmem_base_ = number(parse_hex);
      else if (key == "local mem base_addr") local_base_ = number(parse_hex);
    }
    if (!any) throw InputError(line_.file(), 0, "", "empty kernel trace: no '-kernel name' header");
    const int end_column = 1;
    if (block_.x == 0) line_.fail(end_column, "-block dim", "no '-block dim = (x,y,z)' line in the kernel header");
    if (grid_.x == 0) line_.fail(end_column, "-grid dim", "no '-grid dim = (x,y,z)' line in the kernel header");
    const uint64_t threads = block_.x * block_.y * block_.z;
    kernel.warps_per_block = static_cast<unsigned>((threads + kWarpSize - 1) / kWarpSize);
    warps_per_block_ = kernel.warps_per_block;
    in_block_ = have_block_ = false;
    last_block_ = -1;
    warp_ = -1;
  }

  // "(x,y,z)", each from 1 up, their product small enough for 32-bit thread ids.
  Dim3 dim3(const std::string& value, int column, const char* key) const {
    const std::string bad = "'" + value + "' is not (x,y,z) with x, y, z from 1";
    if (value.size() < 2 || value.front() != '(' || value.back() != ')') line_.fail(column, key, bad);
    uint64_t v[3] = {0, 0, 0};
    size_t pos = 1;
    for (int i = 0; i < 3; ++i) {
      const size_t end = value.find(i < 2 ? ',' : ')', pos);
      if (end == std::string::npos || parse_decimal(trim(value.substr(pos, end - pos)), v[i]) != NumberParse::kOk || v[i] == 0 ||
          v[i] > 0xFFFFFFFFu)
        line_.fail(column, key, bad);
      pos = end + 1;
    }
    if (pos != value.size()) line_.fail(column, key, bad);
    if (v[0] * v[1] * v[2] > 0xFFFFFFFFu) line_.fail(column, key, "'" + value + "' has more than 2^32 threads or blocks");
    return Dim3{v[0], v[1], v[2]};
  }

  // The value after '=' of "word = value" lines ("warp = 3"), as a number.
  uint64_t assigned(const char* key, size_t words) const {
    const TextField& eq = line_.field(words, key);
    if (eq.text != "=") line_.fail(eq.column, key, "expected '=' after '" + std::string(key) + "'");
    const TextField& v = line_.field(words + 1, key);
    line_.no_more_fields(words + 2, std::string("a '") + key + "' line");
    return line_.number(v, key, parse_decimal);
  }

  void finish_warp() {
    if (warp_ >= 0 && insts_seen_ != insts_expected_)
      line_.fail(1, "insts",
                 "warp " + std::to_string(warp_) + " has " + std::to_string(insts_seen_) + " instruction lines; its 'insts = " +
                     std::to_string(insts_expected_) + "' line says otherwise");
    warp_ = -1;
  }

  void start_block() {
    if (!in_block_) line_.fail(1, "thread block", "'thread block' outside #BEGIN_TB ... #END_TB");
    if (have_block_) line_.fail(1, "thread block", "a second 'thread block' line in one #BEGIN_TB ... #END_TB");
    const size_t eq_index = 2;
    const TextField& eq = line_.field(eq_index, "thread block");
    if (eq.text != "=") line_.fail(eq.column, "thread block", "expected 'thread block = x,y,z'");
    const TextField& v = line_.field(eq_index + 1, "thread block");
    line_.no_more_fields(eq_index + 2, "a 'thread block' line");
    uint64_t c[3] = {0, 0, 0};
    size_t pos = 0;
    for (int i = 0; i < 3; ++i) {
      const size_t end = i < 2 ? v.text.find(',', pos) : v.text.size();
      if (end == std::string::npos || parse_decimal(v.text.substr(pos, end - pos), c[i]) != NumberParse::kOk)
        line_.fail(v.column, "thread block", "'" + v.text + "' is not x,y,z");
      pos = end + 1;
    }
    if (c[0] >= grid_.x || c[1] >= grid_.y || c[2] >= grid_.z)
      line_.fail(v.column, "thread block", "block " + v.text + " lies outside the grid");
    const int64_t linear = static_cast<int64_t>(c[0] + c[1] * grid_.x + c[2] * grid_.x * grid_.y);
    if (linear <= last_block_)
      line_.fail(v.column, "thread block",
                 "block " + v.text + " (linear " + std::to_string(linear) + ") after block " + std::to_string(last_block_) +
                     ": blocks must come in ascending linear order (x + y * grid.x + z * grid.x * grid.y)");
    if (static_cast<uint64_t>(linear) + 1 > (uint64_t{1} << 32) / (uint64_t{warps_per_block_} * kWarpSize))
      line_.fail(v.column, "thread block", "block " + v.text + " has thread ids beyond 32 bits");
    last_block_ = linear;
    have_block_ = true;
    warps_seen_.assign(warps_per_block_, false);
  }

  // Reads up to the next instruction that yields records; false at the
  // kernel's end.
  bool read_instruction() {
    std::string text;
    while (pending_begin_ || std::getline(*kernel_, text)) {
      if (pending_begin_) {  // the header ended on this block's #BEGIN_TB
        pending_begin_ = false;
        in_block_ = true;
        continue;
      }
      if (!line_.set(text)) continue;
      const std::string& first = line_[0].text;
      if (first == "#BEGIN_TB") {
        if (in_block_) line_.fail(1, "#BEGIN_TB", "#BEGIN_TB before the previous block's #END_TB");
        line_.no_more_fields(1, "a #BEGIN_TB line");
        in_block_ = true;
        have_block_ = false;
      } else if (first == "#END_TB") {
        if (!in_block_) line_.fail(1, "#END_TB", "#END_TB without #BEGIN_TB");
        line_.no_more_fields(1, "an #END_TB line");
        finish_warp();
        in_block_ = false;
      } else if (first == "thread" && line_.size() > 1 && line_[1].text == "block") {
        start_block();
      } else if (first == "warp") {
        if (!have_block_ || !in_block_) line_.fail(1, "warp", "'warp' line before 'thread block'");
        finish_warp();
        const uint64_t w = assigned("warp", 1);
        if (w >= warps_per_block_)
          line_.fail(line_[2].column, "warp",
                     "warp " + std::to_string(w) + " of a block of " + std::to_string(warps_per_block_) + " warps");
        if (warps_seen_[w]) line_.fail(line_[2].column, "warp", "warp " + std::to_string(w) + " twice in one block");
        warps_seen_[w] = true;
        warp_ = static_cast<int>(w);
        insts_expected_ = -1;
      } else if (first == "insts") {
        if (warp_ < 0) line_.fail(1, "insts", "'insts' line before 'warp'");
        if (insts_expected_ >= 0) line_.fail(1, "insts", "a second 'insts' line for one warp");
        insts_expected_ = static_cast<int64_t>(assigned("insts", 1));
        insts_seen_ = 0;
      } else {
        if (warp_ < 0 || insts_expected_ < 0) line_.fail(1, "", "instruction line before 'warp = N' and 'insts = N'");
        if (++insts_seen_ > insts_expected_)
          line_.fail(1, "insts", "more instruction lines than 'insts = " + std::to_string(insts_expected_) + "'");
        if (parse_instruction()) return true;
      }
    }
    if (in_block_) line_.fail(0, "#END_TB", "the kernel trace ends inside a thread block (no #END_TB)");
    return false;
  }

  // One instruction line; true when it yields records.
  bool parse_instruction() {
    size_t i = 0;
    if (version_ < 3)  // older traces: block x, y, z and warp first, which the parser reads and ignores
      for (const char* key : {"block_x", "block_y", "block_z", "warp_id"}) line_.number(line_.field(i++, key), key, parse_decimal);
    if (lineinfo_) line_.number(line_.field(i++, "line_num"), "line_num", parse_decimal);
    const uint64_t pc = line_.number(line_.field(i++, "pc"), "pc", parse_hex);
    const TextField& mask_field = line_.field(i++, "mask");
    const uint64_t mask = line_.number(mask_field, "mask", parse_hex);
    if (mask >> kWarpSize) line_.fail(mask_field.column, "mask", "mask " + mask_field.text + " is wider than 32 lanes");
    const TextField& dest_num_field = line_.field(i++, "dest_num");
    const uint64_t dest_num = line_.number(dest_num_field, "dest_num", parse_decimal);
    if (dest_num > kMaxDestinations) line_.fail(dest_num_field.column, "dest_num", "at most 1 destination register");
    uint64_t dest = kRegisterZero;
    for (uint64_t d = 0; d < dest_num; ++d) dest = reg(line_.field(i++, "dest"), "dest");
    const TextField& opcode = line_.field(i++, "opcode");
    if (!opcode_ok(opcode.text)) line_.fail(opcode.column, "opcode", "bad opcode '" + opcode.text + "'");
    const TextField& src_num_field = line_.field(i++, "src_num");
    const uint64_t src_num = line_.number(src_num_field, "src_num", parse_decimal);
    if (src_num > kMaxSources) line_.fail(src_num_field.column, "src_num", "at most 4 source registers");
    for (uint64_t s = 0; s < src_num; ++s) reg(line_.field(i++, "src"), "src");
    const uint64_t mem_width = line_.number(line_.field(i++, "mem_width"), "mem_width", parse_decimal);
    if (mem_width == 0) {  // not a memory instruction
      finish_line(i);
      return false;
    }
    const std::string base = opcode.text.substr(0, opcode.text.find('.'));
    const MemClass cls = mem_class(base);
    if (cls == MemClass::kUnknown)
      line_.fail(opcode.column, "opcode", "unknown memory opcode '" + base + "' (mem_width " + std::to_string(mem_width) + ")");
    const unsigned width = width_from_opcode(opcode.text);
    if (width != 1 && width != 2 && width != 4 && width != 8 && width != 16)
      line_.fail(opcode.column, "opcode",
                 "opcode " + opcode.text + " accesses " + std::to_string(width) + " bytes a thread (1, 2, 4, 8 or 16)");
    const std::bitset<kWarpSize> lanes(mask);
    std::array<uint64_t, kWarpSize> address{};
    std::array<int, kWarpSize> column{};
    i = read_addresses(i, lanes, mask_field, address, column);
    finish_line(i);

    bool global = cls != MemClass::kNotGlobal;
    if ((cls == MemClass::kGenericLoad || cls == MemClass::kGenericStore) && lanes.any()) {
      // trace_driven.cc: with either window unknown a generic access is shared;
      // else the first active lane's address picks the space.
      size_t first = 0;
      while (!lanes.test(first)) ++first;
      const uint64_t a = address[first];
      global = shmem_base_ != 0 && local_base_ != 0 && !(a >= shmem_base_ && a < local_base_) &&
               !(a >= local_base_ && a - local_base_ < kLocalMemSizeMax);
    }
    if (!global) return false;
    const bool write = cls == MemClass::kGlobalStore || cls == MemClass::kGenericStore;
    record_count_ = next_record_ = 0;
    const uint64_t first_thread = static_cast<uint64_t>(last_block_) * warps_per_block_ * kWarpSize +
                                  static_cast<uint64_t>(warp_) * kWarpSize;
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {
      if (!lanes.test(lane)) continue;
      if (address[lane] % width)
        line_.fail(column[lane], "address",
                   "lane " + std::to_string(lane) + " address " + hex(address[lane]) + " is not aligned to the access width " +
                       std::to_string(width));
      record_columns_[record_count_] = column[lane];
      ThreadRecord& r = records_[record_count_++];
      r = ThreadRecord{};
      r.thread_id = static_cast<uint32_t>(first_thread + lane);
      r.pc = pc;
      r.address = address[lane];
      r.width = width;
      r.op = write ? Op::kWrite : Op::kRead;
      r.dependent = !write && dest_num > 0 && dest != kRegisterZero;
    }
    return record_count_ > 0;
  }

  // The addresses of the active lanes after the mem_width field at `i`, in
  // the line's address format; returns the index past them.
  size_t read_addresses(size_t i, const std::bitset<kWarpSize>& lanes, const TextField& mask_field,
                        std::array<uint64_t, kWarpSize>& address, std::array<int, kWarpSize>& column) const {
    const TextField& format_field = line_.field(i++, "address_format");
    const uint64_t format = line_.number(format_field, "address_format", parse_decimal);
    if (format == 0) {  // list_all: one address per active lane
      for (unsigned lane = 0; lane < kWarpSize; ++lane)
        if (lanes.test(lane)) {
          const TextField& f = line_.field(i++, "address");
          address[lane] = line_.number(f, "address", parse_hex);
          column[lane] = f.column;
        }
      return i;
    }
    if (format != 1 && format != 2)
      line_.fail(format_field.column, "address_format",
                 "address format " + format_field.text + " (0 list_all, 1 base_stride, 2 base_delta)");
    const TextField& base_field = line_.field(i++, "base_address");
    const uint64_t base = line_.number(base_field, "base_address", parse_hex);
    bool first = true;
    uint64_t last = base;
    if (format == 1) {  // base_stride: the active lanes, one run, base + k * stride
      const TextField& stride_field = line_.field(i++, "stride");
      const int64_t stride = line_.number(stride_field, "stride", parse_signed);
      if (stride < INT32_MIN || stride > INT32_MAX) line_.fail(stride_field.column, "stride", "stride beyond 32 bits");
      bool ended = false;
      for (unsigned lane = 0; lane < kWarpSize; ++lane) {
        if (!lanes.test(lane)) {
          ended = !first;
          continue;
        }
        if (ended)
          line_.fail(mask_field.column, "mask",
                     "base_stride with active lanes that are not one run (Accel-Sim would give lane " + std::to_string(lane) +
                         " address 0)");
        address[lane] = first ? base : last + static_cast<uint64_t>(stride);
        column[lane] = first ? base_field.column : stride_field.column;
        last = address[lane];
        first = false;
      }
      return i;
    }
    for (unsigned lane = 0; lane < kWarpSize; ++lane) {  // base_delta: each active lane after the first, a delta
      if (!lanes.test(lane)) continue;
      if (first) {
        address[lane] = base;
        column[lane] = base_field.column;
        first = false;
        continue;
      }
      const TextField& f = line_.field(i++, "delta");
      address[lane] = last + static_cast<uint64_t>(line_.number(f, "delta", parse_signed));
      column[lane] = f.column;
      last = address[lane];
    }
    return i;
  }

  // An optional immediate ends the line.
  void finish_line(size_t i) const {
    if (i < line_.size()) line_.number(line_[i], "immediate", parse_signed);
    if (i + 1 < line_.size())
      line_.fail(line_[i + 1].column, "", "unexpected field '" + line_[i + 1].text + "' after the immediate (the last field)");
  }

  uint64_t reg(const TextField& f, const char* key) const {
    uint64_t n = 0;
    if (f.text.size() < 2 || f.text[0] != 'R' || parse_decimal(f.text.substr(1), n) != NumberParse::kOk)
      line_.fail(f.column, key, "bad register '" + f.text + "' (R and a number)");
    return n;
  }

  static std::string hex(uint64_t v) {
    static const char* digits = "0123456789abcdef";
    std::string s;
    do s.insert(s.begin(), digits[v & 15]), v >>= 4;
    while (v);
    return "0x" + s;
  }

  ImportOptions options_;
  std::unique_ptr<std::istream> list_;
  LineFields list_lines_;
  std::string folder_;
  unsigned kernels_ = 0;
  std::unique_ptr<std::istream> owned_kernel_;
  std::istream* kernel_;  // the kernel being read, or null between kernels
  std::istream* single_;  // without a list: the one kernel file
  bool single_done_ = false;
  std::optional<ReadFraction> single_fraction_;  // a single kernel file
  LineFields line_;
  // The kernel being read.
  Dim3 grid_, block_;
  uint64_t version_ = 0;
  bool lineinfo_ = false;
  uint64_t shmem_base_ = 0, local_base_ = 0;
  unsigned warps_per_block_ = 0;
  bool pending_begin_ = false;
  bool in_block_ = false, have_block_ = false;
  int64_t last_block_ = -1;
  std::vector<bool> warps_seen_;
  int warp_ = -1;
  int64_t insts_expected_ = -1, insts_seen_ = 0;
  // The records of the last instruction, handed out one by one.
  std::array<ThreadRecord, kWarpSize> records_{};
  std::array<int, kWarpSize> record_columns_{};
  size_t record_count_ = 0, next_record_ = 0;
};

// Whether a file is a kernel trace ("-kernel name = ..." first) rather than a
// kernel list ("kernel-1.traceg", "MemcpyHtoD,..." lines).
bool is_kernel_trace(std::istream& in, const std::string& path) {
  std::string text;
  LineFields line(path);
  while (std::getline(in, text)) {
    if (!line.set(text)) continue;
    const std::string& first = line[0].text;
    if (first[0] == '-') return true;
    if (first.rfind("kernel", 0) == 0 || first.rfind("Memcpy", 0) == 0) return false;
    line.fail(line[0].column, "",
              "neither an Accel-Sim kernel trace ('-kernel name = ...') nor a kernel list ('kernel-1.traceg' lines)");
  }
  throw InputError(path, 0, "", "empty Accel-Sim trace");
}

}  // namespace

std::unique_ptr<ThreadTraceSource> open_accel_sim_trace(const std::string& path, const ImportOptions& options) {
  std::unique_ptr<std::istream> file = open_input_file(path, "trace");
  expect_trace_kind(*file, path, TraceKind::kAccelSim);
  const bool kernel = is_kernel_trace(*file, path);
  file->clear();
  file->seekg(0);
  if (kernel) {
    std::istream* in = file.get();
    return std::make_unique<AccelSimTrace>(options, nullptr, path, std::move(file), in, path);
  }
  return std::make_unique<AccelSimTrace>(options, std::move(file), path, nullptr, nullptr, path);
}

std::unique_ptr<ThreadTraceSource> read_accel_sim_trace(std::istream& in, const std::string& name,
                                                        const ImportOptions& options) {
  expect_trace_kind(in, name, TraceKind::kAccelSim);
  return std::make_unique<AccelSimTrace>(options, nullptr, name, nullptr, &in, name);
}

}  // namespace gpumem
