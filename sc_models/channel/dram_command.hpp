// A DRAM command as both timing modes decide it, and the command trace
// (gpumem run --dram-commands; docs/memory.md, "The command trace"): every
// command of every channel, in each channel's cycle order, as it becomes
// final, so the trace is written while the run goes and holds only the
// commands a model may still place before others.
#pragma once
#include <cstdint>
#include <queue>
#include <vector>

#include "base/dram_spec.hpp"

namespace gpumem {

// The command trace's first line: its columns (docs/memory.md, "The command trace").
inline constexpr const char* kDramCommandHeader = "cycle,channel,rank,bank_group,bank,row,column,command,request";

enum class DramCommandKind : uint8_t { kActivate, kPrecharge, kRead, kWrite, kRefresh };
const char* dram_command_name(DramCommandKind k);

// A command, in memory clock cycles.
struct DramCommand {
  static constexpr uint64_t kNoRequest = ~uint64_t{0};
  uint64_t cycle;
  DramCommandKind kind;
  unsigned rank, bank_group, bank;  // an all-bank refresh's bank fields are 0
  uint32_t row;
  // A precharge recorded with it rides on the column command before it (closed page):
  // the trace writes that column command as RDA or WRA and no PRE.
  bool auto_precharge = false;
  uint32_t column = 0;   // column commands: in bursts
  uint64_t request = kNoRequest;  // the id of the request it serves; none for a refresh and the precharges before it
};

// Where a channel's commands go, in its cycle order (on a tie, in the order
// the model decided them).
class DramCommandSink {
 public:
  virtual ~DramCommandSink() = default;
  virtual void command(unsigned channel, const DramCommand& c) = 0;
};

// Puts one channel's commands in cycle order for a sink. A model decides
// some commands ahead of ones it decided before (lt plans an arrival's
// commands into gaps between planned ones; a closed page's precharge is
// known at its column command), so it says up to which cycle its commands
// are final (release_before) and this holds the rest.
class DramCommandOrder {
 public:
  DramCommandOrder(DramCommandSink& sink, unsigned channel) : sink_(sink), channel_(channel) {}
  void add(const DramCommand& c);
  // No command the model decides from now on falls before `cycle`.
  void release_before(uint64_t cycle);
  void release_all() { release_before(~uint64_t{0}); }
  size_t held() const { return heap_.size() + has_last_; }

 private:
  struct Held {
    DramCommand c;
    uint64_t seq;
    bool operator>(const Held& o) const { return c.cycle != o.c.cycle ? c.cycle > o.c.cycle : seq > o.seq; }
  };
  void push_last();

  DramCommandSink& sink_;
  unsigned channel_;
  std::priority_queue<Held, std::vector<Held>, std::greater<Held>> heap_;
  // The last command added, kept back one call: an auto-precharge that
  // follows it marks it instead of being a command of its own.
  DramCommand last_{};
  bool has_last_ = false;
  uint64_t seq_ = 0;
};

}  // namespace gpumem
