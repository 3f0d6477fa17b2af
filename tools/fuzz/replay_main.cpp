// A main() for a fuzz target in a normal (non-libFuzzer) build: feeds every
// file named on the command line (directories: every file inside, recursively)
// to LLVMFuzzerTestOneInput once. The test suite runs it over the saved
// reproducers (tests/fuzz/reproducers/<target>/), so a crash libFuzzer found
// stays fixed in every build, sanitizers or not.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

int replay(const std::filesystem::path& file) {
  std::ifstream f(file, std::ios::binary);
  std::vector<uint8_t> bytes((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  if (!f.eof() && f.fail()) {
    std::fprintf(stderr, "cannot read %s\n", file.c_str());
    return 1;
  }
  std::printf("replaying %s (%zu bytes)\n", file.c_str(), bytes.size());
  std::fflush(stdout);  // if the input crashes the process, the log names it
  LLVMFuzzerTestOneInput(bytes.data(), bytes.size());
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    std::fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
    return 2;
  }
  size_t count = 0;
  int status = 0;
  for (int i = 1; i < argc; ++i) {
    std::filesystem::path p(argv[i]);
    std::vector<std::filesystem::path> files;
    if (std::filesystem::is_directory(p)) {
      for (const auto& e : std::filesystem::recursive_directory_iterator(p))
        if (e.is_regular_file()) files.push_back(e.path());
    } else {
      files.push_back(p);
    }
    std::sort(files.begin(), files.end());
    for (const auto& f : files) {
      status |= replay(f);
      ++count;
    }
  }
  std::printf("%zu input(s) replayed without a crash\n", count);
  if (count == 0) {
    std::fprintf(stderr, "no inputs found: nothing was tested\n");
    return 1;
  }
  return status;
}
