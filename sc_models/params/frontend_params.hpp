// The front end's parameters, taken from the one validated config. The front
// end (frontend/) knows nothing of the config or YAML; this is the one place
// that says which config key feeds which of its parameters.
#pragma once
#include <string>
#include <vector>

#include "config/config.hpp"
#include "frontend/frontend_params.hpp"
#include "frontend/placement.hpp"

namespace gpumem {

RequestLimits request_limits(const Config& cfg);
FrontendParams frontend_params(const Config& cfg);
TracePlayerParams trace_player_params(const Config& cfg);
std::vector<GeneratorParams> workload_params(const Config& cfg);

// At the start of region `region` of application `app` in `cfg`'s address
// space. InputError (the config file, the key) when the config has no
// address space, or no such application or region.
Placement region_placement(const Config& cfg, const std::string& app, const std::string& region);

}  // namespace gpumem
