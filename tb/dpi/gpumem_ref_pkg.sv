// gpumem_ref_pkg: the golden model as DPI-C functions for a SystemVerilog
// scoreboard (docs/dpi.md). Link libgpumem_dpi.so into the simulation.
//
// A model is a handle (chandle) from gpumem_ref_open; every other function
// takes it. Nothing here throws or stops the simulation: a function that can
// fail returns a status and gpumem_ref_error() says why.
//
// Integers are 2-state `int`, `int unsigned` and `longint unsigned` only, so
// that the C side needs no svdpi.h types and any simulator binds it alike.
package gpumem_ref_pkg;

  // ---------------------------------------------------------------------------
  // The model
  // ---------------------------------------------------------------------------
  // Loads and validates a YAML config and builds the model from it: the
  // register bank, the XOR translator and channel decoder, the TLB and the
  // page tables the driver builds. `register_port` says whose register port
  // gpumem_ref_reg_write answers for:
  //   "system"     the whole register map, as firmware sees it;
  //   "translator" a translator block's port (the co-simulation's port
  //                contract): only CTRL, TASK_SCHEME, XOR_VECTOR and
  //                MATRIX_ROW_LO/HI; every other offset is refused;
  //   "translator:none,matrix"  the same for an RTL that builds only the
  //                schemes listed (as gpumem cosim --schemes): TASK_SCHEME
  //                refuses the others, XOR_VECTOR or MATRIX_ROW has no
  //                element without its scheme.
  // Returns null on failure (gpumem_ref_error() names the file, line or key).
  import "DPI-C" function chandle gpumem_ref_open(input string config_path, input string register_port);
  import "DPI-C" function void gpumem_ref_close(input chandle model);
  // Why the last failing call failed ("" after a success).
  import "DPI-C" function string gpumem_ref_error();
  // Registers to their reset values, the TLB empty: what the RTL's reset does.
  import "DPI-C" function void gpumem_ref_reset(input chandle model);

  // The geometry the config fixes, to check the DUT's parameters against.
  import "DPI-C" function int unsigned gpumem_ref_address_bits(input chandle model);
  import "DPI-C" function int unsigned gpumem_ref_channel_bit_count(input chandle model);
  import "DPI-C" function int unsigned gpumem_ref_channel_bit(input chandle model, input int unsigned j);  // c_j
  import "DPI-C" function int unsigned gpumem_ref_candidate_bit_count(input chandle model);
  import "DPI-C" function int unsigned gpumem_ref_candidate_bit(input chandle model, input int unsigned i);  // p_i
  import "DPI-C" function int unsigned gpumem_ref_prime(input chandle model);  // 0: no prime scheme

  // ---------------------------------------------------------------------------
  // Registers (docs/register-map.md)
  // ---------------------------------------------------------------------------
  // A 32-bit write at a byte offset. Returns 0 when taken, else the reason it
  // was refused (gpumem_ref_reg_status_name); a refused write changes nothing.
  import "DPI-C" function int gpumem_ref_reg_write(input chandle model, input int unsigned offset,
                                                    input int unsigned value);
  // A 32-bit read; returns the status as gpumem_ref_reg_write does.
  import "DPI-C" function int gpumem_ref_reg_read(input chandle model, input int unsigned offset,
                                                   output int unsigned value);
  import "DPI-C" function string gpumem_ref_reg_status_name(input int status);
  // The register whose span holds `offset`, or "" in a gap or above the map.
  import "DPI-C" function string gpumem_ref_reg_name(input int unsigned offset);

  // ---------------------------------------------------------------------------
  // XOR address translator and channel decoder
  // ---------------------------------------------------------------------------
  // Maps `address` for task type `task_type` under the registers as written:
  // the mapped address, its channel, and the scheme that applied
  // (gpumem_ref_scheme_name; none while CTRL.INTERLEAVE_ENABLE is off).
  import "DPI-C" function void gpumem_ref_map(input chandle model, input longint unsigned address,
                                              input int unsigned task_type, output longint unsigned mapped,
                                              output int unsigned channel, output int unsigned scheme);
  import "DPI-C" function string gpumem_ref_scheme_name(input int unsigned scheme);

  // ---------------------------------------------------------------------------
  // Nested-page TLB (sc_models/mmu/tlb.hpp states the algorithm)
  // ---------------------------------------------------------------------------
  // A bench uses some of them; Verilator's -Wall would name the others.
  /* verilator lint_off UNUSEDPARAM */
  localparam int GPUMEM_TLB_MISS = 0;
  localparam int GPUMEM_TLB_HIT_SMALL = 1;
  localparam int GPUMEM_TLB_HIT_LARGE = 2;
  localparam int GPUMEM_TLB_NESTED = 3;
  /* verilator lint_on UNUSEDPARAM */
  // Looks `va` up: returns one of the results above, the set, the way that
  // hit (0 on a miss) and, on a hit, the physical address. A hit updates the
  // replacement state, as in the RTL.
  import "DPI-C" function int gpumem_ref_tlb_lookup(input chandle model, input longint unsigned va,
                                                    output int unsigned set_index, output int unsigned way,
                                                    output longint unsigned pa);
  // Fills the entry for `va` from its leaf page table entry: the set, the way
  // written and whether a valid entry was evicted. Returns 0, or -1 when the
  // model refuses (the page is already cached, the PTE is not a valid leaf).
  import "DPI-C" function int gpumem_ref_tlb_fill(input chandle model, input longint unsigned va,
                                                  input longint unsigned leaf_pte, output int unsigned set_index,
                                                  output int unsigned way, output int evicted);
  // The entry of the last lookup that hit (or gave nested), or the victim of
  // the last fill that evicted one; all zeros otherwise.
  import "DPI-C" function void gpumem_ref_tlb_last_entry(input chandle model, output int large_page,
                                                         output longint unsigned vpn, output longint unsigned pfn,
                                                         output int unsigned nested_flag,
                                                         output int unsigned task_type, output int readable,
                                                         output int writable);
  // Every entry invalid, the replacement state reset.
  import "DPI-C" function void gpumem_ref_tlb_flush(input chandle model);
  // The way the next fill of `set` would take; no side effect.
  import "DPI-C" function int unsigned gpumem_ref_tlb_victim(input chandle model, input int unsigned set_index);

  // ---------------------------------------------------------------------------
  // Page tables the driver built from the config's address_space section
  // ---------------------------------------------------------------------------
  // The root table's physical address (what firmware writes to PT_ROOT).
  import "DPI-C" function longint unsigned gpumem_ref_pt_root(input chandle model);
  // An 8-byte word of physical memory as the driver's image leaves it
  // (page-table entries; 0 where nothing was written).
  import "DPI-C" function longint unsigned gpumem_ref_pt_read(input chandle model, input longint unsigned pa);
  // Walks the page tables for `va` (a write checks the writable bit): returns
  // 0 and the physical address and leaf PTE, or the fault
  // (gpumem_ref_fault_name; gpumem_ref_error() has the detail).
  import "DPI-C" function int gpumem_ref_translate(input chandle model, input longint unsigned va, input int write,
                                                   output longint unsigned pa, output longint unsigned leaf_pte);
  import "DPI-C" function string gpumem_ref_fault_name(input int fault);

  // ---------------------------------------------------------------------------
  // The co-simulation's random stimulus (gpumem cosim --block translator)
  // ---------------------------------------------------------------------------
  // The pins `gpumem cosim --seed S --transactions N` drives into a
  // translator, one cycle at a time, so a SystemVerilog bench can rerun that
  // exact run. Call next once per cycle before the edge: `accepted` says the
  // request of the cycle before was taken; `discarded` counts the requests
  // resets have discarded so far (as many more are offered).
  import "DPI-C" function chandle gpumem_ref_translator_stimulus(input chandle model, input longint unsigned seed,
                                                                  input longint unsigned transactions);
  import "DPI-C" function void gpumem_ref_translator_stimulus_next(
      input chandle stimulus, input int accepted, input longint unsigned discarded, output int reset,
      output int req_valid, output longint unsigned req_addr, output int unsigned req_task_type,
      output int rsp_ready, output int reg_we, output int unsigned reg_addr, output int unsigned reg_wdata);
  import "DPI-C" function void gpumem_ref_stimulus_free(input chandle stimulus);

endpackage
