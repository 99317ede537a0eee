#include "tb/common/rtl_model.hpp"

#include <stdexcept>
#include <string>

namespace gpumem::tb {

TableRtl::TableRtl(const GpumemRtlApi& api, const char* scope, uint64_t seed, bool waves)
    : api_(api), inputs_(api.inputs, 0), outputs_(api.outputs, 0) {
  if (api.abi_version != GPUMEM_RTL_ABI_VERSION)
    throw std::runtime_error("RTL model built for interface version " + std::to_string(api.abi_version) +
                             ", this gpumem speaks " + std::to_string(GPUMEM_RTL_ABI_VERSION));
  model_ = api_.create(scope, seed, waves ? 1 : 0);
  if (!model_) throw std::runtime_error(std::string("could not create the ") + scope + " RTL model");
}

TableRtl::~TableRtl() { api_.destroy(model_); }

void throw_unwritable(const std::string& path) { throw std::runtime_error("cannot write the waves file " + path); }

}  // namespace gpumem::tb
