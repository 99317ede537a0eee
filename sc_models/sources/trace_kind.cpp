#include "sources/trace_kind.hpp"

#include <cstring>

#include "base/input_error.hpp"
#include "base/text.hpp"
#include "sources/thread_trace_io.hpp"
#include "sources/trace_reader.hpp"

namespace gpumem {

namespace {

// Enough for any header; a file whose first content line starts past it is
// of no known kind.
constexpr size_t kHeadBytes = 64 * 1024;

bool starts_with(std::string_view s, std::string_view prefix) { return s.substr(0, prefix.size()) == prefix; }

// The simulator a DRAM-level format comes from, as its users name it.
const char* simulator_name(ImportFormat f) {
  switch (f) {
    case ImportFormat::kDramsim3: return "DRAMsim3";
    case ImportFormat::kRamulatorDram: return "Ramulator DRAM-mode";
    case ImportFormat::kRamulatorCpu: return "Ramulator CPU-mode";
    case ImportFormat::kRamulator2LoadStore: return "Ramulator 2 load/store";
    case ImportFormat::kRamulator2ReadWrite: return "Ramulator 2 read/write";
    case ImportFormat::kAccelSim: return "Accel-Sim";
  }
  return "?";
}

// "a per-thread trace (binary)": what the file is, after "this is".
std::string kind_text(const TraceIdentity& id) {
  switch (id.kind) {
    case TraceKind::kRequests: return "a request trace (CSV)";
    case TraceKind::kPerThread: return std::string("a per-thread trace (") + (id.binary ? "binary" : "CSV") + ")";
    case TraceKind::kAccelSim: return "an Accel-Sim trace";
    case TraceKind::kDramLevel: return std::string("a ") + simulator_name(id.format) + " trace";
    case TraceKind::kL1Sequence: return "the ordered L1 sequence gpumem trace order writes";
    case TraceKind::kUnknown: break;
  }
  return "a file of no known kind";
}

// What the reader that refuses it takes.
std::string expected_text(TraceKind expected, ImportFormat format) {
  switch (expected) {
    case TraceKind::kRequests: return "a request trace";
    case TraceKind::kPerThread: return "a per-thread trace";
    case TraceKind::kAccelSim: return "an Accel-Sim trace";
    case TraceKind::kDramLevel: return std::string("a ") + import_format_name(format) + " trace";
    default: return "a trace";
  }
}

// The flags that read it, as run and explore take them.
std::string advice(const TraceIdentity& id, TraceKind expected) {
  switch (id.kind) {
    case TraceKind::kRequests:
      return expected == TraceKind::kDramLevel ? "use --trace without --trace-format" : "use --trace";
    case TraceKind::kPerThread:
      return expected == TraceKind::kAccelSim ? "use --threads without --threads-format" : "use --threads";
    case TraceKind::kAccelSim: return "use --threads --threads-format accel-sim";
    case TraceKind::kDramLevel: return std::string("use --trace --trace-format ") + import_format_name(id.format);
    case TraceKind::kL1Sequence: return "it is an output; give the per-thread trace it was ordered from with --threads";
    case TraceKind::kUnknown: break;
  }
  return "";
}

}  // namespace

TraceIdentity identify_trace(std::string_view head) {
  TraceIdentity id;
  if (head.size() >= sizeof kThreadTraceMagic && std::memcmp(head.data(), kThreadTraceMagic, sizeof kThreadTraceMagic) == 0) {
    id.kind = TraceKind::kPerThread;
    id.binary = true;
    return id;
  }
  // The first line neither blank nor a comment. One that runs past the head
  // is cut there: no header is that long, so it tells nothing.
  std::string_view line;
  for (size_t pos = 0; pos < head.size();) {
    const size_t nl = head.find('\n', pos);
    ++id.line;
    line = trimmed(head.substr(pos, nl == std::string_view::npos ? nl : nl - pos));
    if (!line.empty() && line[0] != '#') break;
    line = {};
    if (nl == std::string_view::npos) break;
    pos = nl + 1;
  }
  if (line.empty()) return {};
  if (is_request_trace_header(line)) id.kind = TraceKind::kRequests;
  else if (is_thread_trace_header(line)) id.kind = TraceKind::kPerThread;
  else if (line == kL1SequenceHeader) id.kind = TraceKind::kL1Sequence;
  else if (starts_with(line, "-kernel") || starts_with(line, "Memcpy") ||
           (starts_with(line, "kernel-") && line.find(".traceg") != std::string_view::npos))
    id.kind = TraceKind::kAccelSim;
  else if (const auto f = dram_level_format_of(std::string(line))) {
    id.kind = TraceKind::kDramLevel;
    id.format = *f;
  }
  return id.kind == TraceKind::kUnknown ? TraceIdentity{} : id;
}

void expect_trace_kind(std::istream& in, const std::string& name, TraceKind expected, ImportFormat format) {
  const std::streampos start = in.tellg();
  if (start == std::streampos(-1)) return;  // not seekable: its reader judges it alone
  std::string head(kHeadBytes, '\0');
  in.read(head.data(), static_cast<std::streamsize>(head.size()));
  head.resize(static_cast<size_t>(in.gcount()));
  in.clear();
  in.seekg(start);
  const TraceIdentity id = identify_trace(head);
  if (id.kind == TraceKind::kUnknown || id.kind == expected) return;
  throw InputError(name, id.line, "",
                   "this is " + kind_text(id) + ", not " + expected_text(expected, format) + ": " + advice(id, expected));
}

}  // namespace gpumem
