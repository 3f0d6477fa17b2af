// Encoding-space sweep: see llvm_sweep.hpp. The bit positions used below are the
// gfx9 encodings of AMD's CDNA3 ISA reference (section "Microcode Formats"):
// SOP1 opcode in bits [15:8] under the fixed prefix 0xBE80_0000, VOP1 opcode in
// bits [16:9] under 0x7E00_0000; every other format keeps its opcode (and its
// format prefix) in the upper 16 bits of the first dword.
#include "tests/isa/llvm_sweep.hpp"

#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "jit/asm/assemble.hpp"
#include "jit/isa/error.hpp"
#include "tests/isa/llvm_helpers.hpp"

namespace cdnajit::isa::test {
namespace {

using Words = std::array<uint32_t, 4>;  // up to 16 bytes: instruction + literal

// Second dwords tried for 64-bit formats: all-zero (SGPR s0 operands, offset 0,
// saddr s[0:1]) and even-aligned VGPR sources v0,v2,v0 in the VOP3 source fields (MFMA and
// lane ops need VGPRs there; for DS/FLAT/MUBUF it names small registers too).
constexpr uint32_t kDword1Zero = 0;
// src2 = v0 as well: an MFMA's srcC may equal its vdst (v0 from the low half) but not overlap it partially.
constexpr uint32_t kDword1Vgprs = 0x100u | (0x102u << 9) | (0x100u << 18);
// VGPR src0, SGPR src1 (v_readlane, v_lshlrev_b64 ...), VGPR src2.
constexpr uint32_t kDword1Mixed = 0x100u | (0x000u << 9) | (0x104u << 18);
// SGPR sources with op_sel_hi bits [28:27] set (the dot2 forms reject op_sel_hi:0).
constexpr uint32_t kDword1OpSelHi = 3u << 27;
// Low halves tried under every upper half: zero; v0 as VOP2/VOPC src0 (s1 as SOP2
// ssrc1); and the FLAT segment / MUBUF-MTBUF control bits [15:13] set in the ways
// the global, scratch and tbuffer forms need.
constexpr uint16_t kLowHalves[] = {0x0000, 0x0100, 0x2000, 0x4000, 0x6000, 0x8000, 0xA000, 0xC000};

std::vector<Words> candidates() {
  std::vector<Words> c;
  c.reserve(65536 * 10);
  for (uint32_t hi = 0; hi < 65536; ++hi) {
    for (uint16_t lo : kLowHalves) {
      // The sweep of bits [15:13] only matters for the memory formats (top bits 11xxxx);
      // the others get the first two low halves.
      if (lo > 0x0100 && (hi >> 14) != 3) continue;
      c.push_back({hi << 16 | lo, kDword1Zero, 0, 0});
      if ((hi >> 14) == 3) {
        c.push_back({hi << 16 | lo, kDword1Vgprs, 0, 0});
        c.push_back({hi << 16 | lo, kDword1Mixed, 0, 0});
        c.push_back({hi << 16 | lo, kDword1OpSelHi, 0, 0});
      }
    }
  }
  for (uint32_t op = 0; op < 256; ++op)
    for (uint32_t src0 : {0x000u, 0x100u}) c.push_back({0xBE800000u | op << 8 | (src0 & 0xff), 0, 0, 0});
  for (uint32_t op = 0; op < 256; ++op)
    for (uint32_t src0 : {0x000u, 0x100u}) c.push_back({0x7E000000u | op << 9 | src0, 0, 0, 0});
  // gfx950 VOP3PX: LLVM decodes a v_mfma_ld_scale_b32 prefix (v20, v21, op_sel_hi 0)
  // followed by a VOP3P word as one instruction (v_mfma_scale_*): sweep the second word's opcode.
  for (uint32_t hi = 0xD380; hi <= 0xD3FF; ++hi) c.push_back({0xD3AC0000u, 0x00022B14u, hi << 16 | 0x0800, kDword1Vgprs});
  return c;
}

struct Decoded {
  size_t index;
  std::string text;
};

// Decodes every candidate in forked children; a child that crashes is replaced
// by a new one starting after the candidate it was decoding.
std::vector<Decoded> decode_isolated(const std::vector<Words>& cand, Arch arch, size_t& crashed) {
  auto* progress = static_cast<volatile size_t*>(
      mmap(nullptr, sizeof(size_t), PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS, -1, 0));
  if (progress == MAP_FAILED) throw Error("mmap failed");
  std::vector<Decoded> out;
  size_t start = 0;
  crashed = 0;
  while (start < cand.size()) {
    int fds[2];
    if (pipe(fds) != 0) throw Error("pipe failed");
    std::fflush(nullptr);
    *progress = start;
    pid_t pid = fork();
    if (pid < 0) throw Error("fork failed");
    if (pid == 0) {
      for (int sig : {SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGABRT}) std::signal(sig, SIG_DFL);
      close(fds[0]);
      FILE* w = fdopen(fds[1], "w");
      Disassembler d(arch);
      std::string text;
      uint8_t bytes[16];
      for (size_t i = start; i < cand.size(); ++i) {
        *progress = i;
        std::memcpy(bytes, cand[i].data(), 16);
        if (d.decode(bytes, 16, 0, text) && text.find('\n') == std::string::npos)
          std::fprintf(w, "%zu %s\n", i, text.c_str());
      }
      std::fflush(w);
      *progress = cand.size();
      _exit(0);
    }
    close(fds[1]);
    FILE* r = fdopen(fds[0], "r");
    char* line = nullptr;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, r)) > 0) {
      char* end = nullptr;
      size_t idx = std::strtoull(line, &end, 10);
      std::string text(end + 1, size_t(len) - size_t(end + 1 - line));
      if (!text.empty() && text.back() == '\n') text.pop_back();
      out.push_back({idx, std::move(text)});
    }
    std::free(line);
    std::fclose(r);
    int status = 0;
    waitpid(pid, &status, 0);
    if (WIFEXITED(status) && WEXITSTATUS(status) == 0) break;
    ++crashed;
    start = *progress + 1;
  }
  munmap(const_cast<size_t*>(progress), sizeof(size_t));
  return out;
}

