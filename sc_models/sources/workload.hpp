// Built-in workload generators (config `workload:`), merged in issue order.
#pragma once
#include <memory>
#include <vector>

#include "base/workload_spec.hpp"
#include "payload/request.hpp"

namespace gpumem {

std::unique_ptr<RequestSource> make_workload(const std::vector<GeneratorConfig>& generators);

}  // namespace gpumem
