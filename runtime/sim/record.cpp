// Recording of dynamic instruction streams for the timing model (record.hpp).
#include <algorithm>
#include <atomic>
#include <bit>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#endif

#include "runtime/sim/cache_lines.hpp"
#include "runtime/sim/sim_internal.hpp"
#include "runtime/sim/host_cpu.hpp"

namespace cdnajit::sim {

namespace {

// Recorded waves of one launch execute much the same instruction streams, so each reserves at its
// first step the most the waves before it on the same host thread recorded: its vectors then need not
// grow by doubling (each doubling copies the wave's steps into fresh memory), and hold no more than
// such a wave needs (a doubled capacity per wave made the recording of a whole grid twice its size in
// fresh pages). The hint
// belongs to one launch: begin_recording bumps the epoch, and a hint of another launch or epoch is
// dropped (it only sizes allocations; the recorded data does not depend on it). At most
// kMaxHintBytes per vector, so one long wave does not make every later short one reserve its size.
std::atomic<uint64_t> recording_epoch{0};
constexpr size_t kMaxHintBytes = size_t(64) << 10;
struct CapacityHint {
  const Launch* launch = nullptr;
  uint64_t epoch = 0;
  size_t steps = 0, addrs = 0;
};
thread_local CapacityHint capacity_hint;

// Bit l: a[l] != kNoAddress. Eight lanes per compare where the host has AVX-512, four with AVX2 (it
// runs for every memory instruction a recorded wave executes), the scalar loop elsewhere (same answer).
uint64_t address_mask_portable(const uint64_t* a) {
  uint64_t mask = 0;
  for (int l = 0; l < 64; ++l) mask |= uint64_t(a[l] != kNoAddress) << l;
  return mask;
}
// a[l] - a[l - 1] == stride for every l in 1..63.
bool equal_steps_portable(const uint64_t* a, uint64_t stride) {
  bool ok = true;
  for (int l = 1; l < 64; ++l) ok &= a[l] - a[l - 1] == stride;
  return ok;
}
#if defined(__x86_64__) && defined(__GNUC__)
__attribute__((target("avx512f"))) uint64_t address_mask_avx512(const uint64_t* a) {
  const __m512i none = _mm512_set1_epi64(-1);
  uint64_t mask = 0;
  for (int i = 0; i < 8; ++i) mask |= uint64_t(_mm512_cmpneq_epu64_mask(_mm512_loadu_si512(a + 8 * i), none)) << (8 * i);
  return mask;
}
__attribute__((target("avx512f"))) bool equal_steps_avx512(const uint64_t* a, uint64_t stride) {
  const __m512i s = _mm512_set1_epi64(int64_t(stride));
  __mmask8 bad = 0;
  for (int i = 0; i < 7; ++i)  // lanes 8i+1 .. 8i+8 against their left neighbours
    bad |= _mm512_cmpneq_epu64_mask(_mm512_sub_epi64(_mm512_loadu_si512(a + 8 * i + 1), _mm512_loadu_si512(a + 8 * i)), s);
  bad |= _mm512_cmpneq_epu64_mask(_mm512_sub_epi64(_mm512_loadu_si512(a + 56), _mm512_loadu_si512(a + 55)), s);  // 56..63
  return !bad;
}
// Four lanes per compare where the host has AVX2 and not AVX-512 (same answers).
__attribute__((target("avx2"))) uint64_t address_mask_avx2(const uint64_t* a) {
  const __m256i none = _mm256_set1_epi64x(-1);
  uint64_t missing = 0;
  for (int i = 0; i < 16; ++i) {
    const __m256i eq = _mm256_cmpeq_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i)), none);
    missing |= uint64_t(_mm256_movemask_pd(_mm256_castsi256_pd(eq))) << (4 * i);
  }
  return ~missing;
}
__attribute__((target("avx2"))) bool equal_steps_avx2(const uint64_t* a, uint64_t stride) {
  const __m256i s = _mm256_set1_epi64x(int64_t(stride));
  __m256i same = _mm256_set1_epi64x(-1);
  for (int i = 0; i < 15; ++i) {  // lanes 4i+1 .. 4i+4 against their left neighbours
    const __m256i d = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i + 1)),
                                       _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 4 * i)));
    same = _mm256_and_si256(same, _mm256_cmpeq_epi64(d, s));
  }
  const __m256i d = _mm256_sub_epi64(_mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 60)),
                                     _mm256_loadu_si256(reinterpret_cast<const __m256i*>(a + 59)));  // 60..63
  same = _mm256_and_si256(same, _mm256_cmpeq_epi64(d, s));
  return _mm256_movemask_pd(_mm256_castsi256_pd(same)) == 0xf;
}
const bool kAffineAvx512 = host_cpu().avx512f;
const bool kAffineAvx2 = host_cpu().avx2;
// std::popcount is a library call on the baseline ISA; the host's instruction where it has one.
__attribute__((target("popcnt"))) int exec_population_popcnt(uint64_t e) { return __builtin_popcountll(e); }
const bool kPopcnt = host_cpu().popcnt;
int exec_population(uint64_t e) { return kPopcnt ? exec_population_popcnt(e) : std::popcount(e); }
uint64_t address_mask(const uint64_t* a) {
  return kAffineAvx512 ? address_mask_avx512(a) : kAffineAvx2 ? address_mask_avx2(a) : address_mask_portable(a);
}
bool equal_steps(const uint64_t* a, uint64_t stride) {
  return kAffineAvx512 ? equal_steps_avx512(a, stride) : kAffineAvx2 ? equal_steps_avx2(a, stride) : equal_steps_portable(a, stride);
}
#else
int exec_population(uint64_t e) { return std::popcount(e); }
uint64_t address_mask(const uint64_t* a) { return address_mask_portable(a); }
bool equal_steps(const uint64_t* a, uint64_t stride) { return equal_steps_portable(a, stride); }
#endif

}  // namespace

