// XOR address translator (CN115422098A), the RTL of XorTranslator::translate
// in sc_models/translator/xor_translator.hpp plus the channel decode of
// ChannelDecoder (sc_models/router/). As in the model and the config,
// channel bits and candidate bits are bit positions (c_j, p_i) and their
// counts are m = CHANNEL_BIT_COUNT and K = CANDIDATE_BIT_COUNT.
//
// Every encoding (register offsets and reset values, schemes, the task-type
// count) comes from gpumem_pkg, generated from the model's tables.
//
// Register write port: the translator's registers of the register bank. It
// keeps CTRL.INTERLEAVE_ENABLE, TASK_SCHEME[t] and XOR_VECTOR[t][j] (j < m)
// with RegisterBank's reset values and acceptance rules, and answers each
// write in its cycle: reg_error_o high with reg_we_i means refused, and a
// refused write changes nothing. Refused, as the model refuses them:
//   - TASK_SCHEME value > 3, 2 (prime) when the prime scheme is not available
//     (PRIME == 0 or the channel bits are not contiguous ascending), and 3
//     (matrix) when MATRIX == 0 or the rows staged for that task type fail
//     the model's acceptance rule (channel_matrix_problem): a row is empty,
//     reads a bit below GRANULE_SHIFT (inside the interleave granule) or at
//     or above ADDRESS_BITS, or the channel-bit submatrix is singular over
//     GF(2);
//   - MATRIX_ROW_LO/HI[t][j] when MATRIX == 0 or j >= m;
//   - CTRL with TRANSLATOR_POSITION set (this block sits after the MMU);
//   - XOR_VECTOR[t][j] with j >= m, misaligned offsets and offsets of no register;
// and every offset of another block's register (PT_ROOT, PROCESS_TASK, ...),
// which a bus decoder would not route here.
// XOR_VECTOR bits at and above K are dropped, as in the model. CTRL's other
// fields belong to other blocks and are not stored here.
// Writes apply at the clock edge: a request accepted in the same cycle as a
// write is mapped with the old register values; requests accepted afterwards
// see the new ones.
//
// Request/response: one pipeline register. A request accepted in cycle n
// (req_valid_i && req_ready_o at the edge) gives its response in cycle n+1.
// While rsp_valid_o && !rsp_ready_i the stage holds and req_ready_o is low.
//
// The matrix commit check is combinational: a Gauss-Jordan elimination of
// the m x m channel-bit submatrix (m <= 8), so a TASK_SCHEME write is
// answered in its cycle like every other write and the port contract does
// not change. It runs once, on the staged rows of the task type the write
// addresses, not once per task type, and only in the cycle of a write of 3
// (in a verilated model it would otherwise cost every cycle a third of the
// translator's rate). Staged rows are not used until a
// commit accepts them; a refused commit keeps the committed rows and scheme.
//
// Mapping of task t under its effective scheme (none while interleave is off):
//   none : identity;
//   xor  : b'[c_j] = b[c_j] ^ parity(b & mask[t][j]), mask[t][j] holding the
//          candidate bit p_i for every set bit i of XOR_VECTOR[t][j];
//   prime: channel field G mod N replaced by (G * PRIME) mod N, N = 2^m,
//          G = address >> c_0 (the channel bits contiguous ascending);
//   matrix: b'[c_j] = parity(b & row[t][j]), the rows committed last.
// rsp_channel_o bit j = mapped bit c_j.
//
// The parameters are `verilator public` so that the co-simulation test can
// read the elaborated values back and compare them with the YAML config.
module gpumem_xor_translator
  import gpumem_pkg::*;
