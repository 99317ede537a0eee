// A mutant's co-simulation runner: `gpumem cosim` without the rest of gpumem
// (no SystemC kernel, no CLI11), linked against one mutated block. Same
// options and exit codes as `gpumem cosim`, so that a mutant is judged by
// exactly the code a user runs.
#include <cstdlib>
#include <exception>
#include <iostream>
#include <string>

#include "base/input_error.hpp"
#include "tb/cosim_run.hpp"

namespace {
int usage(const char* why) {
  std::cerr << "gpumem-mutant: " << why
            << "\nusage: gpumem-mutant [cosim] --config F [--block B] [--transactions N] [--seed S] [--count-all] [--hang-cycles N] [--waves DIR]\n";
  return 2;
}

bool to_u64(const std::string& s, uint64_t& v) {
  char* end = nullptr;
  v = std::strtoull(s.c_str(), &end, 10);
  return !s.empty() && s[0] != '-' && *end == '\0';
}
}  // namespace

// The pin-level mode links SystemC, whose library calls sc_main; the runner
// never starts a SystemC simulation (mutants are checked in fast mode).
extern "C" int sc_main(int, char**) { return 2; }

int main(int argc, char** argv) {
  gpumem::tb::CosimOptions o;
  // A replay file calls the program that wrote it as `PROGRAM cosim ...`
  // (tb/common/wave_window.cpp): here, this runner, with its mutant.
  const int first = argc > 1 && std::string(argv[1]) == "cosim" ? 2 : 1;
  for (int i = first; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--count-all") {
      o.count_all = true;
      continue;
    }
    if (i + 1 >= argc) return usage(("missing value or unknown option " + a).c_str());
    const std::string v = argv[++i];
    if (a == "--config") {
      o.config = v;
    } else if (a == "--block") {
      o.block = v;
    } else if (a == "--waves") {
      o.waves = v;
    } else if (a == "--transactions" || a == "--seed" || a == "--hang-cycles") {
      uint64_t& n = a == "--seed" ? o.seed : a == "--hang-cycles" ? o.hang_cycles : o.transactions;
      if (!to_u64(v, n)) return usage((a + " needs a number").c_str());
    } else {
      return usage(("unknown option " + a).c_str());
    }
  }
  if (o.config.empty()) return usage("--config is required");
  try {
    return gpumem::tb::run_cosim(o, std::cout);
  } catch (const gpumem::InputError& e) {
    std::cerr << "gpumem-mutant: error: " << e.what() << "\n";
    return 2;
  } catch (const std::exception& e) {
    std::cerr << "gpumem-mutant: model error: " << e.what() << "\n";
    return 3;
  }
}
