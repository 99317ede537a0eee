// Scoreboard of the translator co-simulation: every RTL response is compared
// with gpumem::XorTranslator (mapped address, channel, scheme), whose register
// state comes from a gpumem::RegisterBank that receives the same register
// writes as the RTL, at the same clock edges; and every register write's
// answer (accepted or refused) with the model's.
#pragma once
#include <array>
#include <utility>
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <vector>

#include "base/channel_matrix.hpp"
#include "base/ring_buffer.hpp"
#include "tb/common/coverage.hpp"
#include "tb/common/protocol_checker.hpp"
#include "tb/common/toggle_coverage.hpp"
#include "config/config.hpp"
#include "regs/register_bank.hpp"
#include "router/channel_decoder.hpp"
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_pins.hpp"
#include "translator/xor_translator.hpp"

namespace gpumem::tb {

// What a protocol violation's report says of a payload.
std::string describe(const TranslatorRequest& r);
std::string describe(const TranslatorResponse& r);

// A translator transaction carries nothing beyond its pins (the TLB's
// operations do: TlbOpContext).
struct TranslatorOpContext {};

// The model's registers that map one task type: what a mismatch report
// shows of them, as the TLB's shows the model's set.
struct TranslatorTaskRegisters {
  bool interleave_enable = true;  // CTRL.INTERLEAVE_ENABLE
  Scheme scheme = Scheme::kNone;  // TASK_SCHEME[t]
  // XOR_VECTOR[t][j] under xor, the committed MATRIX_ROW[t][j] under matrix;
  // nothing under none and prime.
  std::array<uint64_t, kMaxChannelBits> rows{};
};

struct TranslatorMismatch {
  uint64_t transaction;  // 0-based, in request order (a register write: the next request's)
  uint64_t cycle;        // cycle whose rising edge took the response or the write
  uint64_t seed;
  uint64_t address;
  unsigned task_type;
  TranslatorResponse expected, actual;
  // A register write answered differently; then the fields above the
  // responses are unused.
  struct RegisterWrite {
    uint32_t offset, value;
    std::string expected, actual;  // "accepted" or "refused (<why>)"
    // Both refused it, but a register the RTL holds read back otherwise
    // after it (its name, e.g. "XOR_VECTOR[3][1]"; "" when none did).
    std::string state_register;
    uint32_t state_model = 0, state_rtl = 0;
  };
  std::optional<RegisterWrite> register_write;
  // The task type's registers when the request was accepted, or before the
  // write (a write to a task type's register: TASK_SCHEME, XOR_VECTOR,
  // MATRIX_ROW), and the geometry that names their bits.
  std::optional<TranslatorTaskRegisters> registers;
  unsigned registers_task = 0;
  // A TASK_SCHEME = 3 write: the rows it commits, as staged.
  std::optional<std::array<uint64_t, kMaxChannelBits>> staged;
  RtlTranslatorGeometry geometry;
  std::string report() const;  // model and RTL side by side
};

class TranslatorScoreboard {
 public:
  // `g`: the RTL's geometry; without its matrix scheme the port refuses
  // MATRIX_ROW and TASK_SCHEME 3.
  TranslatorScoreboard(const TranslatorBenchParams& p, const RtlTranslatorGeometry& g, uint64_t seed);

  // Call in edge order: responses taken, then requests accepted, then the
  // register write of the same edge (a same-edge request sees the old state).
  // Returns false on a mismatch; the first one is kept.
  bool response_taken(const TranslatorResponse& actual, uint64_t cycle);
  void request_accepted(uint64_t address, unsigned task);
  // `rtl_refused`: the RTL's answer (reg_error_o). Returns the model's status.
  RegStatus register_written(uint32_t offset, uint32_t value, bool rtl_refused, uint64_t cycle);
  // An edge with rst_ni low: the RTL's registers and response stage reset,
  // so the model's registers do and the requests in flight are discarded.
  void reset_edge();
  // After a reset of the RTL before traffic: the scoreboard keeps no
  // handshake state beyond its protocol checker's (the TLB's does).
  void reset_handshake() {}
  uint64_t discarded() const { return discarded_; }  // requests lost to resets
  void cover_register_write(uint32_t offset, uint32_t value, const Register* reg);
  // One clock edge as both modes see it: the pins driven in the cycle and the
  // handshakes sampled at its edge, through the protocol checker and then fed
  // in the order above. After a protocol violation nothing more is compared.
  void edge(const TranslatorPins& pins, const TranslatorEdge& e, TranslatorOpContext, uint64_t cycle) { edge(pins, e, cycle); }
  void edge(const TranslatorPins& pins, const TranslatorEdge& e, uint64_t cycle) {
    sample_toggles(pins, e);
    if (pins.reset) {
      protocol_.reset();
      return reset_edge();
    }
    in_reset_ = false;
    request_task_this_edge_ = -1;
    if (!protocol_.edge({pins.req_valid, e.req_accepted, {pins.req_addr, pins.req_task_type}},
                        {e.rsp_valid, pins.rsp_ready, e.rsp}, cycle))
      return;
    if (e.rsp_taken) response_taken(e.rsp, cycle);
    if (e.req_accepted) request_accepted(pins.req_addr, pins.req_task_type);
    if (pins.reg_we) register_written(pins.reg_addr, pins.reg_wdata, e.reg_refused, cycle);
  }

