// gpumem's version as the sweep hashes it into each point's identity: a
// point run by another build is another point (docs/sweeps.md, "Outputs").
// GPUMEM_VERSION is `git describe --always --dirty` of the sources when
// they were built (cli/version.cmake).
#pragma once
#include <string>

#include "gpumem_version.hpp"

namespace gpumem::sweep {
inline const std::string kSweepVersion = GPUMEM_VERSION;
}  // namespace gpumem::sweep
