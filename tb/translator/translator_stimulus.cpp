#include "tb/translator/translator_stimulus.hpp"

#include "base/baselines.hpp"
#include "base/bits.hpp"
#include "config/config.hpp"
#include "regs/register_map.hpp"
#include "tb/translator/translator_contract.hpp"

namespace gpumem::tb {

namespace {

// A 32-bit value weighted to the edges: zero, all ones, one bit, small, random.
uint32_t edge_value(uint64_t r) {
  switch (r % 5) {
    case 0: return 0;
    case 1: return ~0u;
    case 2: return 1u << ((r >> 8) & 31);
    case 3: return static_cast<uint32_t>((r >> 8) & 7);
    default: return static_cast<uint32_t>(r >> 16);
  }
}

// Any offset the 16-bit port can carry: a register of the map at any index
// (beyond the configured extent too), a gap, above the map, a translator
// register with one of the port's high bits flipped (an alias for an RTL that
// ignores them), or misaligned.
uint32_t any_offset(uint64_t r) {
  const auto& map = register_map();
  const RegisterDef& row = map[(r >> 8) % map.size()];
  const uint32_t at = row.base + 4 * (static_cast<uint32_t>((r >> 16) % row.dim0) * row.dim1 +
                                      static_cast<uint32_t>((r >> 24) % row.dim1));
  switch ((r >> 32) % 6) {
    case 0: return at;
    case 1: return static_cast<uint32_t>((r >> 40) & 0xFFFC) % kRegisterSpaceBytes;  // mostly gaps and counters
    case 5: {  // a gap between registers: drawn until one is found (at most eight draws)
      uint32_t at_gap = 0;
      for (uint64_t k = 0; k < 8; ++k) {
        at_gap = static_cast<uint32_t>(((r >> 40) + k * 0x9E37) & 0xFFFC) % kRegisterSpaceBytes;
        if (!register_at(at_gap)) break;
      }
      return at_gap;
    }
    case 2: return kRegisterSpaceBytes + static_cast<uint32_t>((r >> 40) % (0x10000 - kRegisterSpaceBytes)) / 4 * 4;
    case 3: return kRtlTranslatorRegisters[(r >> 40) % kRtlTranslatorRegisters.size()] ^ (1u << (12 + (r >> 44) % 4));
    default: return at + 1 + static_cast<uint32_t>((r >> 40) % 3);
  }
}

// A register write as firmware might issue it, and as it should not: every
// offset and value class, so that the RTL's answer (reg_error_o) is compared
// over the whole space, not only where firmware writes.
void random_write(std::mt19937_64& rng, TranslatorPins& p) {
  const uint64_t r = rng();
  const unsigned t = (r >> 8) & 0xF;
  p.reg_we = true;
  switch (r % 16) {
    case 0: case 1: case 2: case 3: case 4: case 5:  // XOR_VECTOR[t][j], j < 8 (j >= m unmapped); one in sixteen misaligned
      p.reg_addr = kRegXorVector + 4 * (t * kMaxChannelBits + ((r >> 12) & 7)) +
                   (((r >> 56) & 15) == 0 ? 1 + static_cast<uint32_t>((r >> 60) % 3) : 0);
      p.reg_wdata = static_cast<uint32_t>(r >> 32) >> ((r >> 16) & 31);  // bits above K too
      break;
    case 6: case 7: case 8: case 9: {  // TASK_SCHEME[t]: the schemes, 3, and now and then any value; one in eight misaligned
      p.reg_addr = kRegTaskScheme + 4 * t + (((r >> 60) & 7) == 0 ? 1 + static_cast<uint32_t>((r >> 56) % 3) : 0);
      p.reg_wdata = ((r >> 16) & 7) ? (r >> 20) & 3 : edge_value(rng());
      break;
    }
    case 10: case 11: case 12: {  // CTRL: mostly enabled; position bit set (refused) sometimes; one in eight misaligned
      static constexpr uint32_t kValues[8] = {1, 1, 1, 3, 0, 2, 5, 0xFFFFFFF9};
      p.reg_addr = kRegCtrl + (((r >> 56) & 7) == 0 ? 1 + static_cast<uint32_t>((r >> 60) % 3) : 0);
      p.reg_wdata = kValues[(r >> 16) & 7];
      break;
    }
    default:
      p.reg_addr = any_offset(rng());
      p.reg_wdata = edge_value(rng());
      break;
  }
}

}  // namespace

TranslatorStimulus::TranslatorStimulus(uint64_t seed, const TranslatorBenchParams& p, const RtlTranslatorGeometry& g,
                                       const TranslatorRandomRun& run)
    : rng_(seed),
      address_mask_(g.address_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << g.address_bits) - 1),
      run_(run),
      layout_{g.channel_bits, 1u << g.channel_bits.size(), g.granule_shift},
      address_bits_(g.address_bits),
      matrix_(g.builds(Scheme::kMatrix)) {
  for (const auto& [offset, value] : p.firmware_writes) firmware_.push_back({offset, value});
  if (!matrix_) return;
  for (const std::string& name : baseline_names()) {
    BaselineMatrix b = baseline_matrix(name, layout_, address_bits_, seed);
    if (!b.rows.empty()) baselines_.push_back(std::move(b.rows));
  }
}

