// The builder DSL: one C++ call per machine instruction on virtual registers.
// (This example is compiled by the build: cmake/doc_snippets.cmake.)
//
//   cdnajit::Kernel k("add_one", cdnajit::Arch::gfx942);
//   k.set_workgroup_size(64);
//   cdnajit::Reg data = k.load_arg(k.arg<float*>("data"));  // s_load_dwordx2 of the kernarg
//   cdnajit::Reg off = k.vgpr("off"), x = k.vgpr("x");
//   k.v_lshlrev_b32(off, 2, k.workitem_id(0));             // byte offset of this lane's float
//   k.s_waitcnt(cdnajit::lgkmcnt(0));
//   k.global_load_dword(x, off, data);
//   k.s_waitcnt(cdnajit::vmcnt(0));
//   k.v_add_f32(x, 1.0f, x);
//   k.global_store_dword(off, x, data);
//   k.s_endpgm();
//   cdnajit::BuildResult r = k.build();   // regalloc + passes + assemble + link
//
// Operands are checked at the call against the instruction table; errors name
// the instruction, the arch and the caller's file:line (std::source_location).
#pragma once
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <source_location>
#include <string>
#include <type_traits>
#include <variant>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/isa/isa.hpp"
#include "jit/isa/machine_inst.hpp"
#include "jit/isa/occupancy.hpp"

