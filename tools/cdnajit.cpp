// The cdnajit command: dump / build / stats of built-in kernels, run any code
// object on the simulator or a GPU, the seed depthwise-conv3d job, and a
// fuzzer. The commands live in tools/cli/ (one file each).
#include <cstdio>

#include "tools/cli/app.hpp"

int main(int argc, char** argv) {
  // Line-buffered stdout also into a pipe or file (the C library's default there is a
  // 4 KB block): progress lines of long commands (tune, seed, fuzz) reach `| tee` as they
  // are printed, stay in order with stderr, and are not lost when the process is killed.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
  return cdnajit::cli::CommandLine().main(argc, argv);
}