MatrixRows TranslatorStimulus::acceptable_rows() {
  const uint64_t usable = address_mask_ & ~(bit(layout_.granule_shift) - 1);
  MatrixRows rows(layout_.channel_bits.size());
  for (int attempt = 0; attempt < 64; ++attempt) {
    // Sparse rows now and then (a few bits, as IPOLY's), dense otherwise.
    const bool sparse = rng_() & 1;
    for (uint64_t& row : rows) row = (sparse ? rng_() & rng_() & rng_() : rng_()) & usable;
    if (channel_matrix_problem(rows, layout_, address_bits_).empty()) return rows;
  }
  // Rarely none in 64 draws: the identity on the channel bits, with random
  // other bits (never a channel bit, so the submatrix stays the identity).
  uint64_t channel_mask = 0;
  for (unsigned c : layout_.channel_bits) channel_mask |= bit(c);
  for (size_t j = 0; j < rows.size(); ++j)
    rows[j] = bit(layout_.channel_bits[j]) | (rng_() & rng_() & usable & ~channel_mask);
  return rows;
}

// One task type's rows staged and committed, of a class the scoreboard's
// "matrix class" coverage names: identity-like, dense or sparse, a
// baseline's, and the commits the rule refuses (singular, an empty row, a
// bit inside the granule or beyond the address space); or rows staged and
// never committed, which the mapping must not use.
void TranslatorStimulus::queue_matrix_sequence() {
  const size_t m = layout_.channel_bits.size();
  uint32_t t = static_cast<uint32_t>(rng_() % kMaxTaskTypes);
  const uint64_t r = rng_();
  MatrixRows rows(m);
  bool commit = true;
  switch (r % 9) {
    case 0:
      for (size_t j = 0; j < m; ++j) rows[j] = bit(layout_.channel_bits[j]);
      break;
    case 1: case 2:
      rows = acceptable_rows();
      break;
    case 3:
      if (!baselines_.empty()) {
        rows = baselines_[(r >> 8) % baselines_.size()];
        break;
      }
      rows = acceptable_rows();
      break;
    case 4: {  // singular: one row's channel part copies another's (or is zero)
      rows = acceptable_rows();
      const uint64_t channel_part = [&] {
        uint64_t mask = 0;
        for (unsigned c : layout_.channel_bits) mask |= bit(c);
        return mask;
      }();
      const size_t k = (r >> 8) % m, i = m > 1 ? (k + 1 + (r >> 16) % (m - 1)) % m : k;
      rows[k] = (rows[k] & ~channel_part) | (i == k ? 0 : rows[i] & channel_part);
      if (rows[k] == 0) rows[k] = bit(address_bits_ - 1) & address_mask_;
      break;
    }
    case 5:  // an empty row
      rows = acceptable_rows();
      rows[(r >> 8) % m] = 0;
      break;
    case 6:  // a bit inside the granule
      rows = acceptable_rows();
      if (layout_.granule_shift) rows[(r >> 8) % m] |= bit((r >> 16) % layout_.granule_shift);
      break;
    case 7:  // a bit beyond the address space
      rows = acceptable_rows();
      if (address_bits_ < 64) rows[(r >> 8) % m] |= bit(address_bits_ + (r >> 16) % (64 - address_bits_));
      break;
    default:  // staged, not committed: some rows of a task type, perhaps one in use
      rows = acceptable_rows();
      commit = false;
      break;
  }
  if (rows.size() != m) return;
  // Staged and not committed: now and then followed by a misaligned
  // TASK_SCHEME write of a scheme's value (refused), which must leave the
  // staged rows staged (the TASK_SCHEME write cross's misaligned bins), or
  // by such a value (mostly 3) one word past the TASK_SCHEME, XOR_VECTOR or
  // MATRIX_ROW_HI array, which another block owns and which a decode one
  // too loose takes for task type 0's (the index wraps): task type 0's rows
  // then. All rows staged in both, so that a commit would take acceptable rows.
  const bool misaligned_after = !commit && (r >> 48) % 2 == 0;
  const bool past_array_after = !commit && !misaligned_after && (r >> 33) % 2 == 0;
  if (past_array_after) t = 0;
  for (size_t j = 0; j < m; ++j) {
    if (!commit && !misaligned_after && !past_array_after && (r >> (24 + j)) & 1) continue;
    const uint32_t at = 4 * (t * kMaxChannelBits + static_cast<uint32_t>(j));
    queued_.push_back({kRegMatrixRowLo + at, static_cast<uint32_t>(rows[j])});
    queued_.push_back({kRegMatrixRowHi + at, static_cast<uint32_t>(rows[j] >> 32)});
  }
  if (commit) queued_.push_back({kRegTaskScheme + 4 * t, static_cast<uint32_t>(Scheme::kMatrix)});
  static constexpr uint32_t kValues[5] = {0, 1, 2, 3, 0x80000003};
  if (misaligned_after)
    queued_.push_back({kRegTaskScheme + 4 * t + 1 + static_cast<uint32_t>((r >> 50) % 3), kValues[(r >> 52) % 5]});
  if (past_array_after) {
    // Half of them past TASK_SCHEME, where a loose bound commits.
    const auto& past = kWordsPastTranslatorArrays;
    const uint32_t at = past[(r >> 34) % 4 < 2 ? 0 : (r >> 34) % 4 - 1];
    queued_.push_back({at, at == past[0] && (r >> 36) % 2 ? static_cast<uint32_t>(Scheme::kMatrix) : kValues[(r >> 52) % 5]});
  }
}