  // After a write both sides refused: the registers the RTL holds read back
  // through reg_rdata_o (`read` puts the pins on with the clock low and
  // samples them: no edge) and compared with the model's, the committed
  // matrix rows through the port's debug window (kMatrixInUseWindow): CTRL
  // and every register of the task type the write addressed (its word's;
  // a word one past an array: task type 0's), each of its arrays' row
  // j = m, which must read 0, and the refused word itself (0 unless the RTL
  // holds it); after every kStateSweepEvery-th such write every task
  // type's. A refused write that changed its own task type's state is
  // caught at that write, one that changed another's within that many
  // refused writes. Returns false on a difference (the first mismatch kept).
  static constexpr unsigned kStateSweepEvery = 64;
  bool state_check_due() const { return state_check_due_; }
  template <typename Read>
  bool check_state(Read&& read, uint64_t cycle) {
    state_check_due_ = false;
    const bool sweep = ++refused_since_sweep_ >= kStateSweepEvery;
    if (sweep) refused_since_sweep_ = 0;
    const std::vector<uint16_t>& which = state_of_task_[sweep ? kMaxTaskTypes : last_write_task_];
    TranslatorPins p;  // no write, no request
    p.rsp_ready = false;
    for (const uint16_t i : which) {
      const StateRegister& r = state_registers_[i];
      p.reg_addr = r.offset;
      const uint32_t rtl = read(p).reg_rdata;
      coverage_.toggle.sample(port_.reg_rdata, rtl);
      coverage_.state_read.hit(r.committed_row >= 0 ? (r.mask ? kReadCommittedRow : kReadCommittedRowM)
                               : r.mask                 ? kReadHeld
                                                        : kReadRowM);
      if (const uint32_t model = read_state(r); model != rtl) return state_differs(r, model, rtl, cycle);
    }
    // The refused word itself, where none of the above is it.
    if (state_index_.find(last_write_offset_) == state_index_.end()) {
      p.reg_addr = last_write_offset_;
      const uint32_t rtl = read(p).reg_rdata;
      coverage_.toggle.sample(port_.reg_rdata, rtl);
      coverage_.state_read.hit(last_write_past_array_ ? kReadPastArray : kReadRefusedWord);
      if (rtl != 0) return state_differs({last_write_offset_, refused_word_name(), 0u}, 0, rtl, cycle);
    }
    ++state_checks_;
    state_sweeps_ += sweep;
    return true;
  }
  uint64_t state_checks() const { return state_checks_; }  // refused writes after which the registers read agreed
  uint64_t state_sweeps() const { return state_sweeps_; }  // of them, those after which every register was read

  const std::optional<TranslatorMismatch>& first_mismatch() const { return first_mismatch_; }
  const std::optional<ProtocolViolation>& protocol_violation() const { return protocol_.violation(); }
  void set_hang_cycles(uint64_t n) { protocol_.set_hang_cycles(n); }
  void set_max_latency(unsigned n) { protocol_.set_max_latency(n); }
  uint64_t compared() const { return compared_; }
  uint64_t mismatches() const { return mismatches_; }
  size_t outstanding() const { return pending_.size(); }

