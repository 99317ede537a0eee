// gpumem explore (docs/explorer.md, "gpumem explore").
#pragma once
#include <string>

namespace gpumem::cli {

struct ExploreArgs {
  std::string config, trace, json, emit_yaml;
  unsigned window = 0;
  unsigned beam = 4;
  unsigned threads = 1;
};

int explore_command(const ExploreArgs& a);

}  // namespace gpumem::cli
