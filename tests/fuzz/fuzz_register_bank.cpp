// libFuzzer target: random read/write/count/reset sequences against the
// register bank, checked access by access against a plain reference of the
// register map (docs/register-map.md: the rows of register_map() and the
// documented rules, written out here without the bank's Register class), and
// against the translator's and the MMU's views after each access. The
// elaboration parameters (channel count, channel bits, K, prime, default
// scheme, position) are drawn from the input too.
#include <fuzzer/FuzzedDataProvider.h>

#include <algorithm>
#include <cstddef>
#include <cmath>
#include <cstdint>
#include <array>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "base/bits.hpp"
#include "fuzz_target.hpp"
#include "regs/register_bank.hpp"
#include "regs/register_map.hpp"

namespace gpumem {
namespace {

[[noreturn]] void differ(const std::string& what) { fuzz::finding("register_bank", what.c_str()); }

class ReferenceMap {
 public:
  explicit ReferenceMap(const RegisterParams& p) : p_(p) { reset(); }

  void reset() {
    word_.clear();
    committed_.clear();
    prefetch_enabled = false;
    prefetch_committed = {};
    clear_counters();  // the counters are registers (RC), reset to zero
    snapshot_.clear();  // PERF_TASK and PERF_APP are read-only zeros until a snapshot
    for (const RegisterDef& r : register_map())
      if (r.access == RegAccess::kRO || r.access == RegAccess::kRW)
        for (uint32_t i = 0; i < r.dim0; ++i)
          for (uint32_t j = 0; j < extent(r); ++j) word_[offset(r, i, j)] = value_of(r.reset, p_);
  }

  RegStatus read(uint64_t off, unsigned width, uint32_t& v) const {
    Where w;
    if (const RegStatus s = locate(off, width, w); s != RegStatus::kOk) return s;
    switch (w.row->access) {
      case RegAccess::kWA: v = 0; break;
      case RegAccess::kRC: v = count(w); break;
      case RegAccess::kRO:
        if (r_is_perf(*w.row)) {
          const auto it = snapshot_.find(off);
          v = it == snapshot_.end() ? 0 : it->second;
          break;
        }
        v = word_.at(off);
        break;
      default: v = word_.at(off);
    }
    return RegStatus::kOk;
  }

  RegStatus write(uint64_t off, unsigned width, uint32_t value) {
    Where w;
    if (const RegStatus s = locate(off, width, w); s != RegStatus::kOk) return s;
    const RegisterDef& r = *w.row;
    switch (r.access) {
      case RegAccess::kRO: return RegStatus::kReadOnly;
      case RegAccess::kWA:
        if (r.base == kRegTlbInvalidate) ++invalidations;
        if (r.base == kRegPerfCtrl && (value & kPerfSnapshot)) take_snapshot();
        if (r.base == kRegPerfCtrl && (value & kPerfReset)) clear_counters();
        return RegStatus::kOk;
      case RegAccess::kRC:
        counter(r.base)[{w.i, w.j}] = 0;
        return RegStatus::kOk;
      case RegAccess::kRW: break;
    }
    const uint32_t stored = value & value_of(r.field_mask, p_);
    if ((stored ^ word_.at(off)) & r.fixed_mask) return RegStatus::kBadValue;
    if (r.base == kRegTaskScheme && !scheme_allowed(w.i, stored)) return RegStatus::kBadValue;
    if (r.base == kRegPfCtrl && (stored & kPfEnable) && !prefetch_ranges_sound()) return RegStatus::kBadValue;
    word_[off] = stored;
    if (r.base == kRegTaskScheme && stored == 3) committed_[w.i] = staged(w.i);
    if (r.base == kRegPfCtrl) {
      prefetch_enabled = (stored & kPfEnable) != 0;
      if (prefetch_enabled)
        for (uint32_t k = 0; k < kPfRanges; ++k) prefetch_committed[k] = staged_range(k);
    }
    return RegStatus::kOk;
  }

  void count(unsigned task, unsigned process, unsigned channel, unsigned bytes, uint64_t cycle) {
    requests_[{task, channel}] += 1;
    bytes_[{task, channel}] += bytes;
    app_requests_[{process, channel}] += 1;
    history_[task].push_back({channel, bytes, cycle});
    history_[kMaxTaskTypes + process].push_back({channel, bytes, cycle});
  }

