#include "jit/program_hash.hpp"

#include <cstring>
#include <string_view>

namespace cdnajit {

namespace {

// Two independent 64-bit streams fed a word (8 bytes) at a time, each word
// multiplied and shifted into its state (different odd constants per stream).
// A byte-at-a-time FNV-1a made a memo hit of a 600-instruction kernel cost
// ≈ 0.1 ms; this keeps it to a few microseconds.
struct Hasher {
  uint64_t a = 0xcbf29ce484222325ull, b = 0x84222325cbf29ce4ull;
  void word(uint64_t w) {
    a = (a ^ w) * 0x9e3779b97f4a7c15ull;
    a ^= a >> 29;
    b = (b ^ w) * 0xff51afd7ed558ccdull + 0x9e37;
    b ^= b >> 31;
  }
  void bytes(const void* p, size_t n) {
    auto* c = static_cast<const unsigned char*>(p);
    size_t i = 0;
    for (; i + 8 <= n; i += 8) {
      uint64_t w;
      std::memcpy(&w, c + i, 8);
      word(w);
    }
    uint64_t tail = uint64_t(n - i) << 56;
    if (i < n) std::memcpy(&tail, c + i, n - i), tail ^= uint64_t(n - i) << 56;
    word(tail);
  }
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void pod(const T& v) { bytes(&v, sizeof v); }
  void str(std::string_view s) {
    pod(s.size());
    bytes(s.data(), s.size());
  }
};

void hash_opnd(Hasher& h, const Opnd& o) {
  h.pod(o.v.index());
  std::visit(
      [&](auto&& x) {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Reg>) {
          h.pod(x.id), h.pod(x.first), h.pod(x.dwords), h.pod(x.cls);
        } else if constexpr (std::is_same_v<T, Neg> || std::is_same_v<T, Abs>) {
          h.pod(x.r.id), h.pod(x.r.first), h.pod(x.r.dwords), h.pod(x.r.cls);
        } else if constexpr (std::is_same_v<T, Label>) {
          h.pod(x.id);
        } else if constexpr (std::is_same_v<T, int64_t> || std::is_same_v<T, float> ||
                             std::is_same_v<T, isa::SpecialReg>) {
          h.pod(x);
        } else if constexpr (std::is_same_v<T, Offset>) {
          h.pod(x.bytes);
        } else if constexpr (std::is_same_v<T, Offset0> || std::is_same_v<T, Offset1> || std::is_same_v<T, Cbsz> ||
                             std::is_same_v<T, Abid> || std::is_same_v<T, Blgp>) {
          h.pod(x.v);
        } else if constexpr (std::is_same_v<T, OpSel> || std::is_same_v<T, OpSelHi>) {
          h.pod(x.bits);
        }
        // Remaining alternatives (flags) are identified by their index alone.
      },
      o.v);
}

void hash_mods(Hasher& h, const isa::Modifiers& m) {
  h.pod(m.offset), h.pod(m.offset0), h.pod(m.offset1);
  h.pod(uint32_t(m.sc0 | m.sc1 << 1 | m.nt << 2 | m.lds << 3 | m.offen << 4 | m.idxen << 5 | m.clamp << 6 |
                 m.op_sel_hi_set << 7));
  h.pod(m.omod), h.pod(m.op_sel), h.pod(m.op_sel_hi), h.pod(m.neg_lo), h.pod(m.neg_hi);
  h.pod(m.cbsz), h.pod(m.abid), h.pod(m.blgp);
  h.str(m.extra);
}

}  // namespace

ProgramHash hash_program(const Kernel::Impl& k, const BuildOptions& opts) {
  Hasher h;
  h.str(k.name);
  h.pod(k.arch);
  h.bytes(k.wg_size, sizeof k.wg_size);
  h.pod(opts.waitcnt), h.pod(opts.hazards), h.pod(opts.link), h.pod(opts.drop_author_waits), h.pod(opts.encoder);
  h.pod(opts.linker), h.pod(opts.keep_assembly);
  h.pod(k.lds_bytes), h.pod(k.kernarg_bytes), h.pod(k.workitem_dims);
  h.pod(k.kernarg_vreg), h.bytes(k.wg_id_vreg, sizeof k.wg_id_vreg), h.pod(k.tid_vreg);
  for (const VRegDecl& v : k.vregs) {
    h.pod(v.cls), h.pod(v.dwords), h.pod(v.align), h.pod(v.pinned), h.pod(v.live_in);
    h.str(v.name), h.str(v.origin);
  }
  for (const ArgDecl& a : k.args) h.str(a.name), h.pod(a.type), h.pod(a.elem), h.pod(a.is_const);
  for (const std::string& l : k.label_names) h.str(l);
  for (const IrInst& in : k.program) {
    h.pod(in.info), h.pod(in.label);
    h.pod(in.ops.size());
    for (const Opnd& o : in.ops) hash_opnd(h, o);
    hash_mods(h, in.mods);
    // The memo lives in this process, where a call site's file name is one string literal:
    // its address identifies it (a different address can only cause a miss, never a false hit).
    h.pod(in.loc.file_name()), h.pod(in.loc.line());
    h.str(in.comment), h.str(in.raw_text);
    for (const Reg& r : in.raw_regs) h.pod(r.id), h.pod(r.first), h.pod(r.dwords);
    for (int d : in.raw_defs) h.pod(d);
  }
  return {h.a, h.b};
}

}  // namespace cdnajit
