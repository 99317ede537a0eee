// Toggle coverage of a block's ports: for every bit of every port, whether
// the co-simulation saw it rise (0->1) and fall (1->0) in the values the RTL
// was given or answered with. A bit that never moved is input space the
// stimulus never reached (a frame-number bit stuck at 0 hides a truncated
// frame) or an output whose every value the comparison never saw. The
// scoreboards sample a port where its value means something: the handshake
// bits at every edge, a request's fields when it is accepted (the TLB's VA
// per operation, lookup and fill apart), a response's when it is taken.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "tb/common/coverage.hpp"

namespace gpumem::tb {

class ToggleCoverage {
 public:
  // Declares a port of `width` bits (at most 64) before the first sample;
  // `fixed` marks bits the interface fixes (no bin: they cannot toggle).
  // Returns the port's index for sample().
  size_t port(const std::string& name, unsigned width, uint64_t fixed = 0) {
    std::vector<std::string> bins;
    for (unsigned b = 0; b < width; ++b)
      if (!((fixed >> b) & 1)) bins.push_back("[" + std::to_string(b) + "]");
    return add(name, width, fixed, std::move(bins));
  }
  // One-bit ports sampled together, bit b being signals[b]: one sample a
  // cycle instead of one per port, a bin per signal by its name.
  size_t signals(const std::string& name, std::vector<std::string> signals) {
    const unsigned width = static_cast<unsigned>(signals.size());
    return add(name, width, 0, std::move(signals));
  }
  void sample(size_t port, uint64_t value) {
    Port& p = ports_[port];
    if (p.seen) {
      p.rise |= ~p.last & value;
      p.fall |= p.last & ~value;
    }
    p.last = value;
    p.seen = true;
  }
  // A group per port, a bin per bit, hit when the bit was seen rising and
  // falling. Counted from the bit masks when asked (sampling costs a few
  // logic operations); the groups keep their addresses.
  std::vector<const CoverageGroup*> groups() const {
    std::vector<const CoverageGroup*> out;
    for (size_t i = 0; i < ports_.size(); ++i) {
      const Port& p = ports_[i];
      CoverageGroup& g = groups_[i];
      size_t bin = 0;
      for (unsigned b = 0; b < p.width; ++b) {
        if ((p.fixed >> b) & 1) continue;
        const bool both = (p.rise >> b) & (p.fall >> b) & 1;
        if (both && g[bin] == 0) g.hit(bin);
        ++bin;
      }
      out.push_back(&g);
    }
    return out;
  }

 private:
  struct Port {
    unsigned width;
    uint64_t fixed, last, rise, fall;
    bool seen;
  };
  size_t add(const std::string& name, unsigned width, uint64_t fixed, std::vector<std::string> bins) {
    ports_.push_back({width, fixed, 0, 0, 0, false});
    groups_.emplace_back("toggle " + name, std::move(bins));
    return ports_.size() - 1;
  }

  std::vector<Port> ports_;
  mutable std::vector<CoverageGroup> groups_;
};

}  // namespace gpumem::tb
