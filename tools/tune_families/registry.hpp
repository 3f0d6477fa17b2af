// The kernel families the tuner knows, by name.
#pragma once
#include <string>
#include <string_view>
#include <vector>

#include "runtime/tune/family.hpp"
#include "runtime/tune/perf_db.hpp"

namespace cdnajit::tune {

// Throws Error listing the known families when `name` is unknown.
const Family& find_family(std::string_view name);
std::vector<std::string> family_names();

// Throws Error unless `r` is a record this build's families can use: a known family (the valid
// ones listed), its problem in canonical form, and a configuration of its space that is valid
// for the problem on the record's arch. What --import checks each record against
// (PerfDb::import_json's RecordCheck).
void check_record(const PerfRecord& r);

// The depthwise conv3d family (codegen/dwconv3d.hpp).
const Family& dwconv3d_family();
// The MFMA implicit-GEMM conv3d family (codegen/conv3d_igemm.hpp).
const Family& conv3d_igemm_family();
// The wave-specialised conv backward-weight family (codegen/conv_bwd_weight.hpp).
const Family& conv_bwd_weight_family();
// The MFMA GEMM family (codegen/gemm.hpp).
const Family& gemm_family();

}  // namespace cdnajit::tune
