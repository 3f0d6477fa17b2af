// What a hazard rule sees: the program, the CFG, each instruction's register access, and
// a backward search counting wait states over every CFG path to an instruction.
//
// Wait states: every instruction between the two counts 1, `s_nop N` counts N+1
// (LLVM's getNumWaitStates), labels and comment lines 0. s_nop inserted by Auto before instruction k are
// passed in `extra[k]` so later rules see them without rebuilding the program.
#pragma once
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "jit/isa/isa.hpp"
#include "jit/isa/opcode.hpp"
#include "jit/passes/cfg.hpp"
#include "jit/passes/regs.hpp"

namespace cdnajit::passes {

// The classes (classify.hpp) and operands of one instruction that the rules ask about.
// Computed once per run: a backward search asks them of every instruction it passes,
// for every rule at every consumer, and most come from string compares on the mnemonic.
struct InstFacts {
  std::string_view mnemonic;  // base_mnemonic()
  isa::Opcode opcode = isa::Opcode::Count;  // the table row's opcode (Count: not in the table)
  int wait_states = 1;        // wait_states_of()
  int mfma_passes = 0;        // mfma_passes() for the context's arch; set for MFMAs only
  bool label = false, comment = false, valu = false, mfma = false, smfmac = false, dgemm = false, dgemm_4x4 = false,
       dgemm_16x16 = false, xdl = false, dot = false, trans = false, salu = false, smem = false, ds = false,
       vmem = false, lds_dma = false, vcmpx = false, dpp = false, sdwa = false;
  std::optional<UnitRange> op0;  // explicit register operand 0 (an MFMA's destination)
  std::optional<UnitRange> op3;  // explicit register operand 3 (an MFMA's SrcC)
  bool reads_m0 = false;         // reads m0 (explicitly or implicitly)
};

// Which instructions a rule's matcher can accept as a source. A search for MFMA sources steps
// over every other instruction (adding its wait states) without asking the matcher: the MFMA
// rules walk back furthest, through main loops where most instructions are not MFMAs.
// mfma_writing: only the MFMAs whose destination (operand 0) overlaps the search's `written`
// range are asked; the others are stepped over like non-MFMAs (for rules whose matcher
// rejects them anyway: an MFMA's result read or overwritten by the consumer).
enum class Sources : uint8_t { any, mfma, mfma_writing };

struct HazardContext {
  // Computes `facts` and `uses_agprs`; the referenced vectors must outlive the context.
  // `first_same` (isa/same_instruction.hpp), if given: equal instructions, whose accesses are
  // equal too, share their facts.
  HazardContext(const std::vector<isa::MachineInst>& program, Arch arch, const Cfg& cfg,
                const std::vector<Access>& access, const std::vector<int>& extra,
                const std::vector<uint32_t>* first_same = nullptr);

  const std::vector<isa::MachineInst>& program;
  Arch arch;
  const Cfg& cfg;
  const std::vector<Access>& access;
  const std::vector<int>& extra;  // s_nop wait states already inserted before instruction k
  bool uses_agprs = false;        // any AGPR operand in the program (LLVM's look-ahead is longer then)
  std::vector<InstFacts> facts;   // per instruction, same index as `program`
  // Whether any instruction is of the class: a rule whose sources never occur skips its
  // searches (most kernels have no MFMA or v_dot, whose rules look back furthest).
  bool any_mfma = false, any_xdl = false, any_dot = false, any_trans = false;
  std::vector<long> mfma_at_or_before;  // per instruction: the nearest MFMA at or before it (-1: none)
  // The units some class of instruction touches anywhere in the program: a rule whose sources
  // are of that class and must touch the consumer's range skips its search when no such
  // instruction touches it (in a GEMM, no MFMA writes the VGPRs its address arithmetic reads).
  UnitSet valu_written;       // written (explicitly or implicitly) by a VALU instruction, MFMAs included
  UnitSet mfma_written;       // an MFMA's operand 0 (its destination)
  UnitSet mfma_src_c;         // an MFMA's operand 3 (SrcC)
  UnitSet vmem_store_read;    // read by a VMEM store (its data and address)

