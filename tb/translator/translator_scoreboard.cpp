#include "tb/translator/translator_scoreboard.hpp"

#include <algorithm>
#include <cstdio>
#include <stdexcept>

#include "base/baselines.hpp"
#include "base/bits.hpp"
#include "base/hex.hpp"
#include "params/block_params.hpp"
#include "regs/register_access.hpp"

namespace gpumem::tb {

namespace {

// "refused (<why>)": the model's status, or a write to another block's register.
std::string refusal(RegStatus s) {
  return std::string("refused (") + (s != RegStatus::kOk ? reg_status_name(s) : "another block's register") + ")";
}

// The task type whose register a write addresses (TASK_SCHEME[t],
// XOR_VECTOR[t][j], MATRIX_ROW_LO/HI[t][j]), or -1.
int task_type_written(uint32_t offset) {
  const RegisterDef* def = register_at(offset);
  if (!def || offset % 4) return -1;
  const uint32_t index = (offset - def->base) / 4;
  if (def->base == kRegTaskScheme) return static_cast<int>(index);
  if (def->base == kRegXorVector || def->base == kRegMatrixRowLo || def->base == kRegMatrixRowHi)
    return static_cast<int>(index / kMaxChannelBits);
  return -1;
}

// A refused write there is checked on task type 0's registers.
bool past_an_array(uint32_t offset) {
  const auto& past = kWordsPastTranslatorArrays;
  return std::find(past.begin(), past.end(), offset) != past.end();
}

// "bits 12 14 17" of an address mask.
std::string bit_list(uint64_t mask) {
  std::string s;
  for (unsigned b = 0; b < 64; ++b)
    if ((mask >> b) & 1) s += " " + std::to_string(b);
  return s.empty() ? "no bits" : (mask & (mask - 1) ? "bits" : "bit") + s;
}

// One register of the report: its name, its value, what it does to this
// address (none for a write's report).
std::string register_line(const std::string& name, const std::string& value, const std::string& meaning) {
  char buf[512];
  if (meaning.empty()) std::snprintf(buf, sizeof buf, "    %-22s %s\n", name.c_str(), value.c_str());
  else std::snprintf(buf, sizeof buf, "    %-22s %-18s %s\n", name.c_str(), value.c_str(), meaning.c_str());
  return buf;
}

// The task type's registers and what each does, channel bit by channel bit;
// with `address`, what each gives for it.
std::string registers_report(const TranslatorTaskRegisters& r, unsigned t, const RtlTranslatorGeometry& g,
                             const std::optional<uint64_t>& address) {
  const std::string at = "[" + std::to_string(t) + "]";
  std::string s = register_line("CTRL.INTERLEAVE_ENABLE", r.interleave_enable ? "1" : "0",
                                r.interleave_enable ? "" : "off: every task type maps to itself");
  const auto scheme = static_cast<unsigned>(r.scheme);
  s += register_line("TASK_SCHEME" + at, std::to_string(scheme) + " (" + scheme_name(r.scheme) + ")", "");
  const size_t m = g.channel_bits.size();
  if (r.scheme == Scheme::kPrime) {
    const uint64_t channels = uint64_t{1} << m;
    std::string meaning = "channel = (granule mod " + std::to_string(channels) + ") * " + std::to_string(g.prime) +
                          " mod " + std::to_string(channels) + ", granule = address >> " + std::to_string(g.granule_shift);
    if (address) {
      const uint64_t granule = *address >> g.granule_shift;
      meaning += ": " + std::to_string(granule % channels * (g.prime % channels) % channels);
    }
    s += register_line("PRIME (parameter)", std::to_string(g.prime), meaning);
  }
  if (r.scheme != Scheme::kXor && r.scheme != Scheme::kMatrix) return s;
  for (size_t j = 0; j < m; ++j) {
    const std::string c = "c_" + std::to_string(j) + " (bit " + std::to_string(g.channel_bits[j]) + ")";
    uint64_t mask = r.rows[j];
    std::string name = "MATRIX_ROW" + at + "[" + std::to_string(j) + "]", meaning = c + " = parity of ";
    if (r.scheme == Scheme::kXor) {
      mask = 0;
      std::string candidates;
      for (size_t i = 0; i < g.candidate_bits.size(); ++i)
        if ((r.rows[j] >> i) & 1) {
          mask |= uint64_t{1} << g.candidate_bits[i];
          candidates += " p_" + std::to_string(i);
        }
      name = "XOR_VECTOR" + at + "[" + std::to_string(j) + "]";
      meaning = c + " ^= parity of ";
      if (!candidates.empty()) meaning += bit_list(mask) + " (" + candidates.substr(1) + ")";
      else meaning = c + " unchanged";
    } else {
      meaning += bit_list(mask);
    }
    if (address && mask) meaning += " = " + std::to_string(parity(*address & mask));
    s += register_line(name, hex(r.rows[j], r.scheme == Scheme::kXor ? 8 : 16), meaning);
  }
  return s;
}

}  // namespace

std::string TranslatorMismatch::report() const {
  auto hex = [](uint64_t v) { return gpumem::hex(v, 10); };  // 40-bit addresses line up
  char buf[1024];
  auto row = [&](const char* name, const std::string& model, const std::string& rtl) {
    std::snprintf(buf, sizeof buf, "  %-9s %-28s %-28s%s\n", name, model.c_str(), rtl.c_str(),
                  model != rtl ? " <-- differs" : "");
    return std::string(buf);
  };
  if (register_write) {
    const RegisterDef* def = register_at(register_write->offset);
    std::snprintf(buf, sizeof buf,
                  "translator mismatch: transaction %llu (a register write), cycle %llu, seed %llu\n"
                  "  input: offset %s (%s), value %s\n",
                  static_cast<unsigned long long>(transaction), static_cast<unsigned long long>(cycle),
                  static_cast<unsigned long long>(seed), gpumem::hex(register_write->offset, 4).c_str(),
                  def ? def->name : "no register", gpumem::hex(register_write->value, 8).c_str());
    std::string s = buf;
    if (registers) {
      s += "  the model's registers for task type " + std::to_string(registers_task) + " before the write:\n" +
           registers_report(*registers, registers_task, geometry, std::nullopt);
      if (staged)
        for (size_t j = 0; j < geometry.channel_bits.size(); ++j)
          s += register_line("staged MATRIX_ROW[" + std::to_string(registers_task) + "][" + std::to_string(j) + "]",
                             gpumem::hex((*staged)[j], 16),
                             "c_" + std::to_string(j) + " = parity of " + bit_list((*staged)[j]));
    }
    std::snprintf(buf, sizeof buf, "  %-9s %-28s %s\n", "", "model", "rtl");
    s += buf;
    s += row("answer", register_write->expected, register_write->actual);
    if (!register_write->state_register.empty())
      s += row("after", register_write->state_register + " " + gpumem::hex(register_write->state_model, 8),
               register_write->state_register + " " + gpumem::hex(register_write->state_rtl, 8));
    return s;
  }
  std::snprintf(buf, sizeof buf, "translator mismatch: transaction %llu, cycle %llu, seed %llu\n  input: address %s, task type %u\n",
                static_cast<unsigned long long>(transaction), static_cast<unsigned long long>(cycle),
                static_cast<unsigned long long>(seed), hex(address).c_str(), task_type);
  std::string s = buf;
  if (registers)
    s += "  the model's registers for task type " + std::to_string(task_type) + " when the request was accepted:\n" +
         registers_report(*registers, task_type, geometry, address);
  std::snprintf(buf, sizeof buf, "  %-9s %-16s %s\n", "", "model", "rtl");
  s += buf;
  s += row("mapped", hex(expected.mapped), hex(actual.mapped));
  s += row("channel", std::to_string(expected.channel), std::to_string(actual.channel));
  // An RTL value outside the enumeration prints as "?".
  s += row("scheme", scheme_name(static_cast<Scheme>(expected.scheme)), scheme_name(static_cast<Scheme>(actual.scheme)));
  return s;
}

std::string describe(const TranslatorRequest& r) {
  return "address " + hex(r.address) + " task type " + std::to_string(r.task_type);
}

std::string describe(const TranslatorResponse& r) {
  return "mapped " + hex(r.mapped) + " channel " + std::to_string(r.channel) + " scheme " + std::to_string(r.scheme);
}

TranslatorScoreboard::TranslatorScoreboard(const TranslatorBenchParams& p, const RtlTranslatorGeometry& g, uint64_t seed)
    : seed_(seed),
      geometry_(g),
      layout_{g.channel_bits, 1u << g.channel_bits.size(), g.granule_shift},
      protocol_("translator", "transaction", 1, seed),
      bank_(p.registers),
      model_(p.translator, bank_.translator_registers()),
      decoder_(p.layout) {
  take_configured_state(p);
  make_coverage_groups(g, seed);
  make_port_toggles(g);
  list_state_registers(g);
}

// The state the firmware's writes leave (the stimulus writes them first).
void TranslatorScoreboard::take_configured_state(const TranslatorBenchParams& p) {
  RegisterBank loaded(p.registers);
  for (const auto& [offset, value] : p.firmware_writes) loaded.write(offset, 4, value);
  configured_ = loaded.translator_registers();
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    configured_names_[t] = !p.baselines[t].empty() ? p.baselines[t] : scheme_name(configured_.scheme[t]);
}

void TranslatorScoreboard::make_coverage_groups(const RtlTranslatorGeometry& g, uint64_t seed) {
  std::vector<std::string> scheme_bins;
  for (unsigned v = 0; v < kSchemeNames.size(); ++v) {
    if (!g.builds(static_cast<Scheme>(v))) continue;
    scheme_bin_[v] = scheme_bins.size();
    scheme_bins.emplace_back(kSchemeNames[v]);
  }
  coverage_.scheme = CoverageGroup("scheme", std::move(scheme_bins));
  if (g.builds(Scheme::kMatrix)) {
    std::vector<std::string> bins;
    for (const std::string& name : baseline_names()) {
      BaselineMatrix b = baseline_matrix(name, layout_, g.address_bits, seed);
      if (b.rows.empty()) continue;
      bins.push_back("baseline " + name);
      baselines_.emplace_back(name, std::move(b.rows));
    }
    for (const char* b : {"identity-like", "other accepted", "singular refused", "empty row refused", "granule refused",
                          "beyond refused", "re-commit in use", "commit with a request", "staged rows unused"})
      bins.emplace_back(b);
    coverage_.matrix_class = CoverageGroup("matrix class", std::move(bins));
    std::vector<std::string> values(kSchemeNames.begin(), kSchemeNames.end());
    values.emplace_back("above " + std::to_string(kSchemeNames.size() - 1));
    coverage_.task_scheme_write = CoverageGroup::cross(
        "TASK_SCHEME write",
        {{"aligned", "misaligned"}, values, {"rows as committed", "other rows staged"}, {"matrix in use", "other scheme"}});
  }
  std::vector<std::string> field_bins;
  for (size_t k = 0; k < kRtlTranslatorRegisters.size(); ++k) {
    const Register* reg = bank_.register_at(kRtlTranslatorRegisters[k]);
    field_bin_[k] = reg->field_mask() == ~0u ? -1 : static_cast<int>(field_bins.size());
    if (field_bin_[k] < 0) continue;
    field_bins.push_back(std::string(reg->def().name) + " in field");
    field_bins.push_back(std::string(reg->def().name) + " outside field");
  }
  coverage_.field_value = CoverageGroup("field value", std::move(field_bins));
  std::vector<std::vector<std::string>> dims{{"aligned", "misaligned"}, Coverage::rtl_register_names(), {"in field", "outside field"}};
  dims[1].emplace_back("other");
  if (g.builds(Scheme::kMatrix)) dims.push_back({"rows as committed", "other rows staged"});
  coverage_.register_cross = CoverageGroup::cross("register cross", dims, [this](const std::vector<size_t>& i) {
    return i[2] == 0 || (i[1] < kRtlTranslatorRegisters.size() && (field_bin_[i[1]] >= 0 || kRtlTranslatorRegisters[i[1]] == kRegTaskScheme));
  });
}

// The ports of rtl/gpumem_xor_translator.sv at the configured widths.
void TranslatorScoreboard::make_port_toggles(const RtlTranslatorGeometry& g) {
  ToggleCoverage& t = coverage_.toggle;
  const unsigned address_bits = g.address_bits;
  port_.handshake =
      t.signals("handshake", {"rst_ni", "req_valid_i", "req_ready_o", "rsp_valid_o", "rsp_ready_i", "reg_we_i"});
  port_.req_addr = t.port("req_addr_i", address_bits);
  port_.req_task_type = t.port("req_task_type_i", kPteTaskType.width);
  port_.rsp_mapped = t.port("rsp_mapped_o", address_bits);
  port_.rsp_channel = t.port("rsp_channel_o", static_cast<unsigned>(g.channel_bits.size()));
  port_.rsp_scheme = t.port("rsp_scheme_o", 2);
  port_.reg_addr = t.port("reg_addr_i", register_address_bits());
  port_.reg_wdata = t.port("reg_wdata_i", 32);
  port_.reg_error = t.port("reg_error_o", 1);
  // Read back in the state checks: the widest register the RTL holds.
  port_.reg_rdata = t.port("reg_rdata_o", g.builds(Scheme::kMatrix) ? 32u : std::max(2u, unsigned(g.candidate_bits.size())));
}

void TranslatorScoreboard::add_state_register(uint32_t offset, uint32_t mask, int committed_row) {
  constexpr int kHalf = int(kMaxTaskTypes * kMaxChannelBits);  // the window's rows of one half
  std::string name = committed_row < 0 ? register_element_name(offset)
                                       : "in-use row[" + std::to_string(committed_row % kHalf / kMaxChannelBits) + "][" +
                                             std::to_string(committed_row % kMaxChannelBits) + "]" + (committed_row >= kHalf ? ".hi" : ".lo");
  // Its task type: TASK_SCHEME[t], a row [t][j], a committed row's; none for CTRL.
  const unsigned task = committed_row >= 0 ? unsigned(committed_row) / kMaxChannelBits % kMaxTaskTypes
                        : offset == kRegCtrl ? kMaxTaskTypes
                                             : unsigned(task_type_written(offset));
  const auto index = static_cast<uint16_t>(state_registers_.size());
  state_registers_.push_back({offset, std::move(name), mask, committed_row});
  state_index_.emplace(offset, index);
  state_of_task_[kMaxTaskTypes].push_back(index);
  if (task == kMaxTaskTypes) {
    for (unsigned t = 0; t < kMaxTaskTypes; ++t) state_of_task_[t].push_back(index);
    state_of_task_[kMaxTaskTypes + 1].push_back(index);
  } else {
    state_of_task_[task].push_back(index);
  }
}

// The registers the state checks read: what the RTL holds of the
// translator's registers (XOR_VECTOR and MATRIX_ROW where it builds their
// scheme, rows j < m), then the committed rows in the debug window; and
// each task type's row j = m (m < 8) of those arrays and of the window,
// which must read 0 (mask 0): a read whose bound is one too loose gives
// a held row there.
void TranslatorScoreboard::list_state_registers(const RtlTranslatorGeometry& g) {
  add_state_register(kRegCtrl, kCtrlInterleaveEnable);
  const unsigned m = unsigned(g.channel_bits.size());
  const unsigned rows_read = std::min(m + 1, kMaxChannelBits);  // j = m: 0 due
  const auto held = [&](unsigned j) { return j < m ? ~0u : 0u; };
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    add_state_register(kRegTaskScheme + 4 * t, ~0u);
    for (unsigned j = 0; j < rows_read && g.builds(Scheme::kXor); ++j)
      add_state_register(kRegXorVector + 4 * (t * kMaxChannelBits + j), held(j));
    for (unsigned j = 0; j < rows_read && g.builds(Scheme::kMatrix); ++j) {
      add_state_register(kRegMatrixRowLo + 4 * (t * kMaxChannelBits + j), held(j));
      add_state_register(kRegMatrixRowHi + 4 * (t * kMaxChannelBits + j), held(j));
    }
  }
  for (unsigned half = 0; half < 2 && g.builds(Scheme::kMatrix); ++half)
    for (unsigned t = 0; t < kMaxTaskTypes; ++t)
      for (unsigned j = 0; j < rows_read; ++j) {
        const int row = int((half * kMaxTaskTypes + t) * kMaxChannelBits + j);
        add_state_register(kMatrixInUseWindow + 4 * uint32_t(row), held(j), row);
      }
}