void begin_recording(Launch& L, Recording& r, uint32_t waves_per_workgroup, uint64_t workgroups) {
  L.rec_serial = recording_epoch.fetch_add(1, std::memory_order_relaxed) + 1;
  r.arch = L.arch;
  r.kernel = L.dk->info;
  r.decoded = L.dk;
  r.waves_per_workgroup = waves_per_workgroup;
  r.ops.clear();
  r.ops.reserve(L.dk->ops.size());
  for (const Op& op : L.dk->ops) {
    RecordedOp ro;
    ro.pc = op.pc;
    ro.text = op.text;
    ro.unit = op.unit;
    ro.info = op.info;
    ro.imm = op.imm;
    ro.lane_bytes = uint8_t(memory_lane_bytes(op));
    ro.cbsz = op.cbsz;
    ro.blgp = op.blgp;
    ro.lds_dma = memory_is_lds_dma(op);
    ro.clock = clock_kind(op.info);
    ro.cache_bits = cache_bits(op);
    r.ops.push_back(std::move(ro));
  }
  L.rec = &r;
  L.rec_index.clear();
  for (size_t i = 0; i < r.workgroups.size(); ++i) {
    if (r.workgroups[i] >= workgroups)
      throw Error("simulator: recording asks for workgroup " + std::to_string(r.workgroups[i]) + " but the grid has " +
                  std::to_string(workgroups) + " workgroups");
    L.rec_index.emplace_back(r.workgroups[i], uint32_t(i));
  }
  std::sort(L.rec_index.begin(), L.rec_index.end());
  for (size_t i = 1; i < L.rec_index.size(); ++i)
    if (L.rec_index[i].first == L.rec_index[i - 1].first)
      throw Error("simulator: recording lists workgroup " + std::to_string(L.rec_index[i].first) + " twice");
  r.waves.assign(r.workgroups.size() * waves_per_workgroup, RecordedWave{});
  if (r.line_workgroups && (r.line_bytes == 0 || (r.line_bytes & (r.line_bytes - 1))))
    throw Error("simulator: recording line_bytes must be a power of two, not " + std::to_string(r.line_bytes));
  r.line_waves.assign(size_t(std::min<uint64_t>(r.line_workgroups, workgroups)) * waves_per_workgroup, LineWave{});
  r.used.n = 0;
  for (size_t i = 0; i < r.waves.size(); ++i) {
    r.waves[i].workgroup = r.workgroups[i / waves_per_workgroup];
    r.waves[i].wave_in_wg = int(i % waves_per_workgroup);
  }
}

// The stride is the signed distance of the first two lanes with an address over their lane
// distance, so with lanes missing between them a stride of 2^57 or more may not be found (the step
// is then stored lane by lane: exact all the same, and still the same words for the same addresses).
bool affine_addresses(const uint64_t* a, uint64_t out[kAffineWords]) {
  const uint64_t mask = address_mask(a);
  uint64_t stride = 0, base = 0;
  if (mask == ~0ull) {  // every lane (the common case): equal steps between neighbours, no multiply
    stride = a[1] - a[0];
    if (!equal_steps(a, stride)) return false;
    base = a[0];
  } else if (mask) {
    const int f = std::countr_zero(mask);
    const uint64_t rest = mask & (mask - 1);
    if (rest) {
      const int g = std::countr_zero(rest);
      const int64_t diff = int64_t(a[g] - a[f]);
      if (diff % (g - f)) return false;
      stride = uint64_t(diff / (g - f));
    }
    base = a[f] - uint64_t(f) * stride;
    for (uint64_t m = rest; m; m &= m - 1) {
      const int l = std::countr_zero(m);
      if (a[l] != base + uint64_t(l) * stride) return false;
    }
  }
  out[0] = base;
  out[1] = stride;
  out[2] = mask;
  return true;
}

