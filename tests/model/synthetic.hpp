// Hand-written recordings for the CU model's unit tests: a list of instructions
// (by mnemonic, looked up in the ISA table) per wave, replayed as recorded.
#pragma once
#include <string>
#include <vector>

#include "jit/isa/isa.hpp"
#include "runtime/sim/record.hpp"

namespace cdnajit::model_test {

struct Inst {
  std::string mnemonic;
  uint32_t imm = 0;                 // s_waitcnt / s_nop / s_sleep immediate
  std::vector<uint64_t> addrs = {}; // 64 per-lane addresses for DS/VMEM (empty: none)
  uint8_t lane_bytes = 4;
  uint8_t cbsz = 0, blgp = 0;       // MFMA format fields
  bool lds_dma = false;             // a buffer/global load that writes LDS (the `lds` modifier)
};

// One workgroup of `waves.size()` waves, each running its instruction list (s_endpgm appended).
inline sim::Recording recording(Arch arch, const std::vector<std::vector<Inst>>& waves) {
  sim::Recording r;
  r.arch = arch;
  r.kernel.name = "synthetic";
  r.waves_per_workgroup = uint32_t(waves.size());
  r.workgroups = {0};
  for (size_t wi = 0; wi < waves.size(); ++wi) {
    sim::RecordedWave rw;
    rw.wave_in_wg = int(wi);
    std::vector<Inst> list = waves[wi];
    list.push_back({"s_endpgm"});
    for (const Inst& in : list) {
      sim::RecordedOp op;
      op.info = isa::find(in.mnemonic);
      if (!op.info) throw std::runtime_error("synthetic recording: no table entry for " + in.mnemonic);
      op.unit = op.info->unit;
      op.text = in.mnemonic;
      op.imm = in.imm;
      op.lane_bytes = in.lane_bytes;
      op.cbsz = in.cbsz;
      op.blgp = in.blgp;
      op.lds_dma = in.lds_dma;
      sim::RecordedStep st;
      st.op = uint32_t(r.ops.size());
      st.active = 64;
      if (!in.addrs.empty()) {
        st.addr_first = uint32_t(rw.addrs.size());
        st.addr_count = uint8_t(in.addrs.size());
        rw.addrs.insert(rw.addrs.end(), in.addrs.begin(), in.addrs.end());
      }
      r.ops.push_back(op);
      rw.steps.push_back(st);
    }
    r.waves.push_back(std::move(rw));
  }
  return r;
}

inline std::vector<uint64_t> lane_addrs(uint64_t base, uint64_t stride) {
  std::vector<uint64_t> a(64);
  for (int l = 0; l < 64; ++l) a[size_t(l)] = base + uint64_t(l) * stride;
  return a;
}

}  // namespace cdnajit::model_test
