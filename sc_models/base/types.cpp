#include "base/types.hpp"

namespace gpumem {

const char* scheme_name(Scheme s) {
  switch (s) {
    case Scheme::kNone: return "none";
    case Scheme::kXor: return "xor";
    case Scheme::kPrime: return "prime";
  }
  return "?";
}

const char* replacement_name(Replacement r) { return r == Replacement::kLru ? "lru" : "plru"; }

}  // namespace gpumem
