/* The C interface of one Verilated RTL block in fast mode (--cc, clocked from
 * C++): what tb/common/rtl_adapter.hpp puts around a Verilated model, linked
 * into gpumem for the built-in geometries or built into a shared library at
 * run time (tb/common/rtl_library.hpp) for any other geometry and for a user's
 * RTL. Ports are values in the block's contract order (its *_INPUTS and
 * *_OUTPUTS lists, tb/<block>/<block>_contract.hpp); every contract port is at
 * most 64 bits wide. Plain C, so a library built by another compiler run
 * loads with no C++ ABI between the two. */
#ifndef GPUMEM_TB_COMMON_RTL_ABI_H
#define GPUMEM_TB_COMMON_RTL_ABI_H
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/* Raised whenever the table below changes, so a library in the cache built
 * against another table is rebuilt instead of loaded. */
#define GPUMEM_RTL_ABI_VERSION 3u

typedef struct GpumemRtlApi {
  uint32_t abi_version;
  uint32_t inputs, outputs; /* port counts, checked against the contract's */
  /* A model with its own VerilatedContext. Every flop starts from a value
   * drawn from `seed` (Verilator's random reset); `waves` != 0 enables
   * tracing before the model exists. Returns null on failure. */
  void* (*create)(const char* scope, uint64_t seed, int waves);
  void (*destroy)(void* model); /* final(), then the FST file closed */
  /* Inputs onto the pins, the context's time set, eval(), outputs read. */
  void (*eval)(void* model, uint64_t time, const uint64_t* inputs, uint64_t* outputs);
  /* The rising edge: clk_i (input 0) to 1, eval(); the outputs are not read. */
  void (*rise)(void* model, uint64_t time);
  int (*assertion_failed)(void* model); /* an RTL assertion has fired */
  int (*waves_open)(void* model, const char* path); /* 0 on success */
  void (*waves_dump)(void* model, uint64_t time);
  /* The model's code coverage so far (Verilator's coverage points; none
   * unless verilated with --coverage-line) into `path`, in
   * verilator_coverage's .dat form. 0 on success. */
  int (*coverage_write)(void* model, const char* path);
} GpumemRtlApi;

/* The one symbol a library built at run time exports. */
typedef const GpumemRtlApi* (*GpumemRtlApiEntry)(void);
#define GPUMEM_RTL_API_ENTRY "gpumem_rtl_api"
/* A pin-level (--sc) library's one symbol: void* (*)(const char* name,
 * uint64_t seed), returning the block's shell (tb/common/rtl_sc_shell.hpp). */
#define GPUMEM_RTL_SC_ENTRY "gpumem_rtl_sc_create"

#ifdef __cplusplus
}
#endif
#endif