namespace {

// The access's lines, ascending, each once (a coalesced access without sorting), then tagged, from its
// per-lane addresses `a` (n of them); a cache invalidate is an access without lines.
void append_access_lines(LineWave& lw, const Op& op, const uint64_t* a, int n, uint32_t line_bytes) {
  const uint8_t bits = cache_bits(op);
  if (bits & kCacheInvalidate) {  // no lines: the model invalidates the wave's CU's caches the bits name
    lw.end_access(bits);
    return;
  }
  if (!n) return;
  const uint64_t written = (op.info && (op.info->is_store || op.info->is_atomic)) ? 1 : 0;
  const size_t first = lw.lines.size();
  append_cache_lines(std::span<const uint64_t>(a, size_t(n)), memory_lane_bytes(op), int(line_bytes), lw.lines);
  for (size_t i = first; i < lw.lines.size(); ++i) lw.lines[i] = lw.lines[i] << 1 | written;
  lw.end_access(bits);
}

}  // namespace

void record_step(RecordedWave& rw, Wave& w, const Op& op, LineWave* lines) {
  CapacityHint& hint = capacity_hint;
  if (rw.steps.empty()) [[unlikely]] {
    const uint64_t epoch = recording_epoch.load(std::memory_order_relaxed);
    if (hint.launch != w.L || hint.epoch != epoch) hint = {w.L, epoch, 0, 0};
    rw.steps.reserve(std::min(hint.steps, kMaxHintBytes / sizeof(RecordedStep)));
    rw.addrs.reserve(std::min(hint.addrs, kMaxHintBytes / sizeof(uint64_t)));
  }
  RecordedStep st;
  st.op = op.index;
  st.active = uint8_t(exec_population(w.exec()));
  uint64_t a[128];
  int n = 0;
  if (op.unit == isa::Unit::DS || op.unit == isa::Unit::VMEM) {
    n = memory_addresses(w, op, a);
    if (lines) append_access_lines(*lines, op, a, n, w.L->rec->line_bytes);  // the addresses computed once
    if (n) {
      st.addr_first = uint32_t(rw.addrs.size());
      st.addr_count = uint8_t(n);
      uint64_t words[kAffineWords];
      st.affine = n == 64 && affine_addresses(a, words);
      if (st.affine) rw.addrs.insert(rw.addrs.end(), words, words + kAffineWords);
      else rw.addrs.insert(rw.addrs.end(), a, a + n);
    }
  }
  if (w.L->rec->track_clock_taint) [[unlikely]] taint_step(rw.taint, w, op, a, n, uint32_t(rw.steps.size()));
  rw.steps.push_back(st);
  hint.steps = std::max(hint.steps, rw.steps.size());
  hint.addrs = std::max(hint.addrs, rw.addrs.size());
  const uint64_t bytes =
      rw.steps.size() * sizeof(RecordedStep) + rw.addrs.size() * sizeof(uint64_t) + rw.taint.slice.words.size() * sizeof(uint32_t);
  if (bytes - rw.charged < kRecordingChargeBytes) [[likely]]
    return;
  Recording& r = *w.L->rec;
  const uint64_t used = r.used.n.fetch_add(bytes - rw.charged) + (bytes - rw.charged);
  rw.charged = bytes;
  if (used > r.max_bytes)
    throw Error("simulator: kernel " + w.L->dk->info.name + ": the timing-model recording reached its cap "
                "(sim::Recording::max_bytes = " + std::to_string(r.max_bytes) + " bytes over " +
                std::to_string(r.waves.size()) + " recorded waves) while recording workgroup " +
                std::to_string(rw.workgroup) + " wave " + std::to_string(rw.wave_in_wg) + ", " +
                std::to_string(rw.steps.size()) + " instructions into it, at pc " + hex(op.pc) + " '" + op.text +
                "': a loop that does not end, or a kernel too long to model (stop it sooner with "
                "sim::Options::instruction_budget, cdnajit run --max-instructions; or raise the cap)");
}

uint8_t cache_bits(const Op& op) {
  if (op.unit != isa::Unit::VMEM) return 0;
  const bool invalidate = op.info && isa::is(*op.info, isa::Opcode::buffer_inv);
  return uint8_t((op.sc0 ? kCacheSc0 : 0) | (op.sc1 ? kCacheSc1 : 0) | (op.nt ? kCacheNt : 0) |
                 (invalidate ? kCacheInvalidate : 0));
}

void record_lines(LineWave& lw, Wave& w, const Op& op, uint32_t line_bytes) {
  uint64_t a[128];
  const int n = cache_bits(op) & kCacheInvalidate ? 0 : memory_addresses(w, op, a);
  append_access_lines(lw, op, a, n, line_bytes);
}

}  // namespace cdnajit::sim
