// The seed job: build the depthwise conv3d kernel for the seed shape (input
// [1,512,61,45,80], weight [512,1,3,5,5], pad (0,2,2)), write its .s, run it
// and the HIP V97 reference on a device (a GPU through open_device() when one
// is usable, else the simulator of the requested arch), check the results,
// and print a stats table. For the cdnajit CLI.
#pragma once
#include <ostream>
#include <string>

#include "codegen/dwconv3d_shape.hpp"

namespace cdnajit::codegen {

struct SeedJobOptions {
  std::string device;  // open_device() spec; "" = a GPU of the requested arch if present, else "sim:<arch>"
  int channels = 0;    // 0 = all 512; k < 512 runs channels [0, k) only (faster on the simulator)
  int chunk_channels = 32;  // channels per launch (progress is printed after each launch)
  uint64_t seed = 1;   // input/weight data
  DwMapping mapping = DwMapping::dense;  // work mapping of the JIT kernel
};

// Returns 0 when the JIT kernel's results are bit-exact with what they must
// match, and calc_diff < 1e-5 against fp64; 1 otherwise. fmac arithmetic: the
// HIP V97 reference (clang, run on the same device) and the host std::fma model.
// dot2 arithmetic: the host dot2 model, whose v_dot2_f32_bf16 is the MPFR
// reference of codegen/reference (independent of runtime/sim), enforced on the
// simulator only.
// Throws cdnajit::Error on build/compile/device failures.
int run_seed_job(std::ostream& log, Arch arch, DwVariant variant, const std::string& asm_out_path,
                 const SeedJobOptions& opt = {});

}  // namespace cdnajit::codegen
