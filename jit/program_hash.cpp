#include "jit/program_hash.hpp"

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <span>
#include <string_view>
#include <type_traits>
#include <vector>

namespace cdnajit {

namespace {

// The fingerprint is computed in two steps: every field is packed into one byte
// buffer (fixed-width fields, strings and lists length-prefixed, so the framing
// is unambiguous), then the buffer is hashed in bulk. Hashing field by field,
// each through a serial multiply chain, made the memo hit of a 600-instruction
// kernel ≈ 50 µs; four independent lanes over the packed bytes keep the CPU's
// multipliers busy in parallel.
class Packer {
 public:
  explicit Packer(std::vector<uint8_t>& buf) : buf_(buf) {}
  // Room for `more` bytes: the put*() calls below write without checking.
  void reserve(size_t more) {
    if (n_ + more > buf_.size()) buf_.resize(std::max(buf_.size() * 2, n_ + more));
  }
  template <class T>
    requires std::is_trivially_copyable_v<T>
  void put(const T& v) {
    std::memcpy(buf_.data() + n_, &v, sizeof v);
    n_ += sizeof v;
  }
  void put_bytes(const void* p, size_t n) {
    if (n) std::memcpy(buf_.data() + n_, p, n);
    n_ += n;
  }
  void str(std::string_view s) {
    reserve(8 + s.size());
    put(uint64_t(s.size()));
    put_bytes(s.data(), s.size());
  }
  std::span<const uint8_t> bytes() const { return {buf_.data(), n_}; }

 private:
  std::vector<uint8_t>& buf_;
  size_t n_ = 0;
};

// Four lanes with xxHash64's round (multiply, rotate, multiply; constants from
// xxHash, https://github.com/Cyan4973/xxHash, doc/xxhash_spec.md), one 8-byte
// word per lane per 32-byte stripe; the lanes are then merged two different ways
// into the two halves of the 128-bit result.
constexpr uint64_t P1 = 0x9E3779B185EBCA87ull, P2 = 0xC2B2AE3D27D4EB4Full, P3 = 0x165667B19E3779F9ull,
                   P4 = 0x85EBCA77C2B2AE63ull, P5 = 0x27D4EB2F165667C5ull;
uint64_t rotl(uint64_t x, int r) { return (x << r) | (x >> (64 - r)); }
uint64_t lane_round(uint64_t acc, uint64_t w) { return rotl(acc + w * P2, 31) * P1; }
uint64_t avalanche(uint64_t h) {
  h ^= h >> 33, h *= P2, h ^= h >> 29, h *= P3, h ^= h >> 32;
  return h;
}

ProgramHash hash_bytes(std::span<const uint8_t> b) {
  uint64_t v[4] = {P1 + P2, P2, 0, 0 - P1};
  size_t i = 0;
  for (; i + 32 <= b.size(); i += 32)
    for (int l = 0; l < 4; ++l) {
      uint64_t w;
      std::memcpy(&w, b.data() + i + 8 * l, 8);
      v[l] = lane_round(v[l], w);
    }
  uint64_t tail[4] = {0, 0, 0, 0};
  if (i < b.size()) std::memcpy(tail, b.data() + i, b.size() - i);
  for (int l = 0; l < 4; ++l) v[l] = lane_round(v[l], tail[l]);
  uint64_t a = rotl(v[0], 1) + rotl(v[1], 7) + rotl(v[2], 12) + rotl(v[3], 18);
  uint64_t c = rotl(v[3], 5) ^ rotl(v[2], 17) ^ rotl(v[1], 29) ^ rotl(v[0], 41);
  for (int l = 0; l < 4; ++l) a = (a ^ lane_round(0, v[l])) * P1 + P4, c = (c ^ lane_round(P5, v[3 - l])) * P4 + P1;
  a += b.size(), c ^= uint64_t(b.size()) * P5;
  return {avalanche(a), avalanche(c ^ (a >> 32))};
}

// One entry's digest, streamed without a buffer: 8-byte words go round-robin into four
// lanes of xxHash64's round (the four lanes rotate through the registers, so consecutive
// words start independent multiply chains). Small fields are combined into one word; a
// string is its length word and then its bytes, so the framing stays unambiguous. The two
// halves of the digest are two different combinations of the lanes, each avalanched.
// (Packing each entry into a buffer and hashing that with hash_bytes cost ~47 ns an entry
// on the seed kernel; the entries are digested while the kernel is defined.)
class EntryMixer {
 public:
  void word(uint64_t w) {
    const uint64_t t = lane_round(v0_, w);
    v0_ = v1_, v1_ = v2_, v2_ = v3_, v3_ = t;
    ++words_;
  }
  template <class T>
    requires(std::is_trivially_copyable_v<T> && sizeof(T) <= 8)
  void put(const T& x) {
    uint64_t w = 0;
    std::memcpy(&w, &x, sizeof x);
    word(w);
  }
  void str(std::string_view s) {
    word(s.size());
    size_t i = 0;
    for (; i + 8 <= s.size(); i += 8) {
      uint64_t w;
      std::memcpy(&w, s.data() + i, 8);
      word(w);
    }
    if (i < s.size()) {
      uint64_t w = 0;
      std::memcpy(&w, s.data() + i, s.size() - i);
      word(w);
    }
  }
  ProgramHash finish() const {
    const uint64_t a = rotl(v0_, 1) + rotl(v1_, 7) + rotl(v2_, 12) + rotl(v3_, 18) + words_ * P5;
    const uint64_t b = rotl(v3_, 5) ^ rotl(v2_, 17) ^ rotl(v1_, 29) ^ rotl(v0_, 41) ^ (words_ * P4);
    return {avalanche(a), avalanche(b + P3)};
  }

