#include "base/types.hpp"

namespace gpumem {

const char* replacement_name(Replacement r) { return r == Replacement::kLru ? "lru" : "plru"; }

}  // namespace gpumem
