// Shared by the GEMM tests (test_gemm, test_gemm_split_k): one simulator device per arch, and the
// check every GEMM case makes: the JIT kernel's C bit for bit equal to the clang-compiled HIP
// reference (same MFMA order) and every element within the fp64 reference's bound.
#pragma once
#include <catch2/catch.hpp>

#include <map>
#include <memory>

#include "codegen/gemm.hpp"
#include "runtime/device.hpp"
#include "runtime/hip_source.hpp"
#include "tools/jobs/gemm_host.hpp"

namespace cdnajit::codegen::test {

inline Device& sim_device(Arch a) {
  static std::map<Arch, std::unique_ptr<Device>> devs;
  auto& d = devs[a];
  if (!d) d = open_sim_device(a);
  return *d;
}

struct GemmCheck {
  size_t diff = 0;  // bytes of C that differ from the HIP reference
  GemmBoundCheck bound;
};

// Runs plan `p` with random inputs (`seed`) as the JIT kernel and as the HIP reference, CHECKs both
// comparisons and returns them for the caller's report line.
inline GemmCheck check_gemm_against_references(Arch arch, const GemmPlan& p, uint64_t seed) {
  const GemmInputs in = gemm_random_inputs(p, seed);
  Device& dev = sim_device(arch);
  const GemmRunResult jit = run_gemm_jit(dev, p, build_gemm(p), in);
  const auto co = compile_hip(gemm_hip_source(), arch, gemm_hip_flags(p));
  const GemmRunResult hip = run_gemm_hip(dev, p, co, in);
  REQUIRE(jit.c.size() == hip.c.size());
  GemmCheck r;
  for (size_t i = 0; i < jit.c.size(); ++i) r.diff += jit.c[i] != hip.c[i];
  INFO(r.diff << " bytes differ from the HIP reference");
  CHECK(r.diff == 0);
  r.bound = gemm_check_bound(p, jit.c, gemm_reference_fp64(p, in));
  INFO("JIT vs fp64: " << r.bound.describe());
  CHECK(r.bound.ok());
  return r;
}

}  // namespace cdnajit::codegen::test