 private:
  uint64_t v0_ = P1 + P2, v1_ = P2, v2_ = 0, v3_ = 0 - P1;
  uint64_t words_ = 0;
};

// The words an operand contributes (1 or 2), its alternative's index in the low byte of
// the first. Written to `w` rather than fed to the mixer, which then stays in registers
// (a mixer passed into the visitor lived on the stack: a store and a load per word).
int opnd_words(const Opnd& o, uint64_t w[2]) {
  const uint64_t tag = o.v.index();
  return std::visit(
      [&](auto&& x) -> int {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, Reg> || std::is_same_v<T, Neg> || std::is_same_v<T, Abs>) {
          const Reg* r;
          if constexpr (std::is_same_v<T, Reg>) r = &x;
          else r = &x.r;
          // id, first and dwords are contiguous (8 bytes); the class goes beside the tag.
          static_assert(offsetof(Reg, first) == 4 && offsetof(Reg, dwords) == 6);
          std::memcpy(&w[1], &r->id, 8);
          w[0] = tag | uint64_t(r->cls) << 8;
          return 2;
        } else if constexpr (std::is_same_v<T, int64_t>) {
          w[0] = tag, w[1] = uint64_t(x);
          return 2;
        } else if constexpr (std::is_same_v<T, Label>) {
          w[0] = tag | uint64_t(x.id) << 32;
        } else if constexpr (std::is_same_v<T, float> || std::is_same_v<T, isa::SpecialReg>) {
          uint32_t bits = 0;
          std::memcpy(&bits, &x, sizeof x);
          w[0] = tag | uint64_t(bits) << 32;
        } else if constexpr (std::is_same_v<T, Offset>) {
          w[0] = tag | uint64_t(uint32_t(x.bytes)) << 32;
        } else if constexpr (std::is_same_v<T, Offset0> || std::is_same_v<T, Offset1>) {
          w[0] = tag | uint64_t(uint32_t(x.v)) << 32;
        } else if constexpr (std::is_same_v<T, Cbsz> || std::is_same_v<T, Abid> || std::is_same_v<T, Blgp>) {
          w[0] = tag | uint64_t(x.v) << 32;
        } else if constexpr (std::is_same_v<T, OpSel> || std::is_same_v<T, OpSelHi>) {
          w[0] = tag | uint64_t(x.bits) << 32;
        } else if constexpr (std::is_same_v<T, Dpp>) {  // folded into mods.extra before hashing; kept exact anyway
          w[0] = tag | uint64_t(x.ctrl) << 16 | uint64_t(x.rows) << 32 | uint64_t(x.banks) << 40 | uint64_t(x.zero_invalid) << 48;
        } else if constexpr (std::is_same_v<T, Swizzle>) {
          w[0] = tag | uint64_t(x.offset) << 32;
        } else {
          w[0] = tag;  // the remaining alternatives (flags) are identified by their index alone
        }
        return 1;
      },
      o.v);
}

// The fixed-width modifier fields sit contiguously from `offset` to `blgp`
// (ints, then single bytes: no padding), so they are mixed as one block.
constexpr size_t kModifierBytes = offsetof(isa::Modifiers, blgp) + 1;
static_assert(kModifierBytes == 3 * sizeof(int32_t) + 7 * sizeof(bool) + 5 * sizeof(uint8_t) + sizeof(bool) +
                                   3 * sizeof(uint8_t),
              "isa::Modifiers changed: mix its new fields in program_hash.cpp");
static_assert(sizeof(float) == 4 && sizeof(isa::SpecialReg) <= 4);

std::span<const uint8_t> as_bytes(std::span<const ProgramHash> d) {
  static_assert(sizeof(ProgramHash) == 16, "digests are hashed as their 16 bytes");
  return {reinterpret_cast<const uint8_t*>(d.data()), d.size() * sizeof(ProgramHash)};
}

}  // namespace