namespace cdnajit {
namespace isa {
enum class Opcode : uint16_t;  // jit/isa/opcode.hpp
}

class Kernel;
enum class RegClass : uint8_t { S, V, A };

// An index that remembers where it was written, so a subscript error names
// the caller's file:line (operator[] cannot take a source_location argument).
struct Index {
  int value;
  std::source_location loc;
  Index(int v, std::source_location l = std::source_location::current()) : value(v), loc(l) {}
};

// A virtual register tuple, or a slice of one. Cheap to copy.
struct Reg {
  uint32_t id = UINT32_MAX;   // virtual register id inside its Kernel
  uint16_t first = 0;         // first dword of the slice
  uint16_t dwords = 0;        // slice width
  RegClass cls = RegClass::V;
  const void* owner = nullptr;  // the Kernel that created it (using it in another is an error)
  bool valid() const { return id != UINT32_MAX; }
  Reg operator[](Index dword) const;           // one dword of the tuple
  Reg slice(int first_dword, int count, std::source_location loc = std::source_location::current()) const;
};

// Multi-dimensional array of separate virtual registers (each `dwords` wide):
// A.at({d, h, w}) or A[d][h][w].
class RegArray {
 public:
  RegArray() = default;
  RegArray(std::vector<Reg> regs, std::vector<int> dims, size_t stride_base = 0);
  RegArray operator[](Index i) const;  // drops the first dimension
  operator Reg() const;               // only when all dimensions are indexed
  Reg at(std::initializer_list<int> idx, std::source_location loc = std::source_location::current()) const;
  size_t size() const;                // elements in this (sub)array
  const std::vector<int>& dims() const { return dims_; }
  Reg flat(size_t i, std::source_location loc = std::source_location::current()) const;
 private:
  std::shared_ptr<const std::vector<Reg>> regs_;
  std::vector<int> dims_;
  size_t base_ = 0;
};

struct Label {
  uint32_t id = UINT32_MAX;
  const void* owner = nullptr;  // the Kernel that created it
};

// Special scalar registers as operands.
inline isa::SpecialReg vcc = isa::SpecialReg::VCC, vcc_lo = isa::SpecialReg::VCC_LO,
                       exec = isa::SpecialReg::EXEC, exec_lo = isa::SpecialReg::EXEC_LO,
                       m0 = isa::SpecialReg::M0, scc = isa::SpecialReg::SCC;
struct Off {};              // `off` (global saddr omitted)
inline constexpr Off off{};

// Modifiers, passed as trailing operands: k.ds_read_b32(v, addr, Offset(64)).
struct Offset { int32_t bytes; explicit Offset(int32_t b) : bytes(b) {} };
struct Offset0 { int32_t v; explicit Offset0(int32_t x) : v(x) {} };
struct Offset1 { int32_t v; explicit Offset1(int32_t x) : v(x) {} };
struct Lds {};              // buffer/global → LDS DMA
inline constexpr Lds lds{};
struct Offen {}; inline constexpr Offen offen{};
struct Idxen {}; inline constexpr Idxen idxen{};
struct Sc0 {}; inline constexpr Sc0 sc0{};
struct Sc1 {}; inline constexpr Sc1 sc1{};
struct Nt {}; inline constexpr Nt nt{};
struct Clamp {}; inline constexpr Clamp clamp{};
struct OpSel { uint8_t bits; explicit OpSel(uint8_t b) : bits(b) {} };
struct OpSelHi { uint8_t bits; explicit OpSelHi(uint8_t b) : bits(b) {} };
struct Neg { Reg r; };      // -x on a VOP3 float source: k.v_fma_f32(d, Neg{a}, b, c)
struct Abs { Reg r; };
struct Cbsz { uint8_t v; }; struct Abid { uint8_t v; }; struct Blgp { uint8_t v; };

// A DPP control on a VOP1/VOP2 instruction: src0 is read from another lane of the wave.
//   k.v_add_f32(x, x, x, Dpp::quad_perm({1, 0, 3, 2}));   // x += x of the neighbour lane (l ^ 1)
//   k.v_mov_b32(y, x, Dpp::row_shr(1).bound_ctrl());       // lane 0 of each row reads 0
// Rows are 16 lanes, banks 4 lanes of a row. A lane whose source lane is out of range (row_shr/shl,
// wave_shr/shl, row_bcast) or disabled keeps its old destination value unless bound_ctrl() is set,
// then it reads 0. Only the rows in row_mask and the banks in bank_mask are written (default all).
// Where lanes may keep their old value (masks, or shifts without bound_ctrl), the destination must
// already hold one: the allocator treats it as read.
// Each control is checked against the instruction table (jit/isa/cross_lane.hpp: which rows have a
// DPP form, 64-bit operands take row_newbcast only) where it is used; the .s prints LLVM's spelling.
class Dpp {
 public:
  using Loc = std::source_location;
  // Lane i of each group of 4 reads lane lanes[i] of that group (each 0..3).
  static Dpp quad_perm(std::array<int, 4> lanes, Loc loc = Loc::current());
  static Dpp row_shl(int n, Loc loc = Loc::current());  // lane i of a row reads lane i+n (n 1..15)
  static Dpp row_shr(int n, Loc loc = Loc::current());  // lane i reads lane i-n
  static Dpp row_ror(int n, Loc loc = Loc::current());  // lane i reads lane (i-n) mod 16
  static Dpp wave_shl(Loc loc = Loc::current());        // lane l reads lane l+1 of the wave
  static Dpp wave_shr(Loc loc = Loc::current());        // lane l reads lane l-1
  static Dpp wave_rol(Loc loc = Loc::current());        // lane l reads lane (l+1) mod 64
  static Dpp wave_ror(Loc loc = Loc::current());        // lane l reads lane (l-1) mod 64
  static Dpp row_mirror(Loc loc = Loc::current());      // lane i of a row reads lane 15-i
  static Dpp row_half_mirror(Loc loc = Loc::current()); // lane i of each 8 reads lane 7-i
  static Dpp row_bcast15(Loc loc = Loc::current());     // each row reads lane 15 of the row before (row 0: none)
  static Dpp row_bcast31(Loc loc = Loc::current());     // rows 2 and 3 read lane 31 (rows 0 and 1: none)
  static Dpp row_newbcast(int lane, Loc loc = Loc::current());  // every lane of a row reads lane `lane` (0..15) of it
  Dpp row_mask(int mask, Loc loc = Loc::current()) const;   // 4 bits, bit r = row r is written
  Dpp bank_mask(int mask, Loc loc = Loc::current()) const;  // 4 bits, bit b = lanes 4b..4b+3 of each row
  Dpp bound_ctrl() const;  // out-of-range or disabled source lanes read 0

