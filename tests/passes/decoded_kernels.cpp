#include "decoded_kernels.hpp"

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>

#include <unistd.h>

#include "jit/isa/error.hpp"

namespace passes_test {
namespace fs = std::filesystem;
using cdnajit::Error;
using cdnajit::isa::MachineInst;
using cdnajit::isa::Operand;

namespace {

std::string run(const std::string& cmd) {
  std::string out;
  FILE* p = popen((cmd + " 2>&1").c_str(), "r");
  if (!p) throw Error("cannot run: " + cmd);
  char buf[4096];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, p)) > 0) out.append(buf, n);
  int rc = pclose(p);
  if (rc != 0) throw Error("command failed (" + std::to_string(rc) + "): " + cmd + "\n" + out);
  return out;
}

std::string trim(const std::string& s) {
  size_t b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
  return b == std::string::npos ? "" : s.substr(b, e - b + 1);
}

}  // namespace

std::vector<DecodedKernel> compile_and_decode(const std::string& hip_file, cdnajit::Arch arch) {
  std::string a(cdnajit::arch_name(arch));
  fs::path dir = fs::temp_directory_path() / ("cdnajit_passes_test_" + std::to_string(::getpid()));
  fs::create_directories(dir);
  fs::path obj = dir / (a + ".o");
  run(std::string(CDNAJIT_CLANG) + " -x hip --offload-arch=" + a +
      " --cuda-device-only --no-gpu-bundle-output -nogpulib -nogpuinc -O3 -c " + hip_file + " -o " + obj.string());
  std::string text = run(std::string(CDNAJIT_OBJDUMP) + " -d " + obj.string());
  fs::remove_all(dir);

  std::vector<DecodedKernel> kernels;
  std::istringstream in(text);
  std::string line;
  while (std::getline(in, line)) {
    if (line.size() > 2 && line.back() == ':' && line.find('<') != std::string::npos) {
      size_t lt = line.find('<'), gt = line.find('>');
      kernels.push_back({line.substr(lt + 1, gt - lt - 1), {}});
      continue;
    }
    if (kernels.empty() || line.empty() || line[0] != '\t') continue;
    size_t slash = line.find("//");
    if (slash == std::string::npos) continue;
    std::string asm_text = trim(line.substr(0, slash));
    std::string tail = line.substr(slash + 2);
    size_t colon = tail.find(':');
    if (asm_text.empty() || colon == std::string::npos) continue;
    MachineInst mi;
    mi.address = std::stoull(trim(tail.substr(0, colon)), nullptr, 16);
    std::istringstream words(tail.substr(colon + 1));
    std::string w;
    int bytes = 0;
    while (words >> w && w[0] != '<') bytes += 4;
    mi.size_bytes = static_cast<uint8_t>(bytes);
    std::string err;
    if (!cdnajit::isa::parse(asm_text, mi, err))
      throw Error("isa::parse rejected '" + asm_text + "' in kernel " + kernels.back().name + " (" + a + "): " + err);
    kernels.back().program.push_back(std::move(mi));
  }
  if (kernels.empty()) throw Error("no kernels in the disassembly of " + hip_file);
  return kernels;
}

std::vector<MachineInst> to_label_form(const std::vector<MachineInst>& decoded) {
  std::map<int64_t, std::string> targets;
  for (const auto& mi : decoded)
    for (const auto& o : mi.operands)
      if (o.kind == Operand::Kind::Label && o.label.empty()) targets[o.imm] = std::string("L").append(std::to_string(o.imm));
  std::vector<MachineInst> out;
  for (const auto& mi : decoded) {
    auto t = targets.find(static_cast<int64_t>(mi.address));
    if (t != targets.end()) {
      MachineInst label;
      label.label_def = t->second;
      out.push_back(label);
    }
    MachineInst copy = mi;
    copy.address = 0;
    copy.size_bytes = 0;
    for (auto& o : copy.operands)
      if (o.kind == Operand::Kind::Label && o.label.empty()) o.label = targets[o.imm];
    out.push_back(std::move(copy));
  }
  return out;
}

}  // namespace passes_test