  uint32_t word(uint32_t base, uint32_t i, uint32_t j = 0) const { return word_.at(offset(register_def(base), i, j)); }
  uint64_t committed_row(unsigned task, unsigned j) const {
    const auto it = committed_.find(task);
    return it == committed_.end() || j >= it->second.size() ? 0 : it->second[j];
  }
  uint64_t invalidations = 0;
  // The prefetch classifier as PF_CTRL last committed it (the bank keeps the
  // old ranges when it is turned off; only `enabled` says they do not count).
  bool prefetch_enabled = false;
  std::array<std::pair<uint64_t, uint64_t>, kPfRanges> prefetch_committed{};

 private:
  struct Where {
    const RegisterDef* row;
    uint32_t i, j;
  };

  static uint64_t offset(const RegisterDef& r, uint32_t i, uint32_t j) { return r.base + (uint64_t{i} * r.dim1 + j) * 4; }
  uint32_t extent(const RegisterDef& r) const {
    if (r.dim1_mapped == Elab::kNone) return r.dim1;
    const uint32_t e = elab_value(r.dim1_mapped, p_);
    return e < r.dim1 ? e : r.dim1;
  }

  // Checks in the documented order: width, alignment, offset.
  RegStatus locate(uint64_t off, unsigned width, Where& w) const {
    if (width != 4) return RegStatus::kBadWidth;
    if (off % 4) return RegStatus::kMisaligned;
    for (const RegisterDef& r : register_map()) {
      const uint64_t span = uint64_t{r.dim0} * r.dim1 * 4;
      if (off < r.base || off >= r.base + span) continue;
      const uint64_t k = (off - r.base) / 4;
      w = {&r, static_cast<uint32_t>(k / r.dim1), static_cast<uint32_t>(k % r.dim1)};
      return w.j < extent(r) ? RegStatus::kOk : RegStatus::kUnmapped;
    }
    return RegStatus::kUnmapped;
  }

  using Counts = std::map<std::pair<uint32_t, uint32_t>, uint64_t>;
  Counts& counter(uint32_t base) { return base == kRegReqCount ? requests_ : base == kRegByteCount ? bytes_ : app_requests_; }
  uint32_t count(const Where& w) const {
    const Counts& m = const_cast<ReferenceMap*>(this)->counter(w.row->base);
    const auto it = m.find({w.i, w.j});
    return it == m.end() ? 0 : static_cast<uint32_t>(it->second);
  }
  static bool r_is_perf(const RegisterDef& r) { return r.base == kRegPerfTask || r.base == kRegPerfApp; }

  void clear_counters() {
    requests_.clear();
    bytes_.clear();
    app_requests_.clear();
    history_.clear();
  }

  // docs/register-map.md, "Performance counters", from each group's requests
  // since the last reset: entropy per window as -sum p log2 p in doubles.
  void take_snapshot() {
    const unsigned window = p_.entropy_window;
    for (unsigned g = 0; g < kMaxTaskTypes + kMaxProcesses; ++g) {
      const uint32_t base = g < kMaxTaskTypes ? kRegPerfTask : kRegPerfApp;
      const uint32_t row = g < kMaxTaskTypes ? g : g - kMaxTaskTypes;
      const auto it = history_.find(g);
      const std::vector<Counted> none;
      const std::vector<Counted>& h = it == history_.end() ? none : it->second;
      uint64_t bytes = 0;
      for (const Counted& c : h) bytes += c.bytes;
      uint64_t earliest = ~uint64_t{0}, latest = 0;
      for (const Counted& c : h) earliest = std::min(earliest, c.cycle), latest = std::max(latest, c.cycle);
      const uint64_t span = h.empty() ? 0 : latest - earliest + 1;
      const uint64_t windows = h.size() / window;
      auto entropy_of = [&](size_t first, size_t n) {
        std::map<unsigned, unsigned> hist;
        for (size_t k = first; k < first + n; ++k) ++hist[h[k].channel];
        double e = 0;
        for (const auto& [ch, k] : hist) e -= double(k) / double(n) * std::log2(double(k) / double(n));
        return e;
      };
      double mean = 0;
      if (windows) {
        for (uint64_t k = 0; k < windows; ++k) mean += entropy_of(k * window, window);
        mean /= double(windows);
      } else if (!h.empty()) {
        mean = entropy_of(0, h.size());
      }
      const uint32_t words[kPerfFieldCount] = {uint32_t(h.size()), uint32_t(uint64_t(h.size()) >> 32), uint32_t(bytes),
                                               uint32_t(bytes >> 32), uint32_t(span), uint32_t(span >> 32), uint32_t(windows),
                                               uint32_t(std::llround(mean * 65536.0))};
      for (uint32_t f = 0; f < kPerfFieldCount; ++f) snapshot_[offset(register_def(base), row, f)] = words[f];
    }
  }