uint32_t TranslatorScoreboard::read_state(const StateRegister& r) const {
  return r.mask == 0 ? 0u : model_state(r);
}

std::string TranslatorScoreboard::refused_word_name() const {
  const std::string name = register_element_name(last_write_offset_);
  return (name.empty() ? "offset " + hex(last_write_offset_, 4) : name) + " (the refused word)";
}

uint32_t TranslatorScoreboard::model_state(const StateRegister& r) const {
  if (r.committed_row >= 0) {
    constexpr int kHalf = int(kMaxTaskTypes * kMaxChannelBits);
    const int row = r.committed_row % kHalf;
    const uint64_t v = bank_.translator_registers().matrix_row[row / kMaxChannelBits][row % kMaxChannelBits];
    return static_cast<uint32_t>(r.committed_row >= kHalf ? v >> 32 : v);
  }
  uint32_t v = 0;
  bank_.read(r.offset, 4, v);
  return v & r.mask;
}

bool TranslatorScoreboard::state_differs(const StateRegister& r, uint32_t model, uint32_t rtl, uint64_t cycle) {
  ++mismatches_;
  if (!first_mismatch_) {
    TranslatorMismatch m{};
    m.transaction = requests_;
    m.cycle = cycle;
    m.seed = seed_;
    const std::string answer = refusal(last_write_status_);
    m.register_write = {last_write_offset_, last_write_value_, answer, answer, r.name, model, rtl};
    m.geometry = geometry_;
    first_mismatch_ = std::move(m);
  }
  return false;
}

