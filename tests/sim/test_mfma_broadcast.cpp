// Multi-block MFMAs (_2b/_4b/_16b) with the CBSZ/ABID (A-block broadcast) and BLGP (B lane
// group pattern) modifiers, through clang's builtins on both archs. Inputs are small integers,
// so every accumulation model gives the exact result and the test checks only the data movement.
// The oracle is written here independently: per shape, which block/row/column each lane and
// register holds (the lane -> element direction), and the modifiers as the ISA guide's table
// describes them.
#include <catch2/catch.hpp>

#include <cstring>

#include "tests/sim/sim_harness.hpp"

using namespace simtest;
using cdnajit::Arch;

namespace {

enum class Ty { F32, F16, BF16, I8 };

struct Shape {
  const char* builtin;  // clang builtin
  const char* a_type;   // its A/B operand type in the kernel
  int m, blocks, k, nreg;
  Ty ty;
};

const Shape kShapes[] = {
    {"__builtin_amdgcn_mfma_f32_4x4x1f32", "float", 4, 16, 1, 4, Ty::F32},
    {"__builtin_amdgcn_mfma_f32_16x16x1f32", "float", 16, 4, 1, 16, Ty::F32},
    {"__builtin_amdgcn_mfma_f32_32x32x1f32", "float", 32, 2, 1, 32, Ty::F32},
    {"__builtin_amdgcn_mfma_f32_4x4x4f16", "half4_", 4, 16, 4, 4, Ty::F16},
    {"__builtin_amdgcn_mfma_f32_16x16x4bf16_1k", "short4_", 16, 4, 4, 16, Ty::BF16},
    {"__builtin_amdgcn_mfma_i32_4x4x4i8", "int", 4, 16, 4, 4, Ty::I8},
};

// Lane -> (block, row-or-column) of A and B, and (reg, lane) -> (block, row, col) of D, for the
// shapes above, read off the ISA guide's layout tables.
void a_pos(const Shape& s, int lane, int& block, int& row) { block = lane / s.m; row = lane % s.m; }
void d_pos(const Shape& s, int reg, int lane, int& block, int& row, int& col) {
  col = lane % s.m;
  if (s.m == 4) { block = lane / 4; row = reg; }
  else if (s.m == 16) { block = reg / 4; row = 4 * (lane / 16) + reg % 4; }
  else { block = reg / 16; row = 8 * ((reg % 16) / 4) + 4 * (lane / 32) + reg % 4; }
}
// BLGP as the ISA guide's table describes it: the lane whose B data lane l receives.
int blgp_source(int l, int blgp) {
  switch (blgp) {
    case 1: return l < 32 ? l : l - 32;     // lanes 0-31 broadcast to 32-63
    case 2: return l >= 32 ? l : l + 32;    // lanes 32-63 broadcast to 0-31
    case 3: return (l + 16) & 63;           // rotated down by 16
    case 4: case 5: case 6: case 7: return 16 * (blgp - 4) + (l & 15);  // one 16-lane group to all
    default: return l;
  }
}

// Element e (k index) of the packed input dword(s) of a lane, as an integer.
int64_t elem(const Shape& s, const std::vector<uint32_t>& words, int lane, int e) {
  switch (s.ty) {
    case Ty::F32: { float f; std::memcpy(&f, &words[size_t(lane)], 4); return int64_t(f); }
    case Ty::I8: return int8_t(uint8_t(words[size_t(lane)] >> (8 * e)));
    case Ty::F16: {
      uint16_t h = uint16_t(words[size_t(lane) * 2 + e / 2] >> (16 * (e % 2)));
      _Float16 v; std::memcpy(&v, &h, 2); return int64_t(float(v));
    }
    case Ty::BF16: {
      uint32_t u = (words[size_t(lane) * 2 + e / 2] >> (16 * (e % 2))) << 16;
      float f; std::memcpy(&f, &u, 4); return int64_t(f);
    }
  }
  return 0;
}

uint32_t encode(Ty ty, int v) {  // one element's bits (|v| small)
  switch (ty) {
    case Ty::F32: { float f = float(v); uint32_t u; std::memcpy(&u, &f, 4); return u; }
    case Ty::I8: return uint32_t(uint8_t(int8_t(v)));
    case Ty::F16: { _Float16 h = _Float16(float(v)); uint16_t u; std::memcpy(&u, &h, 2); return u; }
    case Ty::BF16: { float f = float(v); uint32_t u; std::memcpy(&u, &f, 4); return u >> 16; }
  }
  return 0;
}

// One kernel per combination, named mb<idx>, so one clang run compiles them all.
std::string kernel_source(const Shape& s, int cbsz, int abid, int blgp, int idx) {
  bool i8 = s.ty == Ty::I8;
  std::string acc = i8 ? "int" : "float";
  std::string n = std::to_string(s.nreg);
  std::string words = s.ty == Ty::F16 || s.ty == Ty::BF16 ? "2" : "1";
  std::string id = std::to_string(idx);
  return "typedef " + acc + " acc" + id + "_t __attribute__((ext_vector_type(" + n + ")));\n"
         "extern \"C\" __global__ void mb" + id + "(const unsigned* a, const unsigned* b, const " + acc + "* c, " + acc + "* d) {\n"
         "  unsigned l = tid();\n"
         "  " + s.a_type + " x, y;\n"
         "  __builtin_memcpy(&x, a + l * " + words + ", sizeof x);\n"
         "  __builtin_memcpy(&y, b + l * " + words + ", sizeof y);\n"
         "  acc" + id + "_t acc;\n"
         "  for (int r = 0; r < " + n + "; ++r) acc[r] = c[r * 64 + l];\n"
         "  acc = " + s.builtin + "(x, y, acc, " + std::to_string(cbsz) + ", " + std::to_string(abid) + ", " +
         std::to_string(blgp) + ");\n"
         "  for (int r = 0; r < " + n + "; ++r) d[r * 64 + l] = acc[r];\n"
         "}\n";
}

}  // namespace

