#include "tools/model_micro_kernels.hpp"

#include <bit>
#include <cstring>
#include <utility>

#include "jit/isa/error.hpp"
#include "jit/kernel.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/model/model_device.hpp"

namespace cdnajit::model_micro {
namespace {

constexpr uint32_t kThreads = kMicroThreads;

// The kernel arguments of a kernel whose arguments are all pointers, in argument order.
KernelArgs kernarg(const std::vector<Buffer>& buffers) {
  KernelArgs a;
  for (const Buffer& b : buffers) a.ptr(b);
  return a;
}

// Runs the micro-kernel on the simulator device `dev` through the timing model's entry.
MicroRun run(const std::string& name, const BuildResult& r, const model::Hardware& hw, uint32_t workgroups, Device& dev,
             const KernelArgs& args, int threads, double flops) {
  sim_options(dev)->threads = threads;
  Module mod = dev.load(r.code_object);
  model::ModelOptions mo;
  mo.flops = flops;
  MicroRun m;
  m.name = name;
  m.flops = flops;
  model::ModelledLaunch ml = model::model_launch(dev, mod.kernel(r.name), {workgroups}, {kThreads}, 0, args, hw, mo);
  m.report = std::move(ml.report);
  m.stats = *ml.launch.sim_stats;
  return m;
}

// idx = workgroup_id * 256 + workitem_id
Reg global_index(Kernel& k) {
  Reg base = k.sgpr("wg_base");
  k.s_lshl_b32(base, k.workgroup_id(0), 8);
  Reg idx = k.vgpr("idx");
  k.v_add_u32(idx, base, k.workitem_id(0));
  return idx;
}

// The loop kernels' prologue: kThreads work-items per workgroup and one `out` float pointer argument;
// returns that pointer and the work-item's global index, where store_result_and_end writes.
std::pair<Reg, Reg> begin_result_kernel(Kernel& k) {
  k.set_workgroup_size(kThreads);
  Reg out = k.load_arg(k.arg<float*>("out"));
  return {out, global_index(k)};
}

// The loop kernels' epilogue: out[idx] = value, so the simulator cannot drop the loop's work as
// dead; the wait makes sure the s_load of the out pointer has landed before the store uses it.
void store_result_and_end(Kernel& k, Reg idx, Reg value, Reg out) {
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, idx);
  k.s_waitcnt(lgkmcnt(0));
  k.global_store_dword(off, value, out);
  k.s_endpgm();
}

// The loop kernels' output buffer: one float per thread of the grid.
Buffer alloc_result(Device& dev, uint32_t workgroups) {
  return dev.alloc(size_t(workgroups) * kThreads * 4, "out");
}

void counted_loop(Kernel& k, int iterations, const std::function<void()>& body) {
  Reg i = k.sgpr("i");
  k.s_mov_b32(i, 0);
  k.do_while_scc(body, [&] {
    k.s_add_u32(i, i, 1);
    k.s_cmp_lt_u32(i, iterations);
  });
}

}  // namespace

MicroRun stream_copy(Arch arch, const model::Hardware& hw, uint32_t workgroups, int threads) {
  Kernel k("model_stream_copy", arch);  // a stream of 1 read and 1 write without the add
  k.set_workgroup_size(kThreads);
  Reg in = k.load_arg(k.arg<const float*>("in"));
  Reg out = k.load_arg(k.arg<float*>("out"));
  Reg idx = global_index(k);
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 4, idx);  // 16 bytes per thread
  Reg v = k.vgpr("v", 4);
  k.s_waitcnt(lgkmcnt(0));
  k.global_load_dwordx4(v, off, in);
  k.s_waitcnt(vmcnt(0));
  k.global_store_dwordx4(off, v, out);
  k.s_endpgm();
  auto dev = open_sim_device(arch);
  const size_t bytes = size_t(workgroups) * kThreads * 16;
  std::vector<uint32_t> host(bytes / 4);
  for (size_t i = 0; i < host.size(); ++i) host[i] = uint32_t(i * 2654435761u);
  Buffer a = dev->alloc(bytes, "in"), b = dev->alloc(bytes, "out");
  dev->copy_to_device(a, host.data(), bytes);
  MicroRun m = run("streaming copy", k.build(), hw, workgroups, *dev, kernarg({a, b}), threads, 0);
  std::vector<uint32_t> got(host.size());
  dev->copy_to_host(got.data(), b, bytes);
  if (got != host) throw Error("model micro-kernel: streaming copy produced wrong data");
  m.bytes = 2.0 * double(bytes);
  return m;
}

