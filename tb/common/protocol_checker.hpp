// The valid/ready rules of a block's request and response ports, checked at
// every rising edge of both modes, beside the scoreboard's data comparison:
// a broken handshake is reported like a data mismatch (operation, cycle,
// seed, the rule, waves, replay, exit 1) instead of confusing the scoreboard
// or hanging the run. docs/cosim.md lists the rules.
#pragma once
#include <cstdint>
#include <optional>
#include <string>

#include "base/readable.hpp"
#include "base/ring_buffer.hpp"

namespace gpumem::tb {

// Cycles without a handshake, while the bench waits on the RTL (a request on
// the pins not taken, or an operation whose response is not taken), after
// which the run stops with a hang report (`gpumem cosim --hang-cycles`).
// Random back-pressure holds a response for a few cycles at most; a
// thousand means the RTL has stopped.
inline constexpr uint64_t kDefaultHangCycles = 1000;

struct ProtocolViolation {
  const char* block;
  const char* unit;  // what an operation is called in the block's reports: "transaction", "operation"
  bool hang;         // the watchdog fired (no handshake for hang_cycles)
  std::string rule;  // the rule broken, one line
  std::string detail;
  uint64_t operation;  // 0-based, in acceptance order: the one the rule concerns
  uint64_t cycle;      // the edge that broke it
  uint64_t seed;
  // "<block> protocol violation: <unit> N, cycle C, seed S" (or "<block> hang: ..."),
  // then the rule and the detail.
  std::string report() const;
};

// One valid/ready channel as sampled at a rising edge.
template <typename Payload>
struct ChannelSample {
  bool valid = false;
  bool ready = false;
  Payload payload{};  // meaningful while valid
  bool taken() const { return valid && ready; }
};

// The handshakes a rising edge resolved, from the valid and ready each side
// held before it: what both modes sample into a block's Edge.
struct EdgeHandshakes {
  bool req_ready = false;     // req_ready_o
  bool req_accepted = false;  // req_valid_i && req_ready_o
  bool rsp_valid = false;     // rsp_valid_o
  bool rsp_taken = false;     // rsp_valid_o && rsp_ready_i
  bool rsp_stalled = false;   // rsp_valid_o && !rsp_ready_i
  void sample(bool req_valid_i, bool req_ready_o, bool rsp_valid_o, bool rsp_ready_i) {
    req_ready = req_ready_o;
    req_accepted = req_ready_o && req_valid_i;
    rsp_valid = rsp_valid_o;
    rsp_taken = rsp_valid_o && rsp_ready_i;
    rsp_stalled = rsp_valid_o && !rsp_ready_i;
  }
};

// Payloads need operator== and a free `std::string describe(const Payload&)`.
template <typename Request, typename Response>
class ProtocolChecker {
 public:
  // `max_latency`: edges from an operation's acceptance until its response
  // must be valid (the block's documented timing; both blocks answer in the
  // next cycle: 1).
  ProtocolChecker(const char* block, const char* unit, unsigned max_latency, uint64_t seed)
      : block_(block), unit_(unit), max_latency_(max_latency), seed_(seed) {}

  void set_hang_cycles(uint64_t n) { hang_cycles_ = n; }
  // A user's RTL of the port contract may answer later than the project's
  // (docs/cosim.md): then only the hang watchdog bounds the wait.
  void set_max_latency(unsigned n) { max_latency_ = n; }
  uint64_t hang_cycles() const { return hang_cycles_; }