TEST_CASE("multi-block MFMAs with CBSZ/ABID/BLGP broadcasts move A and B data as the ISA guide describes",
          "[sim][mfma][broadcast]") {
  struct Combo { int shape, cbsz, abid, blgp; };
  const Combo combos[] = {{0, 0, 0, 0}, {0, 2, 3, 0}, {0, 4, 5, 3}, {0, 1, 1, 7}, {1, 2, 1, 1}, {1, 1, 0, 2},
                          {2, 1, 1, 3}, {2, 0, 0, 5}, {3, 3, 2, 4}, {4, 2, 3, 3}, {5, 4, 9, 6}, {5, 0, 0, 1}};
  std::string src = "typedef _Float16 half4_ __attribute__((ext_vector_type(4)));\n"
                    "typedef short short4_ __attribute__((ext_vector_type(4)));\n";
  int idx = 0;
  for (const Combo& cb : combos) src += kernel_source(kShapes[cb.shape], cb.cbsz, cb.abid, cb.blgp, idx++);
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    Device dev(arch);
    auto co = load_hip(src, arch);
    idx = 0;
    for (const Combo& cb : combos) {
      const Shape& s = kShapes[cb.shape];
      const std::string kernel = "mb" + std::to_string(idx++);
      INFO("arch " << cdnajit::arch_name(arch) << " " << s.builtin << " cbsz " << cb.cbsz << " abid " << cb.abid
                   << " blgp " << cb.blgp);
      const int wpl = (s.ty == Ty::F16 || s.ty == Ty::BF16) ? 2 : 1;
      // Distinct small values: A element (lane, e) = 1 + (lane + 3e) % 7 (signed for i8), B = (lane * 5 + e) % 9 - 4.
      std::vector<uint32_t> a(64 * size_t(wpl)), b(64 * size_t(wpl));
      for (int l = 0; l < 64; ++l)
        for (int e = 0; e < s.k; ++e) {
          int per = s.ty == Ty::F32 ? 1 : s.ty == Ty::I8 ? 4 : 2;
          int bits = 32 / per;
          a[size_t(l * wpl + e / per)] |= encode(s.ty, 1 + (l + 3 * e) % 7) << (bits * (e % per));
          b[size_t(l * wpl + e / per)] |= encode(s.ty, (l * 5 + e) % 9 - 4) << (bits * (e % per));
        }
      std::vector<uint32_t> c(size_t(s.nreg) * 64);
      for (size_t i = 0; i < c.size(); ++i) {
        int v = int(i % 11) - 5;
        c[i] = s.ty == Ty::I8 ? uint32_t(v) : encode(Ty::F32, v);
      }
      uint64_t da = dev.upload(a), db = dev.upload(b), dc = dev.upload(c), dd = dev.upload(std::vector<uint32_t>(c.size()));
      dev.run(co, kernel, ArgPack().add(da).add(db).add(dc).add(dd), dims1(1, 64));
      auto got = dev.download<uint32_t>(dd, c.size());
      // Oracle: lanes of A/B per block, then D = A[broadcast block] x B[pattern lanes] + C.
      std::vector<int> a_lane(size_t(s.blocks * s.m)), b_lane(size_t(s.blocks * s.m));
      for (int l = 0; l < 64; ++l) {
        int blk, x;
        a_pos(s, l, blk, x);
        if (blk < s.blocks) { a_lane[size_t(blk * s.m + x)] = l; b_lane[size_t(blk * s.m + x)] = l; }
      }
      size_t bad = 0;
      std::string first;
      for (int r = 0; r < s.nreg; ++r)
        for (int l = 0; l < 64; ++l) {
          int blk, i, j;
          d_pos(s, r, l, blk, i, j);
          int ablk = (blk & ~((1 << cb.cbsz) - 1)) + cb.abid;
          int64_t sum = 0;
          for (int e = 0; e < s.k; ++e)
            sum += elem(s, a, a_lane[size_t(ablk * s.m + i)], e) *
                   elem(s, b, blgp_source(b_lane[size_t(blk * s.m + j)], cb.blgp), e);
          uint32_t cw = c[size_t(r) * 64 + size_t(l)];
          uint32_t want;
          if (s.ty == Ty::I8) want = uint32_t(int32_t(cw) + int32_t(sum));
          else { float cf; std::memcpy(&cf, &cw, 4); want = encode(Ty::F32, int(cf) + int(sum)); }
          uint32_t g = got[size_t(r) * 64 + size_t(l)];
          if (g != want && ++bad <= 8)
            first += "\n  reg " + std::to_string(r) + " lane " + std::to_string(l) + ": got " + std::to_string(g) +
                     " want " + std::to_string(want);
        }
      INFO("mismatches " << bad << first);
      CHECK(bad == 0);
    }
  }
}