  uint16_t ctrl = 0;  // DPP_CTRL code (jit/isa/cross_lane.hpp)
  uint8_t rows = 0xf, banks = 0xf;
  bool zero_invalid = false;
  Loc loc;
};

// The offset of ds_swizzle_b32: a lane pattern within each group of 32 lanes (bitmask modes) or of 4
// lanes (quad mode). k.ds_swizzle_b32(y, x, Swizzle::xor_mask(16)) swaps the halves of each 32 lanes.
// Lanes that are disabled supply 0. Printed as LLVM does: offset:swizzle(SWAP,16).
struct Swizzle {
  using Loc = std::source_location;
  static Swizzle xor_mask(int mask, Loc loc = Loc::current());               // lane l reads l ^ mask (mask 0..31)
  static Swizzle quad_perm(std::array<int, 4> lanes, Loc loc = Loc::current()); // as Dpp::quad_perm
  // lane l (of 32) reads ((l & and_mask) | or_mask) ^ xor_mask; each mask 0..31.
  static Swizzle bitmask(int and_mask, int or_mask, int xor_mask, Loc loc = Loc::current());
  static Swizzle broadcast(int group, int lane, Loc loc = Loc::current());  // every lane of each `group` (2..32, a power of 2) reads its lane `lane`
  uint16_t offset = 0;
  Loc loc;
};

// s_waitcnt operand: k.s_waitcnt(vmcnt(0) + lgkmcnt(0)). A counter left out is not waited for.
struct WaitCnt {
  int vm = -1, lgkm = -1;
  WaitCnt operator+(WaitCnt o) const { return {o.vm >= 0 ? o.vm : vm, o.lgkm >= 0 ? o.lgkm : lgkm}; }
  int64_t encode() const;  // gfx9 simm16: vmcnt [3:0]+[15:14], expcnt [6:4], lgkmcnt [11:8]
};
// Out-of-range counts (vmcnt 0..63, lgkmcnt 0..15) are errors naming the caller's file:line.
WaitCnt vmcnt(int n, std::source_location loc = std::source_location::current());
WaitCnt lgkmcnt(int n, std::source_location loc = std::source_location::current());

// Anything that may stand in an instruction's operand list.
struct Opnd {
  std::variant<std::monostate, Reg, int64_t, float, isa::SpecialReg, Label, Off,
               Offset, Offset0, Offset1, Lds, Offen, Idxen, Sc0, Sc1, Nt, Clamp, OpSel, OpSelHi,
               Neg, Abs, Cbsz, Abid, Blgp, Dpp, Swizzle>
      v;
  Opnd() = default;
  Opnd(Reg r) : v(r) {}
  Opnd(int i) : v(int64_t(i)) {}
  Opnd(unsigned i) : v(int64_t(i)) {}
  Opnd(int64_t i) : v(i) {}
  Opnd(uint64_t i) : v(int64_t(i)) {}
  Opnd(float f) : v(f) {}
  Opnd(isa::SpecialReg s) : v(s) {}
  Opnd(Label l) : v(l) {}
  Opnd(WaitCnt w) : v(w.encode()) {}
  template <class M>
    requires(!std::is_arithmetic_v<M>)
  Opnd(M m) : v(m) {}
  bool empty() const { return v.index() == 0; }
};

// Kernel arguments: their order gives the kernarg layout and the metadata.
enum class ArgType : uint8_t { i32, u32, f32, i64, u64, ptr };
enum class ElemType : uint8_t { f32, f16, bf16, i8, u8, i16, u16, i32, u32, i64, fp8 };
// Element tags for typed pointer arguments: k.arg<const bf16*>("input").
struct bf16 { uint16_t bits; };
struct f16 { uint16_t bits; };
struct fp8 { uint8_t bits; };

template <class T> struct ElemOf;
template <> struct ElemOf<float> { static constexpr ElemType value = ElemType::f32; };
template <> struct ElemOf<f16> { static constexpr ElemType value = ElemType::f16; };
template <> struct ElemOf<bf16> { static constexpr ElemType value = ElemType::bf16; };
template <> struct ElemOf<fp8> { static constexpr ElemType value = ElemType::fp8; };
template <> struct ElemOf<int8_t> { static constexpr ElemType value = ElemType::i8; };
template <> struct ElemOf<uint8_t> { static constexpr ElemType value = ElemType::u8; };
template <> struct ElemOf<int16_t> { static constexpr ElemType value = ElemType::i16; };
template <> struct ElemOf<uint16_t> { static constexpr ElemType value = ElemType::u16; };
template <> struct ElemOf<int32_t> { static constexpr ElemType value = ElemType::i32; };
template <> struct ElemOf<uint32_t> { static constexpr ElemType value = ElemType::u32; };
template <> struct ElemOf<int64_t> { static constexpr ElemType value = ElemType::i64; };

template <class T> struct ValueArgOf;
template <> struct ValueArgOf<int32_t> { static constexpr ArgType value = ArgType::i32; };
template <> struct ValueArgOf<uint32_t> { static constexpr ArgType value = ArgType::u32; };
template <> struct ValueArgOf<float> { static constexpr ArgType value = ArgType::f32; };
template <> struct ValueArgOf<int64_t> { static constexpr ArgType value = ArgType::i64; };
template <> struct ValueArgOf<uint64_t> { static constexpr ArgType value = ArgType::u64; };

struct Arg {
  uint32_t index = 0;
  uint32_t offset = 0;   // byte offset in the kernarg segment
  uint32_t size = 0;     // 4 or 8
  ArgType type = ArgType::i32;
};

enum class PassMode : uint8_t { Auto, Verify, Off };

// Which of a wave's stores an s_barrier makes visible to the other waves of its workgroup: the
// waits the wait-count pass puts before each s_barrier (Verify reports them missing). LDS DMA is
// always waited for. Lds (default): also LDS stores, `s_waitcnt lgkmcnt(0)`, what clang-22 emits
// for __syncthreads() on gfx942/gfx950; All: also global stores, `vmcnt(0)`, what it emits in
// threadgroup-split mode; None: LDS DMA only. See jit/passes/README.md, "Barriers".
enum class BarrierRelease : uint8_t { Lds, All, None };

// How instructions become machine code. Direct: MCInsts built from the allocated
// program and handed to LLVM's object streamer (LLVM parses only the kernel's
// framing text); Text: the whole .s through LLVM's assembly parser, the
// reference the direct path is tested against byte for byte.
enum class Encoder : uint8_t { Direct, Text };

// How the relocatable object becomes a loadable code object. Lld: LLVM's linker
// in process (`ld.lld -shared`, what clang runs). Direct: cdnajit's own ELF
// writer (jit/codeobject/elf_writer.hpp), which lays the code object out as lld does
// (test_direct_link requires identical bytes for every built-in kernel, the same
// fields through both code-object readers and the same simulator outputs); an
// object it does not handle goes to lld and stats.lld_fallback says so.
enum class Linker : uint8_t { Lld, Direct };

struct BuildOptions {
  PassMode waitcnt = PassMode::Auto;
  PassMode hazards = PassMode::Auto;
  BarrierRelease barrier_release = BarrierRelease::Lds;
  bool use_cache = true;     // content-addressed code-object cache
  bool link = true;          // false: stop after .s (dump only)
  // Drop every s_waitcnt the author wrote before the passes run: shows what the
  // wait-count pass derives on its own (Auto) or what is unsafe without them (Verify).
  bool drop_author_waits = false;
  Encoder encoder = Encoder::Direct;
  Linker linker = Linker::Direct;
  // false: no .s text (BuildResult::assembly stays empty) unless a fallback or an
  // error message needs it; the code-object cache, keyed by that text, is then not
  // consulted (the in-process build memo still is).
  bool keep_assembly = true;
  // false: waitcnt = Verify leaves out the findings of rule "waitcnt-lds-dma" (LDS read while an
  // LDS DMA load is in flight, which the pass cannot tell apart by region; see jit/passes): for a
  // generator that places those waits itself and would drop them (codegen's read-ahead and
  // ping-pong schedules). Their messages were ~5% of such a build. Other findings are unchanged.
  bool lds_dma_findings = true;
};

using Occupancy = isa::target::Occupancy;  // jit/isa/occupancy.hpp

struct KernelStats {
  int vgprs = 0, agprs = 0, sgprs = 0;   // allocated (highest used + 1)
  uint32_t lds_bytes = 0;
  uint32_t kernarg_bytes = 0;
  uint32_t workgroup_size = 0;
  Occupancy occupancy;
  int instructions = 0;
  int by_unit[int(isa::Unit::Misc) + 1] = {};  // static instruction mix
  int waits_inserted = 0, waits_removed = 0, nops_inserted = 0, wait_states_inserted = 0;
  std::vector<std::string> pass_findings;     // verify-mode reports
  // Stages of a build, wall time: register allocation (with its checks), lowering to physical
  // instructions, wait-count and hazard passes, .s text rendering (also the cache key), encoding
  // into a relocatable object (ms_assemble), lld link. A memo hit spends its time hashing the program.
  double ms_build = 0, ms_regalloc = 0, ms_lower = 0, ms_passes = 0, ms_print = 0, ms_assemble = 0, ms_link = 0;
  bool cache_hit = false;   // answered by the build memo or the code-object cache
  bool memo_hit = false;    // answered by the in-process build memo: nothing of the pipeline ran
  // Encoder::Direct: instructions emitted as MCInsts vs assembled from text (no verified template
  // for their shape; raw-escape lines are counted apart). The Text encoder counts all as text.
  int direct_insts = 0, text_insts = 0, raw_lines = 0;
  bool text_fallback = false;  // the direct path failed and the Text encoder built this kernel
  bool lld_fallback = false;   // Linker::Direct was asked for; the object was outside its shape and lld linked it
};

struct BuildResult {
  std::string name;
  Arch arch = Arch::gfx942;
  std::string assembly;             // exact .s text that was assembled (empty if !options.keep_assembly)
  std::vector<uint8_t> code_object; // loadable ELF (empty if !options.link)
  KernelStats stats;
};

class Kernel {
 public:
  Kernel(std::string name, Arch arch, std::source_location loc = std::source_location::current());
  ~Kernel();
  Kernel(const Kernel&) = delete;
  Kernel& operator=(const Kernel&) = delete;

