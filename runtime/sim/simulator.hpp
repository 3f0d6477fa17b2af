// Bit-exact CPU simulator of the gfx942 / gfx950 ISA (wave64). Runs a kernel of
// a code object over a grid; checks memory bounds, wait counts, barriers and an
// instruction budget, throwing cdnajit::Error on the first finding. Timing is
// deliberately not modelled. See runtime/sim/README.md for the semantics.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/error.hpp"
#include "jit/isa/isa.hpp"
#include "runtime/sim/clock_feed.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/record.hpp"

namespace cdnajit::sim {

class WriteJournal;

struct Options {
  bool check_bounds = true;    // out-of-bounds global/flat/LDS/scratch access -> Error (else hardware behaviour)
  // Buffer (MUBUF) accesses beyond the V#'s num_records are defined on the hardware (loads
  // return 0, stores and atomics are dropped) and kernels use them on purpose for padding,
  // so they follow the hardware by default; set this to report them as an Error instead.
  bool check_buffer_range = false;
  bool check_waitcnt = true;   // use of a load's destination before its s_waitcnt -> Error
  // Which stores another wave of the workgroup may access only once the writing wave's s_waitcnt
  // retired them (runtime/sim/README.md, "Store visibility"); an access before that is an Error
  // naming both waves, both instructions and the s_barrier between them. Needs check_waitcnt.
  //  Lds:  LDS stores and atomics (lgkmcnt), and global stores (vmcnt) when the kernel descriptor
  //        sets TG_SPLIT: LLVM's memory model for gfx942 (what clang-22 waits for at __syncthreads) (default).
  //  All:  LDS and global stores in every kernel (as if every kernel were threadgroup-split).
  //  None: neither. LDS written by LDS DMA is checked in every mode.
  enum class StoreRelease { Lds, All, None } store_release = StoreRelease::Lds;
  uint64_t instruction_budget = 1ull << 36;  // total wave-instructions per launch
  double time_limit_seconds = 0;             // wall-clock limit per launch; 0 = none
  int threads = 0;             // host threads; 0 = std::thread::hardware_concurrency()
  // Workgroups started and not finished at once (running or suspended by the wave scheduler while
  // they wait; runtime/sim/README.md "Wave scheduler"). 0 = the most a GPU of the arch holds: its
  // CUs times the workgroups of this size, LDS and register use one CU holds (residency.hpp). A kernel whose resident workgroups
  // all wait for one that cannot start any more is a deadlock Error, as on the hardware.
  uint64_t resident_workgroups = 0;
  // v_dot2_f32_{f16,bf16} rounding (not observable on hardware here):
  //  FusedSingleRounding: a.lo*b.lo + a.hi*b.hi + c computed exactly, rounded once to f32 (default).
  //  ProductsThenSum:     fma(a.hi, b.hi, fma(a.lo, b.lo, c)) - two f32 roundings, lo first.
  enum class Dot2 { FusedSingleRounding, ProductsThenSum } dot2 = Dot2::FusedSingleRounding;
  // MFMA accumulation (runtime/sim/mfma_numerics.cpp):
  //  Cdna3: the published bit-exact CDNA3 rules (MMA-Sim, arXiv:2511.10909) on gfx942, and the
  //         same rules applied to gfx950 as a documented hypothesis (default).
  //  Exact: C plus all products computed exactly and rounded once to f32.
  enum class MfmaNumerics { Cdna3, Exact } mfma_numerics = MfmaNumerics::Cdna3;
  // The E8M0 scale byte 0 of the gfx950 v_mfma_scale_* (not observable here; runtime/sim/README.md):
  //  Ocp: 2^-127, as the OCP MX v1.0 specification defines E8M0 (bias 127; 0xFF NaN) (default).
  //  One: 1.0 (no scaling), what LLVM 22 assumes: it selects the unscaled opcode for a scaled MFMA
  //       whose scale operands are the constant 0. Other bytes are 2^(byte - 127) either way.
  enum class E8m0Zero { Ocp, One } e8m0_zero = E8m0Zero::Ocp;
  // Which bits of the seed operand the stochastic-rounding conversions add (not documented;
  // runtime/sim/README.md): PerForm follows the published software emulation of each form, the
  // low bits for v_cvt_sr_{fp8,bf8}_f32 (rocBLAS/HIP cast_to_f8) and v_cvt_sr_{f16,bf16}_f32, the
  // top bits for the gfx950 v_cvt_scalef32_sr_* (HIP's amd_hip_ocp_host.hpp from_float_sr)
  // (default); Low / High use the low / top bits for every form.
  enum class SrSeedBits { PerForm, Low, High } sr_seed_bits = SrSeedBits::PerForm;
  // When the VOP3/SDWA output modifier OMOD (mul:2, mul:4, div:2) acts (runtime/sim/output_modifiers.hpp):
  //  Published: only while the result type's output denormals are flushed and MODE.IEEE is clear, with
  //             -0 made +0 first, as AMD described the hardware (reviews.llvm.org/D30209) (default).
  //  Always:    in every MODE.
  enum class Omod { Published, Always } omod = Omod::Published;
  // Denormals of the f32 add of global/flat/buffer atomics executed outside LDS (published evidence
  // disagrees; runtime/sim/README.md "Known and assumed"):
  //  Keep:        denormal operands and results kept, whatever MODE says, as LLVM 22 assumes for
  //               gfx942/gfx950 (FeatureMemoryAtomicFAddF32DenormalSupport) (default).
  //  FlushInputs: denormal operands flushed to zero, as the CDNA4 ISA guide's table "Denorm
  //               Handling Rules for Memory Ops" states for ADD_F32 in the L2.
  //  Refuse:      an Error whenever an operand or the result is a denormal.
  enum class MemoryAtomicAddF32Denormals { Keep, FlushInputs, Refuse } memory_atomic_add_f32_denormals =
      MemoryAtomicAddF32Denormals::Keep;
  // Timing-model input (runtime/sim/record.hpp): when set, the instruction streams of the
  // workgroups it lists are recorded into it. Off (nullptr) costs two predictable branches per instruction.
  Recording* recording = nullptr;
  // With a recording: run only the workgroups it lists, not the whole grid. For timing-model
  // runs of a large grid whose outputs are not used (the other workgroups write nothing); the
  // listed workgroups compute exactly what they compute in a full launch when, as in every
  // kernel here, workgroups do not read each other's outputs. Needs `recording`.
  bool only_recorded_workgroups = false;
  // With a recording: the workgroups whose cache lines are traced (Recording::line_workgroups) and
  // whose steps are not recorded run address-only: MFMA instructions compute nothing (their
  // destinations keep their values) and global/buffer/flat stores and atomics write nothing (an
  // atomic's return register keeps its value). Everything an address can depend on besides MFMA
  // results and other workgroups' writes runs as usual, so the traced lines are those of a full run
  // for kernels such as GEMMs; the timing model checks that on workgroups it also ran in full
  // (runtime/model/grid_lines.hpp). Global memory is left as it was.
  bool trace_lines_address_only = false;
  // In-kernel clock values from the timing model (runtime/sim/clock_feed.hpp); nullptr: s_memtime and
  // s_memrealtime return 4 x the wave's executed instruction count, not a time.
  ClockFeed* clock_feed = nullptr;
  // When set, every write of the kernel to global memory first saves the pages it touches there
  // (runtime/sim/write_journal.hpp), so that a caller can give the memory back as it was.
  WriteJournal* write_journal = nullptr;
};

// The Error a launch throws, with what kind of finding it is, so that a caller can map findings to
// its own codes (the drop-in HIP runtime: a GPU's fault, timeout or abort) without reading the text.
struct LaunchError : Error {
  enum class Kind {
    OutOfBounds,   // a global, LDS or scratch access outside memory the kernel may use (an aperture included)
    UnwaitedRead,  // a register read or overwritten before the s_waitcnt its load needs
    Deadlock,      // workgroups that wait for each other forever
    TimeLimit,     // Options::time_limit_seconds passed
    OutOfResources,  // a workgroup needs more registers than a CU holds: refused before it ran (residency.hpp)
    Other,         // every other finding (budget, unmodelled instruction, store visibility, ...)
  };
  Kind kind;
  LaunchError(Kind k, const std::string& message) : Error(message), kind(k) {}
};

struct LaunchDims {
  uint32_t grid[3] = {1, 1, 1};    // workgroups per dimension
  uint32_t block[3] = {64, 1, 1};  // work-items per workgroup
  uint32_t dynamic_lds = 0;        // bytes of LDS beyond the kernel's group_segment_size
};

struct Stats {
  uint64_t by_unit[int(isa::Unit::Misc) + 1] = {};  // dynamic wave-instructions per unit
  uint64_t wave_instructions = 0;
  uint64_t lane_ops = 0;  // active lanes summed over VALU/MFMA instructions
  uint64_t waves = 0, workgroups = 0;
  double seconds = 0;
};

// Simulated device global memory: named allocations with guard gaps.
class Memory {
 public:
  Memory();
  ~Memory();
  Memory(const Memory&) = delete;
  Memory& operator=(const Memory&) = delete;

