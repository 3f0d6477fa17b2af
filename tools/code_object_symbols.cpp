#include "tools/code_object_symbols.hpp"

#include <fmt/format.h>

#include <cstring>
#include <optional>
#include <vector>

namespace cdnajit {

namespace {

// Bounds-checked little-endian reads (the file was already accepted by read_code_object, but
// this reader must not trust it either).
template <class T>
std::optional<T> get(std::span<const uint8_t> b, uint64_t off) {
  if (off > b.size() || b.size() - off < sizeof(T)) return std::nullopt;
  T v;
  std::memcpy(&v, b.data() + off, sizeof(T));
  return v;
}

std::string cstr(std::span<const uint8_t> b, uint64_t tab_off, uint64_t tab_size, uint64_t name) {
  if (tab_off > b.size() || b.size() - tab_off < tab_size || name >= tab_size) return "";
  const char* p = reinterpret_cast<const char*>(b.data() + tab_off + name);
  const void* end = std::memchr(p, 0, tab_size - name);
  return end ? std::string(p, static_cast<const char*>(end) - p) : "";
}

struct Section {
  std::string name;
  uint32_t type = 0, link = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0;
};

}  // namespace

std::string describe_code_object_address(std::span<const uint8_t> elf, uint64_t addr) {
  const std::string plain = fmt::format("address 0x{:x}", addr);
  auto shoff = get<uint64_t>(elf, 40);
  auto shnum = get<uint16_t>(elf, 60), shstrndx = get<uint16_t>(elf, 62);
  if (!shoff || !shnum || !shstrndx || *shstrndx >= *shnum) return plain;
  std::vector<Section> secs(*shnum);
  for (uint16_t i = 0; i < *shnum; ++i) {
    const uint64_t h = *shoff + uint64_t(i) * 64;
    auto type = get<uint32_t>(elf, h + 4), link = get<uint32_t>(elf, h + 40);
    auto flags = get<uint64_t>(elf, h + 8), a = get<uint64_t>(elf, h + 16), off = get<uint64_t>(elf, h + 24),
         size = get<uint64_t>(elf, h + 32);
    if (!type || !link || !flags || !a || !off || !size) return plain;
    secs[i] = {"", *type, *link, *flags, *a, *off, *size};
  }
  const Section& names = secs[*shstrndx];
  for (uint16_t i = 0; i < *shnum; ++i)
    if (auto n = get<uint32_t>(elf, *shoff + uint64_t(i) * 64)) secs[i].name = cstr(elf, names.offset, names.size, *n);
  int in = -1;  // the allocated section that holds addr
  for (uint16_t i = 0; i < *shnum; ++i)
    if ((secs[i].flags & 2 /*SHF_ALLOC*/) && addr >= secs[i].addr && addr - secs[i].addr < secs[i].size) in = i;
  if (in < 0) return plain + " (in no section of the code object)";
  const std::string section = secs[size_t(in)].name;
  for (const Section& st : secs) {
    if (st.type != 2 /*SYMTAB*/ || st.link >= secs.size()) continue;
    const Section& strtab = secs[st.link];
    for (uint64_t off = 0; off + 24 <= st.size; off += 24) {
      auto name = get<uint32_t>(elf, st.offset + off);
      auto info = get<uint8_t>(elf, st.offset + off + 4);
      auto value = get<uint64_t>(elf, st.offset + off + 8), size = get<uint64_t>(elf, st.offset + off + 16);
      if (!name || !info || !value || !size) break;
      const int type = *info & 15;
      if ((type != 1 /*OBJECT*/ && type != 2 /*FUNC*/) || addr < *value || addr - *value >= std::max<uint64_t>(*size, 1))
        continue;
      const std::string sym = cstr(elf, strtab.offset, strtab.size, *name);
      return fmt::format("{} '{}' ({}{})", type == 1 ? "global variable" : "function", sym, section,
                         addr == *value ? "" : fmt::format(", +0x{:x}", addr - *value));
    }
  }
  if (section == ".got") return "an entry of the global offset table (.got), which the loader fills in";
  return fmt::format("{} in section {}", plain, section);
}

}  // namespace cdnajit