void TranslatorScoreboard::sample_toggles(const TranslatorPins& pins, const TranslatorEdge& e) {
  ToggleCoverage& t = coverage_.toggle;
  t.sample(port_.handshake, uint64_t{!pins.reset} | uint64_t{pins.req_valid} << 1 | uint64_t{e.req_ready} << 2 |
                                uint64_t{e.rsp_valid} << 3 | uint64_t{pins.rsp_ready} << 4 | uint64_t{pins.reg_we} << 5);
  if (pins.reset) return;
  if (e.req_accepted) {
    t.sample(port_.req_addr, pins.req_addr);
    t.sample(port_.req_task_type, pins.req_task_type);
  }
  if (e.rsp_taken) {
    t.sample(port_.rsp_mapped, e.rsp.mapped);
    t.sample(port_.rsp_channel, e.rsp.channel);
    t.sample(port_.rsp_scheme, e.rsp.scheme);
  }
  if (pins.reg_we) {
    t.sample(port_.reg_addr, pins.reg_addr & ((uint64_t{1} << register_address_bits()) - 1));
    t.sample(port_.reg_wdata, pins.reg_wdata);
    t.sample(port_.reg_error, e.reg_refused);
  }
}

std::string TranslatorScoreboard::configured_report() const {
  const std::string head = "configured   requests compared on the config's own mapping (written first, as firmware does):";
  std::vector<std::string> pieces;
  std::string unchecked;
  uint64_t none = 0;
  for (unsigned t = 0; t < kMaxTaskTypes; ++t) {
    if (configured_.scheme[t] == Scheme::kNone) {
      none += compared_on_configured_[t];
      continue;
    }
    pieces.push_back(" task type " + std::to_string(t) + " " + configured_names_[t] + " " +
                     std::to_string(compared_on_configured_[t]) + ",");
    if (!compared_on_configured_[t]) unchecked += (unchecked.empty() ? "" : ", ") + std::to_string(t);
  }
  pieces.push_back(" the rest none " + std::to_string(none));
  if (!unchecked.empty()) pieces.push_back(" (task types " + unchecked + ": not checked on their configured mapping)");
  return wrapped(head, pieces, kReportWidth, 13);
}

