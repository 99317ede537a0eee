// The driver's allocator (CN113836054A's nesting): from the config's address-space
// section it allocates physical frames, nests small pages into the unused
// tails of partly used large frames, sets the nested flags, and produces the
// page-table image the walker will read. Plain C++: the TLM driver writes the
// image into simulated memory; tests and the fragmentation report use it as is.
#pragma once
#include <cstdint>
#include <vector>

#include <string>

#include "base/address_space_spec.hpp"
#include "base/memory_options.hpp"
#include "base/page_geometry.hpp"
#include "base/translator_options.hpp"
#include "mmu/page_table.hpp"

namespace gpumem {

struct PageMapping {
  uint64_t va = 0;
  uint64_t pa = 0;
  bool large_page = false;
  unsigned task_type = 0;
  unsigned process = 0;
  bool writable = true;
  uint8_t nested_flag = 0;  // large pages: the nested region the driver set
  bool va_nested = false;   // small page inside a large page's VA (its nested region)
  bool pa_nested = false;   // small page placed in a large frame's tail
  // The region it maps: address_space.applications[application].regions[region].
  unsigned application = 0;
  unsigned region = 0;
};

// Physical memory is handed out in large frames. A large page takes one; small
// pages go into nested tails or into frames split into small frames.
// frames_used * large page = data + internal + external, exactly.
struct Fragmentation {
  uint64_t data_bytes = 0;      // sum of region sizes
  uint64_t frames_used = 0;     // large frames holding data (page tables not counted)
  uint64_t frame_bytes = 0;     // frames_used * large page
  uint64_t internal_bytes = 0;  // inside allocated pages but not data: a large page's unused tail not given to nested pages, a small page's rounding
  uint64_t external_bytes = 0;  // free small frames in frames split into small frames: no large page can use them
  uint64_t large_pages = 0, small_pages = 0, nested_small_pages = 0;
  uint64_t page_table_bytes = 0;
};

struct PteWrite {
  uint64_t pa;
  uint64_t value;
};

struct AddressSpaceImage {
  PageTableLayout layout;
  uint64_t root = 0;               // physical address of the root table
  std::vector<PteWrite> pte_writes;  // ascending PA; slots not written read as zero (invalid)
  std::vector<PageMapping> pages;
  Fragmentation fragmentation;
  uint64_t page_table_base = 0;  // first byte of the page-table frames, past every data row
  uint64_t pa_end = 0;           // past the last allocated byte
};

// `nesting` overrides address_space.nesting (the report compares both); with
// it off, nest_into is ignored. Throws InputError naming the region when the
// allocation cannot be done (no room left to nest, memory too small).
// What the allocator is given (params/ fills it from the config).
struct AllocatorParams {
  std::string source;  // the config file, for errors
  AddressSpaceConfig address_space;
  PageGeometry geometry;
  unsigned address_bits = MemoryOptions{}.address_bits;  // physical
  // Without channel bits (prime or one channel) the page tables start past
  // every data row: channels * granule bytes a row.
  bool bit_interleaved = true;
  unsigned channels = MemoryOptions{}.channels;
  uint64_t granule_bytes = uint64_t{1} << TranslatorOptions::kDefaultGranuleShift;
};
AddressSpaceImage build_address_space(const AllocatorParams& params, bool nesting);

}  // namespace gpumem
