#include "regs/register_bank.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "base/bits.hpp"

namespace gpumem {

RegisterBank::RegisterBank(const RegisterParams& params)
    : params_(params), prime_allowed_(params.prime != 0), perf_(params.layout.channels, params.entropy_window) {
  // The load-time checks of the prime scheme, repeated here so that a register
  // write cannot reach a mapping the config would have refused.
  const auto& cb = params.layout.channel_bits;
  for (size_t j = 1; j < cb.size(); ++j)
    if (cb[j] != cb[0] + j) prime_allowed_ = false;

  registers_.reserve(register_map().size());
  for (const auto& def : register_map()) registers_.emplace_back(def, params_);
  for (auto& r : registers_)
    if (r.def().check == WriteCheck::kScheme) r.value_allowed = [this](unsigned t, unsigned, uint32_t v) { return scheme_allowed(t, v); };
    else if (r.def().check == WriteCheck::kPrefetchRanges)
      r.value_allowed = [this](unsigned, unsigned, uint32_t v) { return !(v & kPfEnable) || staged_prefetch_problem().empty(); };
  ctrl_ = &reg(kRegCtrl);
  req_count_ = &reg(kRegReqCount);
  byte_count_ = &reg(kRegByteCount);
  app_req_count_ = &reg(kRegAppReqCount);
  matrix_row_lo_ = &reg(kRegMatrixRowLo);
  matrix_row_hi_ = &reg(kRegMatrixRowHi);

  route_translator_writes();
  route_other_writes();
  reset();
}

void RegisterBank::route_translator_writes() {
  // The translator caches masks per write generation, so every register it
  // reads bumps it.
  auto translator_changed = [this] { ++translator_.generation; };
  ctrl_->on_write = [this, translator_changed](unsigned, unsigned, uint32_t v) {
    translator_.interleave_enable = (v & kCtrlInterleaveEnable) != 0;
    translator_.dynamic_selection = (v & kCtrlDynamicSelectionEnable) != 0;
    translator_changed();
  };
  reg(kRegAppTaskSelect).on_write = [this, translator_changed](unsigned p, unsigned, uint32_t v) {
    const uint32_t bit = 1u << p;
    translator_.selected_valid = (v & kAppTaskSelectValid) ? translator_.selected_valid | bit : translator_.selected_valid & ~bit;
    translator_.selected_task[p] = static_cast<uint8_t>(v & kVaRangeTaskMask);
    translator_changed();
  };
  reg(kRegTaskScheme).on_write = [this, translator_changed](unsigned t, unsigned, uint32_t v) {
    // The rows take effect together, checked, when the matrix scheme is
    // written: staged one register at a time they pass through singular states.
    if (static_cast<Scheme>(v) == Scheme::kMatrix) {
      const MatrixRows rows = staged_matrix(t);
      std::copy(rows.begin(), rows.end(), translator_.matrix_row[t].begin());
    }
    translator_.scheme[t] = static_cast<Scheme>(v);
    translator_changed();
  };
  reg(kRegXorVector).on_write = [this, translator_changed](unsigned t, unsigned j, uint32_t v) {
    translator_.xor_vector[t][j] = v;
    translator_changed();
  };
  reg(kRegProcessTask).on_write = [this, translator_changed](unsigned p, unsigned, uint32_t v) {
    translator_.process_task[p] = static_cast<uint8_t>(v);
    translator_changed();
  };
  reg(kRegVaRangeStart).on_write = [this, translator_changed](unsigned r, unsigned, uint32_t v) {
    translator_.va_range[r].start_page = v;
    translator_changed();
  };
  reg(kRegVaRangeEnd).on_write = [this, translator_changed](unsigned r, unsigned, uint32_t v) {
    translator_.va_range[r].end_page = v;
    translator_changed();
  };
  reg(kRegVaRangeTask).on_write = [this, translator_changed](unsigned r, unsigned, uint32_t v) {
    translator_.va_range[r].enable = (v & kVaRangeEnable) != 0;
    translator_.va_range[r].task_type = static_cast<uint8_t>(v & kVaRangeTaskMask);
    translator_changed();
  };
}

void RegisterBank::route_other_writes() {
  reg(kRegPerfCtrl).on_write = [this](unsigned, unsigned, uint32_t v) {
    if (v & kPerfSnapshot) snapshot_performance();
    if (v & kPerfReset) reset_counters();
  };
  reg(kRegPfCtrl).on_write = [this](unsigned, unsigned, uint32_t v) {
    // The ranges take effect together, checked, when the classifier is enabled.
    prefetch_.enabled = (v & kPfEnable) != 0;
    if (prefetch_.enabled)
      for (unsigned k = 0; k < kPfRanges; ++k) prefetch_.ranges[k] = staged_prefetch_range(k);
    ++prefetch_.commits;
  };
  // The MMU reads its registers by reference at each walk and lookup.
  reg(kRegPtRootLo).on_write = [this](unsigned, unsigned, uint32_t v) {
    mmu_.pt_root = (mmu_.pt_root & ~uint64_t{0xFFFFFFFF}) | v;
  };
  reg(kRegPtRootHi).on_write = [this](unsigned, unsigned, uint32_t v) {
    mmu_.pt_root = (mmu_.pt_root & 0xFFFFFFFF) | uint64_t{v} << 32;
  };
  reg(kRegTlbInvalidate).on_write = [this](unsigned, unsigned, uint32_t) { ++mmu_.invalidations; };
}

Register& RegisterBank::reg(uint32_t base) {
  for (auto& r : registers_)
    if (r.def().base == base) return r;
  throw std::logic_error("register bank: no register at offset " + std::to_string(base));
}

size_t RegisterBank::register_index(uint32_t base) const {
  for (size_t i = 0; i < registers_.size(); ++i)
    if (registers_[i].def().base == base) return i;
  throw std::logic_error("register bank: no register at offset " + std::to_string(base));
}

void RegisterBank::reset() {
  translator_ = TranslatorRegisters{};
  prefetch_.enabled = false;
  prefetch_.ranges = {};
  ++prefetch_.commits;
  mmu_.pt_root = 0;
  for (auto& r : registers_) r.reset();
  perf_.reset();
  ++translator_.generation;
}

void RegisterBank::snapshot_performance() {
  Register& task = reg(kRegPerfTask);
  Register& app = reg(kRegPerfApp);
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    const std::vector<uint32_t> w = perf_words(perf_.task(t));
    for (unsigned f = 0; f < kPerfFieldCount; ++f) task.at(t, f) = w[f];
  }
  for (unsigned p = 0; p < kMaxProcesses; ++p) {
    const std::vector<uint32_t> w = perf_words(perf_.application(p));
    for (unsigned f = 0; f < kPerfFieldCount; ++f) app.at(p, f) = w[f];
  }
}

