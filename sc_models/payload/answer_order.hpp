// What an approximately-timed initiator (simulation.timing: at) keeps of its
// requests in flight: their payloads, pooled, and their answers, taken in
// (completion cycle, issue order). Every target answers before the
// completion cycle it announces, so by a cycle every answer due then has
// come, whatever order the kernel ran the targets in: an initiator that
// takes answers this way runs the same on every rerun.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <queue>
#include <unordered_map>
#include <vector>

#include <tlm>

namespace gpumem {

// Slots for requests in flight, each with its own payload (`Slot::payload`,
// a RequestPayload); a slot's place never moves.
template <typename Slot>
class SlotPool {
 public:
  Slot& take() {
    if (free_.empty()) {
      slots_.push_back(std::make_unique<Slot>());
      free_.push_back(slots_.back().get());
      of_[&slots_.back()->payload.trans] = slots_.back().get();
    }
    Slot& s = *free_.back();
    free_.pop_back();
    return s;
  }
  void give(Slot& s) { free_.push_back(&s); }
  Slot& of(const tlm::tlm_generic_payload& trans) const { return *of_.at(&trans); }
  Slot* find(const tlm::tlm_generic_payload& trans) const {  // null: not one of the pool's payloads
    const auto it = of_.find(&trans);
    return it == of_.end() ? nullptr : it->second;
  }

 private:
  std::vector<std::unique_ptr<Slot>> slots_;
  std::vector<Slot*> free_;
  std::unordered_map<const tlm::tlm_generic_payload*, Slot*> of_;
};

template <typename Slot>
class AnswerOrder {
 public:
  // The answer to the `seq`-th request issued, completing at `finish`.
  void push(uint64_t finish, uint64_t seq, Slot& slot) { heap_.push({finish, seq, &slot}); }
  bool empty() const { return heap_.empty(); }
  uint64_t next_finish() const { return heap_.top().finish; }
  // The next answer completing at or before `now`, or null.
  Slot* pop_due(uint64_t now) {
    if (heap_.empty() || heap_.top().finish > now) return nullptr;
    Slot* s = heap_.top().slot;
    heap_.pop();
    return s;
  }

 private:
  struct Answered {
    uint64_t finish, seq;
    Slot* slot;
    bool operator>(const Answered& o) const { return finish != o.finish ? finish > o.finish : seq > o.seq; }
  };
  std::priority_queue<Answered, std::vector<Answered>, std::greater<Answered>> heap_;
};

}  // namespace gpumem