  const std::string& name() const;
  Arch arch() const;

  // ---- launch shape (goes into the descriptor/metadata and occupancy) ----
  void set_workgroup_size(uint32_t x, uint32_t y = 1, uint32_t z = 1,
                          std::source_location loc = std::source_location::current());
  std::array<uint32_t, 3> workgroup_size() const;  // as set (default 256, 1, 1)

  // ---- arguments ----
  Arg arg_ptr(std::string name, ElemType elem, bool is_const, std::source_location loc = std::source_location::current());
  Arg arg_value(std::string name, ArgType type, std::source_location loc = std::source_location::current());
  // Typed form: arg<const bf16*>("input"), arg<float*>("out"), arg<uint32_t>("n").
  template <class T>
  Arg arg(std::string name, std::source_location loc = std::source_location::current()) {
    if constexpr (std::is_pointer_v<T>) {
      using E = std::remove_pointer_t<T>;
      return arg_ptr(std::move(name), ElemOf<std::remove_const_t<E>>::value, std::is_const_v<E>, loc);
    } else {
      return arg_value(std::move(name), ValueArgOf<T>::value, loc);
    }
  }
  // Loads an argument into fresh SGPRs (s_load_dword / _dwordx2 from the kernarg pointer).
  Reg load_arg(const Arg& a, std::source_location loc = std::source_location::current());

