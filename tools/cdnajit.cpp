// The cdnajit command: dump / build / stats of built-in kernels, run any code
// object on the simulator or a GPU, the seed depthwise-conv3d job, and a
// fuzzer. The commands live in tools/cli/ (one file each).
#include <cstdio>
#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include "tools/cli/app.hpp"

int main(int argc, char** argv) {
  // Line-buffered stdout also into a pipe or file (the C library's default there is a
  // 4 KB block): progress lines of long commands (tune, seed, fuzz) reach `| tee` as they
  // are printed, stay in order with stderr, and are not lost when the process is killed.
  std::setvbuf(stdout, nullptr, _IOLBF, BUFSIZ);
#if defined(__GLIBC__)
  // Each new malloc heap (one per simulator thread's arena) made accessible 64 MiB ahead: glibc
  // otherwise extends a thread's heap page range by page range with one mprotect each, and every
  // mprotect of a multi-threaded process flushes the other cores' TLBs. A run under --model records
  // every wave of the grid from the simulator's threads (millions of small vectors); this cut its
  // host wall time by about 7% (runtime/model/README.md, "In-kernel clocks"). Only address space:
  // pages are still mapped when first written.
  mallopt(M_TOP_PAD, 64 << 20);
#endif
  return cdnajit::cli::CommandLine().main(argc, argv);
}