  // A device address (never 0), 4 GiB aligned, >= 4 GiB unmapped guard gap to neighbours.
  uint64_t alloc(size_t bytes, std::string name = "");
  // A zeroed allocation whose device address is its host address, so host code and kernels
  // share the pointer (HIP's hipHostMalloc / hipMallocManaged on the drop-in runtime). Each is
  // followed by unregistered host bytes, so a small overrun is reported, not served by a neighbour.
  uint64_t alloc_host_visible(size_t bytes, std::string name = "");
  // The caller's host range [host, host+bytes) as a host-visible block (HIP's hipHostRegister): its
  // device address is `host`; free() forgets it without releasing the bytes. Throws cdnajit::Error
  // when it overlaps a block already there or the simulated address space.
  uint64_t register_host(void* host, size_t bytes, std::string name = "");
  void free(uint64_t addr);  // addr must be a base returned by alloc or alloc_host_visible
  // Throw cdnajit::Error naming the range when [addr, addr+n) is not inside one allocation.
  void write(uint64_t addr, const void* src, size_t n);
  void read(uint64_t addr, void* dst, size_t n) const;
  // Base and size of every live allocation, in address order.
  std::vector<std::pair<uint64_t, size_t>> allocations() const;

  struct Block {
    uint64_t base = 0;
    size_t size = 0;
    std::string name;
    bool host_visible = false;  // from alloc_host_visible: base == data.get()
    struct FreeBytes {
      FreeBytes() : owned(true) {}
      explicit FreeBytes(bool o) : owned(o) {}
      bool owned;  // false: a registered host range (register_host), the caller's to free
      void operator()(uint8_t* p) const {
        if (owned) std::free(p);
      }
    };
    std::unique_ptr<uint8_t[], FreeBytes> data;  // calloc'd: zero pages are mapped lazily, not written
  };
  // Block containing [addr, addr+n), or nullptr. Not synchronised against alloc/free.
  const Block* find(uint64_t addr, size_t n) const;
  Block* find(uint64_t addr, size_t n);
  // "nearest allocation 'x' [0x..., +size)" for error messages.
  std::string describe_nearest(uint64_t addr) const;

