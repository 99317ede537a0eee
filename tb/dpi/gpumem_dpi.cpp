// libgpumem_dpi.so: the golden model's plain classes behind the DPI-C
// functions gpumem_ref_pkg.sv declares (docs/dpi.md). The prototypes come
// from Verilator's header of that package (generated at build time), so a
// signature that drifts from the package does not compile.
//
// No exception may cross into the simulator: every function catches, keeps
// the message for gpumem_ref_error() and returns its failure value.
#include <algorithm>
#include <cstdint>
#include <exception>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>

#include "params/block_params.hpp"
#include "config/config.hpp"
#include "driver/address_space.hpp"
#include "gpumem_ref_pkg__Dpi.h"
#include "mmu/page_table.hpp"
#include "mmu/tlb.hpp"
#include "regs/register_bank.hpp"
#include "regs/register_map.hpp"
#include "router/channel_decoder.hpp"
#include "tb/translator/translator_contract.hpp"
#include "tb/translator/translator_stimulus.hpp"
#include "translator/xor_translator.hpp"

namespace {

using namespace gpumem;

thread_local std::string last_error;

enum class RegisterPort { kSystem, kTranslator };

// What a reference model is built with: the model's parameter structs for
// a config and a register port. The model knows nothing of the config;
// model_params maps one onto them.
struct ModelParams {
  RegisterPort port = RegisterPort::kSystem;
  tb::RtlTranslatorGeometry geometry;  // the translator RTL's for the config: what the geometry functions report
  tb::TranslatorBenchParams bench;     // its registers as the chosen port answers
  TlbParams tlb;
  unsigned va_bits = 0;
  std::optional<AllocatorParams> allocator;  // with an address space: the page tables the walker reads
  bool nesting = false;
};

// `schemes`: what the translator RTL builds (gpumem cosim --schemes).
ModelParams model_params(const Config& cfg, RegisterPort port, tb::SchemeSet schemes) {
  ModelParams p;
  p.port = port;
  p.geometry = tb::translator_geometry_of_config(cfg, schemes);
  p.bench = tb::translator_bench_params(cfg, p.geometry);
  if (port == RegisterPort::kSystem) p.bench.registers = register_params(cfg);
  p.tlb = tlb_params(cfg);
  p.va_bits = cfg.address_space.va_bits;
  if (cfg.has_mmu()) p.allocator = allocator_params(cfg);
  p.nesting = cfg.address_space.nesting;
  return p;
}

struct Model {
  explicit Model(const ModelParams& p)
      : params(p),
        bank(params.bench.registers),
        translator(params.bench.translator, bank.translator_registers()),
        decoder(params.bench.layout),
        tlb(params.tlb),
        walker(PageTableLayout(params.tlb.geometry.small_bits, params.va_bits), params.tlb.geometry) {
    if (params.allocator) image = build_address_space(*params.allocator, params.nesting);
  }

  uint64_t read_pte(uint64_t pa) const {
    if (!image) return 0;
    const auto& w = image->pte_writes;
    const auto it = std::lower_bound(w.begin(), w.end(), pa, [](const PteWrite& x, uint64_t a) { return x.pa < a; });
    return it != w.end() && it->pa == pa ? it->value : 0;
  }

  ModelParams params;
  RegisterBank bank;
  XorTranslator translator;
  ChannelDecoder decoder;
  Tlb tlb;
  PageTableWalker walker;
  std::optional<AddressSpaceImage> image;
  TlbEntry last_entry;  // of the last lookup that hit, or the last fill's victim
};

struct Stimulus {
  tb::TranslatorStimulus pins;
};

Model& model_of(void* handle) {
  if (!handle) throw std::invalid_argument("null model handle (gpumem_ref_open failed? gpumem_ref_error says why)");
  return *static_cast<Model*>(handle);
}

// Runs `body`; on an exception keeps its message and returns `failed`.
template <typename T, typename F>
T guarded(T failed, F&& body) {
  try {
    last_error.clear();
    return body();
  } catch (const std::exception& e) {
    last_error = e.what();
  } catch (...) {
    last_error = "unknown error";
  }
  return failed;
}

}  // namespace

