#include "cache/tlm_l1_cache.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>

#include "payload/strided.hpp"

namespace gpumem {

L1CacheTlm::L1CacheTlm(sc_core::sc_module_name name, const Config& cfg, const Clock& clock)
    : sc_module(name), target("target"), memory("memory"), cache_(cfg.l1), clock_(clock), hit_latency_(cfg.l1.hit_latency),
      line_(cfg.l1.line_bytes) {
  target.register_b_transport(this, &L1CacheTlm::b_transport);
  target.register_transport_dbg(this, &L1CacheTlm::transport_dbg);
}

void L1CacheTlm::b_transport(tlm::tlm_generic_payload& trans, sc_core::sc_time& delay) {
  RequestExtension* ext = trans.get_extension<RequestExtension>();
  if (!ext) throw std::logic_error("L1 cache: a request without its RequestExtension");
  const uint64_t now = ext->how.cycle;
  const unsigned space = ext->info.process;
  if (StridedExtension* strided = trans.get_extension<StridedExtension>()) {
    // Past the L1 (docs/cache.md); a strided write still updates the lines it has.
    memory->b_transport(trans, delay);
    ++cache_.stats().bypasses;
    ext->how.l1 = L1Result::kBypass;
    for (unsigned i = 0; i < strided->shape.count; ++i) strided->element[i].l1 = L1Result::kBypass;
    if (trans.is_write() && trans.is_response_ok())
      for (unsigned i = 0; i < strided->shape.count; ++i) {
        const unsigned size = strided->shape.element_size;
        cache_.write(space, strided->shape.element_address(i), trans.get_data_ptr() + i * size, nullptr, size, now);
      }
    return;
  }
  if (trans.is_write()) {
    memory->b_transport(trans, delay);
    if (!trans.is_response_ok()) {
      ext->how.l1 = L1Result::kWriteMiss;
      ++cache_.stats().writes;
      return;
    }
    const bool hit = cache_.write(space, trans.get_address(), trans.get_data_ptr(), trans.get_byte_enable_ptr(),
                                  trans.get_data_length(), now);
    ext->how.l1 = hit ? L1Result::kWriteHit : L1Result::kWriteMiss;
    return;
  }
  read(trans, *ext, delay);
}

void L1CacheTlm::read(tlm::tlm_generic_payload& trans, RequestExtension& ext, sc_core::sc_time& delay) {
  How& how = ext.how;
  const uint64_t now = how.cycle;
  const uint64_t address = trans.get_address();
  const unsigned length = trans.get_data_length();
  const L1Cache::Lookup at = cache_.read(ext.info.process, address, now);
  if (at.result != L1Result::kMiss) {
    // The L1 answers: after its hit latency, and not before the line is there.
    const uint64_t done = std::max(now + hit_latency_, at.ready);
    advance(how, delay, clock_.span(done - now));
    cache_.copy_out(at, address, trans.get_data_ptr(), length);
    how.l1 = at.result;
    trans.set_response_status(tlm::TLM_OK_RESPONSE);
    return;
  }
  // A line fill, once the tags have been looked at and an MSHR is free.
  const uint64_t line = cache_.line_of(address);
  const uint64_t out = cache_.mshr_free(now, now + hit_latency_);
  RequestExtension& fe = fill_.ext;
  fe.info = ext.info;
  fe.how = how;
  fe.how.cycle = now;
  sc_core::sc_time fill_delay = delay;
  advance(fe.how, fill_delay, clock_.span(out - now));
  set_up(fill_.trans, tlm::TLM_READ_COMMAND, line, line_.data(), cache_.line_bytes());
  memory->b_transport(fill_.trans, fill_delay);
  delay = fill_delay;
  // The demand's how is its fill's, at its own bytes of the line.
  const uint64_t offset = address - line;
  how = fe.how;
  how.l1 = L1Result::kMiss;
  if (!fill_.trans.is_response_ok()) {
    trans.set_response_status(fill_.trans.get_response_status());
    return;
  }
  how.physical_address += offset;
  how.mapped_address += offset;
  how.local_address += offset;
  if (how.mmu) how.virtual_address += offset;
  cache_.fill(ext.info.process, address, now, how.cycle, line_.data());
  std::memcpy(trans.get_data_ptr(), line_.data() + offset, length);
  trans.set_response_status(tlm::TLM_OK_RESPONSE);
}

}  // namespace gpumem