 private:
  uint64_t insert_host_block(Block b, std::string name, const char* api);
  std::map<uint64_t, Block> blocks_;  // keyed by base
  uint64_t next_ = 0x100000000ull;
};

struct DecodedKernel;  // runtime/sim/decode.hpp

class Simulator {
 public:
  explicit Simulator(Arch arch);
  ~Simulator();
  Memory& memory() { return memory_; }
  Arch arch() const { return arch_; }

  // Decodes once per code object (cache keyed by contents), then runs the grid.
  // Workgroups run in parallel over Options::threads host threads; results are
  // deterministic regardless of thread count (unless the kernel itself races).
  // Throws cdnajit::Error for any checker finding (the first, with full context).
  Stats launch(const CodeObject& co, std::string_view kernel, std::span<const uint8_t> kernarg,
               const LaunchDims& dims, const Options& opt = {});

  // Disassembly of a kernel as the simulator decoded it ("pc: text" lines).
  std::string disassemble(const CodeObject& co, std::string_view kernel);

 private:
  const DecodedKernel& decoded(const CodeObject& co, const KernelInfo& k);
  Arch arch_;
  Memory memory_;
  std::mutex cache_mutex_;
  std::map<std::string, std::unique_ptr<DecodedKernel>> cache_;  // key: hash of bytes + kernel name
};

}  // namespace cdnajit::sim
