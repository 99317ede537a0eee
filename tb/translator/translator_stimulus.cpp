#include "tb/translator/translator_stimulus.hpp"

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
  switch ((r >> 32) % 5) {
    case 0: return at;
    case 1: return static_cast<uint32_t>((r >> 40) & 0xFFFC) % kRegisterSpaceBytes;  // mostly gaps and counters
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
    case 0: case 1: case 2: case 3: case 4: case 5:  // XOR_VECTOR[t][j], j < 8 (j >= m unmapped)
      p.reg_addr = kRegXorVector + 4 * (t * kMaxChannelBits + ((r >> 12) & 7));
      p.reg_wdata = static_cast<uint32_t>(r >> 32) >> ((r >> 16) & 31);  // bits above K too
      break;
    case 6: case 7: case 8: case 9: {  // TASK_SCHEME[t]: the schemes, 3, and now and then any value
      p.reg_addr = kRegTaskScheme + 4 * t;
      p.reg_wdata = ((r >> 16) & 7) ? (r >> 20) & 3 : edge_value(rng());
      break;
    }
    case 10: case 11: case 12: {  // CTRL: mostly enabled; position bit set (refused) sometimes
      static constexpr uint32_t kValues[8] = {1, 1, 1, 3, 0, 2, 5, 0xFFFFFFF9};
      p.reg_addr = kRegCtrl;
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

TranslatorStimulus::TranslatorStimulus(uint64_t seed, unsigned address_bits, const TranslatorRandomRun& run)
    : rng_(seed), address_mask_(address_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << address_bits) - 1), run_(run) {}

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
  if (((r >> 16) & 0xFF) < run_.reg_write_per_256) random_write(rng_, p);
  return p;
}

}  // namespace gpumem::tb