bool TranslatorScoreboard::configured(unsigned t) const {
  const TranslatorRegisters& now = bank_.translator_registers();
  if (now.interleave_enable != configured_.interleave_enable || now.scheme[t] != configured_.scheme[t] ||
      now.xor_vector[t] != configured_.xor_vector[t])
    return false;
  return now.scheme[t] != Scheme::kMatrix || now.matrix_row[t] == configured_.matrix_row[t];
}

void TranslatorScoreboard::request_accepted(uint64_t address, unsigned task) {
  const XorTranslator::Result r = model_.translate(address, task);
  const TranslatorResponse e{r.mapped, decoder_.channel(r.mapped), static_cast<unsigned>(r.scheme)};
  const TranslatorRegisters& regs = bank_.translator_registers();
  Pending& p = pending_.push_back();
  p.transaction = requests_++;
  p.address = address;
  p.task_type = task;
  p.expected = e;
  p.configured = configured(task);
  p.interleave = regs.interleave_enable;
  p.registers_kept = false;
  request_task_this_edge_ = static_cast<int>(task);
  if (geometry_.builds(Scheme::kMatrix) && regs.scheme[task] == Scheme::kMatrix) {
    for (size_t j = 0; j < layout_.channel_bits.size(); ++j)
      if (staged_[task][j] != regs.matrix_row[task][j]) {
        coverage_.matrix_class.hit(matrix_bin(kStagedUnused));
        break;
      }
  }
}

