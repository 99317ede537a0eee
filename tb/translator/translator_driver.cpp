#include "tb/translator/translator_driver.hpp"

#include <algorithm>
#include <stdexcept>

#include "Vgpumem_xor_translator.h"
#include "Vgpumem_xor_translator_gpumem_xor_translator.h"
#include "tb/common/rtl_adapter.hpp"
#include "tb/translator/translator_block.hpp"

namespace gpumem::tb {

namespace {
GPUMEM_RTL_PORTS(TranslatorPorts, GPUMEM_TRANSLATOR_PORTS)

constexpr unsigned in(TranslatorIn p) { return static_cast<unsigned>(p); }
constexpr unsigned out(TranslatorOut p) { return static_cast<unsigned>(p); }
}  // namespace

void TranslatorBlock::drive(const TranslatorPins& p, uint64_t* inputs) {
  inputs[in(TranslatorIn::rst_ni)] = !p.reset;
  inputs[in(TranslatorIn::reg_we_i)] = p.reg_we;
  inputs[in(TranslatorIn::reg_addr_i)] = p.reg_addr & ((1u << register_address_bits()) - 1);  // the port's width
  inputs[in(TranslatorIn::reg_wdata_i)] = p.reg_wdata;
  inputs[in(TranslatorIn::req_valid_i)] = p.req_valid;
  inputs[in(TranslatorIn::req_addr_i)] = p.req_addr;
  inputs[in(TranslatorIn::req_task_type_i)] = p.req_task_type;
  inputs[in(TranslatorIn::rsp_ready_i)] = p.rsp_ready;
}

TranslatorEdge TranslatorBlock::sample(const TranslatorPins& p, const uint64_t* outputs) {
  TranslatorEdge e;
  e.sample(p.req_valid, outputs[out(TranslatorOut::req_ready_o)], outputs[out(TranslatorOut::rsp_valid_o)], p.rsp_ready);
  if (e.rsp_valid)
    e.rsp = {outputs[out(TranslatorOut::rsp_mapped_o)], static_cast<unsigned>(outputs[out(TranslatorOut::rsp_channel_o)]),
             static_cast<unsigned>(outputs[out(TranslatorOut::rsp_scheme_o)])};
  e.reg_refused = p.reg_we && outputs[out(TranslatorOut::reg_error_o)];
  e.reg_rdata = static_cast<uint32_t>(outputs[out(TranslatorOut::reg_rdata_o)]);
  return e;
}

RtlTranslatorGeometry rtl_translator_geometry() {
  return translator_geometry_of<Vgpumem_xor_translator_gpumem_xor_translator>();
}

// Checked before a model exists (a model of the wrong geometry must not be built).
RtlTranslatorGeometry TranslatorBlock::geometry(const Config& cfg, const LoadedRtl* rtl) {
  if (rtl) {
    if (const std::string why = translator_unfit(cfg); !why.empty()) throw std::invalid_argument(why);
    // The user's --schemes, else what the module declares: MATRIX=1 (the
    // contract sets it when declared) or no matrix scheme.
    if (!rtl->schemes.empty()) return translator_geometry_of_config(cfg, parse_scheme_list(rtl->schemes));
    const bool matrix =
        std::find(rtl->parameters_set.begin(), rtl->parameters_set.end(), "MATRIX=1") != rtl->parameters_set.end();
    return translator_geometry_of_config(cfg, matrix ? kAllSchemes : kAllSchemes.without(Scheme::kMatrix));
  }
  return matching_translator_geometry(cfg, rtl_translator_geometry());
}

std::unique_ptr<FastModel<TranslatorBlock>> TranslatorBlock::fast_model(const RtlTranslatorGeometry&, uint64_t seed,
                                                                        const WaveWindow& waves, const LoadedRtl* rtl) {
  return make_fast_model<TranslatorBlock, LinkedRtl<Vgpumem_xor_translator, TranslatorPorts>>(seed, waves, rtl);
}

void TranslatorBlock::print_counts(std::ostream& out, const TranslatorScoreboard& sb, const TranslatorCounts&,
                                   uint64_t cycles) {
  const auto& writes = sb.coverage().register_write;
  out << "compared     " << sb.compared() << " transactions in " << cycles << " cycles\n"
      << "writes       " << writes[0] << " accepted, " << writes[1] << " refused (as the model answers for the RTL port)\n"
      << sb.configured_report() << "\n";
}

}  // namespace gpumem::tb
