// Input validation and message formatting shared by liveness, linear scan and verify.
#include <string>

#include "jit/regalloc/detail.hpp"

namespace cdnajit::regalloc {

const char* class_name(RegClass c) {
  switch (c) {
    case RegClass::S: return "SGPR";
    case RegClass::V: return "VGPR";
    case RegClass::A: return "AGPR";
  }
  return "?";
}

// gfx9: s0..s101 are addressable (VCC, FLAT_SCRATCH, XNACK_MASK live above);
// 256 architectural VGPRs and, on gfx90a and later, 256 AGPRs.
int architectural_limit(RegClass c) {
  switch (c) {
    case RegClass::S: return isa::target::kAddressableSgprs;
    case RegClass::V: return isa::target::kVgprs;
    case RegClass::A: return isa::target::kAgprs;
  }
  return 0;
}

namespace detail {

static char class_letter(RegClass c) { return c == RegClass::S ? 's' : c == RegClass::V ? 'v' : 'a'; }

std::string reg_text(RegClass c, int base, int dwords) {
  std::string s(1, class_letter(c));
  if (dwords == 1) return s + std::to_string(base);
  return s + "[" + std::to_string(base) + ":" + std::to_string(base + dwords - 1) + "]";
}

std::string describe(const Function& f, uint32_t vreg) {
  const VirtualReg& r = f.vregs[vreg];
  std::string name = r.name;
  if (name.empty()) name.append("%").append(std::to_string(vreg));  // (append: avoids a GCC 12 -Wrestrict false positive)
  std::string s = "'" + name + "' (" + std::string(1, class_letter(r.cls)) + ", " + std::to_string(r.dwords) +
                  (r.dwords == 1 ? " dword" : " dwords");
  if (!r.origin.empty()) s += ", " + r.origin;
  return s + ")";
}

std::string where_text(const Function& f, int block, int index_in_block, int position) {
  if (position < 0 || block < 0) return "kernel entry";
  const Instr& in = f.blocks[block].instrs[index_in_block];
  std::string s = "instruction " + std::to_string(position);
  if (!in.origin.empty()) s += " (" + in.origin + ")";
  return s + " in block " + std::to_string(block);
}

static bool is_pow2(int x) { return x > 0 && (x & (x - 1)) == 0; }

void check_function(const Function& f) {
  const size_t nv = f.vregs.size(), nb = f.blocks.size();
  for (size_t i = 0; i < nv; ++i) {
    const VirtualReg& r = f.vregs[i];
    // Built only when something is wrong: describing every vreg up front costs more than the checks.
    auto who = [&] { return "regalloc: virtual register " + describe(f, uint32_t(i)); };
    if (r.dwords < 1 || r.dwords > kMaxTupleDwords)
      throw Error(who() + " has width " + std::to_string(r.dwords) + " dwords; valid widths are 1.." +
                  std::to_string(kMaxTupleDwords));
    if (!is_pow2(r.align) || r.align > kMaxAlign)
      throw Error(who() + " has alignment " + std::to_string(r.align) +
                  "; alignment must be a power of two 1.." + std::to_string(kMaxAlign));
    if (r.pinned < -1)
      throw Error(who() + " is pinned to index " + std::to_string(r.pinned) + "; use -1 for unpinned or an index >= 0");
    if (r.pinned >= 0) {
      if (r.pinned % r.align != 0)
        throw Error(who() + " is pinned to " + reg_text(r.cls, r.pinned, r.dwords) + ", which violates its alignment of " +
                    std::to_string(r.align));
      if (r.pinned + r.dwords > architectural_limit(r.cls))
        throw Error(who() + " is pinned to " + reg_text(r.cls, r.pinned, r.dwords) + ", beyond the " +
                    std::to_string(architectural_limit(r.cls)) + " architectural " + class_name(r.cls) + "s");
    }
  }
  int position = 0;
  for (size_t b = 0; b < nb; ++b) {
    const Block& blk = f.blocks[b];
    for (uint32_t s : blk.succs)
      if (s >= nb)
        throw Error("regalloc: block " + std::to_string(b) + " has successor " + std::to_string(s) +
                    ", but the function has only " + std::to_string(nb) + " blocks");
    for (size_t i = 0; i < blk.instrs.size(); ++i, ++position) {
      const Instr& in = blk.instrs[i];
      auto check = [&](const std::vector<uint32_t>& ids, const char* what) {
        for (uint32_t v : ids)
          if (v >= nv)
            throw Error("regalloc: " + where_text(f, int(b), int(i), position) + " " + what + " virtual register id " +
                        std::to_string(v) + ", but the function has only " + std::to_string(nv) +
                        " virtual registers");
      };
      check(in.uses, "reads");
      check(in.defs, "writes");
      check(in.partial_defs, "partially writes");
    }
  }
}

}  // namespace detail
}  // namespace cdnajit::regalloc