// A TASK_SCHEME = 3 write to task type t, before the bank takes it.
void TranslatorScoreboard::cover_commit(unsigned t) {
  const size_t m = layout_.channel_bits.size();
  const MatrixRows rows(staged_[t].begin(), staged_[t].begin() + static_cast<long>(m));
  CoverageGroup& c = coverage_.matrix_class;
  if (!channel_matrix_problem(rows, layout_, geometry_.address_bits).empty()) {
    const uint64_t granule = bit(layout_.granule_shift) - 1;
    const uint64_t beyond = geometry_.address_bits >= 64 ? 0 : ~(bit(geometry_.address_bits) - 1);
    bool empty = false, inside = false, outside = false;
    for (uint64_t row : rows) {
      empty |= row == 0;
      inside |= (row & granule) != 0;
      outside |= (row & beyond) != 0;
    }
    c.hit(matrix_bin(empty ? kEmptyRowRefused : inside ? kGranuleRefused : outside ? kBeyondRefused : kSingularRefused));
    return;
  }
  size_t bin = matrix_bin(kOtherAccepted);
  bool identity = true;
  for (size_t j = 0; j < m; ++j) identity &= rows[j] == bit(layout_.channel_bits[j]);
  if (identity) bin = matrix_bin(kIdentityLike);
  for (size_t b = 0; b < baselines_.size(); ++b)
    if (baselines_[b].second == rows) bin = b;
  c.hit(bin);
  if (bank_.translator_registers().scheme[t] == Scheme::kMatrix) c.hit(matrix_bin(kRecommitInUse));
  if (request_task_this_edge_ == static_cast<int>(t)) c.hit(matrix_bin(kCommitWithRequest));
}

