// The fast-mode adapter around a Verilated --cc model: the C table of
// rtl_abi.h over a block's port lists. The same code serves a model linked
// into gpumem (the built-in geometries) and one built into a shared library
// at run time (rtl_library.cpp writes a three-line source that expands
// GPUMEM_RTL_ADAPTER with the library's model).
//
// A block's port lists are X-macros in contract order, e.g.
//   #define GPUMEM_TRANSLATOR_INPUTS(X) X(clk_i) X(rst_ni) ...
// The first two inputs are always clk_i and rst_ni.
#pragma once
#include <cstdint>
#include <memory>

#include "tb/common/rtl_abi.h"
#include "verilated.h"
#include "verilated_fst_c.h"

namespace gpumem::tb {

template <typename Model>
struct RtlAdapterModel {
  VerilatedContext context;
  std::unique_ptr<Model> dut;
  std::unique_ptr<VerilatedFstC> fst;
};

// The seed of Verilator's random initial values from the run's seed: never 0
// (which Verilator takes as "pick one at random").
inline int verilator_seed(uint64_t seed) { return static_cast<int>(seed % 0x7FFFFFFEu) + 1; }

template <typename Model>
void* rtl_adapter_create(const char* scope, uint64_t seed, int waves) {
  try {
    auto* m = new RtlAdapterModel<Model>;
    // Every flop starts from a value drawn from the seed (the RTL is
    // verilated with --x-initial unique), so a missing reset shows the same
    // way in every rerun of that seed.
    m->context.randReset(2);
    m->context.randSeed(verilator_seed(seed));
    if (waves) m->context.traceEverOn(true);  // before the model exists
    // A failing RTL assertion must not abort the process: the co-simulation
    // stops there and reports it with the transaction count and the waves.
    m->context.fatalOnError(false);
    m->dut = std::make_unique<Model>(&m->context, scope);
    return m;
  } catch (...) {
    return nullptr;
  }
}

template <typename Model>
void rtl_adapter_destroy(void* model) {
  auto* m = static_cast<RtlAdapterModel<Model>*>(model);
  m->dut->final();
  if (m->fst) m->fst->close();
  delete m;
}

template <typename Model>
int rtl_adapter_assertion_failed(void* model) {
  return static_cast<RtlAdapterModel<Model>*>(model)->context.gotError() ? 1 : 0;
}

template <typename Model>
int rtl_adapter_waves_open(void* model, const char* path) {
  auto* m = static_cast<RtlAdapterModel<Model>*>(model);
  m->fst = std::make_unique<VerilatedFstC>();
  m->dut->trace(m->fst.get(), 99);
  m->fst->open(path);
  return m->fst->isOpen() ? 0 : 1;
}

template <typename Model>
void rtl_adapter_waves_dump(void* model, uint64_t time) {
  static_cast<RtlAdapterModel<Model>*>(model)->fst->dump(time);
}

#define GPUMEM_RTL_ADAPTER_SET(port) dut.port = inputs[i++];
#define GPUMEM_RTL_ADAPTER_GET(port) outputs[o++] = static_cast<uint64_t>(dut.port);
#define GPUMEM_RTL_ADAPTER_COUNT(port) +1

// Defines `const GpumemRtlApi* NAME()` for the Verilated class MODEL with
// the port lists INPUTS and OUTPUTS.
#define GPUMEM_RTL_ADAPTER(NAME, MODEL, INPUTS, OUTPUTS)                                                       \
  const GpumemRtlApi* NAME() {                                                                                 \
    static const GpumemRtlApi api{                                                                             \
        GPUMEM_RTL_ABI_VERSION,                                                                                \
        0 INPUTS(GPUMEM_RTL_ADAPTER_COUNT),                                                                    \
        0 OUTPUTS(GPUMEM_RTL_ADAPTER_COUNT),                                                                   \
        ::gpumem::tb::rtl_adapter_create<MODEL>,                                                               \
        ::gpumem::tb::rtl_adapter_destroy<MODEL>,                                                              \
        [](void* model, uint64_t time, const uint64_t* inputs, uint64_t* outputs) {                            \
          auto* m = static_cast<::gpumem::tb::RtlAdapterModel<MODEL>*>(model);                                 \
          MODEL& dut = *m->dut;                                                                                \
          unsigned i = 0, o = 0;                                                                               \
          INPUTS(GPUMEM_RTL_ADAPTER_SET)                                                                       \
          m->context.time(time);                                                                               \
          dut.eval();                                                                                          \
          OUTPUTS(GPUMEM_RTL_ADAPTER_GET)                                                                      \
          (void)i;                                                                                             \
          (void)o;                                                                                             \
        },                                                                                                     \
        ::gpumem::tb::rtl_adapter_assertion_failed<MODEL>,                                                     \
        ::gpumem::tb::rtl_adapter_waves_open<MODEL>,                                                           \
        ::gpumem::tb::rtl_adapter_waves_dump<MODEL>};                                                          \
    return &api;                                                                                               \
  }

}  // namespace gpumem::tb
