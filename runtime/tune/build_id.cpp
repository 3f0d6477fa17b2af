#include "runtime/tune/build_id.hpp"

#include <elf.h>
#include <fmt/format.h>
#include <link.h>

#include <cstdint>
#include <cstring>
#include <fstream>
#include <iterator>

#include "jit/isa/error.hpp"

namespace cdnajit::tune {

namespace {

struct Found {
  uintptr_t address = 0;   // an address inside the object we look for
  bool in_object = false;
  std::string path;        // the object's file ("" for the main executable)
  std::string note;        // hex of its NT_GNU_BUILD_ID, "" without one
};

int visit(dl_phdr_info* info, size_t, void* data) {
  Found& f = *static_cast<Found*>(data);
  bool contains = false;
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    const uintptr_t lo = info->dlpi_addr + ph.p_vaddr;
    if (ph.p_type == PT_LOAD && f.address >= lo && f.address < lo + ph.p_memsz) contains = true;
  }
  if (!contains) return 0;
  f.in_object = true;
  f.path = info->dlpi_name ? info->dlpi_name : "";
  for (int i = 0; i < info->dlpi_phnum; ++i) {
    const auto& ph = info->dlpi_phdr[i];
    if (ph.p_type != PT_NOTE) continue;
    const auto* p = reinterpret_cast<const uint8_t*>(info->dlpi_addr + ph.p_vaddr);
    const uint8_t* end = p + ph.p_memsz;
    while (p + sizeof(ElfW(Nhdr)) <= end) {
      ElfW(Nhdr) n;
      std::memcpy(&n, p, sizeof n);
      const uint8_t* name = p + sizeof n;
      const uint8_t* desc = name + ((n.n_namesz + 3) & ~3u);
      if (n.n_type == NT_GNU_BUILD_ID && n.n_namesz == 4 && std::memcmp(name, "GNU", 4) == 0 && desc + n.n_descsz <= end) {
        for (uint32_t b = 0; b < n.n_descsz; ++b) f.note += fmt::format("{:02x}", desc[b]);
        return 1;
      }
      p = desc + ((n.n_descsz + 3) & ~3u);
    }
  }
  return 1;
}

std::string compute() {
  Found f;
  f.address = reinterpret_cast<uintptr_t>(&visit);
  dl_iterate_phdr(visit, &f);
  if (!f.note.empty()) return "build-id:" + f.note;
  const std::string file = f.path.empty() ? "/proc/self/exe" : f.path;
  std::ifstream in(file, std::ios::binary);
  if (!f.in_object || !in)
    throw Error(fmt::format("performance database: cannot identify this build (no GNU build-id note and {} cannot be "
                            "read); link with -Wl,--build-id",
                            file));
  uint64_t h = 0xcbf29ce484222325ull;  // FNV-1a 64
  for (std::istreambuf_iterator<char> it(in), e; it != e; ++it) h = (h ^ uint8_t(*it)) * 0x100000001b3ull;
  return fmt::format("file-fnv1a:{:016x}", h);
}

}  // namespace

const std::string& build_id() {
  static const std::string id = compute();
  return id;
}

}  // namespace cdnajit::tune
