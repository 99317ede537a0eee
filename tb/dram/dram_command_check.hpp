// The checker of DRAM command traces (gpumem dram-check; docs/memory.md,
// "Checking a command trace"): reads the trace gpumem run --dram-commands
// writes and holds every command to the constraints of kDramConstraints and
// the checks beside them, reporting the first it breaks. It knows the
// commands only as the trace gives them and the device only as the config's
// DramSpec does; it shares no code with the controllers.
#pragma once
#include <cstdint>
#include <deque>
#include <istream>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "base/dram_spec.hpp"

namespace gpumem::tb {

// One line of a command trace.
struct DramTraceCommand {
  uint64_t line = 0, cycle = 0;
  unsigned channel = 0, rank = 0, bank_group = 0, bank = 0;
  uint32_t row = 0, column = 0;
  unsigned kind = 0;             // one DramCommandSet bit (dram_constraints.hpp)
  bool auto_precharge = false;  // RDA, WRA
  bool all_banks = false;       // REF: every bank of the rank
  bool same_bank = false;       // REFsb: bank `bank` of every bank group of the rank
  std::string name;             // as written
};

// An earlier command, as a violation names it.
struct DramTraceMark {
  uint64_t line = 0, cycle = 0;
  char name[6] = "";
  bool auto_precharge = false;  // the precharge of an RDA or WRA: `cycle` is when it begins
  static DramTraceMark of(const DramTraceCommand& c);
};

// A command that breaks a constraint: what it is, which earlier command it
// is too close to (none for a bank's state), and by how many cycles.
struct DramViolation {
  std::string constraint;  // "tRCD", "data bus", "bank state"
  DramTraceCommand command;
  std::optional<DramTraceMark> earlier;
  uint64_t allowed_from = 0;  // timing: the first cycle it may issue at
  std::string why;            // what the constraint says, or what the state is
  uint64_t early() const { return allowed_from > command.cycle ? allowed_from - command.cycle : 0; }
  // "tRCD: RD at cycle 233 (channel 0, rank 0, bank group 1, bank 2) is 1 cycle early: ACT at line 55 (cycle 211) ..."
  std::string text() const;
};

class DramCommandChecker {
 public:
  DramCommandChecker(const DramSpec& spec, unsigned channels);
  // The first constraint c breaks, if any; c joins the history either way.
  // Each channel's commands must come in cycle order.
  std::optional<DramViolation> check(const DramTraceCommand& c);
  // After the last command: a rank (or bank) that went nine refresh
  // intervals without a refresh before its channel's last command.
  std::optional<DramViolation> finish();

 private:
  struct Seen {
    bool any = false;
    DramTraceMark mark;  // its cycle: for an auto-precharge, when it begins
  };
  struct Bank {
    bool open = false;
    uint32_t row = 0;
    DramTraceMark opened;  // its activate
  };
  struct Burst {
    uint64_t start, end;
    unsigned rank;
    bool write;
    DramTraceMark command;
  };
  struct Channel {
    std::vector<Bank> banks;
    // The latest command of each kind (a bit of DramCommandSet) by scope,
    // kKinds a key: bank, rank * groups + group, rank.
    std::vector<Seen> by_bank, by_group, by_rank;
    std::vector<std::deque<DramTraceMark>> activates;  // per rank: its last four
    std::vector<uint64_t> last_refresh;                   // per refresh_key
    std::deque<Burst> bursts;                             // those a later burst may still come close to
    uint64_t last_cycle = 0;
    bool row_bus_used = false, column_bus_used = false;  // in last_cycle
    DramTraceMark row_bus_command, column_bus_command;
    bool any = false;
  };

  size_t bank_index(const DramTraceCommand& c) const;
  // A refresh's banks, else its own: `count` indices from `first`, `stride` apart.
  struct Banks {
    size_t first, stride, count;
  };
  Banks banks_of(const DramTraceCommand& c) const;
  // Whose refresh interval a refresh restarts: its rank's, its bank's (REFpb) or its rank's bank of every group's (REFsb).
  size_t refresh_key(const DramTraceCommand& c) const;
  std::optional<DramViolation> state(const Channel& ch, const DramTraceCommand& c) const;
  std::optional<DramViolation> distances(const Channel& ch, const DramTraceCommand& c) const;
  std::optional<DramViolation> four_activates(const Channel& ch, const DramTraceCommand& c) const;
  std::optional<DramViolation> command_bus(const Channel& ch, const DramTraceCommand& c) const;
  std::optional<DramViolation> data_bus(Channel& ch, const DramTraceCommand& c) const;
  std::optional<DramViolation> refresh_interval(const Channel& ch, const DramTraceCommand& c) const;
  void remember(Channel& ch, const DramTraceCommand& c);
  void remember_kind(Channel& ch, const DramTraceCommand& c, unsigned kind, const DramTraceMark& mark, bool banks_only);

  DramSpec spec_;
  std::vector<Channel> channels_;
};

// A trace file's commands, one at a time. Throws InputError naming the
// file, the line and the column for anything that is not a command of the
// config's device (bad numbers, a bank past the organisation, an unknown
// command, a channel's cycle going back).
class DramTraceReader {
 public:
  DramTraceReader(std::istream& in, std::string path, const DramSpec& spec, unsigned channels);
  // False at the end.
  bool next(DramTraceCommand& c);
  uint64_t commands() const { return commands_; }

 private:
  std::istream& in_;
  std::string path_;
  const DramSpec& spec_;
  unsigned channels_;
  uint64_t line_ = 0, commands_ = 0;
  std::vector<uint64_t> last_cycle_;
  std::string text_;               // the line being read
  std::vector<std::string> fields_;  // its fields
};

struct DramCheckResult {
  uint64_t commands = 0;
  std::optional<DramViolation> violation;  // the first
};
// Reads and checks the trace at `path`. Throws InputError as the reader does.
DramCheckResult check_dram_command_trace(const std::string& path, const DramSpec& spec, unsigned channels);

}  // namespace gpumem::tb
