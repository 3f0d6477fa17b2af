// What every documentation example may assume without writing it: the public
// headers of the package and the standard library's containers and streams.
#pragma once
#include <cstdint>
#include <iostream>
#include <string>
#include <vector>

#include "codegen/conv3d_igemm.hpp"
#include "tools/jobs/conv3d_igemm_host.hpp"
#include "codegen/conv_bwd_weight.hpp"
#include "tools/jobs/conv_bwd_weight_host.hpp"
#include "codegen/dwconv3d.hpp"
#include "codegen/dwconv3d_shape.hpp"
#include "codegen/gemm.hpp"
#include "codegen/gemm_config.hpp"
#include "tools/jobs/gemm_host.hpp"
#include "tools/jobs/gemm_model.hpp"
#include "jit/kernel.hpp"
#include "jit/lib/host_convert.hpp"
#include "jit/lib/wave_ops.hpp"
#include "runtime/device.hpp"
#include "runtime/model/launch_model.hpp"
#include "jit/codeobject/code_object.hpp"
#include "runtime/sim/simulator.hpp"
#include "runtime/model/model_device.hpp"