  std::pair<uint64_t, uint64_t> staged_range(uint32_t k) const {
    return {uint64_t{word(kRegPfRangeBaseHi, k)} << 32 | word(kRegPfRangeBaseLo, k),
            uint64_t{word(kRegPfRangeEndHi, k)} << 32 | word(kRegPfRangeEndLo, k)};
  }

  // docs/register-map.md, PF_CTRL: every range ends after its base, no two overlap.
  bool prefetch_ranges_sound() const {
    for (uint32_t k = 0; k < kPfRanges; ++k) {
      const auto [base, end] = staged_range(k);
      if (end <= base) return false;
      for (uint32_t j = 0; j < k; ++j) {
        const auto [b, e] = staged_range(j);
        if (base < e && b < end) return false;
      }
    }
    return true;
  }

  std::vector<uint64_t> staged(unsigned task) const {
    std::vector<uint64_t> rows(extent(register_def(kRegMatrixRowLo)));
    for (uint32_t j = 0; j < rows.size(); ++j)
      rows[j] = uint64_t{word(kRegMatrixRowHi, task, j)} << 32 | word(kRegMatrixRowLo, task, j);
    return rows;
  }

  // docs/register-map.md, TASK_SCHEME and MATRIX_ROW; docs/config-reference.md, matrix.
  bool matrix_allowed(unsigned task) const {
    const std::vector<uint64_t> rows = staged(task);
    const auto& bits = p_.layout.channel_bits;
    if (rows.empty()) return false;
    for (uint64_t row : rows) {
      if (row == 0 || (row & (bit(p_.layout.granule_shift) - 1))) return false;
      if (p_.address_bits < 64 && (row >> p_.address_bits)) return false;
    }
    // Invertible: no two channel-bit values of one page map alike (all 2^m).
    std::vector<bool> seen(size_t{1} << bits.size());
    for (uint64_t c = 0; c < seen.size(); ++c) {
      uint64_t address = 0;
      for (size_t k = 0; k < bits.size(); ++k) address |= ((c >> k) & 1u) << bits[k];
      uint64_t out = 0;
      for (size_t j = 0; j < rows.size(); ++j) out |= uint64_t{parity(address & rows[j])} << j;
      if (seen[out]) return false;
      seen[out] = true;
    }
    return true;
  }

  // docs/register-map.md, TASK_SCHEME.
  bool scheme_allowed(unsigned task, uint32_t v) const {
    if (v > 3) return false;
    if (v == 3 && (!is_pow2(p_.layout.channels) || !matrix_allowed(task))) return false;
    const auto& bits = p_.layout.channel_bits;
    if (!is_pow2(p_.layout.channels)) return v == static_cast<uint32_t>(p_.default_scheme);
    if (v == 1) return p_.xor_scheme && !(bits.empty() && p_.layout.channels > 1);
    if (v == 2) {
      if (p_.prime == 0) return false;
      for (size_t j = 1; j < bits.size(); ++j)
        if (bits[j] != bits[0] + j) return false;
    }
    return true;
  }

