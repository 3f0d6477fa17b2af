// Text tables for `cdnajit stats` and the seed job.
#pragma once
#include <string>

#include "jit/kernel.hpp"

namespace cdnajit {

std::string format_kernel_stats(const BuildResult& r);

}  // namespace cdnajit