bool TranslatorScoreboard::response_taken(const TranslatorResponse& actual, uint64_t cycle) {
  if (pending_.empty()) throw std::logic_error("translator scoreboard: a response without a request");
  // Its slot is not written again before the next request is accepted: no
  // copy of it (nor of its kept registers) in the hot path.
  const Pending& p = pending_.front();
  pending_.drop_front();
  ++compared_;
  coverage_.scheme.hit(scheme_bin_[p.expected.scheme]);  // the model maps with built schemes only
  coverage_.task_type.hit(p.task_type);
  if (!p.interleave) coverage_.interleave.hit(0);
  const TranslatorResponse& e = p.expected;
  if (e == actual) {
    if (p.configured) ++compared_on_configured_[p.task_type];
    return true;
  }
  ++mismatches_;
  if (!first_mismatch_) {
    TranslatorMismatch m{};
    m.transaction = p.transaction;
    m.cycle = cycle;
    m.seed = seed_;
    m.address = p.address;
    m.task_type = m.registers_task = p.task_type;
    m.expected = e;
    m.actual = actual;
    // No write since the request was accepted: the registers are still its.
    m.registers = p.registers_kept ? p.registers : task_registers(p.task_type);
    m.geometry = geometry_;
    first_mismatch_ = std::move(m);
  }
  return false;
}

TranslatorTaskRegisters TranslatorScoreboard::task_registers(unsigned t) const {
  const TranslatorRegisters& regs = bank_.translator_registers();
  TranslatorTaskRegisters r;
  r.interleave_enable = regs.interleave_enable;
  r.scheme = regs.scheme[t];
  const size_t m = layout_.channel_bits.size();
  for (size_t j = 0; j < m; ++j) {
    if (r.scheme == Scheme::kXor) r.rows[j] = regs.xor_vector[t][j];
    if (r.scheme == Scheme::kMatrix) r.rows[j] = regs.matrix_row[t][j];
  }
  return r;
}

