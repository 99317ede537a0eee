// Built-in workload generators (config `workload:`), merged in issue order.
#pragma once
#include <memory>

#include "config/config.hpp"
#include "payload/request.hpp"

namespace gpumem {

std::unique_ptr<RequestSource> make_workload(const Config& cfg);

}  // namespace gpumem