  RegisterParams p_;
  std::map<uint64_t, uint32_t> word_;
  std::map<unsigned, std::vector<uint64_t>> committed_;  // rows of accepted matrix commits
  Counts requests_, bytes_, app_requests_;
  struct Counted {
    unsigned channel, bytes;
    uint64_t cycle;
  };
  std::map<unsigned, std::vector<Counted>> history_;  // group: task types, then processes
  std::map<uint64_t, uint32_t> snapshot_;            // PERF_TASK and PERF_APP words
};

RegisterParams draw_params(FuzzedDataProvider& in) {
  RegisterParams p;
  const unsigned log2_channels = in.ConsumeIntegralInRange<unsigned>(0, kMaxChannelBits);
  if (in.ConsumeBool()) {
    p.layout.channels = 1u << log2_channels;
    // m distinct ascending-or-not positions below 32.
    for (unsigned j = 0; j < log2_channels; ++j) p.layout.channel_bits.push_back(in.ConsumeIntegralInRange<unsigned>(6, 31));
  } else {
    p.layout.channels = in.ConsumeIntegralInRange<unsigned>(1, kMaxChannels);
    if (is_pow2(p.layout.channels))
      for (unsigned b = 0; (1u << b) < p.layout.channels; ++b) p.layout.channel_bits.push_back(8 + b);
  }
  p.layout.granule_shift = in.ConsumeIntegralInRange<unsigned>(6, 12);
  p.candidate_bit_count = in.ConsumeIntegralInRange<unsigned>(0, kMaxCandidateBits);
  p.prime = in.ConsumeBool() ? in.ConsumeIntegralInRange<uint64_t>(1, 1021) : 0;
  p.default_scheme = static_cast<Scheme>(in.ConsumeIntegralInRange<unsigned>(0, 2));
  p.position = in.ConsumeBool() ? TranslatorPosition::kBeforeMmu : TranslatorPosition::kAfterMmu;
  p.address_bits = in.ConsumeIntegralInRange<unsigned>(13, 64);
  p.xor_scheme = in.ConsumeBool();
  p.matrix_scheme = in.ConsumeBool();
  p.entropy_window = in.ConsumeIntegralInRange<unsigned>(1, 8);
  return p;
}

uint64_t draw_offset(FuzzedDataProvider& in) {
  if (in.ConsumeIntegralInRange<unsigned>(0, 7) == 0) return in.ConsumeIntegral<uint64_t>();
  const auto& rows = register_map();
  const RegisterDef& r = rows[in.ConsumeIntegralInRange<size_t>(0, rows.size() - 1)];
  const uint64_t i = in.ConsumeIntegralInRange<uint64_t>(0, r.dim0);  // one past the end too
  const uint64_t j = in.ConsumeIntegralInRange<uint64_t>(0, r.dim1);
  const int64_t skew = in.ConsumeIntegralInRange<int64_t>(-4, 4) * (in.ConsumeBool() ? 1 : 0);
  return r.base + (i * r.dim1 + j) * 4 + static_cast<uint64_t>(skew);
}

// The views the translator and the MMU read equal the reference's registers.
void compare_views(const RegisterBank& bank, const ReferenceMap& ref) {
  const TranslatorRegisters& t = bank.translator_registers();
  if (t.interleave_enable != ((ref.word(kRegCtrl, 0) & kCtrlInterleaveEnable) != 0)) differ("CTRL view");
  if (t.dynamic_selection != ((ref.word(kRegCtrl, 0) & kCtrlDynamicSelectionEnable) != 0)) differ("CTRL dynamic-selection view");
  for (unsigned p = 0; p < kMaxProcesses; ++p) {
    const uint32_t sel = ref.word(kRegAppTaskSelect, p);
    if (((t.selected_valid >> p) & 1u) != ((sel & kAppTaskSelectValid) ? 1u : 0u) ||
        t.selected_task[p] != (sel & kVaRangeTaskMask))
      differ("APP_TASK_SELECT view");
  }
  for (unsigned task = 0; task < kMaxTaskTypes; ++task) {
    if (static_cast<uint32_t>(t.scheme[task]) != ref.word(kRegTaskScheme, task)) differ("TASK_SCHEME view");
    // XOR_VECTOR has elements j < m only where the xor scheme is built.
    const size_t vectors = bank.params().xor_scheme ? bank.params().layout.channel_bits.size() : 0;
    for (unsigned j = 0; j < vectors && j < kMaxChannelBits; ++j)
      if (t.xor_vector[task][j] != ref.word(kRegXorVector, task, j)) differ("XOR_VECTOR view");
    for (unsigned j = 0; j < kMaxChannelBits; ++j)
      if (t.matrix_row[task][j] != ref.committed_row(task, j)) differ("committed matrix view");
  }
  for (unsigned p = 0; p < kMaxProcesses; ++p)
    if (t.process_task[p] != ref.word(kRegProcessTask, p)) differ("PROCESS_TASK view");
  for (unsigned r = 0; r < kMaxVaRanges; ++r) {
    const VaRange& v = t.va_range[r];
    const uint32_t task = ref.word(kRegVaRangeTask, r);
    if (v.start_page != ref.word(kRegVaRangeStart, r) || v.end_page != ref.word(kRegVaRangeEnd, r) ||
        v.enable != ((task & kVaRangeEnable) != 0) || v.task_type != (task & kVaRangeTaskMask))
      differ("VA_RANGE view");
  }
  const uint64_t root = uint64_t{ref.word(kRegPtRootHi, 0)} << 32 | ref.word(kRegPtRootLo, 0);
  if (bank.mmu_registers().pt_root != root) differ("PT_ROOT view");
  if (bank.mmu_registers().invalidations != ref.invalidations) differ("TLB_INVALIDATE count");
  const PrefetchClassifierRegisters& pf = bank.prefetch_classifier();
  if (pf.enabled != ref.prefetch_enabled) differ("PF_CTRL view");
  if (pf.enabled && pf.ranges != ref.prefetch_committed) differ("PF_RANGE view");
}

}  // namespace
}  // namespace gpumem

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace gpumem;
  FuzzedDataProvider in(data, size);
  const RegisterParams params = draw_params(in);
  RegisterBank bank(params);
  ReferenceMap ref(params);
  uint64_t cycle = 0;
  while (in.remaining_bytes() > 0) {
    const unsigned op = in.ConsumeIntegralInRange<unsigned>(0, 15);
    if (op == 0) {
      bank.reset();
      ref.reset();  // the invalidation count is no register: it keeps counting
    } else if (op == 1) {
      const unsigned task = in.ConsumeIntegralInRange<unsigned>(0, kMaxTaskTypes - 1);
      const unsigned channel = in.ConsumeIntegralInRange<unsigned>(0, params.layout.channels - 1);
      const unsigned process = in.ConsumeIntegralInRange<unsigned>(0, kMaxProcesses - 1);
      const unsigned bytes = in.ConsumeIntegralInRange<unsigned>(1, kMaxRequestBytes);
      cycle += in.ConsumeIntegralInRange<unsigned>(0, 3);
      // Requests reach the router in issue order, but a TLB hit issued later
      // arrives before a walk issued earlier: cycles may go back.
      const uint64_t arrival = cycle - std::min<uint64_t>(cycle, in.ConsumeIntegralInRange<unsigned>(0, 8));
      bank.count(task, process, channel, bytes, arrival);
      ref.count(task, process, channel, bytes, arrival);
    } else {
      const uint64_t off = draw_offset(in);
      const unsigned width = in.ConsumeBool() ? 4 : in.ConsumeIntegralInRange<unsigned>(0, 16);
      if (op < 8) {
        uint32_t got = 0x5EED5EED, want = 0x5EED5EED;
        const RegStatus s = bank.read(off, width, got), r = ref.read(off, width, want);
        if (s != r) differ("read status at " + std::to_string(off) + ": bank " + reg_status_name(s) + ", reference " + reg_status_name(r));
        // The bank's entropy is exact to 2^-24 bit before its rounding to
        // 16.16, the reference's is a double: they may round apart by one.
        const RegisterDef* row = register_at(off);
        const bool entropy = s == RegStatus::kOk && row && (row->base == kRegPerfTask || row->base == kRegPerfApp) &&
                             (off - row->base) / 4 % row->dim1 == kPerfEntropy;
        if (entropy ? (got > want ? got - want : want - got) > 1 : got != want) differ("read value at " + std::to_string(off));
      } else {
        const uint32_t value = in.ConsumeIntegral<uint32_t>();
        const RegStatus s = bank.write(off, width, value), r = ref.write(off, width, value);
        if (s != r) differ("write status at " + std::to_string(off) + ": bank " + reg_status_name(s) + ", reference " + reg_status_name(r));
      }
    }
    compare_views(bank, ref);
  }
  return 0;
}
