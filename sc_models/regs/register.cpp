#include "regs/register.hpp"

namespace gpumem {

const char* reg_status_name(RegStatus s) {
  switch (s) {
    case RegStatus::kOk: return "ok";
    case RegStatus::kUnmapped: return "unmapped offset";
    case RegStatus::kReadOnly: return "read-only register";
    case RegStatus::kMisaligned: return "misaligned access";
    case RegStatus::kBadWidth: return "access is not 32 bits wide";
    case RegStatus::kBadValue: return "value not allowed";
  }
  return "?";
}

Register::Register(const RegisterDef& def, const RegisterParams& params)
    : def_(&def),
      mapped_dim1_(def.dim1_mapped == Elab::kNone ? def.dim1 : elab_value(def.dim1_mapped, params)),
      reset_(value_of(def.reset, params)),
      field_mask_(value_of(def.field_mask, params)),
      values_(size_t{def.dim0} * def.dim1, 0) {
  if (mapped_dim1_ > def.dim1) mapped_dim1_ = def.dim1;
}

RegStatus Register::write(unsigned i, unsigned j, uint32_t value) {
  uint32_t& v = at(i, j);
  switch (def_->access) {
    case RegAccess::kRO: return RegStatus::kReadOnly;
    case RegAccess::kRC: v = 0; break;
    case RegAccess::kWA:  // acts on the written fields; stores nothing
      if (on_write) on_write(i, j, value & field_mask_);
      return RegStatus::kOk;
    case RegAccess::kRW: {
      const uint32_t stored = value & field_mask_;
      if ((stored ^ v) & def_->fixed_mask) return RegStatus::kBadValue;
      if (value_allowed && !value_allowed(i, j, stored)) return RegStatus::kBadValue;
      v = stored;
      break;
    }
  }
  if (on_write) on_write(i, j, v);
  return RegStatus::kOk;
}

void Register::reset() {
  const bool holds = def_->access == RegAccess::kRO || def_->access == RegAccess::kRW;
  for (unsigned i = 0; i < def_->dim0; ++i)
    for (unsigned j = 0; j < def_->dim1; ++j) {
      at(i, j) = holds && j < mapped_dim1_ ? reset_ : 0;
      if (def_->access == RegAccess::kRW && j < mapped_dim1_ && on_write) on_write(i, j, at(i, j));
    }
}

}  // namespace gpumem
