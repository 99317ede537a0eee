#include "driver/firmware.hpp"

#include <stdexcept>
#include <string>

#include "base/input_error.hpp"
#include "regs/register_map.hpp"

namespace gpumem {

void program_registers(const FirmwareParams& params, const AddressSpaceImage* image, const RegisterWrite& write) {
  auto must = [&](uint32_t offset, uint32_t value, const std::string& what) {
    if (!write(offset, value)) throw std::runtime_error("register bank refused a write to " + what);
  };
  bool dynamic = false;  // CTRL bit 1: on when the profile store selected a task type, unless the config says no
  // Vectors and rows before the scheme, so a task type never runs xor with
  // stale vectors, and the write of the matrix scheme commits the rows.
  for (const auto& tm : params.tasks) {
    const std::string tj = "[" + std::to_string(tm.task_type) + "][";
    for (size_t j = 0; j < tm.xor_vectors.size(); ++j)
      must(kRegXorVector + 4 * (tm.task_type * kMaxChannelBits + static_cast<uint32_t>(j)), tm.xor_vectors[j],
           "XOR_VECTOR" + tj + std::to_string(j) + "]");
    for (size_t j = 0; j < tm.matrix_rows.size(); ++j) {
      const uint32_t at = 4 * (tm.task_type * kMaxChannelBits + static_cast<uint32_t>(j));
      must(kRegMatrixRowLo + at, static_cast<uint32_t>(tm.matrix_rows[j]), "MATRIX_ROW_LO" + tj + std::to_string(j) + "]");
      must(kRegMatrixRowHi + at, static_cast<uint32_t>(tm.matrix_rows[j] >> 32), "MATRIX_ROW_HI" + tj + std::to_string(j) + "]");
    }
  }
  for (unsigned t = 0; t < kMaxTaskTypes; ++t)
    must(kRegTaskScheme + 4 * t, static_cast<uint32_t>(params.schemes[t]), "TASK_SCHEME[" + std::to_string(t) + "]");

  if (image) {
    const AddressSpaceConfig& as = params.address_space;
    must(kRegPtRootLo, static_cast<uint32_t>(image->root), "PT_ROOT_LO");
    must(kRegPtRootHi, static_cast<uint32_t>(image->root >> 32), "PT_ROOT_HI");
    for (const auto& app : as.applications)
      must(kRegProcessTask + 4 * app.process, app.task_type, "PROCESS_TASK[" + std::to_string(app.process) + "]");
    for (const auto& app : as.applications)
      if (app.selected_task_type) {
        must(kRegAppTaskSelect + 4 * app.process, kAppTaskSelectValid | *app.selected_task_type,
             "APP_TASK_SELECT[" + std::to_string(app.process) + "]");
        dynamic = params.dynamic_selection;
      }
    if (params.position == TranslatorPosition::kBeforeMmu) {
      const unsigned small_bits = params.small_page_bits;
      const uint64_t small = uint64_t{1} << small_bits;
      uint32_t r = 0;
      for (const auto& app : as.applications)
        for (const auto& reg : app.regions) {
          if (reg.task_type == app.task_type) continue;
          if (r == kMaxVaRanges)
            throw InputError(params.source, reg.line, as.region_key(&reg) + ".task",
                             "before the MMU a region with its own task type needs a VA range register; all " +
                                 std::to_string(kMaxVaRanges) + " are taken");
          const std::string idx = "[" + std::to_string(r) + "]";
          must(kRegVaRangeStart + 4 * r, static_cast<uint32_t>(reg.va >> small_bits), "VA_RANGE_START" + idx);
          must(kRegVaRangeEnd + 4 * r, static_cast<uint32_t>((reg.va + reg.size + small - 1) >> small_bits), "VA_RANGE_END" + idx);
          must(kRegVaRangeTask + 4 * r, kVaRangeEnable | reg.task_type, "VA_RANGE_TASK" + idx);
          ++r;
        }
    }
    must(kRegTlbInvalidate, 1, "TLB_INVALIDATE");
  }
  // The prefetch classifier: its ranges staged, then committed by enabling it.
  if (params.prefetch_ranges) {
    static const char* const kArrays[kPfRanges] = {"worklist", "vertexlist", "edgelist", "visitedlist"};
    for (uint32_t k = 0; k < kPfRanges; ++k) {
      const auto [base, end] = (*params.prefetch_ranges)[k];
      const std::string idx = std::string("[") + std::to_string(k) + "] (" + kArrays[k] + ")";
      must(kRegPfRangeBaseLo + 4 * k, static_cast<uint32_t>(base), "PF_RANGE_BASE_LO" + idx);
      must(kRegPfRangeBaseHi + 4 * k, static_cast<uint32_t>(base >> 32), "PF_RANGE_BASE_HI" + idx);
      must(kRegPfRangeEndLo + 4 * k, static_cast<uint32_t>(end), "PF_RANGE_END_LO" + idx);
      must(kRegPfRangeEndHi + 4 * k, static_cast<uint32_t>(end >> 32), "PF_RANGE_END_HI" + idx);
    }
    must(kRegPfCtrl, kPfEnable, "PF_CTRL");
  }
  must(kRegCtrl, (params.interleave_enable ? kCtrlInterleaveEnable : 0) | (dynamic ? kCtrlDynamicSelectionEnable : 0) |
                     (params.position == TranslatorPosition::kBeforeMmu ? kCtrlTranslatorPosition : 0),
       "CTRL");
}

}  // namespace gpumem