extern "C" {

void* gpumem_ref_open(const char* config_path, const char* register_port) {
  return guarded<void*>(nullptr, [&]() -> void* {
    const std::string port = register_port ? register_port : "";
    RegisterPort p;
    tb::SchemeSet schemes = tb::kAllSchemes;
    const std::string translator = "translator:";  // then the schemes the RTL builds, as gpumem cosim --schemes
    if (port == "system") {
      p = RegisterPort::kSystem;
    } else if (port == "translator" || port.rfind(translator, 0) == 0) {
      p = RegisterPort::kTranslator;
      if (port != "translator") {
        try {
          schemes = tb::parse_scheme_list(port.substr(translator.size()));
        } catch (const std::invalid_argument& e) {
          throw std::invalid_argument("gpumem_ref_open: register port '" + port + "': " + e.what());
        }
      }
    } else {
      throw std::invalid_argument("gpumem_ref_open: unknown register port '" + port +
                                  "' (system, translator, or translator:SCHEMES such as translator:none,matrix)");
    }
    return new Model(model_params(load_config(config_path ? config_path : ""), p, schemes));
  });
}

void gpumem_ref_close(void* model) { delete static_cast<Model*>(model); }

const char* gpumem_ref_error() { return last_error.c_str(); }

void gpumem_ref_reset(void* model) {
  guarded(0, [&] {
    Model& m = model_of(model);
    m.bank.reset();
    m.tlb.invalidate_all();
    m.last_entry = {};
    return 0;
  });
}

unsigned int gpumem_ref_address_bits(void* model) {
  return guarded(0u, [&] { return model_of(model).params.geometry.address_bits; });
}
unsigned int gpumem_ref_channel_bit_count(void* model) {
  return guarded(0u, [&] { return static_cast<unsigned>(model_of(model).params.geometry.channel_bits.size()); });
}
unsigned int gpumem_ref_channel_bit(void* model, unsigned int j) {
  return guarded(0u, [&] { return model_of(model).params.geometry.channel_bits.at(j); });
}
unsigned int gpumem_ref_candidate_bit_count(void* model) {
  return guarded(0u, [&] { return static_cast<unsigned>(model_of(model).params.geometry.candidate_bits.size()); });
}
unsigned int gpumem_ref_candidate_bit(void* model, unsigned int i) {
  return guarded(0u, [&] { return model_of(model).params.geometry.candidate_bits.at(i); });
}
unsigned int gpumem_ref_prime(void* model) {
  return guarded(0u, [&] { return static_cast<unsigned>(model_of(model).params.geometry.prime); });
}

int gpumem_ref_reg_write(void* model, unsigned int offset, unsigned int value) {
  return guarded(-1, [&] {
    Model& m = model_of(model);
    const RegStatus s = m.bank.write(offset, 4, value);
    if (s != RegStatus::kOk) return static_cast<int>(s);
    // The translator's port holds only its registers: the write reached the
    // bank's register all the same, which a bus would never have routed here.
    // Registers of other blocks do not affect the mapping, so the bank stays
    // a faithful model of the translator's state.
    if (m.params.port == RegisterPort::kTranslator &&
        tb::translator_port_register_index(&m.bank.register_at(offset)->def()) < 0)
      return static_cast<int>(RegStatus::kUnmapped);
    return 0;
  });
}

int gpumem_ref_reg_read(void* model, unsigned int offset, unsigned int* value) {
  return guarded(-1, [&] {
    uint32_t v = 0;
    const RegStatus s = model_of(model).bank.read(offset, 4, v);
    *value = v;
    return static_cast<int>(s);
  });
}

const char* gpumem_ref_reg_status_name(int status) {
  if (status < 0 || status > static_cast<int>(RegStatus::kBadValue)) return "?";
  return reg_status_name(static_cast<RegStatus>(status));
}

const char* gpumem_ref_reg_name(unsigned int offset) {
  const RegisterDef* def = register_at(offset);
  return def ? def->name : "";
}

void gpumem_ref_map(void* model, unsigned long long address, unsigned int task_type, unsigned long long* mapped,
                    unsigned int* channel, unsigned int* scheme) {
  guarded(0, [&] {
    Model& m = model_of(model);
    if (task_type >= kMaxTaskTypes)
      throw std::invalid_argument("gpumem_ref_map: task type " + std::to_string(task_type) + " (at most " +
                                  std::to_string(kMaxTaskTypes - 1) + ")");
    const XorTranslator::Result r = m.translator.translate(address, task_type);
    *mapped = r.mapped;
    *channel = m.decoder.channel(r.mapped);
    *scheme = static_cast<unsigned>(r.scheme);
    return 0;
  });
}

const char* gpumem_ref_scheme_name(unsigned int scheme) { return scheme_name(static_cast<Scheme>(scheme)); }

int gpumem_ref_tlb_lookup(void* model, unsigned long long va, unsigned int* set_index, unsigned int* way,
                          unsigned long long* pa) {
  return guarded(-1, [&] {
    Model& m = model_of(model);
    const TlbLookup lk = m.tlb.lookup(va);
    *set_index = lk.set;
    *way = lk.way;
    *pa = 0;
    m.last_entry = lk.hit ? *lk.hit : TlbEntry{};
    if (lk.result == TlbResult::kHitSmall || lk.result == TlbResult::kHitLarge) *pa = m.tlb.translate(*lk.hit, va);
    return static_cast<int>(lk.result);
  });
}

int gpumem_ref_tlb_fill(void* model, unsigned long long va, unsigned long long leaf_pte, unsigned int* set_index,
                        unsigned int* way, int* evicted) {
  return guarded(-1, [&] {
    Model& m = model_of(model);
    const Pte leaf = Pte::decode(leaf_pte);
    if (m.tlb.way_holding(va, leaf.large_page) >= 0)
      throw std::invalid_argument("gpumem_ref_tlb_fill: the page of VA " + std::to_string(va) + " is already cached");
    const TlbFill f = m.tlb.fill(va, leaf);
    *set_index = f.set;
    *way = f.way;
    *evicted = f.evicted;
    m.last_entry = f.evicted ? f.victim : TlbEntry{};
    return 0;
  });
}

void gpumem_ref_tlb_last_entry(void* model, int* large_page, unsigned long long* vpn, unsigned long long* pfn,
                               unsigned int* nested_flag, unsigned int* task_type, int* readable, int* writable) {
  guarded(0, [&] {
    const TlbEntry& e = model_of(model).last_entry;
    *large_page = e.large_page;
    *vpn = e.vpn;
    *pfn = e.pfn;
    *nested_flag = e.nested_flag;
    *task_type = e.task_type;
    *readable = e.readable;
    *writable = e.writable;
    return 0;
  });
}

void gpumem_ref_tlb_flush(void* model) {
  guarded(0, [&] {
    model_of(model).tlb.invalidate_all();
    return 0;
  });
}

unsigned int gpumem_ref_tlb_victim(void* model, unsigned int set_index) {
  return guarded(0u, [&] {
    Model& m = model_of(model);
    if (set_index >= m.tlb.sets())
      throw std::invalid_argument("gpumem_ref_tlb_victim: set " + std::to_string(set_index) + " (the TLB has " +
                                  std::to_string(m.tlb.sets()) + ")");
    return m.tlb.victim(set_index);
  });
}

unsigned long long gpumem_ref_pt_root(void* model) {
  return guarded(0ull, [&]() -> unsigned long long {
    const Model& m = model_of(model);
    return m.image ? m.image->root : 0;
  });
}

unsigned long long gpumem_ref_pt_read(void* model, unsigned long long pa) {
  return guarded(0ull, [&]() -> unsigned long long { return model_of(model).read_pte(pa); });
}

int gpumem_ref_translate(void* model, unsigned long long va, int write, unsigned long long* pa,
                         unsigned long long* leaf_pte) {
  constexpr int kFailed = -1;
  return guarded(kFailed, [&] {
    const Model& m = model_of(model);
    *pa = 0;
    *leaf_pte = 0;
    if (!m.image) throw std::invalid_argument("gpumem_ref_translate: the config has no address_space section");
    const WalkResult w = m.walker.walk(m.image->root, va, [&](uint64_t at) { return m.read_pte(at); });
    if (w.fault != FaultReason::kNone) {
      last_error = w.detail;
      return static_cast<int>(w.fault);
    }
    const PageGeometry geo = m.params.tlb.geometry;
    // What the MMU checks past the walk (sc_models/mmu/mmu.cpp).
    if (w.leaf.large_page && geo.in_nested_region(va, w.leaf.nested_flag)) {
      last_error = "the leaf PTE of a VA in a nested region is the large page itself";
      return static_cast<int>(FaultReason::kPageTableError);
    }
    if (write ? !w.leaf.writable : !w.leaf.readable) {
      last_error = write ? "write to a read-only page" : "read from an unreadable page";
      return static_cast<int>(FaultReason::kPermission);
    }
    const uint64_t offset_mask = (w.leaf.large_page ? geo.large_bytes() : geo.small_bytes()) - 1;
    *pa = (w.leaf.pfn << geo.small_bits) + (va & offset_mask);
    *leaf_pte = w.leaf.encode();
    return static_cast<int>(FaultReason::kNone);
  });
}

const char* gpumem_ref_fault_name(int fault) {
  if (fault < 0 || fault > static_cast<int>(FaultReason::kPageTableError)) return "?";
  return fault_reason_name(static_cast<FaultReason>(fault));
}

void* gpumem_ref_translator_stimulus(void* model, unsigned long long seed, unsigned long long transactions) {
  return guarded<void*>(nullptr, [&]() -> void* {
    tb::TranslatorRandomRun run;
    run.transactions = transactions;
    const Model& m = model_of(model);
    return new Stimulus{tb::TranslatorStimulus(seed, m.params.bench, m.params.geometry, run)};
  });
}

void gpumem_ref_translator_stimulus_next(void* stimulus, int accepted, unsigned long long discarded, int* reset,
                                         int* req_valid, unsigned long long* req_addr, unsigned int* req_task_type,
                                         int* rsp_ready, int* reg_we, unsigned int* reg_addr, unsigned int* reg_wdata) {
  guarded(0, [&] {
    if (!stimulus) throw std::invalid_argument("null stimulus handle");
    const tb::TranslatorPins& p = static_cast<Stimulus*>(stimulus)->pins.next(accepted != 0, discarded);
    *reset = p.reset;
    *req_valid = p.req_valid;
    *req_addr = p.req_addr;
    *req_task_type = p.req_task_type;
    *rsp_ready = p.rsp_ready;
    *reg_we = p.reg_we;
    *reg_addr = p.reg_addr;
    *reg_wdata = p.reg_wdata;
    return 0;
  });
}

void gpumem_ref_stimulus_free(void* stimulus) { delete static_cast<Stimulus*>(stimulus); }

}  // extern "C"