std::vector<std::string> TranslatorScoreboard::Coverage::register_target_bins() {
  std::vector<std::string> bins;
  for (const RegisterDef& r : register_map()) bins.emplace_back(r.name);
  for (const char* other : {"beyond the configured extent", "gap", "above the map", "misaligned"}) bins.emplace_back(other);
  return bins;
}

std::vector<std::string> TranslatorScoreboard::Coverage::rtl_register_names() {
  std::vector<std::string> names;
  for (uint32_t base : kRtlTranslatorRegisters) names.emplace_back(register_def(base).name);
  return names;
}

CoverageGroup TranslatorScoreboard::Coverage::task_scheme_value_group() {
  std::vector<std::string> bins(kSchemeNames.begin(), kSchemeNames.end());
  bins.emplace_back("above " + std::to_string(kSchemeNames.size() - 1));
  return CoverageGroup("TASK_SCHEME value", bins);
}

// `reg`: the register whose span holds the offset (null in a gap or above the map).
void TranslatorScoreboard::cover_register_write(uint32_t offset, uint32_t value, const Register* reg) {
  const size_t rows = register_map().size();
  if (offset % 4) {
    coverage_.register_target.hit(rows + 3);
  } else if (offset >= kRegisterSpaceBytes) {
    coverage_.register_target.hit(rows + 2);
  } else if (!reg) {
    coverage_.register_target.hit(rows + 1);
  } else {
    const RegisterDef& def = reg->def();
    // A register with no element at this configuration (MATRIX_ROW, which
    // the RTL does not have) counts as itself: every write to it is refused.
    const bool beyond = reg->mapped_dim1() > 0 && (offset - def.base) / 4 % def.dim1 >= reg->mapped_dim1();
    coverage_.register_target.hit(beyond ? rows : static_cast<size_t>(&def - register_map().data()));
    if (def.base == kRegTaskScheme) coverage_.task_scheme_value.hit(std::min<size_t>(value, kSchemeNames.size()));
    if (const int k = translator_port_register_index(&def); k >= 0 && field_bin_[k] >= 0)
      coverage_.field_value.hit(static_cast<size_t>(field_bin_[k]) + ((value & ~reg->field_mask()) ? 1 : 0));
  }
  if (offset >= 0x1000 && offset % 4 == 0)
    if (const int k = translator_port_register_index(register_at(offset & 0xFFF)); k >= 0) coverage_.high_bit_alias.hit(k);
  coverage_.write_value.hit(value == 0 ? 0 : value == ~0u ? 1 : (value & (value - 1)) == 0 ? 2 : 3);
}

bool TranslatorScoreboard::staged_differs(unsigned t) const {
  const TranslatorRegisters& regs = bank_.translator_registers();
  for (size_t j = 0; j < layout_.channel_bits.size(); ++j)
    if (staged_[t][j] != regs.matrix_row[t][j]) return true;
  return false;
}

void TranslatorScoreboard::cover_register_cross(uint32_t offset, uint32_t value) {
  const uint32_t word = offset & ~3u;
  const RegisterDef* def = register_at(word);
  const int k = translator_port_register_index(def);
  const size_t kind = k >= 0 ? static_cast<size_t>(k) : kRtlTranslatorRegisters.size();
  bool outside = false;
  if (k >= 0 && def->base == kRegTaskScheme) outside = value >= kSchemeNames.size();
  else if (k >= 0) outside = (value & ~bank_.register_at(word)->field_mask()) != 0;
  if (!geometry_.builds(Scheme::kMatrix)) {
    coverage_.register_cross.hit_cross({offset % 4 ? 1u : 0u, kind, outside ? 1u : 0u});
    return;
  }
  // The task type the word addresses (every one for CTRL and the rest).
  const int task = k >= 0 ? task_type_written(word) : -1;
  bool staged_other = false;
  for (unsigned t = task >= 0 ? unsigned(task) : 0; t < (task >= 0 ? unsigned(task) + 1 : kMaxTaskTypes); ++t)
    staged_other |= staged_differs(t);
  coverage_.register_cross.hit_cross({offset % 4 ? 1u : 0u, kind, outside ? 1u : 0u, staged_other ? 1u : 0u});
}

