#include "tb/translator/translator_cosim.hpp"

#include <stdexcept>

namespace gpumem::tb {

RegStatus TranslatorCosim::write_register(uint32_t offset, uint32_t value) {
  TranslatorPins p;
  p.rsp_ready = false;
  p.reg_we = true;
  p.reg_addr = offset;
  p.reg_wdata = value;
  const TranslatorEdge e = model_cycle(p);
  TranslatorScoreboard& sb = mutable_scoreboard();
  const RegStatus s = sb.register_written(offset, value, e.reg_refused, cycles());
  if (sb.state_check_due()) sb.check_state([this](const TranslatorPins& pins) { return model_peek(pins); }, cycles());
  return s;
}

TranslatorResponse TranslatorCosim::request(uint64_t address, unsigned task) {
  TranslatorPins p;
  p.req_valid = true;
  p.req_addr = address;
  p.req_task_type = task;
  for (unsigned i = 0; !cycle(p).req_accepted; ++i)
    if (i > 16) throw std::runtime_error("translator co-simulation: request never accepted");
  p.req_valid = false;
  for (unsigned i = 0;; ++i) {
    const TranslatorEdge e = cycle(p);
    if (e.rsp_taken) return e.rsp;
    if (i > 16) throw std::runtime_error("translator co-simulation: no response");
  }
}

}  // namespace gpumem::tb
