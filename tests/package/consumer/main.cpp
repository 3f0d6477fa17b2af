// Out-of-tree use of the installed cdnajit package: generate a kernel with the
// DSL, build it in process, run it on the simulator (or a GPU when one is
// usable) and check every output element. Exit code 0 only when all match.
#include <cstdio>
#include <cstdlib>
#include <vector>

#include "jit/kernel.hpp"
#include "runtime/device.hpp"
#include "runtime/model/model_device.hpp"

using namespace cdnajit;

// out[i] = a[i] * s for i < n; 256 work-items per workgroup.
static void define_scale(Kernel& k) {
  k.set_workgroup_size(256);
  Reg a = k.load_arg(k.arg<const float*>("a"));
  Reg out = k.load_arg(k.arg<float*>("out"));
  Reg s = k.load_arg(k.arg<float>("s"));
  Reg n = k.load_arg(k.arg<uint32_t>("n"));
  Reg base = k.sgpr("wg_base"), idx = k.vgpr("idx");
  k.s_lshl_b32(base, k.workgroup_id(0), 8);
  k.v_add_u32(idx, base, k.workitem_id(0));
  k.s_waitcnt(lgkmcnt(0));
  k.if_vcc([&] { k.v_cmp_gt_u32(vcc, n, idx); },
           [&] {
             Reg off = k.vgpr("off"), v = k.vgpr("v");
             k.v_lshlrev_b32(off, 2, idx);
             k.global_load_dword(v, off, a);
             k.s_waitcnt(vmcnt(0));
             k.v_mul_f32(v, s, v);
             k.global_store_dword(off, v, out);
           });
  k.s_endpgm();
}

int main() {
  try {
    const uint32_t n = 1000;
    const float scale = 1.5f;
    auto dev = open_device(std::getenv("CDNAJIT_DEVICE") ? "" : "sim:gfx942");
    Kernel k("scale", dev->arch());
    define_scale(k);
    BuildResult r = k.build();
    std::printf("built %s for %s: %zu-byte code object, %zu bytes of .s\n", r.name.c_str(),
                std::string(arch_name(dev->arch())).c_str(), r.code_object.size(), r.assembly.size());

    std::vector<float> a(n);
    for (uint32_t i = 0; i < n; ++i) a[i] = float(i) * 0.25f - 7.0f;
    Buffer da = dev->upload(a, "a");
    Buffer dout = dev->alloc(n * sizeof(float), "out");
    Module m = dev->load(r.code_object);
    KernelArgs args;
    args.ptr(da).ptr(dout).f32(scale).u32(n);
    dev->launch(m.kernel("scale"), Dim3{(n + 255) / 256}, Dim3{256}, 0, args);
    dev->synchronize();
    std::vector<float> out = dev->download<float>(dout);
    int wrong = 0;
    for (uint32_t i = 0; i < n; ++i) wrong += out[i] != a[i] * scale;
    std::printf("ran on %s: %d of %u elements wrong\n", dev->name().c_str(), wrong, n);
    // The timing model, linked as the README documents (cdnajit::model), in one call.
    if (dev->is_simulator()) {
      auto modelled = model::model_launch(*dev, m.kernel("scale"), Dim3{(n + 255) / 256}, Dim3{256}, 0, args,
                                          model::default_product(dev->arch()));
      std::printf("%s", model::format_report(modelled.report).c_str());
      if (!(modelled.report.ms > 0)) wrong++;
    }
    return wrong == 0 ? 0 : 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "consumer: error: %s\n", e.what());
    return 1;
  }
}
