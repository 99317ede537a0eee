// Keeps AddressSanitizer's picture of the stack right around the SystemC
// kernel (docs/reliability.md, "Sanitizers"). SystemC 2.3.4 tells ASan about
// each switch between its thread stacks, but not about the last switch back to
// the main stack when a thread ends. ASan then takes the main stack for a
// thread's and skips unpoisoning it when an exception leaves frames there,
// so a later call reports a false stack overflow. payload/run_kernel.hpp calls
// this after every sc_start(); it compiles to nothing without ASan.
#pragma once

#if defined(__has_feature)
#if __has_feature(address_sanitizer)
#define GPUMEM_ASAN 1
#endif
#endif
#if defined(__SANITIZE_ADDRESS__)
#define GPUMEM_ASAN 1
#endif

#ifdef GPUMEM_ASAN
#include <pthread.h>

#include <cstddef>

extern "C" {
void __sanitizer_start_switch_fiber(void** fake_stack_save, const void* bottom, size_t size);
void __sanitizer_finish_switch_fiber(void* fake_stack_save, const void** bottom_old, size_t* size_old);
}
#endif

namespace gpumem {

inline void sanitizer_back_on_main_stack() {
#ifdef GPUMEM_ASAN
  pthread_attr_t attr;
  if (pthread_getattr_np(pthread_self(), &attr) != 0) return;
  void* bottom = nullptr;
  size_t size = 0;
  pthread_attr_getstack(&attr, &bottom, &size);
  pthread_attr_destroy(&attr);
  void* fake_stack = nullptr;
  __sanitizer_start_switch_fiber(&fake_stack, bottom, size);
  __sanitizer_finish_switch_fiber(fake_stack, nullptr, nullptr);
#endif
}

}  // namespace gpumem
