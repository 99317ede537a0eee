#include "base/address_space_spec.hpp"

namespace gpumem {

std::string AddressSpaceConfig::region_key(const RegionConfig* region) const {
  for (size_t i = 0; i < applications.size(); ++i)
    for (size_t k = 0; k < applications[i].regions.size(); ++k)
      if (&applications[i].regions[k] == region)
        return "address_space.applications[" + std::to_string(i) + "].regions[" + std::to_string(k) + "]";
  return "address_space";
}

const ApplicationConfig* AddressSpaceConfig::application(unsigned process) const {
  for (const auto& a : applications)
    if (a.process == process) return &a;
  return nullptr;
}

}  // namespace gpumem