#(
  parameter int unsigned ADDRESS_BITS /*verilator public*/ = 40,        // width of the mapped address
  parameter int unsigned CHANNEL_BIT_COUNT /*verilator public*/ = 4,    // m (2^m channels)
  parameter int unsigned CANDIDATE_BIT_COUNT /*verilator public*/ = 8,  // K
  // Bit positions, 8 bits each: c_j in CHANNEL_BITS[8*j +: 8], p_i in CANDIDATE_BITS[8*i +: 8].
  parameter logic [CHANNEL_BIT_COUNT*8-1:0] CHANNEL_BITS /*verilator public*/ = 32'h0B0A_0908,
  parameter logic [CANDIDATE_BIT_COUNT*8-1:0] CANDIDATE_BITS /*verilator public*/ = 64'h1312_1110_0F0E_0D0C,
  parameter int unsigned PRIME /*verilator public*/ = 0,  // prime scheme multiplier, 0: not configured
  parameter int unsigned MATRIX /*verilator public*/ = 1,  // 1: the matrix scheme is built (MATRIX_ROW registers, TASK_SCHEME 3)
  parameter int unsigned GRANULE_SHIFT /*verilator public*/ = 8  // log2 of the interleave granule: no matrix row reads below it
) (
  input  logic          clk_i,
  input  logic          rst_ni,
  // Register write port (32-bit writes at byte offsets of the register map).
  input  logic                     reg_we_i,
  input  logic [REG_ADDR_BITS-1:0] reg_addr_i,
  input  logic [31:0]              reg_wdata_i,
  output logic                     reg_error_o,  // with reg_we_i: the write is refused
  // Register read (combinational, whatever reg_we_i): the register at
  // reg_addr_i as this block holds it, 0 elsewhere; in the debug window
  // above the register map, the committed matrix rows (what a test bench
  // compares after a refused write).
  output logic [31:0]              reg_rdata_o,
  // Request.
  input  logic          req_valid_i,
  output logic          req_ready_o,
  input  logic [ADDRESS_BITS-1:0] req_addr_i,
  input  logic [PTE_TASK_TYPE_BITS-1:0] req_task_type_i,
  // Response.
  output logic          rsp_valid_o,
  input  logic          rsp_ready_i,
  output logic [ADDRESS_BITS-1:0] rsp_mapped_o,
  output logic [CHANNEL_BIT_COUNT-1:0]  rsp_channel_o,
  output scheme_e       rsp_scheme_o
);

  // The prime scheme needs one contiguous ascending channel field (as
  // RegisterBank's prime_allowed_). Evaluated at elaboration only (PrimeOk):
  // no line of it runs in a simulation, so it is out of the code coverage.
  // verilator coverage_off
  function automatic bit channel_bits_contiguous();
    for (int unsigned j = 1; j < CHANNEL_BIT_COUNT; j++) begin
      if (int'(CHANNEL_BITS[8*j +: 8]) != int'(CHANNEL_BITS[0 +: 8]) + int'(j)) return 1'b0;
    end
    return 1'b1;
  endfunction
  // verilator coverage_on

  localparam bit PrimeOk = (PRIME != 0) && channel_bits_contiguous();
  localparam int unsigned GranuleShift = int'(CHANNEL_BITS[0 +: 8]);
  localparam logic [CHANNEL_BIT_COUNT-1:0] PrimeModN = CHANNEL_BIT_COUNT'(PRIME);
  localparam int unsigned IdxW = $clog2(ADDRESS_BITS);  // an address bit index (positions < ADDRESS_BITS, checked below)

  function automatic logic [IdxW-1:0] chan_pos(int unsigned j);
    return CHANNEL_BITS[8*j +: IdxW];
  endfunction
  function automatic logic [IdxW-1:0] cand_pos(int unsigned i);
    return CANDIDATE_BITS[8*i +: IdxW];
  endfunction

  // ---------------------------------------------------------------------------
  // Registers
  // ---------------------------------------------------------------------------
  logic                                      ien_d, ien_q;
  scheme_e [TASK_TYPE_COUNT-1:0]             scheme_d, scheme_q;
  logic [TASK_TYPE_COUNT-1:0][CHANNEL_BIT_COUNT-1:0][CANDIDATE_BIT_COUNT-1:0]  vec_d, vec_q;

  localparam logic [63:0] GranuleMask = (64'(1) << GRANULE_SHIFT) - 64'(1);
  localparam logic [63:0] BeyondMask  = ADDRESS_BITS >= 64 ? '0 : ~((64'(1) << ADDRESS_BITS) - 64'(1));
  localparam int unsigned TaskW = $clog2(TASK_TYPE_COUNT);
  localparam int unsigned RowIdxW = CHANNEL_BIT_COUNT > 1 ? $clog2(CHANNEL_BIT_COUNT) : 1;  // a row j < m

  // The model's acceptance rule for a task type's staged rows. One exit, at
  // the end: Verilator's line coverage does not count an arm that returns
  // from inside a loop (it counted the refusals' arms 0 while the refused
  // commits' bins were hit).
  function automatic bit rows_acceptable(logic [CHANNEL_BIT_COUNT-1:0][63:0] rows);
    logic [CHANNEL_BIT_COUNT-1:0][CHANNEL_BIT_COUNT-1:0] a;  // a[j][k]: row j reads channel bit c_k
    logic [CHANNEL_BIT_COUNT-1:0] tmp;
    bit found, ok;
    ok = 1'b1;
    for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
      if (rows[j] == '0 || (rows[j] & GranuleMask) != '0 || (rows[j] & BeyondMask) != '0) ok = 1'b0;
      for (int unsigned k = 0; k < CHANNEL_BIT_COUNT; k++) a[j][k] = rows[j][chan_pos(k)];
    end
    for (int unsigned col = 0; col < CHANNEL_BIT_COUNT; col++) begin
      found = 1'b0;
      for (int unsigned r = col; r < CHANNEL_BIT_COUNT; r++) begin
        if (!found && a[r][col]) begin
          tmp    = a[col];
          a[col] = a[r];
          a[r]   = tmp;
          found  = 1'b1;
        end
      end
      if (!found) ok = 1'b0;  // no pivot: singular (the elimination goes on, its result unused)
      for (int unsigned r = 0; r < CHANNEL_BIT_COUNT; r++) begin
        if (r != col && a[r][col]) a[r] = a[r] ^ a[col];
      end
    end
    return ok;
  endfunction

  function automatic logic [CHANNEL_BIT_COUNT-1:0][63:0] widen(logic [CHANNEL_BIT_COUNT-1:0][ADDRESS_BITS-1:0] rows);
    for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) widen[j] = 64'(rows[j]);
  endfunction

  // The matrix scheme's registers exist only where it is built, so a
  // translator without it carries no row storage. Rows are staged as written
  // (all 64 bits, so the check sees a bit beyond the address) and committed
  // as checked, when TASK_SCHEME[t] = 3 is accepted.
  logic matrix_ok;  // the staged rows of the task type a TASK_SCHEME write addresses pass the acceptance rule
  logic row_write;  // this cycle's write is a MATRIX_ROW_LO/HI[t][j < m]
  logic [CHANNEL_BIT_COUNT-1:0][ADDRESS_BITS-1:0] req_rows;  // the request's task type's committed rows
  logic [31:0] row_rdata;  // a read of a staged or committed row (0: none)

  if (MATRIX != 0) begin : g_matrix
    logic [TaskW-1:0] wtask;   // the task type a TASK_SCHEME write addresses
    logic             commit;  // this cycle's write commits its staged rows
    assign wtask  = TaskW'((reg_offset - TASK_SCHEME_OFFSET) >> 2);
    assign commit = reg_we_i && matrix_ok && reg_wdata_i == 32'(SCHEME_MATRIX) &&
                    reg_offset >= TASK_SCHEME_OFFSET && reg_offset < TASK_SCHEME_OFFSET + 32'(4 * TASK_TYPE_COUNT) &&
                    reg_offset[1:0] == '0;
    // Unpacked, so that a write touches one element (a packed array is one
    // wide vector that Verilator shifts and copies whole on every write).
    logic [63:0]             stage_q [TASK_TYPE_COUNT][CHANNEL_BIT_COUNT];
    logic [ADDRESS_BITS-1:0] row_q   [TASK_TYPE_COUNT][CHANNEL_BIT_COUNT];
    logic [CHANNEL_BIT_COUNT-1:0][63:0] wrows;  // the staged rows of the task type a TASK_SCHEME write addresses
    // A MATRIX_ROW_LO/HI write's row, from its offset: base + 4 * (t * DIM1 + j).
    localparam int unsigned RowW = CHANNEL_BIT_COUNT > 1 ? $clog2(CHANNEL_BIT_COUNT) : 1;
    logic [31:0]      lo_index, hi_index;  // (offset - base) / 4
    logic             lo_hit, hi_hit;      // a row j < m of that register
    logic [TaskW-1:0] row_t;
    logic [RowW-1:0]  row_j;
    assign lo_index = (reg_offset - MATRIX_ROW_LO_OFFSET) >> 2;
    assign hi_index = (reg_offset - MATRIX_ROW_HI_OFFSET) >> 2;
    assign lo_hit   = reg_offset >= MATRIX_ROW_LO_OFFSET && reg_offset[1:0] == '0 &&
                      lo_index < 32'(TASK_TYPE_COUNT * MATRIX_ROW_LO_DIM1) &&
                      lo_index % MATRIX_ROW_LO_DIM1 < CHANNEL_BIT_COUNT;
    assign hi_hit   = reg_offset >= MATRIX_ROW_HI_OFFSET && reg_offset[1:0] == '0 &&
                      hi_index < 32'(TASK_TYPE_COUNT * MATRIX_ROW_HI_DIM1) &&
                      hi_index % MATRIX_ROW_HI_DIM1 < CHANNEL_BIT_COUNT;
    assign row_t    = TaskW'((lo_hit ? lo_index / MATRIX_ROW_LO_DIM1 : hi_index / MATRIX_ROW_HI_DIM1));
    assign row_j    = RowW'((lo_hit ? lo_index % MATRIX_ROW_LO_DIM1 : hi_index % MATRIX_ROW_HI_DIM1));
    assign row_write = reg_we_i && (lo_hit || hi_hit);
    // Reads: a staged row's half at its MATRIX_ROW_LO/HI offset, a committed
    // row's in the debug window (the same indexing, from its own base).
    logic [31:0] in_use_index;
    logic        in_use_hit;
    assign in_use_index = (reg_offset - MATRIX_IN_USE_OFFSET) >> 2;
    assign in_use_hit   = reg_offset >= MATRIX_IN_USE_OFFSET && reg_offset[1:0] == '0 &&
                          in_use_index < 32'(2 * TASK_TYPE_COUNT * MATRIX_ROW_LO_DIM1) &&
                          in_use_index % MATRIX_ROW_LO_DIM1 < CHANNEL_BIT_COUNT;
    always_comb begin
      logic [63:0] committed;
      committed = 64'(row_q[TaskW'(in_use_index / MATRIX_ROW_LO_DIM1 % TASK_TYPE_COUNT)][RowW'(in_use_index % MATRIX_ROW_LO_DIM1)]);
      row_rdata = '0;
      if (lo_hit) row_rdata = stage_q[row_t][row_j][31:0];
      if (hi_hit) row_rdata = stage_q[row_t][row_j][63:32];
      if (in_use_hit) row_rdata = in_use_index >= 32'(TASK_TYPE_COUNT * MATRIX_ROW_LO_DIM1) ? committed[63:32] : committed[31:0];
    end
    always_comb begin
      for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
        wrows[j]    = stage_q[wtask][j];
        req_rows[j] = row_q[req_task_type_i][j];
      end
    end
    // Only a TASK_SCHEME = 3 write reads it: the elimination runs then alone.
    always_comb begin
      matrix_ok = 1'b0;
      if (reg_we_i && reg_wdata_i == 32'(SCHEME_MATRIX)) matrix_ok = rows_acceptable(wrows);
    end

    always_ff @(posedge clk_i or negedge rst_ni) begin
      if (!rst_ni) begin
        for (int unsigned t = 0; t < TASK_TYPE_COUNT; t++) begin
          for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
            stage_q[t][j] <= {MATRIX_ROW_HI_RESET, MATRIX_ROW_LO_RESET};
            row_q[t][j]   <= '0;
          end
        end
      end else if (reg_we_i) begin
        if (lo_hit) stage_q[row_t][row_j][31:0] <= reg_wdata_i;
        if (hi_hit) stage_q[row_t][row_j][63:32] <= reg_wdata_i;
        if (commit) begin
          for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) row_q[wtask][j] <= stage_q[wtask][j][ADDRESS_BITS-1:0];
        end
      end
    end

`ifndef SYNTHESIS
    // The matrix a request is mapped with always passed the acceptance rule,
    // so the mapping is a bijection. Checked where it is used, on the
    // request's task type: one elimination a cycle, not one per task type
    // (sixteen made the verilated model ten times the size to compile), and
    // only in a cycle with such a request: an immediate assertion, because a
    // concurrent one's consequent is evaluated in every verilated cycle.
    always_ff @(posedge clk_i) begin
      if (rst_ni && req_valid_i && scheme_q[req_task_type_i] == SCHEME_MATRIX)
        MatrixInUseAcceptable_A: assert (rows_acceptable(widen(req_rows)));
    end
`endif
  end else begin : g_no_matrix
    assign row_write = 1'b0;
    assign row_rdata = '0;
    assign matrix_ok = 1'b0;
    assign req_rows  = '0;
  end

  logic [31:0] reg_offset;  // the port's address as a register-map offset
  assign reg_offset = 32'(reg_addr_i);

  always_comb begin
    ien_d       = ien_q;
    scheme_d    = scheme_q;
    vec_d       = vec_q;
    reg_error_o = reg_we_i && !row_write;  // until a register of this block takes the write
    if (reg_we_i) begin
      if (reg_offset == CTRL_OFFSET && (reg_wdata_i & CTRL_TRANSLATOR_POSITION) == '0) begin
        ien_d       = |(reg_wdata_i & CTRL_INTERLEAVE_ENABLE);
        reg_error_o = 1'b0;
      end
      for (int unsigned t = 0; t < TASK_TYPE_COUNT; t++) begin
        if (reg_offset == TASK_SCHEME_OFFSET + 32'(4 * t)) begin
          if (reg_wdata_i <= 32'(SCHEME_XOR) || (reg_wdata_i == 32'(SCHEME_PRIME) && PrimeOk)) begin
            scheme_d[t] = scheme_e'(reg_wdata_i[$bits(scheme_e)-1:0]);
            reg_error_o = 1'b0;
          end
          if (reg_wdata_i == 32'(SCHEME_MATRIX) && matrix_ok) begin
            scheme_d[t] = SCHEME_MATRIX;
            reg_error_o = 1'b0;
          end
        end
        for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
          if (reg_offset == XOR_VECTOR_OFFSET + 32'(4 * (t * XOR_VECTOR_DIM1 + j))) begin
            vec_d[t][j] = reg_wdata_i[CANDIDATE_BIT_COUNT-1:0];
            reg_error_o = 1'b0;
          end

        end
      end
    end
  end

  // Reads decode the offset into an index (not a comparison per register):
  // the mux is evaluated whenever reg_addr_i changes, in every cycle.
  logic [31:0] scheme_index, vector_index;
  assign scheme_index = (reg_offset - TASK_SCHEME_OFFSET) >> 2;
  assign vector_index = (reg_offset - XOR_VECTOR_OFFSET) >> 2;
  always_comb begin
    reg_rdata_o = row_rdata;
    if (reg_offset == CTRL_OFFSET) reg_rdata_o = ien_q ? CTRL_INTERLEAVE_ENABLE : '0;
    if (reg_offset >= TASK_SCHEME_OFFSET && reg_offset[1:0] == '0 && scheme_index < 32'(TASK_TYPE_COUNT))
      reg_rdata_o = 32'(scheme_q[TaskW'(scheme_index)]);
    if (reg_offset >= XOR_VECTOR_OFFSET && reg_offset[1:0] == '0 && vector_index < 32'(TASK_TYPE_COUNT * XOR_VECTOR_DIM1) &&
        vector_index % XOR_VECTOR_DIM1 < CHANNEL_BIT_COUNT)
      reg_rdata_o = 32'(vec_q[TaskW'(vector_index / XOR_VECTOR_DIM1)][RowIdxW'(vector_index % XOR_VECTOR_DIM1)]);
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      ien_q    <= |(CTRL_RESET & CTRL_INTERLEAVE_ENABLE);
      scheme_q <= {TASK_TYPE_COUNT {scheme_e'(TASK_SCHEME_RESET[$bits(scheme_e)-1:0])}};
      vec_q    <= {TASK_TYPE_COUNT * CHANNEL_BIT_COUNT {XOR_VECTOR_RESET[CANDIDATE_BIT_COUNT-1:0]}};
    end else begin
      ien_q    <= ien_d;
      scheme_q <= scheme_d;
      vec_q    <= vec_d;
    end
  end

  // ---------------------------------------------------------------------------
  // Mapping (combinational, on the request)
  // ---------------------------------------------------------------------------
  scheme_e       scheme;
  logic [CANDIDATE_BIT_COUNT-1:0]  cand;     // cand[i] = address bit p_i
  logic [CHANNEL_BIT_COUNT-1:0]  field;    // channel field of the request, for prime
  logic [CHANNEL_BIT_COUNT-1:0]  slot;
  logic [ADDRESS_BITS-1:0] mapped;
  logic [CHANNEL_BIT_COUNT-1:0]  channel;

  always_comb begin
    scheme = ien_q ? scheme_q[req_task_type_i] : SCHEME_NONE;
    for (int unsigned i = 0; i < CANDIDATE_BIT_COUNT; i++) cand[i] = req_addr_i[cand_pos(i)];
    field  = req_addr_i[GranuleShift +: CHANNEL_BIT_COUNT];
    slot   = CHANNEL_BIT_COUNT'(field * PrimeModN);
    mapped = req_addr_i;
    unique case (scheme)
      SCHEME_XOR: begin
        for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
          mapped[chan_pos(j)] = req_addr_i[chan_pos(j)] ^ (^(cand & vec_q[req_task_type_i][j]));
        end
      end
      SCHEME_PRIME: begin
        // A selection by a parameter, not a branch: one geometry takes one side.
        mapped[GranuleShift +: CHANNEL_BIT_COUNT] = PrimeOk ? slot : req_addr_i[GranuleShift +: CHANNEL_BIT_COUNT];
      end
      SCHEME_MATRIX: begin
        for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
          mapped[chan_pos(j)] = ^(req_addr_i & req_rows[j]);
        end
      end
      default: mapped = req_addr_i;  // none
    endcase
    for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) channel[j] = mapped[chan_pos(j)];
  end

  // ---------------------------------------------------------------------------
  // Response stage
  // ---------------------------------------------------------------------------
  logic          rsp_valid_d, rsp_valid_q;
  logic [ADDRESS_BITS-1:0] rsp_mapped_d, rsp_mapped_q;
  logic [CHANNEL_BIT_COUNT-1:0]  rsp_channel_d, rsp_channel_q;
  scheme_e       rsp_scheme_d, rsp_scheme_q;

  assign req_ready_o = !rsp_valid_q || rsp_ready_i;

  always_comb begin
    rsp_valid_d   = rsp_valid_q;
    rsp_mapped_d  = rsp_mapped_q;
    rsp_channel_d = rsp_channel_q;
    rsp_scheme_d  = rsp_scheme_q;
    if (req_ready_o) begin
      rsp_valid_d = req_valid_i;
      if (req_valid_i) begin
        rsp_mapped_d  = mapped;
        rsp_channel_d = channel;
        rsp_scheme_d  = scheme;
      end
    end
  end

  always_ff @(posedge clk_i or negedge rst_ni) begin
    if (!rst_ni) begin
      rsp_valid_q   <= 1'b0;
      rsp_mapped_q  <= '0;
      rsp_channel_q <= '0;
      rsp_scheme_q  <= SCHEME_NONE;
    end else begin
      rsp_valid_q   <= rsp_valid_d;
      rsp_mapped_q  <= rsp_mapped_d;
      rsp_channel_q <= rsp_channel_d;
      rsp_scheme_q  <= rsp_scheme_d;
    end
  end

  assign rsp_valid_o   = rsp_valid_q;
  assign rsp_mapped_o  = rsp_mapped_q;
  assign rsp_channel_o = rsp_channel_q;
  assign rsp_scheme_o  = rsp_scheme_q;

  // ---------------------------------------------------------------------------
  // Assertions
  // ---------------------------------------------------------------------------
`ifndef SYNTHESIS
  // Elaboration: the geometry the model's config validation guarantees.
  initial begin : check_params
    assert (CHANNEL_BIT_COUNT >= 1 && CHANNEL_BIT_COUNT <= CHANNEL_BIT_COUNT_MAX)
      else $fatal(1, "CHANNEL_BIT_COUNT = %0d: 1..%0d channel bits", CHANNEL_BIT_COUNT, CHANNEL_BIT_COUNT_MAX);
    assert (CANDIDATE_BIT_COUNT >= 1 && CANDIDATE_BIT_COUNT <= CANDIDATE_BIT_COUNT_MAX)
      else $fatal(1, "CANDIDATE_BIT_COUNT = %0d: 1..%0d candidate bits", CANDIDATE_BIT_COUNT, CANDIDATE_BIT_COUNT_MAX);
    assert (ADDRESS_BITS <= 64) else $fatal(1, "ADDRESS_BITS = %0d: at most 64 address bits", ADDRESS_BITS);
    for (int unsigned j = 0; j < CHANNEL_BIT_COUNT; j++) begin
      assert (int'(CHANNEL_BITS[8*j +: 8]) < int'(ADDRESS_BITS)) else $fatal(1, "channel bit c_%0d outside the address", j);
      for (int unsigned i = 0; i < CANDIDATE_BIT_COUNT; i++) begin
        assert (CHANNEL_BITS[8*j +: 8] != CANDIDATE_BITS[8*i +: 8])
          else $fatal(1, "channel bit c_%0d is also candidate bit p_%0d", j, i);
      end
    end
    for (int unsigned i = 0; i < CANDIDATE_BIT_COUNT; i++) begin
      assert (int'(CANDIDATE_BITS[8*i +: 8]) < int'(ADDRESS_BITS)) else $fatal(1, "candidate bit p_%0d outside the address", i);
    end
  end

  // A scheme is stored only where it is available; a committed matrix is
  // always one the acceptance rule takes (so the mapping is a bijection).
  for (genvar t = 0; t < TASK_TYPE_COUNT; t++) begin : g_scheme_asserts
    SchemeKnown_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
        (scheme_q[t] == SCHEME_NONE || scheme_q[t] == SCHEME_XOR || (scheme_q[t] == SCHEME_PRIME && PrimeOk) ||
         (scheme_q[t] == SCHEME_MATRIX && MATRIX != 0)));
  end

  // A stalled response holds its value; back-pressure closes the request side.
  RspHeld_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_o && !rsp_ready_i |=> rsp_valid_o && $stable({rsp_mapped_o, rsp_channel_o, rsp_scheme_o}));
  ReadyLowWhileStalled_A: assert property (@(posedge clk_i) disable iff (!rst_ni)
      rsp_valid_o && !rsp_ready_i |-> !req_ready_o);
`endif

endmodule