BuildResult stream_kernel(Arch arch, int reads, int writes) {
  if (reads < 0 || writes < 0 || reads + writes < 1 || reads > 3 || writes > 3)
    throw Error("model micro-kernel: stream needs 0..3 reads and 0..3 writes, at least one access; got " +
                std::to_string(reads) + " reads, " + std::to_string(writes) + " writes");
  Kernel k("model_stream_r" + std::to_string(reads) + "w" + std::to_string(writes), arch);
  k.set_workgroup_size(kThreads);
  std::vector<Reg> in, out;
  for (int i = 0; i < reads; ++i) in.push_back(k.load_arg(k.arg<const float*>("in" + std::to_string(i))));
  for (int i = 0; i < writes; ++i) out.push_back(k.load_arg(k.arg<float*>("out" + std::to_string(i))));
  Reg idx = global_index(k);
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 4, idx);  // 16 bytes per thread
  Reg sum = k.vgpr("sum", 4), v = k.vgpr("v", 4);
  for (int c = 0; c < 4; ++c) k.v_mov_b32(sum[c], reads ? 0 : 0x3f800000);
  k.s_waitcnt(lgkmcnt(0));
  for (int i = 0; i < reads; ++i) {
    k.global_load_dwordx4(v, off, in[size_t(i)]);
    k.s_waitcnt(vmcnt(0));
    for (int c = 0; c < 4; ++c) k.v_add_f32(sum[c], sum[c], v[c]);
  }
  for (int i = 0; i < writes; ++i) k.global_store_dwordx4(off, sum, out[size_t(i)]);
  k.s_endpgm();
  return k.build();
}

MicroRun stream(Arch arch, const model::Hardware& hw, uint32_t workgroups, int reads, int writes, int threads) {
  BuildResult built = stream_kernel(arch, reads, writes);
  const std::string name = std::to_string(reads) + " read(s), " + std::to_string(writes) + " write(s) stream";
  auto dev = open_sim_device(arch);
  const size_t bytes = size_t(workgroups) * kThreads * 16;
  std::vector<float> expect(bytes / 4, reads ? 0.0f : 1.0f);
  std::vector<Buffer> ptrs;
  for (int i = 0; i < reads; ++i) {
    std::vector<float> host(bytes / 4);
    for (size_t j = 0; j < host.size(); ++j) host[j] = float((j * 7 + size_t(i) * 3) % 1024);  // exact float sums
    ptrs.push_back(dev->alloc(bytes, "in"));
    dev->copy_to_device(ptrs.back(), host.data(), bytes);
    for (size_t j = 0; j < host.size(); ++j) expect[j] += host[j];
  }
  for (int i = 0; i < writes; ++i) ptrs.push_back(dev->alloc(bytes, "out"));
  MicroRun m = run(name, built, hw, workgroups, *dev, kernarg(ptrs), threads, 0);
  for (int i = 0; i < writes; ++i) {
    std::vector<float> got(expect.size());
    dev->copy_to_host(got.data(), ptrs[size_t(reads + i)], bytes);
    if (got != expect) throw Error("model micro-kernel: " + name + " produced wrong data");
  }
  m.bytes = double(reads + writes) * double(bytes);
  return m;
}