void TranslatorScoreboard::reset_edge() {
  if (in_reset_) return;  // the reset's later edges change nothing more
  in_reset_ = true;
  if (!pending_.empty()) coverage_.reset.hit(1);
  else coverage_.reset.hit(0);
  if (written_since_reset_) coverage_.reset.hit(2);
  written_since_reset_ = false;
  discarded_ += pending_.size();
  while (!pending_.empty()) pending_.drop_front();
  bank_.reset();
  for (auto& rows : staged_) rows.fill(0);  // MATRIX_ROW_LO/HI reset to 0
}

RegStatus TranslatorScoreboard::register_written(uint32_t offset, uint32_t value, bool rtl_refused, uint64_t cycle) {
  const Register* reg = bank_.register_at(offset);
  cover_register_write(offset, value, reg);
  // The requests in flight keep their task type's registers before a write
  // can change them, for a mismatch's report; the newest first, and those
  // before one that has kept its own already did at an earlier write.
  for (size_t i = pending_.size(); i-- > 0 && !pending_[i].registers_kept;) {
    pending_[i].registers = task_registers(pending_[i].task_type);
    pending_[i].registers_kept = true;
  }
  const int write_task = task_type_written(offset);
  // Only a mismatch needs the registers before the write.
  std::optional<TranslatorTaskRegisters> before;
  if (write_task >= 0 && !first_mismatch_) before = task_registers(static_cast<unsigned>(write_task));
  written_since_reset_ = true;
  const bool scheme_write = reg && reg->def().base == kRegTaskScheme && offset % 4 == 0;
  if (coverage_.task_scheme_write.size() && offset >= kRegTaskScheme && offset < kRegTaskScheme + 4 * kMaxTaskTypes) {
    const unsigned t = (offset - kRegTaskScheme) / 4;
    coverage_.task_scheme_write.hit_cross({offset % 4 ? 1u : 0u, std::min<size_t>(value, kSchemeNames.size()),
                                           staged_differs(t) ? 1u : 0u,
                                           bank_.translator_registers().scheme[t] == Scheme::kMatrix ? 0u : 1u});
  }
  cover_register_cross(offset, value);
  if (geometry_.builds(Scheme::kMatrix) && scheme_write && value == static_cast<uint32_t>(Scheme::kMatrix))
    cover_commit((offset - kRegTaskScheme) / 4);
  const RegStatus s = bank_.write(offset, 4, value);
  if (s == RegStatus::kOk && reg && (reg->def().base == kRegMatrixRowLo || reg->def().base == kRegMatrixRowHi)) {
    const uint32_t index = (offset - reg->def().base) / 4;
    uint64_t& row = staged_[index / kMaxChannelBits][index % kMaxChannelBits];
    const unsigned shift = reg->def().base == kRegMatrixRowHi ? 32 : 0;
    row = (row & ~(uint64_t{0xFFFFFFFF} << shift)) | (uint64_t{value} << shift);
  }
  const bool held = reg && translator_port_register_index(&reg->def()) >= 0;
  const bool refused = s != RegStatus::kOk || !held;
  coverage_.register_write.hit(refused ? 1 : 0);
  if (refused && rtl_refused) {
    state_check_due_ = true;
    last_write_offset_ = offset, last_write_value_ = value;
    last_write_past_array_ = past_an_array(offset);
    const int task = last_write_past_array_ ? 0 : task_type_written(offset & ~3u);  // a misaligned write: its word's
    last_write_task_ = task >= 0 ? unsigned(task) : kMaxTaskTypes + 1;
    last_write_status_ = s;
  }
  if (refused == rtl_refused) return s;
  ++mismatches_;
  if (!first_mismatch_) {

    TranslatorMismatch m{};
    m.transaction = requests_;
    m.cycle = cycle;
    m.seed = seed_;
    m.register_write = {offset, value, refused ? refusal(s) : "accepted", rtl_refused ? "refused" : "accepted", "", 0, 0};
    m.registers = before;
    m.registers_task = static_cast<unsigned>(std::max(write_task, 0));
    if (scheme_write && value == static_cast<uint32_t>(Scheme::kMatrix) && geometry_.builds(Scheme::kMatrix))
      m.staged = staged_[m.registers_task];
    m.geometry = geometry_;
    first_mismatch_ = std::move(m);
  }
  return s;
}

}  // namespace gpumem::tb
