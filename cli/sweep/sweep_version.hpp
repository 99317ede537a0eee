// gpumem's version as the sweep hashes it into each point's identity: a
// point run by another build is another point (docs/sweeps.md, "Outputs").
// GPUMEM_VERSION is `git describe --always --dirty` when CMake configured
// the build (cli/CMakeLists.txt).
#pragma once
#include <string>

namespace gpumem::sweep {
inline const std::string kSweepVersion = GPUMEM_VERSION;
}  // namespace gpumem::sweep
