// A typed register, or an array of them, built from its row of the register
// map (as VCML's reg<T>): the row gives the access policy, reset value, field
// masks and write check; the bank adds the write callback that carries an
// accepted value to the block it programs. A refused write changes nothing.
#pragma once
#include <cstdint>
#include <functional>
#include <vector>

#include "regs/register_map.hpp"

namespace gpumem {

enum class RegStatus : uint8_t { kOk, kUnmapped, kReadOnly, kMisaligned, kBadWidth, kBadValue };
const char* reg_status_name(RegStatus s);

class Register {
 public:
  Register(const RegisterDef& def, const RegisterParams& params);

  const RegisterDef& def() const { return *def_; }
  // Indices that exist in this configuration: i < dim0, j < mapped_dim1().
  unsigned mapped_dim1() const { return mapped_dim1_; }
  uint32_t reset_value() const { return reset_; }
  // The bits a value may have (the row's field mask at this configuration: XOR_VECTOR's K bits).
  uint32_t field_mask() const { return field_mask_; }

  uint32_t read(unsigned i, unsigned j) const { return def_->access == RegAccess::kWA ? 0 : at(i, j); }
  RegStatus write(unsigned i, unsigned j, uint32_t value);
  // Every element to its reset value; the write callback sees each RW element.
  void reset();
  // Hardware-side update (the counters), bypassing the access policy.
  uint32_t& at(unsigned i, unsigned j) { return values_[i * def_->dim1 + j]; }
  uint32_t at(unsigned i, unsigned j) const { return values_[i * def_->dim1 + j]; }

  // Extra check of a WriteCheck other than kNone: true if the value may be stored.
  std::function<bool(unsigned i, unsigned j, uint32_t value)> value_allowed;
  // After an accepted write (and at reset for RW registers), with the stored
  // value; for an action (WA) register, with the written value's fields.
  std::function<void(unsigned i, unsigned j, uint32_t stored)> on_write;

 private:
  const RegisterDef* def_;
  unsigned mapped_dim1_;
  uint32_t reset_;
  uint32_t field_mask_;
  std::vector<uint32_t> values_;
};

}  // namespace gpumem
