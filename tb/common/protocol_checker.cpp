#include "tb/common/protocol_checker.hpp"

namespace gpumem::tb {

std::string ProtocolViolation::report() const {
  std::string s = std::string(block) + (hang ? " hang: " : " protocol violation: ") + unit + " " +
                  std::to_string(operation) + ", cycle " + std::to_string(cycle) + ", seed " + std::to_string(seed) +
                  "\n  rule:   " + rule + "\n";
  if (!detail.empty()) s += "  detail: " + detail + "\n";
  return s;
}

}  // namespace gpumem::tb
