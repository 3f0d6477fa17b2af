// The wave-specialised conv backward-weight family's comparison with its reference
// (tools/tune_families/conv_bwd_weight.cpp), exposed so the tests can show it fails.
#pragma once
#include <string>
#include <vector>

#include "codegen/conv_bwd_weight.hpp"
#include "tools/jobs/conv_bwd_weight_host.hpp"

namespace cdnajit::tune {

// "" when every dW element of `got` is within the rigorous bound of an fp32 summation of exact
// products, |got - ref| <= (gemm_k + splits) * 2^-24 * sum|products|, of the fp64 reference of
// `in`; else the first offender with its bound. A NaN never passes.
std::string bwd_weight_compare_fp64(const codegen::BwdWeightShape& s, const codegen::BwdWeightInputs& in,
                                    const std::vector<double>& got, int splits);

}  // namespace cdnajit::tune
