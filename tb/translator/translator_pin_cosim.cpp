#include "tb/translator/translator_pin_cosim.hpp"

#include <stdexcept>
#include <string>

#include "Vgpumem_xor_translator_sc.h"
#include "Vgpumem_xor_translator_sc_gpumem_xor_translator.h"
#include "tb/common/pin_module.hpp"
#include "tb/translator/translator_sc_shell.hpp"

namespace gpumem::tb {

GPUMEM_PIN_SIGNALS(TranslatorBlock, GPUMEM_TRANSLATOR_PORTS)

RtlTranslatorGeometry rtl_translator_pin_geometry() {
  return translator_geometry_of<Vgpumem_xor_translator_sc_gpumem_xor_translator>();
}

std::unique_ptr<PinModule<TranslatorBlock>> TranslatorBlock::pin_module(const Config& cfg, uint64_t seed,
                                                                        const WaveWindow& waves, const LoadedRtl* rtl) {
  if (rtl)
    return make_pin_module<TranslatorBlock, LoadedScModel<TranslatorScShell>>(cfg, seed, geometry(cfg, rtl), waves, rtl);
  return make_pin_module<TranslatorBlock, LinkedScModel<Vgpumem_xor_translator_sc>>(
      cfg, seed, matching_translator_geometry(cfg, rtl_translator_pin_geometry()), waves, nullptr);
}

}  // namespace gpumem::tb
