// The kernel families the tuner knows, by name.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "runtime/tune/family.hpp"

namespace cdnajit::tune {

// Throws Error listing the known families when `name` is unknown.
const Family& find_family(std::string_view name);
std::vector<std::string> family_names();

// The depthwise conv3d family (codegen/dwconv3d.hpp).
const Family& dwconv3d_family();
// The MFMA implicit-GEMM conv3d family (codegen/conv3d_igemm.hpp).
const Family& conv3d_igemm_family();
// The wave-specialised conv backward-weight family (codegen/conv_bwd_weight.hpp).
const Family& conv_bwd_weight_family();
// The MFMA GEMM family (codegen/gemm.hpp).
const Family& gemm_family();

}  // namespace cdnajit::tune