  // One rising edge out of reset. Returns false at the first violation (kept;
  // later edges are not checked: the scoreboard is out of step by then).
  bool edge(const ChannelSample<Request>& req, const ChannelSample<Response>& rsp, uint64_t cycle) {
    if (violation_) return false;
    // The bench's own requests obey the rules it checks the RTL against.
    if (!held(req_stalled_, req, req_last_, "request", accepted_, cycle)) return false;
    if (!held(rsp_stalled_, rsp, rsp_last_, "response", taken_, cycle)) return false;
    if (rsp.valid && waiting_.empty()) {
      const bool again = rsp_was_taken_ && rsp.payload == rsp_last_;
      return fail(false,
                  again ? "duplicate response: the response just taken is offered again"
                        : "response without a request: rsp_valid with no operation outstanding",
                  describe(rsp.payload), taken_, cycle);
    }
    if (!waiting_.empty() && !rsp.valid && cycle - waiting_.front() >= max_latency_)
      return fail(false,
                  "latency: no response " + std::to_string(cycle - waiting_.front()) +
                      " cycles after the operation was accepted (the interface answers within " +
                      std::to_string(max_latency_) + ")",
                  "accepted at cycle " + std::to_string(waiting_.front()), taken_, cycle);
    const bool handshake = req.taken() || rsp.taken();
    const bool bench_waits = (req.valid && !req.ready) || !waiting_.empty();
    quiet_ = handshake || !bench_waits ? 0 : quiet_ + 1;
    if (quiet_ >= hang_cycles_)
      return fail(true, "hang: no handshake for " + counted(quiet_, "cycle", "cycles"),
                  req.valid && !req.ready ? "req_ready low the whole time, request " + describe(req.payload)
                                          : "no response to the operation accepted at cycle " + std::to_string(waiting_.front()),
                  req.valid && !req.ready ? accepted_ : taken_, cycle);

    if (rsp.taken()) {
      waiting_.drop_front();
      ++taken_;
      // The next operation's wait starts when it reaches the head.
      if (!waiting_.empty() && waiting_.front() < cycle) waiting_.front() = cycle;
    }
    if (req.taken()) {
      waiting_.push_back(cycle);
      ++accepted_;
    }
    // The payloads are kept only where a later edge compares them: a stalled
    // one (held and stable) and the response just taken (duplicate).
    req_stalled_ = req.valid && !req.ready;
    if (req_stalled_) req_last_ = req.payload;
    rsp_stalled_ = rsp.valid && !rsp.ready;
    rsp_was_taken_ = rsp.taken();
    if (rsp.valid) rsp_last_ = rsp.payload;
    return true;
  }

  // rst_ni low: the RTL forgets what it held, the bench withdraws what it offered.
  void reset() {
    while (!waiting_.empty()) waiting_.drop_front();
    req_stalled_ = rsp_stalled_ = rsp_was_taken_ = false;
    quiet_ = 0;
    taken_ = accepted_;
  }

  const std::optional<ProtocolViolation>& violation() const { return violation_; }

 private:
  // Valid held and payload stable after an edge that stalled the channel.
  template <typename Payload>
  bool held(bool stalled, const ChannelSample<Payload>& now, const Payload& last, const char* side, uint64_t operation,
            uint64_t cycle) {
    if (!stalled) return true;
    if (!now.valid)
      return fail(false,
                  std::string(side) + " withdrawn while stalled: valid must stay high until the " + side + " is taken",
                  "held " + describe(last), operation, cycle);
    if (!(now.payload == last))
      return fail(false, std::string(side) + " changed while stalled: the payload must stay stable until taken",
                  "held " + describe(last) + ", now " + describe(now.payload), operation, cycle);
    return true;
  }
  bool fail(bool hang, std::string rule, std::string detail, uint64_t operation, uint64_t cycle) {
    violation_ = ProtocolViolation{block_, unit_, hang, std::move(rule), std::move(detail), operation, cycle, seed_};
    return false;
  }

  const char* block_;
  const char* unit_;
  unsigned max_latency_;
  uint64_t seed_;
  uint64_t hang_cycles_ = kDefaultHangCycles;
  RingBuffer<uint64_t> waiting_{8};  // per outstanding operation: the edge it was accepted (or reached the head)
  uint64_t accepted_ = 0, taken_ = 0;
  uint64_t quiet_ = 0;
  bool req_stalled_ = false, rsp_stalled_ = false, rsp_was_taken_ = false;
  Request req_last_{};
  Response rsp_last_{};
  std::optional<ProtocolViolation> violation_;
};

}  // namespace gpumem::tb
