#include "tools/model_cli.hpp"

#include "codegen/dwconv3d.hpp"
#include "codegen/hip_sources.hpp"
#include "jit/isa/error.hpp"
#include "runtime/model/model_device.hpp"
#include "runtime/model/product_file.hpp"
#include "runtime/hip_source.hpp"
#include "jit/codeobject/code_object.hpp"
#include "tools/model_dwconv.hpp"

namespace cdnajit::model_cli {

std::unique_ptr<RunModel> prepare_run(const std::string& product, const std::string& trace, const std::string& dev,
                                      const std::vector<uint8_t>& code, const std::string& kernel, Dim3 grid, Dim3 block,
                                      uint32_t dynamic_lds) {
  if (product.empty()) {
    if (!trace.empty()) throw Error("--trace needs --model NAME (the trace is of the modelled CU)");
    return nullptr;
  }
  auto m = std::make_unique<RunModel>();
  m->hw = &model::resolve_product(product);
  m->trace_path = trace;
  if (!dev.empty() && dev.rfind("sim", 0) != 0)
    throw Error("--model runs the kernel on the simulator; drop --device " + dev + " or use sim:" +
                std::string(arch_name(m->hw->arch)));
  CodeObject co = read_code_object(code);
  const KernelInfo* k = co.find(kernel);
  if (!k) throw Error("no kernel '" + kernel + "' in the code object");
  m->arch = co.arch;
  m->plan = model::plan_launch(*k, co.arch, sim_launch_dims(grid, block, dynamic_lds), *m->hw);
  m->options.trace = !trace.empty();
  return m;
}

LaunchResult launch(Device& dev, RunModel& m, const DeviceKernel& k, Dim3 grid, Dim3 block, uint32_t dynamic_lds,
                    const KernelArgs& args) {
  model::ModelledLaunch ml = model::model_launch(dev, k, grid, block, dynamic_lds, args, *m.hw, m.options);
  m.report = std::move(ml.report);
  m.launched = true;
  return std::move(ml.launch);
}

void print_run(std::ostream& out, RunModel& m, double flops) {
  if (!m.launched) throw Error("model: no launch was modelled (internal error)");
  model::ModelReport& r = m.report;
  if (flops > 0) r.tflops = flops / (r.ms * 1e-3) / 1e12;
  out << model::format_report(r);
  if (m.options.trace) {
    model::write_chrome_trace(r, *m.hw, m.trace_path);
    out << "modelled (model " << m.hw->name << "): trace of one CU written to " << m.trace_path << "\n";
  }
}

void print_seed(std::ostream& out, Arch arch, codegen::DwVariant v, codegen::DwMapping m, const std::string& product,
                const std::string& trace) {
  if (product == "none") return;
  const model::Hardware& hw = model::resolve_product_or_default(product, arch);
  if (hw.arch != arch)
    throw Error("--model " + hw.name + " is " + std::string(arch_name(hw.arch)) + "; the seed job runs " +
                std::string(arch_name(arch)));
  const codegen::DwConvShape s = codegen::seed_shape();
  out << "\nmodelled GPU time on the full seed grid (not measured; model " << hw.name << ", " << hw.product
      << "; the simulator re-runs the workgroups the model records):\n";
  BuildResult jit = codegen::build_dwconv3d(s, v, arch, m);
  model::ModelOptions o;
  o.trace = !trace.empty();
  auto mj = model_dwconv::model_seed_kernel(hw, jit.code_object, jit.name, 0, o);
  out << model::format_report(mj.report);
  if (o.trace) {
    model::write_chrome_trace(mj.report, hw, trace);
    out << "modelled (model " << hw.name << "): trace of one CU of " << jit.name << " written to " << trace << "\n";
  }
  std::vector<uint8_t> ref = compile_hip_with(HipSourceBackend::Kind::clang, codegen::dwconv3d_hip_source(codegen::HipReference::v97),
                                              arch, codegen::dwconv3d_hip_flags(s, codegen::HipReference::v97));
  auto mr = model_dwconv::model_seed_kernel(hw, ref, codegen::dwconv3d_hip_kernel_name(codegen::HipReference::v97), 0, {});
  out << model::format_report(mr.report);
}

}  // namespace cdnajit::model_cli