  // ---- ABI values (pinned at entry; free once dead) ----
  Reg kernarg_ptr();                   // s[0:1]
  Reg workgroup_id(int dim, std::source_location loc = std::source_location::current());  // SGPR after the kernarg pointer
  Reg workitem_id(int dim, std::source_location loc = std::source_location::current()); // VGPR (x = v0 bits 0..9, y, z unpacked)

  // ---- registers ----
  Reg sgpr(std::string name, int dwords = 1, int align = 0, std::source_location loc = std::source_location::current());
  Reg vgpr(std::string name, int dwords = 1, int align = 0, std::source_location loc = std::source_location::current());
  Reg agpr(std::string name, int dwords = 1, int align = 0, std::source_location loc = std::source_location::current());
  RegArray vgprs(std::string name, std::vector<int> dims, int dwords = 1, std::source_location loc = std::source_location::current());
  RegArray sgprs(std::string name, std::vector<int> dims, int dwords = 1, std::source_location loc = std::source_location::current());
  RegArray agprs(std::string name, std::vector<int> dims, int dwords = 1, std::source_location loc = std::source_location::current());

  // ---- LDS ----
  // Static allocation; returns the byte offset. Exceeding the arch's LDS is an error.
  uint32_t lds_alloc(std::string name, uint32_t bytes, uint32_t align = 16, std::source_location loc = std::source_location::current());
  uint32_t lds_bytes() const;

