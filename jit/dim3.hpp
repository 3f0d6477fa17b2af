// Launch dimensions: a grid in workgroups, or a workgroup in threads (x varies fastest). A
// generator states the launch its kernel needs in them (codegen), a device launches with them
// (runtime/kernel_args.hpp), so they sit below both.
#pragma once
#include <cstdint>

namespace cdnajit {

struct Dim3 {
  uint32_t x = 1, y = 1, z = 1;
};

}  // namespace cdnajit