BuildResult mfma_loop_kernel(Arch arch, int iterations) {
  Kernel k("model_mfma_loop", arch);
  const auto [out, idx] = begin_result_kernel(k);
  Reg a = k.vgpr("a", 2), b = k.vgpr("b", 2);
  k.v_mov_b32(a[0], 0x3f803f80);  // bf16 pairs of 1.0
  k.v_mov_b32(a[1], 0x3f803f80);
  k.v_mov_b32(b[0], 0);
  k.v_mov_b32(b[1], 0);
  constexpr int kAcc = kMfmaAccumulators;  // independent accumulators: back-to-back MFMAs without dependency stalls
  std::vector<Reg> acc;
  for (int j = 0; j < kAcc; ++j) {
    acc.push_back(k.agpr("acc" + std::to_string(j), 16));
    for (int r = 0; r < 16; ++r) k.v_accvgpr_write_b32(acc[size_t(j)][r], 0);
  }
  counted_loop(k, iterations, [&] {
    for (int j = 0; j < kAcc; ++j) k.v_mfma_f32_32x32x8_bf16(acc[size_t(j)], a, b, acc[size_t(j)]);
  });
  Reg v = k.vgpr("v");
  k.v_accvgpr_read_b32(v, acc[0][0]);
  store_result_and_end(k, idx, v, out);
  return k.build();
}

MicroRun mfma_loop(Arch arch, const model::Hardware& hw, uint32_t workgroups, int iterations, int threads) {
  BuildResult built = mfma_loop_kernel(arch, iterations);
  auto dev = open_sim_device(arch);
  const Buffer o = alloc_result(*dev, workgroups);
  const size_t n = size_t(workgroups) * kThreads;
  const double waves = double(workgroups) * kThreads / 64;
  MicroRun m = run("MFMA loop (v_mfma_f32_32x32x8_bf16)", built, hw, workgroups, *dev, kernarg({o}), threads,
                   waves * iterations * kMfmaAccumulators * 32.0 * 32 * 8 * 2);
  std::vector<float> got(n);
  dev->copy_to_host(got.data(), o, n * 4);
  for (float x : got)
    if (x != 0.0f) throw Error("model micro-kernel: MFMA loop produced a non-zero result");
  return m;
}

BuildResult valu_loop_kernel(Arch arch, int iterations) {
  Kernel k("model_valu_loop", arch);
  const auto [out, idx] = begin_result_kernel(k);
  constexpr int kAcc = kValuAccumulators;
  Reg x = k.vgpr("x"), y = k.vgpr("y");
  k.v_mov_b32(x, 1.0f);
  k.v_mov_b32(y, 0.0f);
  std::vector<Reg> acc;
  for (int j = 0; j < kAcc; ++j) {
    acc.push_back(k.vgpr("acc" + std::to_string(j)));
    k.v_mov_b32(acc.back(), 0.0f);
  }
  counted_loop(k, iterations, [&] {
    for (int j = 0; j < kAcc; ++j) k.v_fmac_f32(acc[size_t(j)], x, y);
  });
  store_result_and_end(k, idx, acc[0], out);
  return k.build();
}

MicroRun valu_loop(Arch arch, const model::Hardware& hw, uint32_t workgroups, int iterations, int threads) {
  BuildResult built = valu_loop_kernel(arch, iterations);
  auto dev = open_sim_device(arch);
  const Buffer o = alloc_result(*dev, workgroups);
  const double waves = double(workgroups) * kThreads / 64;
  return run("VALU loop (v_fmac_f32)", built, hw, workgroups, *dev, kernarg({o}), threads,
             waves * iterations * kValuAccumulators * 64.0 * 2);
}

