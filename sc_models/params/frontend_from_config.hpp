// The front end's parameters, taken from the one validated config. The front
// end (frontend/) knows nothing of the config or YAML; this is the one place
// that says which config key feeds which of its parameters.
#pragma once
#include <memory>
#include <string>

#include "config/config.hpp"
#include "frontend/frontend_params.hpp"
#include "sources/placement.hpp"
#include "payload/request.hpp"

namespace gpumem {

RequestLimits request_limits(const Config& cfg);
FrontendParams frontend_params(const Config& cfg);
TracePlayerParams trace_player_params(const Config& cfg);

// The front end's functions on a config, for the callers that hold one (the
// run, the explorer, the tools and tests): the config's workload generators,
// and a region of its address space (sources/workload.hpp, sources/placement.hpp).
std::unique_ptr<RequestSource> make_workload(const Config& cfg);
Placement region_placement(const Config& cfg, const std::string& app, const std::string& region);

}  // namespace gpumem