ProgramHash digest_of(const VRegDecl& v) {
  EntryMixer m;
  m.word(uint64_t(v.cls) | uint64_t(v.dwords) << 8 | uint64_t(v.align) << 24 | uint64_t(v.live_in) << 40);
  m.put(int64_t(v.pinned));
  m.str(v.name);
  // As for instructions below: the file name's address (one string literal in this process) and the line.
  m.put(v.origin.file_name());
  m.word(uint64_t(v.origin.line()));
  return m.finish();
}

ProgramHash digest_of(const IrInst& in) {
  EntryMixer m;
  m.put(in.info);
  // The memo lives in this process, where a call site's file name is one string literal:
  // its address identifies it (a different address can only cause a miss, never a false hit).
  m.put(in.loc.file_name());
  m.word(uint64_t(in.label) | uint64_t(in.loc.line()) << 32);
  m.word(uint64_t(in.ops.size()));
  for (const Opnd& o : in.ops) {
    uint64_t w[2];
    const int n = opnd_words(o, w);
    m.word(w[0]);
    if (n == 2) m.word(w[1]);
  }
  uint64_t mods[(kModifierBytes + 7) / 8] = {};
  std::memcpy(mods, &in.mods, kModifierBytes);
  for (uint64_t w : mods) m.word(w);
  m.word(uint64_t(in.raw_regs.size()));
  for (const Reg& r : in.raw_regs) {
    uint64_t w;
    std::memcpy(&w, &r.id, 8);
    m.word(w);
  }
  m.word(uint64_t(in.raw_defs.size()));
  for (int d : in.raw_defs) m.put(int64_t(d));
  m.str(in.mods.extra);
  m.str(in.comment);
  m.str(in.raw_text);
  return m.finish();
}

ProgramHash hash_program(const Kernel::Impl& k, const BuildOptions& opts) {
  thread_local std::vector<uint8_t> buffer(1 << 12);
  Packer p(buffer);
  p.str(k.name);
  p.reserve(256);
  p.put(k.arch);
  p.put(k.wg_size);
  p.put(opts.waitcnt), p.put(opts.hazards), p.put(opts.link), p.put(opts.drop_author_waits), p.put(opts.encoder);
  p.put(opts.linker), p.put(opts.keep_assembly), p.put(opts.barrier_release), p.put(opts.lds_dma_findings);
  p.put(k.lds_bytes), p.put(k.kernarg_bytes), p.put(k.workitem_dims);
  p.put(k.kernarg_vreg), p.put(k.wg_id_vreg), p.put(k.tid_vreg);
  p.put(uint64_t(k.args.size()));
  for (const ArgDecl& a : k.args) {
    p.str(a.name);
    p.reserve(8);
    p.put(a.type), p.put(a.elem), p.put(a.is_const);
  }
  p.reserve(8);
  p.put(uint64_t(k.label_names.size()));
  for (const std::string& l : k.label_names) p.str(l);
  // Each part's length is mixed into its hash, so the three parts frame themselves.
  const ProgramHash parts[3] = {hash_bytes(p.bytes()), hash_bytes(as_bytes(k.vregs.digests())),
                                hash_bytes(as_bytes(k.program.digests()))};
  return hash_bytes({reinterpret_cast<const uint8_t*>(parts), sizeof parts});
}

}  // namespace cdnajit