  // ---- control flow ----
  Label new_label(std::string name = "", std::source_location loc = std::source_location::current());
  void bind(Label l, std::source_location loc = std::source_location::current());
  // Uniform loop: body runs, then `cond` emits an SCC-setting compare; loops while SCC == 1.
  void do_while_scc(const std::function<void()>& body, const std::function<void()>& cond,
                    std::source_location loc = std::source_location::current());
  // if (SCC) then_fn [else else_fn]; `cond` emits the SCC-setting compare.
  void if_scc(const std::function<void()>& cond, const std::function<void()>& then_fn,
              const std::function<void()>& else_fn = {}, std::source_location loc = std::source_location::current());
  // Divergent if on a lane mask (VCC after a v_cmp): exec is narrowed to `mask` for then_fn,
  // to ~mask for else_fn, and restored after. Branches skip a side whose exec is empty.
  void if_vcc(const std::function<void()>& cond, const std::function<void()>& then_fn,
              const std::function<void()>& else_fn = {}, std::source_location loc = std::source_location::current());

  // ---- the raw-instruction escape for anything the table lacks ----
  // `text` may reference registers as {0}, {1}, ... from `regs`; defs lists which of them are written.
  void raw(std::string text, std::vector<Reg> regs = {}, std::vector<int> defs = {},
           std::source_location loc = std::source_location::current());
  void comment(std::string text, std::source_location loc = std::source_location::current());

  // ---- one method per instruction in the table (generated) ----
  // Each takes up to 8 operands (registers, immediates, specials, labels, modifiers).
#define CDNAJIT_INSTR(mnemonic, ...)                                                       \
  void mnemonic(Opnd a = {}, Opnd b = {}, Opnd c = {}, Opnd d = {}, Opnd e = {}, Opnd f = {}, \
                Opnd g = {}, Opnd h = {}, std::source_location loc = std::source_location::current());
#include "jit/isa/instructions.def"
#undef CDNAJIT_INSTR
  // Generic form for programmatic use: emit(mnemonic, {d, a, b}), the mnemonic as the table spells it.
  void emit(std::string_view mnemonic, std::vector<Opnd> ops,
            std::source_location loc = std::source_location::current());
  // The same by opcode (jit/isa/opcode.hpp): emit(isa::Opcode::v_add_f32, {d, a, b}).
  void emit(isa::Opcode op, std::vector<Opnd> ops, std::source_location loc = std::source_location::current());

  // ---- build ----
  BuildResult build(const BuildOptions& opts = {});
  std::string assembly(const BuildOptions& opts = {});  // .s only (no link)

  struct Impl;
 private:
  friend class Interleave;  // jit/interleave.hpp reorders recorded instructions
  friend class WaveRoles;   // jit/wave_roles.hpp names barriers and reads role blocks
  std::unique_ptr<Impl> impl_;
};

}  // namespace cdnajit