  // Functional coverage of the compared requests (model values) and of the
  // register writes (the model's answer for the RTL translator's port).
  struct Coverage {
    // Effective scheme: a bin for each the RTL builds.
    CoverageGroup scheme{"scheme", {}};  // its bins: the scoreboard's constructor
    // Where the RTL has the matrix scheme: each TASK_SCHEME = 3 write by what
    // its staged rows are (the model's classification, so the bins count what
    // happened, not what the stimulus meant), and the cases around a commit.
    CoverageGroup matrix_class{"matrix class", {}};  // its bins: the scoreboard's constructor
    CoverageGroup task_type = CoverageGroup::indexed("task type", kMaxTaskTypes);
    CoverageGroup interleave{"interleave", {"off"}};
    CoverageGroup register_write{"register write", {"accepted", "refused"}};
    // Where writes land: every row of the register map (its name), and what is
    // not a register (register_target_bins() names them all).
    CoverageGroup register_target{"register target", register_target_bins()};
    // A translator register's offset with one of the port's high bits set:
    // what an RTL that ignores those bits would take for the register.
    CoverageGroup high_bit_alias{"high-bit alias", rtl_register_names()};
    CoverageGroup write_value{"write value", {"zero", "all ones", "one bit", "other"}};
    CoverageGroup task_scheme_value = task_scheme_value_group();
    // Writes to the translator's registers whose field is narrower than the
    // word (CTRL, XOR_VECTOR: its K bits at this configuration) by value
    // class: inside the field, or with bits outside it. TASK_SCHEME's values
    // are the group above.
    CoverageGroup field_value{"field value", {}};  // its bins: the scoreboard's constructor
    // Resets in the middle of traffic, by what they interrupted.
    CoverageGroup reset{"reset", {"idle", "response pending", "after register writes"}};
    // Crosses. TASK_SCHEME writes (where the RTL has the matrix scheme): at
    // the word or misaligned, the value's class, whether rows other than the
    // committed ones are staged for the task type, and whether it maps with
    // the matrix scheme then. A refused write that still commits the staged
    // rows changes the mapping only in misaligned / matrix / other rows
    // staged / matrix in use.
    CoverageGroup task_scheme_write{"TASK_SCHEME write", {}};  // its bins: the scoreboard's constructor
    // Every register write: at the word or misaligned, the translator
    // register it addresses (or another block's, or none), its value inside
    // the register's field or not (TASK_SCHEME: a scheme's value, 0 to 3),
    // and (where the RTL has the matrix scheme) whether rows other than the
    // committed ones are staged for the task type it addresses (CTRL and the
    // rest: for any task type). A field as wide as the word has no outside.
    CoverageGroup register_cross{"register cross", {}};  // its bins: the scoreboard's constructor
    // The state checks' reads (check_state): a register the RTL holds, a
    // committed row, a row j = m of an array or of the committed rows
    // (0 due), the refused word where the RTL holds none (0 due), and a
    // refused word one past an array.
    CoverageGroup state_read{"state read", {"held register", "committed row", "row m", "committed row m", "refused word",
                                            "past an array"}};
    ToggleCoverage toggle;  // every bit of every port (toggle_coverage.hpp)
    std::vector<const CoverageGroup*> groups() const {
      std::vector<const CoverageGroup*> g{&scheme,      &task_type,         &interleave, &register_write,
                                          &register_target, &high_bit_alias, &write_value, &task_scheme_value,
                                          &field_value,     &reset};
      if (matrix_class.size()) g.insert(g.begin() + 1, &matrix_class);
      if (task_scheme_write.size()) g.push_back(&task_scheme_write);
      g.push_back(&register_cross);
      g.push_back(&state_read);
      for (const CoverageGroup* t : toggle.groups()) g.push_back(t);
      return g;
    }
    static std::vector<std::string> register_target_bins();
    static std::vector<std::string> rtl_register_names();
    static CoverageGroup task_scheme_value_group();
  };
  const Coverage& coverage() const { return coverage_; }
  const RtlTranslatorGeometry& geometry() const { return geometry_; }
  // Requests compared per task type while its mapping was the config's own
  // (as the firmware loaded it: scheme, vectors, rows).
  const std::array<uint64_t, kMaxTaskTypes>& compared_on_configured() const { return compared_on_configured_; }
  // "configured   ..." : those counts by task type and its configured scheme
  // (a baseline by its name), on more lines when longer than kReportWidth; a
  // configured scheme other than none with no request compared on it says
  // "not checked".
  std::string configured_report() const;

