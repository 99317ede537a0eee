#include "sources/placement.hpp"

#include "base/hex.hpp"
#include "base/input_error.hpp"

namespace gpumem {

void Placement::check_fits(uint64_t bytes, bool writes, const std::string& what) const {
  const bool fits = bytes == 0 || (base <= last && bytes - 1 <= last - base);
  if (region_key.empty()) {
    if (!fits)
      throw InputError("", 0, "--base", what + " need " + std::to_string(bytes) + " bytes from " + hex(base) +
                                            ", past the last address " + hex(last));
    return;
  }
  if (!fits)
    throw InputError(file, line, region_key + ".size",
                     what + " need " + std::to_string(bytes) + " bytes from the region's start; it has " +
                         std::to_string(last - base + 1));
  if (writes && !writable)
    throw InputError(file, line, region_key + ".writable", what + " are written: the region must be writable");
}

void Placement::check_aligned(uint64_t alignment, const std::string& what) const {
  if (base % alignment == 0) return;
  const std::string why = what + " must start at a multiple of " + std::to_string(alignment) + " bytes; " + hex(base) + " is not";
  if (region_key.empty()) throw InputError("", 0, "--base", why);
  throw InputError(file, line, region_key + ".va", why);
}

Placement physical_placement(unsigned task_type, uint64_t base, unsigned address_bits) {
  Placement p;
  p.process = task_type;
  p.base = base;
  p.last = address_bits >= 64 ? ~uint64_t{0} : (uint64_t{1} << address_bits) - 1;
  return p;
}

Placement region_placement(const AddressSpaceConfig& as, const std::string& file, const std::string& app,
                           const std::string& region) {
  if (!as.present) throw InputError(file, 0, "address_space", "the config has no address space to find application '" + app + "' in");
  std::string apps;
  for (size_t i = 0; i < as.applications.size(); ++i) {
    const ApplicationConfig& a = as.applications[i];
    apps += (i ? ", " : "") + a.name;
    if (a.name != app) continue;
    std::string regions;
    for (const RegionConfig& r : a.regions) {
      regions += (regions.empty() ? "" : ", ") + r.name;
      if (r.name != region) continue;
      Placement p;
      p.process = a.process;
      p.base = r.va;
      p.last = r.va + (r.size - 1);
      p.writable = r.writable;
      p.file = file;
      p.line = r.line;
      p.region_key = as.region_key(&r);
      return p;
    }
    throw InputError(file, a.line, "address_space.applications[" + std::to_string(i) + "].regions",
                     "application '" + app + "' has no region '" + region + "' (its regions: " + regions + ")");
  }
  throw InputError(file, 0, "address_space.applications", "no application '" + app + "' (applications: " + apps + ")");
}

}  // namespace gpumem
