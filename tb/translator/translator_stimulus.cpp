#include "tb/translator/translator_stimulus.hpp"

#include "config/config.hpp"
#include "regs/register_map.hpp"

namespace gpumem::tb {

namespace {
// A register write as firmware might issue it, including values and offsets
// the model rejects (the RTL must drop exactly those).
void random_write(std::mt19937_64& rng, TranslatorPins& p) {
  const uint64_t r = rng();
  const unsigned t = (r >> 8) & 0xF;
  p.reg_we = true;
  switch (r % 16) {
    case 0: case 1: case 2: case 3: case 4: case 5: case 6:  // XOR_VECTOR[t][j], j < 8 (j >= M unmapped)
      p.reg_addr = kRegXorVector + 4 * (t * kMaxChannelBits + ((r >> 12) & 7));
      p.reg_wdata = static_cast<uint32_t>(r >> 32) >> ((r >> 16) & 31);  // bits above K too
      break;
    case 7: case 8: case 9: case 10: case 11:  // TASK_SCHEME[t]: 0..3 (3 rejected)
      p.reg_addr = kRegTaskScheme + 4 * t;
      p.reg_wdata = (r >> 16) & 3;
      break;
    case 12: case 13: case 14: {  // CTRL: mostly enabled; position bit set (rejected) sometimes
      static constexpr uint32_t kValues[8] = {1, 1, 1, 3, 0, 2, 5, 0xFFFFFFF9};
      p.reg_addr = kRegCtrl;
      p.reg_wdata = kValues[(r >> 16) & 7];
      break;
    }
    default:  // anywhere in the low map, misaligned too
      p.reg_addr = (r >> 16) & 0x3FF;
      p.reg_wdata = static_cast<uint32_t>(r >> 32);
      break;
  }
}
}  // namespace

TranslatorStimulus::TranslatorStimulus(uint64_t seed, unsigned address_bits, const TranslatorRandomRun& run)
    : rng_(seed), address_mask_(address_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << address_bits) - 1), run_(run) {}

const TranslatorPins& TranslatorStimulus::next(bool accepted) {
  TranslatorPins& p = pins_;
  if (accepted) p.req_valid = false;
  const uint64_t r = rng_();
  if (!p.req_valid && offered_ < run_.transactions && (r & 0xFF) < run_.req_valid_per_256) {
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