const TranslatorPins& TranslatorStimulus::next(bool accepted, uint64_t discarded) {
  TranslatorPins& p = pins_;
  if (accepted) p.req_valid = false;
  const uint64_t r = rng_();
  // A reset in the middle of traffic: two cycles of rst_ni low, nothing else
  // driven. A request held on the pins is withdrawn (and offered again
  // later); those in the RTL are lost, as the scoreboard counts.
  if (reset_cycles_left_ == 0 && (r >> 48) < run_.reset_per_65536 && offered_ > 0) reset_cycles_left_ = 2;
  p.reset = reset_cycles_left_ > 0;
  if (p.reset) {
    --reset_cycles_left_;
    if (p.req_valid) --offered_;
    p.req_valid = false;
    p.reg_we = false;
    // A reset cuts a sequence short; the driver then loads the config's
    // mappings again, while requests flow (those before it see the reset values).
    while (!queued_.empty()) queued_.drop_front();
    for (const Write& w : firmware_) queued_.push_back(w);
    return p;
  }
  if (firmware_done_ < firmware_.size()) {  // the firmware, before any request
    const Write w = firmware_[firmware_done_++];
    p.reg_we = true;
    p.reg_addr = w.offset;
    p.reg_wdata = w.value;
    p.rsp_ready = true;
    return p;
  }
  if (!p.req_valid && offered_ < run_.transactions + discarded && (r & 0xFF) < run_.req_valid_per_256) {
    p.req_valid = true;
    p.req_addr = rng_() & address_mask_;
    p.req_task_type = (r >> 24) & 0xF;
    ++offered_;
  }
  p.rsp_ready = ((r >> 8) & 0xFF) < run_.rsp_ready_per_256;
  p.reg_we = false;
  // Matrix sequences come on top of the random writes, which keep their
  // rate (the coverage of every offset rests on it) and go first when both
  // are due.
  if (matrix_ && queued_.empty() && (r >> 56) < run_.matrix_sequence_per_256) queue_matrix_sequence();
  if (((r >> 16) & 0xFF) < run_.reg_write_per_256) random_write(rng_, p);
  else if (!queued_.empty()) {  // a sequence goes out one write a cycle
    const Write w = queued_.pop_front();
    p.reg_we = true;
    p.reg_addr = w.offset;
    p.reg_wdata = w.value;
  }
  return p;
}

}  // namespace gpumem::tb
