// Modelled time of one JIT kernel launch on a simulator device: the simulator runs only the
// workgroups the timing model records (those one CU receives first; each computes what it
// computes in the full grid) and the CU model times the full grid from them, so a launch of any
// size costs a few workgroups of simulation. Shared by the conv3d and gemm model drivers; a thin
// adapter from a BuildResult to the model's one entry (runtime/model/model_device.hpp).
#pragma once
#include <cstdint>

#include "jit/kernel.hpp"
#include "runtime/device.hpp"
#include "runtime/model/model_device.hpp"

namespace cdnajit::codegen {

// Throws cdnajit::Error when `dev` is not a simulator or the kernel is missing from its code object.
model::ModelReport model_launch_of(Device& dev, const model::Hardware& hw, const BuildResult& b, Dim3 grid,
                                   uint32_t threads, const KernelArgs& args, double flops);

}  // namespace cdnajit::codegen
