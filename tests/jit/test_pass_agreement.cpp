// The static wait-count pass and the simulator's dynamic wait-count checker agree
// on every kernel in codegen/: no kernel passes one and fails the other. Also:
// kernels built with the `auto` pass contain no redundant wait.
#include <catch2/catch.hpp>

#include <functional>

#include "codegen/dwconv3d.hpp"
#include "codegen/dwconv3d_models.hpp"
#include "codegen/examples/examples.hpp"
#include "jit/passes/passes.hpp"
#include "runtime/device.hpp"
#include "tests/jit/assembly_program.hpp"

using namespace cdnajit;

namespace {

struct Case {
  std::string label;
  Arch arch;
  std::function<BuildResult(const BuildOptions&)> build;
  std::function<void(Device&, const DeviceKernel&)> run;  // launches with small valid inputs
  // The author writes every wait. False for kernels placed by jit::Interleave,
  // whose design leaves the waits of the placed order to the wait-count pass.
  bool author_waits = true;
};

void run_example(Device& dev, const DeviceKernel& k, bool dot) {
  const uint32_t n = 300;
  size_t in_bytes = dot ? n * examples::kDotElemsPerThread * 2 : n * 4;
  std::vector<uint8_t> host(in_bytes);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint8_t(i * 37 + 11);
  Buffer a = dev.upload(std::span<const uint8_t>(host), "a"), b = dev.upload(std::span<const uint8_t>(host), "b");
  Buffer out = dev.alloc(n * 4, "out");
  KernelArgs args;
  args.ptr(a).ptr(b).ptr(out).u32(n);
  dev.launch(k, Dim3{2, 1, 1}, Dim3{256, 1, 1}, 0, args);
}

codegen::DwConvShape small_shape() {
  codegen::DwConvShape s;
  s.N = 1, s.C = 2, s.D = 4, s.H = 5, s.W = 20, s.KD = 3, s.KH = 3, s.KW = 3, s.padD = 0, s.padH = 1, s.padW = 1;
  return s;
}

void run_dwconv(Device& dev, const DeviceKernel& k, Arch arch) {
  codegen::DwConvShape s = small_shape();
  auto in = codegen::random_bf16(size_t(s.input_elems()), 3), w = codegen::random_bf16(size_t(s.weight_elems()), 4);
  Buffer bi = dev.upload(std::span<const uint16_t>(in), "input"), bw = dev.upload(std::span<const uint16_t>(w), "weight");
  Buffer bo = dev.alloc(size_t(s.output_elems()) * 2, "output");
  KernelArgs args;
  args.ptr(bi).ptr(bw).ptr(bo);
  codegen::DwConvGeometry g = codegen::dwconv_geometry(s, arch);
  dev.launch(k, Dim3{uint32_t(g.grid_x), 1, 1}, Dim3{uint32_t(codegen::DwConvGeometry::kThreads), 1, 1}, 0, args);
}

std::vector<Case> codegen_kernels() {
  std::vector<Case> cases;
  for (Arch arch : {Arch::gfx942, Arch::gfx950}) {
    for (const char* name : examples::kBuiltinNames) {
      std::string n = name;
      cases.push_back({n, arch,
                       [n, arch](const BuildOptions& o) {
                         Kernel k(n, arch);
                         examples::define_builtin(k, n);
                         return k.build(o);
                       },
                       [n](Device& d, const DeviceKernel& k) { run_example(d, k, n == "bf16_dot"); }, true});
    }
    for (const codegen::DwVariantInfo& vi : codegen::dw_variants()) {
      codegen::DwVariant v = vi.id;
      if (!codegen::variant_available(v, arch)) continue;
      cases.push_back({"dwconv3d." + std::string(codegen::variant_name(v)), arch,
                       [v, arch](const BuildOptions& o) { return codegen::build_dwconv3d(small_shape(), v, arch, o); },
                       [arch](Device& d, const DeviceKernel& k) { run_dwconv(d, k, arch); },
                       vi.schedule != codegen::DwSchedule::sched_groups});
    }
  }
  return cases;
}

// Runs on the simulator with the wait-count checker on; returns "" or the checker's message.
std::string dynamic_waitcnt_error(const Case& c, const BuildResult& r) {
  sim::Options so;
  so.check_waitcnt = true;
  auto dev = open_sim_device(c.arch, so);
  Module m = dev->load(r.code_object);
  try {
    c.run(*dev, m.kernel(r.name));
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("static wait-count verifier and the simulator's dynamic checker agree", "[passes][sim][agreement]") {
  int disagreements = 0, failing_pairs = 0;
  for (const Case& c : codegen_kernels()) {
    for (bool drop : {false, true}) {
      INFO(c.label << " " << arch_name(c.arch) << (drop ? " without author waits" : " with author waits"));
      BuildOptions o;
      o.waitcnt = PassMode::Verify;  // insert nothing: judge the program as written
      o.drop_author_waits = drop;
      BuildResult r = c.build(o);
      bool static_ok = true;
      for (const std::string& f : r.stats.pass_findings)
        if (f.rfind("[waitcnt]", 0) == 0) static_ok = false;
      std::string dyn = dynamic_waitcnt_error(c, r);
      bool dynamic_ok = dyn.empty();
      INFO("dynamic: " << (dyn.empty() ? "clean" : dyn.substr(0, 300)));
      INFO("static findings: " << r.stats.pass_findings.size());
      CHECK(static_ok == dynamic_ok);
      disagreements += static_ok != dynamic_ok;
      failing_pairs += !static_ok && !dynamic_ok;
      if (!drop && c.author_waits) CHECK(static_ok);  // the codegen kernels carry correct waits of their own
    }
  }
  CHECK(disagreements == 0);
  CHECK(failing_pairs > 0);  // stripping waits must make both checkers fire somewhere
}

TEST_CASE("auto-mode builds contain no redundant wait and run clean", "[passes][sim][agreement]") {
  for (const Case& c : codegen_kernels()) {
    for (bool drop : {false, true}) {
      INFO(c.label << " " << arch_name(c.arch) << (drop ? " without author waits" : ""));
      BuildOptions o;
      o.drop_author_waits = drop;
      BuildResult r = c.build(o);
      std::vector<isa::MachineInst> prog = test::program_of_assembly(r.assembly, r.name);
      std::vector<passes::Finding> redundant = passes::find_redundant_waits(prog, c.arch);
      for (const auto& f : redundant) INFO(f.message);
      CHECK(redundant.empty());
      std::string dyn = dynamic_waitcnt_error(c, r);
      INFO("dynamic: " << dyn);
      CHECK(dyn.empty());
    }
  }
}
