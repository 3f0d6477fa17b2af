// The cdnajit command: dump / build / stats of built-in kernels, run any code
// object on the simulator or a GPU, the seed depthwise-conv3d job, and a
// fuzzer. The commands live in tools/cli/ (one file each).
#include "tools/cli/app.hpp"

int main(int argc, char** argv) { return cdnajit::cli::CommandLine().main(argc, argv); }