void RegisterBank::reset_counters() {
  for (Register* r : {req_count_, byte_count_, app_req_count_}) r->reset();
  perf_.reset();
}

// With a non-power-of-two channel count a row of granules straddles pages, so
// only one scheme for all task types keeps isolation: the configured one,
// which TASK_SCHEME resets to.
bool RegisterBank::scheme_allowed(unsigned task, uint32_t value) const {
  if (value > static_cast<uint32_t>(Scheme::kMatrix)) return false;
  const auto s = static_cast<Scheme>(value);
  const unsigned channels = params_.layout.channels;
  if (!is_pow2(channels)) return s == params_.default_scheme;
  if (s == Scheme::kXor && (!params_.xor_scheme || (params_.layout.channel_bits.empty() && channels > 1))) return false;
  if (s == Scheme::kPrime && !prime_allowed_) return false;
  if (s == Scheme::kMatrix) return matrix_row_lo_->mapped_dim1() > 0 && staged_matrix_problem(task).empty();
  return true;
}

std::string RegisterBank::staged_matrix_problem(unsigned task) const {
  if (matrix_row_lo_->mapped_dim1() == 0) return "the matrix scheme is not built in this configuration";
  return channel_matrix_problem(staged_matrix(task), params_.layout, params_.address_bits);
}

std::pair<uint64_t, uint64_t> RegisterBank::staged_prefetch_range(unsigned k) const {
  auto word = [&](uint32_t lo, uint32_t hi) {
    return uint64_t{registers_[register_index(hi)].at(k, 0)} << 32 | registers_[register_index(lo)].at(k, 0);
  };
  return {word(kRegPfRangeBaseLo, kRegPfRangeBaseHi), word(kRegPfRangeEndLo, kRegPfRangeEndHi)};
}

std::string RegisterBank::staged_prefetch_problem() const {
  static const char* const kNames[kPfRanges] = {"worklist", "vertexlist", "edgelist", "visitedlist"};
  for (unsigned k = 0; k < kPfRanges; ++k) {
    const auto [base, end] = staged_prefetch_range(k);
    if (end <= base) return std::string("range ") + std::to_string(k) + " (" + kNames[k] + ") does not end after its base";
    for (unsigned j = 0; j < k; ++j) {
      const auto [b, e] = staged_prefetch_range(j);
      if (base < e && b < end) return std::string("ranges ") + kNames[j] + " and " + kNames[k] + " overlap";
    }
  }
  return "";
}

MatrixRows RegisterBank::staged_matrix(unsigned task) const {
  MatrixRows rows(matrix_row_lo_->mapped_dim1());
  for (unsigned j = 0; j < rows.size(); ++j)
    rows[j] = uint64_t{matrix_row_hi_->at(task, j)} << 32 | matrix_row_lo_->at(task, j);
  return rows;
}

RegStatus RegisterBank::decode(uint64_t offset, unsigned width, Decoded& d) const {
  if (width != 4) return RegStatus::kBadWidth;
  if (offset % 4) return RegStatus::kMisaligned;
  const Register* reg = register_at(offset);
  if (!reg) return RegStatus::kUnmapped;
  const RegisterDef& r = reg->def();
  const uint64_t k = (offset - r.base) / 4;
  d = {static_cast<size_t>(reg - registers_.data()), static_cast<uint32_t>(k / r.dim1), static_cast<uint32_t>(k % r.dim1)};
  // Arrays are sized for the largest build; only the configured part exists.
  return d.j < reg->mapped_dim1() ? RegStatus::kOk : RegStatus::kUnmapped;
}

// registers_ is in map order, so the map's row is the register's index.
const Register* RegisterBank::register_at(uint64_t offset) const {
  const RegisterDef* def = gpumem::register_at(offset);
  return def ? &registers_[static_cast<size_t>(def - register_map().data())] : nullptr;
}

RegStatus RegisterBank::read(uint64_t offset, unsigned width, uint32_t& value) const {
  Decoded d;
  if (const RegStatus s = decode(offset, width, d); s != RegStatus::kOk) return s;
  value = registers_[d.reg].read(d.i, d.j);
  return RegStatus::kOk;
}

RegStatus RegisterBank::write(uint64_t offset, unsigned width, uint32_t value) {
  Decoded d;
  if (const RegStatus s = decode(offset, width, d); s != RegStatus::kOk) return s;
  return registers_[d.reg].write(d.i, d.j, value);
}

}  // namespace gpumem