  // Returns the wait states `match(j)` requires (nullopt: j is not a hazard source).
  // A non-owning reference to the rule's callable (no allocation, no copy): it must
  // outlive the search, which a temporary passed straight to search/need_if does.
  class Matcher {
   public:
    template <class F>
    Matcher(const F& f)  // NOLINT: implicit from any callable, like std::function
        : obj_(&f), call_([](const void* o, size_t j) -> std::optional<int> { return (*static_cast<const F*>(o))(j); }) {}
    std::optional<int> operator()(size_t j) const { return call_(obj_, j); }

   private:
    const void* obj_;
    std::optional<int> (*call_)(const void*, size_t);
  };
  struct Hit {
    int missing;   // required - wait states actually between source and consumer (> 0)
    int required;
    size_t source;
  };
  // Walks back from `consumer` along every CFG path; on each path the nearest source
  // ends the walk. Paths stop after `limit` wait states. Returns the worst hit whose
  // requirement is not yet met, or nullopt. `sources` = mfma: `match` returns nullopt for
  // every instruction that is not an MFMA (it is then asked of MFMAs only); mfma_writing:
  // also for every MFMA whose operand 0 does not overlap `written` (none at all when no MFMA
  // of the program writes it: mfma_written).
  std::optional<Hit> search(size_t consumer, int limit, const Matcher& match, Sources sources = Sources::any,
                            UnitRange written = {}) const;

  const isa::MachineInst& at(size_t i) const { return program[i]; }
  const InstFacts& is(size_t i) const { return facts[i]; }
  bool gfx950() const { return arch == Arch::gfx950; }

  // Scratch space of search(), kept between calls so a search does not allocate.
  struct WorkItem {
    int block;
    long pos;  // walk instructions pos, pos-1, ..., block.begin
    int dist;
  };
  // best_at_end_[b] holds for this search only if epoch_at_end_[b] == epoch_: a new search
  // bumps the epoch instead of refilling one entry per block (kernels with hundreds of
  // blocks ran thousands of searches that look back one or two instructions).
  mutable std::vector<int> best_at_end_ = {};
  mutable std::vector<uint32_t> epoch_at_end_ = {};
  mutable uint32_t epoch_ = 0;
  mutable std::vector<WorkItem> work_ = {};
};

// One finding of a rule at a consumer instruction.
struct HazardNeed {
  int missing;          // wait states to add before the consumer
  int required;         // wait states the rule requires in total
  size_t source;        // the first instruction of the pair
  std::string what;     // the pair in words: the writer, the registers it writes, how the consumer reads them
};

struct HazardRule {
  const char* name;
  // Whether the rule can find a hazard at an instruction with these facts: its consumer class
  // ("an MFMA", "a VALU"), from the instruction alone. The pass works this out once per distinct
  // instruction and runs check() only where it holds (check() assumes it): asking every rule at
  // every instruction, most of them to answer "not my kind of instruction", was most of the
  // pass's calls.
  bool (*consumer)(const InstFacts& facts);
  // Appends what `consumer` still needs (missing > 0 only).
  void (*check)(const HazardContext& ctx, size_t consumer, std::vector<HazardNeed>& out);
};

// All rules, in the order they are checked (hazards/*.cpp, one rule per file).
const std::vector<HazardRule>& hazard_rules();

// Helpers for rules.
std::string inst_text(const isa::MachineInst& mi);  // isa::print without the comment
// Records a need for every hit of `match` at `consumer`; `what()` gives its description
// (built only when there is a hit).
template <class What>
void need_if(const HazardContext& ctx, size_t consumer, int limit, const HazardContext::Matcher& match,
             const What& what, std::vector<HazardNeed>& out, Sources sources = Sources::any, UnitRange written = {}) {
  if (auto hit = ctx.search(consumer, limit, match, sources, written))
    out.push_back({hit->missing, hit->required, hit->source, what()});
}

}  // namespace cdnajit::passes