MicroRun lds_stride(Arch arch, const model::Hardware& hw, uint32_t workgroups, int stride_dwords, int iterations,
                    int threads) {
  Kernel k("model_lds_stride", arch);
  const auto [out, idx] = begin_result_kernel(k);
  constexpr uint32_t kTile = 32 * 1024;
  const uint32_t base = k.lds_alloc("tile", kTile);
  Reg lane = k.vgpr("lane"), addr = k.vgpr("addr");
  k.v_and_b32(lane, 63, k.workitem_id(0));
  if (stride_dwords < 1 || (stride_dwords & (stride_dwords - 1)))
    throw Error("model micro-kernel: LDS stride must be a power of two, got " + std::to_string(stride_dwords));
  k.v_lshlrev_b32(addr, std::countr_zero(unsigned(stride_dwords)) + 2, lane);
  k.v_and_b32(addr, int64_t(kTile - 1), addr);
  if (base) k.v_add_u32(addr, int64_t(base), addr);
  constexpr int kReads = 16;
  std::vector<Reg> r;
  for (int j = 0; j < kReads; ++j) {
    std::string name = "r";
    name += std::to_string(j);
    r.push_back(k.vgpr(name));
  }
  counted_loop(k, iterations, [&] {
    for (int j = 0; j < kReads; ++j) k.ds_read_b32(r[size_t(j)], addr);
    k.s_waitcnt(lgkmcnt(0));
  });
  store_result_and_end(k, idx, r[kReads - 1], out);
  auto dev = open_sim_device(arch);
  const Buffer o = alloc_result(*dev, workgroups);
  return run("LDS ds_read_b32, stride " + std::to_string(stride_dwords) + " dwords", k.build(), hw, workgroups, *dev,
             kernarg({o}), threads, 0);
}

BuildResult lds_chase_kernel(Arch arch, int iterations) {
  Kernel k("model_lds_chase", arch);
  k.set_workgroup_size(64);
  const uint32_t base = k.lds_alloc("chain", 64 * 4);
  Reg out = k.load_arg(k.arg<float*>("out"));
  Reg addr = k.vgpr("addr"), off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, k.workitem_id(0));
  k.v_mov_b32(addr, off);
  if (base) k.v_add_u32(addr, int64_t(base), addr);
  // lds[a] = a: each read returns its own address, which the next read uses, so every read waits
  // for the previous one's data (a chain of lane-distinct, conflict-free dwords).
  k.ds_write_b32(addr, addr);
  k.s_waitcnt(lgkmcnt(0));
  counted_loop(k, iterations, [&] {
    for (int j = 0; j < kChaseReadsPerIteration; ++j) {
      k.ds_read_b32(addr, addr);
      k.s_waitcnt(lgkmcnt(0));
    }
  });
  k.global_store_dword(off, addr, out);
  k.s_endpgm();
  return k.build();
}

BuildResult lds_read_b128_kernel(Arch arch, int iterations) {
  Kernel k("model_lds_read_b128", arch);
  const auto [out, idx] = begin_result_kernel(k);
  const uint32_t base = k.lds_alloc("tile", 64 * 16);
  Reg addr = k.vgpr("addr");
  k.v_and_b32(addr, 63, k.workitem_id(0));
  k.v_lshlrev_b32(addr, 4, addr);  // lane * 16 bytes: contiguous, conflict-free
  if (base) k.v_add_u32(addr, int64_t(base), addr);
  std::vector<Reg> r;
  for (int j = 0; j < kB128ReadsPerIteration; ++j) {
    std::string name = "r";  // not "r" + to_string(j): GCC 12 warns (-Wrestrict) about that operator+
    name += std::to_string(j);
    r.push_back(k.vgpr(name, 4));
  }
  counted_loop(k, iterations, [&] {
    for (int j = 0; j < kB128ReadsPerIteration; ++j) k.ds_read_b128(r[size_t(j)], addr);
    k.s_waitcnt(lgkmcnt(0));
  });
  Reg off = k.vgpr("off");
  k.v_lshlrev_b32(off, 2, idx);
  k.global_store_dword(off, r[kB128ReadsPerIteration - 1][0], out);
  k.s_endpgm();
  return k.build();
}

}  // namespace cdnajit::model_micro