 private:
  struct Pending {
    uint64_t transaction, address;
    unsigned task_type;
    TranslatorResponse expected;
    bool configured;  // mapped with the config's own mapping of its task type
    bool interleave;
    // The task type's registers at acceptance, for a mismatch's report: kept
    // only when a register write comes while the request is in flight (a
    // copy per request would cost the run several per cent).
    bool registers_kept;
    TranslatorTaskRegisters registers;
  };
  TranslatorTaskRegisters task_registers(unsigned task) const;
  // A register the RTL holds, as the state check reads it.
  struct StateRegister {
    uint32_t offset;
    std::string name;
    uint32_t mask;     // the bits the RTL holds (CTRL: the interleave enable only)
    int committed_row = -1;  // the debug window: t * kMaxChannelBits + j, its high halves kMaxTaskTypes * kMaxChannelBits on
  };
  // The constructor's parts: the registers the firmware's writes leave, the
  // coverage groups the geometry has bins for, the ports' toggles at the
  // configured widths, the registers the state checks read.
  void take_configured_state(const TranslatorBenchParams& p);
  void make_coverage_groups(const RtlTranslatorGeometry& g, uint64_t seed);
  void make_port_toggles(const RtlTranslatorGeometry& g);
  void list_state_registers(const RtlTranslatorGeometry& g);
  void add_state_register(uint32_t offset, uint32_t mask, int committed_row = -1);
  uint32_t model_state(const StateRegister& r) const;
  uint32_t read_state(const StateRegister& r) const;  // the model's value; 0 where the RTL holds nothing
  std::string refused_word_name() const;
  enum StateReadBin : size_t { kReadHeld, kReadCommittedRow, kReadRowM, kReadCommittedRowM, kReadRefusedWord, kReadPastArray };
  bool state_differs(const StateRegister& r, uint32_t model, uint32_t rtl, uint64_t cycle);
  std::vector<StateRegister> state_registers_;
  std::unordered_map<uint32_t, uint16_t> state_index_;  // offset -> state_registers_
  // Per task type: CTRL and that task type's registers (indices above); at
  // kMaxTaskTypes every register; for a write to no task type's, CTRL alone.
  std::array<std::vector<uint16_t>, kMaxTaskTypes + 2> state_of_task_;
  unsigned last_write_task_ = kMaxTaskTypes + 1;
  unsigned refused_since_sweep_ = 0;
  bool state_check_due_ = false;
  uint64_t state_checks_ = 0, state_sweeps_ = 0;
  uint32_t last_write_offset_ = 0, last_write_value_ = 0;
  bool last_write_past_array_ = false;
  RegStatus last_write_status_ = RegStatus::kOk;  // the model's answer to it (kOk: another block's register)

  // The bins of matrix_class past the baselines'.
  enum MatrixClassBin : size_t {
    kIdentityLike,
    kOtherAccepted,
    kSingularRefused,
    kEmptyRowRefused,
    kGranuleRefused,
    kBeyondRefused,
    kRecommitInUse,
    kCommitWithRequest,
    kStagedUnused,
    kMatrixClassBins
  };
  size_t matrix_bin(MatrixClassBin b) const { return baselines_.size() + b; }
  void cover_commit(unsigned task);
  bool configured(unsigned task) const;  // task's mapping is the config's own now

  uint64_t seed_;
  RtlTranslatorGeometry geometry_;
  ChannelLayout layout_;
  std::vector<std::pair<std::string, MatrixRows>> baselines_;  // defined at this layout
  std::array<std::array<uint64_t, kMaxChannelBits>, kMaxTaskTypes> staged_{};  // MATRIX_ROW_LO/HI as written
  // The config's own mapping per task type, as the firmware leaves the bank.
  TranslatorRegisters configured_;
  std::array<std::string, kMaxTaskTypes> configured_names_;  // scheme, or the baseline's name
  std::array<uint64_t, kMaxTaskTypes> compared_on_configured_{};
  int request_task_this_edge_ = -1;  // a request accepted at this edge: its task type
  ProtocolChecker<TranslatorRequest, TranslatorResponse> protocol_;
  RegisterBank bank_;
  XorTranslator model_;
  ChannelDecoder decoder_;
  // Requests in flight, oldest first (the translator holds two at most).
  RingBuffer<Pending> pending_;
  uint64_t requests_ = 0, compared_ = 0, mismatches_ = 0;
  uint64_t discarded_ = 0;
  bool in_reset_ = false;
  bool written_since_reset_ = false;
  void sample_toggles(const TranslatorPins& pins, const TranslatorEdge& e);
  // The toggle-coverage ports, by index into coverage_.toggle.
  struct TogglePorts {
    size_t handshake, req_addr, req_task_type, rsp_mapped, rsp_channel, rsp_scheme, reg_addr, reg_wdata, reg_error, reg_rdata;
  };
  Coverage coverage_;
  std::array<int, kRtlTranslatorRegisters.size()> field_bin_;  // its first field_value bin, or -1
  void cover_register_cross(uint32_t offset, uint32_t value);
  bool staged_differs(unsigned t) const;  // task type t has rows staged other than those committed
  std::array<size_t, kSchemeNames.size()> scheme_bin_{};        // a built scheme's bin in coverage_.scheme
  TogglePorts port_{};
  std::optional<TranslatorMismatch> first_mismatch_;
};

}  // namespace gpumem::tb
