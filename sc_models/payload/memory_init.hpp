#pragma once
#include <cstdint>
#include <vector>

namespace gpumem {

// Bytes the driver writes into simulated memory before the first kernel,
// through the same translation the kernels' requests take (the process's
// page tables and task type, the translator). Generators put the data
// structures their kernels read here (the BFS generator its CSR arrays).
struct MemoryInit {
  unsigned process = 0;  // the process whose address space it is in (sources/thread_trace.hpp, KernelInfo)
  uint64_t address = 0;
  std::vector<uint8_t> bytes;  // at most kMemoryInitChunk (sources/thread_trace.hpp)
};

}  // namespace gpumem
