// The cdnajit commands; each function registers one command (or a small
// family) with the command line. To add a command: write add_X_command in its
// own cmd_X.cpp, declare it here and add its row (with the names it registers)
// to CommandLine::families() in tools/cli/app.cpp.
#pragma once
#include "tools/cli/app.hpp"

namespace cdnajit::cli {

void add_kernel_commands(CommandLine& cl);  // list, dump, build, stats (tools/cli/cmd_kernels.cpp)
void add_run_command(CommandLine& cl);      // run  (tools/cli/cmd_run.cpp)
void add_seed_command(CommandLine& cl);     // seed (tools/cli/cmd_seed.cpp)
void add_fuzz_command(CommandLine& cl);     // fuzz (tools/cli/cmd_fuzz.cpp)
void add_tune_command(CommandLine& cl);     // tune (tools/cli/cmd_tune.cpp)
void add_conv3d_command(CommandLine& cl);   // conv3d (tools/cli/cmd_conv3d.cpp)
void add_gemm_command(CommandLine& cl);     // gemm (tools/cli/cmd_gemm.cpp)
void add_gemm_mx_command(CommandLine& cl);  // gemm-mx (tools/cli/cmd_gemm_mx.cpp)
void add_check_command(CommandLine& cl);    // check (tools/cli/cmd_check.cpp)
void add_isa_command(CommandLine& cl);      // isa  (tools/cli/cmd_isa.cpp)
void add_selftest_command(CommandLine& cl); // selftest (tools/cli/cmd_selftest.cpp)
void add_model_command(CommandLine& cl);    // model export|check|list (tools/cli/cmd_model.cpp)
void add_calibrate_command(CommandLine& cl);  // calibrate (tools/cli/cmd_calibrate.cpp)
void add_job_command(CommandLine& cl);      // job  (tools/cli/cmd_job.cpp)

}  // namespace cdnajit::cli