std::string trim(const std::string& s) {
  size_t a = s.find_first_not_of(" \t");
  if (a == std::string::npos) return "";
  size_t b = s.find_last_not_of(" \t");
  return s.substr(a, b - a + 1);
}

}  // namespace

std::string_view strip_encoding_suffix(std::string_view m) {
  for (std::string_view suf : {"_e32", "_e64", "_sdwa", "_dpp"})
    if (m.size() > suf.size() && m.substr(m.size() - suf.size()) == suf) return m.substr(0, m.size() - suf.size());
  return m;
}

SweepResult sweep_llvm_mnemonics(Arch arch) {
  SweepResult res;
  std::vector<Words> cand = candidates();
  res.candidates = cand.size();
  std::vector<Decoded> dec = decode_isolated(cand, arch, res.crashed);
  res.decoded = dec.size();

  // Up to kSamples distinct texts per mnemonic, in sweep order.
  constexpr size_t kSamples = 16;
  std::map<std::string, std::vector<std::string>> samples;
  for (const Decoded& d : dec) {
    std::string t = trim(d.text);
    std::string m = t.substr(0, t.find(' '));
    auto& v = samples[std::string(strip_encoding_suffix(m))];
    if (v.size() < kSamples && std::find(v.begin(), v.end(), t) == v.end()) v.push_back(t);
  }
  // Re-assemble round by round: round k tries the k-th sample of every mnemonic
  // not yet accepted. A line that LLVM reports no error for counts as accepted.
  std::set<std::string> pending;
  for (const auto& [m, v] : samples) pending.insert(m);
  for (size_t round = 0; round < kSamples && !pending.empty(); ++round) {
    std::string text;
    std::vector<std::string> by_line;
    for (const std::string& m : pending) {
      const auto& v = samples[m];
      if (round >= v.size()) continue;
      text += v[round] + "\n";
      by_line.push_back(m);
    }
    if (by_line.empty()) break;
    AsmResult r = assemble(text, arch);
    std::set<int> bad;
    for (const auto& diag : r.diagnostics)
      if (diag.is_error) bad.insert(diag.line);
    if (bad.count(0)) throw Error("sweep: the assembler failed without a line: " + format_diagnostics(r.diagnostics));
    for (size_t i = 0; i < by_line.size(); ++i) {
      if (bad.count(int(i + 1))) continue;
      res.accepted[by_line[i]] = samples[by_line[i]][round];
      pending.erase(by_line[i]);
    }
  }
  for (const std::string& m : pending) res.disassembler_only[m] = samples[m].front();
  return res;
}

}  // namespace cdnajit::isa::test
