#include "firmware.hpp"

#include <stdexcept>
#include <string>

#include "register_map.hpp"

namespace gpumem {

void program_translator(const Config& cfg, const RegisterWrite& write) {
  auto must = [&](uint32_t offset, uint32_t value, const std::string& what) {
    if (!write(offset, value)) throw std::runtime_error("register bank refused a write to " + what);
  };
  // Vectors before the scheme, so a task type never runs xor with stale vectors.
  for (const auto& tm : cfg.translator.tasks)
    for (size_t j = 0; j < tm.xor_vectors.size(); ++j)
      must(kRegXorVector + 4 * (tm.task * kMaxChannelBits + static_cast<uint32_t>(j)), tm.xor_vectors[j],
           "XOR_VECTOR[" + std::to_string(tm.task) + "][" + std::to_string(j) + "]");
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    must(kRegTaskScheme + 4 * t, static_cast<uint32_t>(cfg.scheme_of(t)), "TASK_SCHEME[" + std::to_string(t) + "]");
  must(kRegCtrl, cfg.translator.interleave_enable ? kCtrlInterleaveEnable : 0, "CTRL");
}

}  // namespace gpumem
