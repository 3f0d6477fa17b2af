#include "jit/codeobject/elf_writer.hpp"

#include <algorithm>
#include <array>
#include <cstring>
#include <string_view>
#include <utility>

#include "jit/codeobject/target_id.hpp"
#include "jit/isa/error.hpp"
#include "llvm/BinaryFormat/ELF.h"
#include "llvm/Object/ELF.h"
#include "llvm/Support/Endian.h"

// As in code_object_cache.cpp: Debian's liblld-22-dev lacks the Version.inc that
// lld/Common/Version.h includes; the function is in lldCommon.
namespace lld {
std::string getLLDVersion();
}

namespace cdnajit {
namespace {

namespace elf = llvm::ELF;
using llvm::support::endian::read16le;
using llvm::support::endian::read32le;
using llvm::support::endian::read64le;

// lld's page sizes for AMDGPU (max-page-size = common-page-size = 4 KiB).
constexpr uint64_t kPage = 0x1000;
constexpr uint64_t kEhdrSize = 64, kPhdrSize = 56, kShdrSize = 64, kSymSize = 24, kDynSize = 16;
constexpr int kProgramHeaders = 8;

uint64_t align_to(uint64_t v, uint64_t a) { return a <= 1 ? v : (v + a - 1) / a * a; }

// One section of the input object.
struct InSection {
  std::string_view name;
  uint32_t type = 0, link = 0, info = 0;
  uint64_t flags = 0, offset = 0, size = 0, align = 1, entsize = 0;
  std::span<const uint8_t> bytes;
};

struct InSymbol {
  std::string_view name;
  uint8_t info = 0, other = 0;
  uint16_t shndx = 0;
  uint64_t value = 0, size = 0;
};

class Input {
 public:
  Input(std::span<const uint8_t> bytes, Arch arch) : b_(bytes), what_("direct code-object writer (" + std::string(mcpu_name(arch)) + "): input ") {
    if (b_.size() < kEhdrSize || std::memcmp(b_.data(), elf::ElfMagic, 4) != 0)
      fail("is not an ELF file (" + std::to_string(b_.size()) + " bytes, no ELF magic)");
    if (b_[elf::EI_CLASS] != elf::ELFCLASS64 || b_[elf::EI_DATA] != elf::ELFDATA2LSB)
      fail("is not a 64-bit little-endian ELF file");
    if (read16le(&b_[16]) != elf::ET_REL) fail("has e_type " + std::to_string(read16le(&b_[16])) + ", expected ET_REL (1)");
    if (read16le(&b_[18]) != elf::EM_AMDGPU)
      fail("has e_machine " + std::to_string(read16le(&b_[18])) + ", expected EM_AMDGPU (224)");
    flags_ = read32le(&b_[48]);
    if ((flags_ & elf::EF_AMDGPU_MACH) != elf_mach(arch))
      fail("was assembled for another processor (e_flags " + std::to_string(flags_) + ")");
    uint64_t shoff = read64le(&b_[40]);
    uint16_t shentsize = read16le(&b_[58]), shnum = read16le(&b_[60]), shstrndx = read16le(&b_[62]);
    if (shentsize != kShdrSize || shnum == 0 || shstrndx >= shnum || shoff > b_.size() ||
        (b_.size() - shoff) / kShdrSize < shnum)
      fail("has a bad section header table (offset " + std::to_string(shoff) + ", " + std::to_string(shnum) +
           " entries of " + std::to_string(shentsize) + " bytes)");
    for (uint16_t i = 0; i < shnum; ++i) {
      const uint8_t* h = &b_[shoff + i * kShdrSize];
      InSection s;
      s.type = read32le(h + 4);
      s.flags = read64le(h + 8);
      s.offset = read64le(h + 24);
      s.size = read64le(h + 32);
      s.link = read32le(h + 40);
      s.info = read32le(h + 44);
      s.align = std::max<uint64_t>(read64le(h + 48), 1);
      s.entsize = read64le(h + 56);
      if (s.type != elf::SHT_NOBITS && s.type != elf::SHT_NULL) {
        if (s.offset > b_.size() || b_.size() - s.offset < s.size)
          fail("section " + std::to_string(i) + " lies outside the file");
        s.bytes = b_.subspan(s.offset, s.size);
      }
      sections_.push_back(s);
    }
    const InSection& names = sections_[shstrndx];
    for (size_t i = 0; i < sections_.size(); ++i) sections_[i].name = string_at(names, read32le(&b_[shoff + i * kShdrSize]));
  }

  [[noreturn]] void fail(const std::string& msg) const { throw Error(what_ + msg + "; pass the bytes assemble() returned"); }

  std::string_view string_at(const InSection& table, uint64_t offset) const {
    if (table.type != elf::SHT_STRTAB || offset >= table.bytes.size()) fail("has a string offset outside its string table");
    auto* start = reinterpret_cast<const char*>(table.bytes.data() + offset);
    size_t n = strnlen(start, table.bytes.size() - offset);
    if (n == table.bytes.size() - offset) fail("has an unterminated string in a string table");
    return {start, n};
  }

  int index_of(std::string_view name) const {
    for (size_t i = 0; i < sections_.size(); ++i)
      if (sections_[i].name == name) return int(i);
    return -1;
  }

  std::span<const uint8_t> bytes() const { return b_; }
  uint32_t flags() const { return flags_; }
  const std::vector<InSection>& sections() const { return sections_; }

 private:
  std::span<const uint8_t> b_;
  std::string what_;
  uint32_t flags_ = 0;
  std::vector<InSection> sections_;
};

// Little-endian writes into the output image.
struct Out {
  std::vector<uint8_t> b;
  void u8(uint64_t at, uint8_t v) { b[at] = v; }
  void u16(uint64_t at, uint16_t v) { llvm::support::endian::write16le(&b[at], v); }
  void u32(uint64_t at, uint32_t v) { llvm::support::endian::write32le(&b[at], v); }
  void u64(uint64_t at, uint64_t v) { llvm::support::endian::write64le(&b[at], v); }
  void bytes(uint64_t at, std::span<const uint8_t> v) {
    if (!v.empty()) std::memcpy(&b[at], v.data(), v.size());
  }
  void str(uint64_t at, std::string_view s) { std::memcpy(&b[at], s.data(), s.size()); }
  void shdr(uint64_t at, uint32_t name, uint32_t type, uint64_t flags, uint64_t addr, uint64_t off, uint64_t size,
            uint32_t link, uint32_t info, uint64_t align, uint64_t entsize) {
    u32(at, name), u32(at + 4, type), u64(at + 8, flags), u64(at + 16, addr), u64(at + 24, off), u64(at + 32, size);
    u32(at + 40, link), u32(at + 44, info), u64(at + 48, align), u64(at + 56, entsize);
  }
  void phdr(uint64_t at, uint32_t type, uint32_t flags, uint64_t off, uint64_t addr, uint64_t filesz, uint64_t memsz,
            uint64_t align) {
    u32(at, type), u32(at + 4, flags), u64(at + 8, off), u64(at + 16, addr), u64(at + 24, addr), u64(at + 32, filesz);
    u64(at + 40, memsz), u64(at + 48, align);
  }
  void sym(uint64_t at, uint32_t name, uint8_t info, uint8_t other, uint16_t shndx, uint64_t value, uint64_t size) {
    u32(at, name), u8(at + 4, info), u8(at + 5, other), u16(at + 6, shndx), u64(at + 8, value), u64(at + 16, size);
  }
};

// Where lld puts the first section of a new PT_LOAD segment: the next page in
// memory at the same offset within the page as the end of the previous
// segment, then the section's alignment; the file offset is the next one
// congruent to that address modulo the page size.
void next_segment(uint64_t prev_end_off, uint64_t prev_end_va, uint64_t align, uint64_t& off, uint64_t& va) {
  va = align_to(align_to(prev_end_va, kPage) + prev_end_va % kPage, align);
  off = prev_end_off + (va - prev_end_off) % kPage;
}

}  // namespace

std::optional<std::vector<uint8_t>> write_code_object_direct(std::span<const uint8_t> relocatable_object, Arch arch,
                                                             std::string* why) {
  auto unsupported = [&](std::string reason) -> std::optional<std::vector<uint8_t>> {
    if (why) *why = std::move(reason);
    return std::nullopt;
  };
  Input in(relocatable_object, arch);

  // The shape this writer handles: exactly these sections.
  static constexpr std::array<std::string_view, 7> kKnown = {"", ".strtab", ".text", ".rodata", ".rela.rodata", ".note", ".symtab"};
  for (const InSection& s : in.sections())
    if (std::find(kKnown.begin(), kKnown.end(), s.name) == kKnown.end())
      return unsupported("section '" + std::string(s.name) + "' (only .text, .rodata, .rela.rodata and .note are written directly)");
  const int text_i = in.index_of(".text"), rodata_i = in.index_of(".rodata"), note_i = in.index_of(".note");
  const int symtab_i = in.index_of(".symtab"), rela_i = in.index_of(".rela.rodata");
  if (text_i < 0 || rodata_i < 0 || note_i < 0 || symtab_i < 0)
    return unsupported("no .text, .rodata, .note or .symtab section");
  const InSection& text = in.sections()[size_t(text_i)];
  const InSection& rodata = in.sections()[size_t(rodata_i)];
  const InSection& note = in.sections()[size_t(note_i)];
  const InSection& symtab = in.sections()[size_t(symtab_i)];
  if (text.type != elf::SHT_PROGBITS || rodata.type != elf::SHT_PROGBITS || note.type != elf::SHT_NOTE ||
      symtab.type != elf::SHT_SYMTAB || symtab.link >= in.sections().size())
    return unsupported("a section of an unexpected type");

  // Symbols: the null symbol, then exactly two globals defined in .text/.rodata.
  if (symtab.bytes.size() % kSymSize != 0) in.fail("has a symbol table whose size is not a multiple of 24");
  const InSection& strtab = in.sections()[symtab.link];
  std::vector<InSymbol> globals;
  for (size_t i = 1; i < symtab.bytes.size() / kSymSize; ++i) {
    const uint8_t* e = symtab.bytes.data() + i * kSymSize;
    InSymbol s{in.string_at(strtab, read32le(e)), e[4], e[5], read16le(e + 6), read64le(e + 8), read64le(e + 16)};
    if ((s.info >> 4) != elf::STB_GLOBAL) return unsupported("local symbol '" + std::string(s.name) + "'");
    if (s.shndx != text_i && s.shndx != rodata_i) return unsupported("symbol '" + std::string(s.name) + "' outside .text/.rodata");
    globals.push_back(s);
  }
  if (globals.size() != 2) return unsupported(std::to_string(globals.size()) + " global symbols (one kernel has 2)");

  // Layout of the loaded part (see elf_writer.hpp).
  uint64_t off = kEhdrSize + kProgramHeaders * kPhdrSize;
  const uint64_t note_off = align_to(off, note.align);
  const uint64_t dynsym_off = align_to(note_off + note.size, 8), dynsym_size = 3 * kSymSize;
  // .gnu.hash for two symbols (lld: max((n + 1) / 2, 1) buckets, a bloom filter of
  // NextPowerOf2(n * 12 / 64) words): header, one bloom word, one bucket, two hashes.
  const uint64_t gnu_hash_off = align_to(dynsym_off + dynsym_size, 8), gnu_hash_size = 16 + 8 + 4 + 2 * 4;
  // .hash: nbucket = nchain = number of dynamic symbols (null included).
  const uint64_t hash_off = align_to(gnu_hash_off + gnu_hash_size, 4), hash_size = 8 + 3 * 4 + 3 * 4;
  std::string dynstr(1, '\0');
  std::array<uint32_t, 2> name_off{};
  for (size_t i = 0; i < 2; ++i) name_off[i] = uint32_t(dynstr.size()), dynstr += globals[i].name, dynstr += '\0';
  const uint64_t dynstr_off = hash_off + hash_size;
  const uint64_t rodata_off = align_to(dynstr_off + dynstr.size(), rodata.align);
  const uint64_t seg1_end = rodata_off + rodata.size;
  uint64_t text_off, text_va;
  next_segment(seg1_end, seg1_end, text.align, text_off, text_va);
  uint64_t dyn_off, dyn_va;
  next_segment(text_off + text.size, text_va + text.size, 8, dyn_off, dyn_va);
  const uint64_t dyn_size = 7 * kDynSize;
  const uint64_t relro_pad = align_to(dyn_va + dyn_size, kPage) - (dyn_va + dyn_size);

  // The part that is not loaded.
  const std::string comment = "Linker: " + lld::getLLDVersion();
  const uint64_t comment_off = dyn_off + dyn_size, comment_size = comment.size() + 1;
  const uint64_t symtab_off = align_to(comment_off + comment_size, 8), symtab_size = 4 * kSymSize;
  static constexpr std::array<std::string_view, 14> kNames = {
      "", ".note", ".dynsym", ".gnu.hash", ".hash", ".dynstr", ".rodata", ".text", ".dynamic", ".relro_padding",
      ".comment", ".symtab", ".shstrtab", ".strtab"};
  std::string shstrtab;
  std::array<uint32_t, 14> sh_name{};
  for (size_t i = 0; i < kNames.size(); ++i) {
    if (i == 0) { shstrtab += '\0'; continue; }
    sh_name[i] = uint32_t(shstrtab.size()), shstrtab += kNames[i], shstrtab += '\0';
  }
  const uint64_t shstrtab_off = symtab_off + symtab_size;
  const std::string strtab_out = dynstr + "_DYNAMIC" + '\0';
  const uint32_t dynamic_name = uint32_t(dynstr.size());
  const uint64_t strtab_off = shstrtab_off + shstrtab.size();
  const uint64_t shoff = align_to(strtab_off + strtab_out.size(), 8);
  enum : uint16_t { kNote = 1, kDynsym, kGnuHash, kHash, kDynstr, kRodata, kText, kDynamic, kRelroPad, kComment,
                    kSymtab, kShstrtab, kStrtab, kSectionCount };

  Out o;
  o.b.assign(shoff + kSectionCount * kShdrSize, 0);

  // ELF header: identification (OS ABI, ABI version) and e_flags as the assembler set them.
  o.bytes(0, in.bytes().subspan(0, elf::EI_NIDENT));
  o.u16(16, elf::ET_DYN), o.u16(18, elf::EM_AMDGPU), o.u32(20, elf::EV_CURRENT), o.u64(24, 0), o.u64(32, kEhdrSize);
  o.u64(40, shoff), o.u32(48, in.flags()), o.u16(52, kEhdrSize), o.u16(54, kPhdrSize), o.u16(56, kProgramHeaders);
  o.u16(58, kShdrSize), o.u16(60, kSectionCount), o.u16(62, kShstrtab);

  uint64_t ph = kEhdrSize;
  auto next_ph = [&] { return std::exchange(ph, ph + kPhdrSize); };
  o.phdr(next_ph(), elf::PT_PHDR, elf::PF_R, kEhdrSize, kEhdrSize, kProgramHeaders * kPhdrSize,
         kProgramHeaders * kPhdrSize, 8);
  o.phdr(next_ph(), elf::PT_LOAD, elf::PF_R, 0, 0, seg1_end, seg1_end, kPage);
  o.phdr(next_ph(), elf::PT_LOAD, elf::PF_R | elf::PF_X, text_off, text_va, text.size, text.size, kPage);
  o.phdr(next_ph(), elf::PT_LOAD, elf::PF_R | elf::PF_W, dyn_off, dyn_va, dyn_size, dyn_size + relro_pad, kPage);
  o.phdr(next_ph(), elf::PT_DYNAMIC, elf::PF_R | elf::PF_W, dyn_off, dyn_va, dyn_size, dyn_size, 8);
  o.phdr(next_ph(), elf::PT_GNU_RELRO, elf::PF_R, dyn_off, dyn_va, dyn_size, dyn_size + relro_pad, 1);
  o.phdr(next_ph(), elf::PT_GNU_STACK, elf::PF_R | elf::PF_W, 0, 0, 0, 0, 0);
  o.phdr(next_ph(), elf::PT_NOTE, elf::PF_R, note_off, note_off, note.size, note.size, note.align);

  // Contents: the note and the code as assembled, the descriptor with its relocations applied.
  o.bytes(note_off, note.bytes);
  o.bytes(text_off, text.bytes);
  o.bytes(rodata_off, rodata.bytes);
  auto address_of = [&](const InSymbol& s) { return (s.shndx == text_i ? text_va : rodata_off) + s.value; };
  if (rela_i >= 0) {
    const InSection& rela = in.sections()[size_t(rela_i)];
    if (rela.type != elf::SHT_RELA || rela.info != uint32_t(rodata_i) || rela.link != uint32_t(symtab_i) ||
        rela.bytes.size() % 24 != 0)
      return unsupported("a relocation section other than .rela.rodata against .symtab");
    for (size_t r = 0; r < rela.bytes.size() / 24; ++r) {
      const uint8_t* e = rela.bytes.data() + r * 24;
      uint64_t where = read64le(e), info = read64le(e + 8);
      int64_t addend = int64_t(read64le(e + 16));
      uint32_t type = uint32_t(info), sym = uint32_t(info >> 32);
      if (type != elf::R_AMDGPU_REL64) return unsupported("relocation type " + std::to_string(type));
      if (sym == 0 || sym > globals.size()) in.fail("has a relocation against symbol " + std::to_string(sym));
      if (where > rodata.size || rodata.size - where < 8) in.fail("has a relocation outside .rodata");
      // R_AMDGPU_REL64: S + A - P (LLVM's AMDGPUUsage, "Relocation Records").
      o.u64(rodata_off + where, address_of(globals[sym - 1]) + uint64_t(addend) - (rodata_off + where));
    }
  }

  // Dynamic symbols, as in the object (lld keeps their order: one .gnu.hash bucket).
  auto out_shndx = [&](const InSymbol& s) -> uint16_t { return s.shndx == text_i ? kText : kRodata; };
  for (size_t i = 0; i < 2; ++i) {
    const InSymbol& s = globals[i];
    o.sym(dynsym_off + (i + 1) * kSymSize, name_off[i], s.info, s.other, out_shndx(s), address_of(s), s.size);
  }
  // .gnu.hash: nbuckets 1, symoffset 1, bloom words 1, shift 26; the bloom filter sets
  // bits h % 64 and (h >> 26) % 64; a chain value's low bit marks the chain's end.
  constexpr uint32_t kShift2 = 26;
  o.u32(gnu_hash_off, 1), o.u32(gnu_hash_off + 4, 1), o.u32(gnu_hash_off + 8, 1), o.u32(gnu_hash_off + 12, kShift2);
  uint64_t bloom = 0;
  for (size_t i = 0; i < 2; ++i) {
    uint32_t h = llvm::object::hashGnu(llvm::StringRef(globals[i].name.data(), globals[i].name.size()));
    bloom |= uint64_t(1) << (h % 64);
    bloom |= uint64_t(1) << ((h >> kShift2) % 64);
    o.u32(gnu_hash_off + 28 + 4 * i, i == 1 ? (h | 1) : (h & ~1u));
  }
  o.u64(gnu_hash_off + 16, bloom);
  o.u32(gnu_hash_off + 24, 1);  // bucket 0 starts at dynamic symbol 1
  // .hash (SysV): each symbol pushed on the front of its bucket's chain.
  o.u32(hash_off, 3), o.u32(hash_off + 4, 3);
  std::array<uint32_t, 3> buckets{}, chains{};
  for (uint32_t i = 1; i <= 2; ++i) {
    uint32_t h = llvm::object::hashSysV(llvm::StringRef(globals[i - 1].name.data(), globals[i - 1].name.size())) % 3;
    chains[i] = buckets[h];
    buckets[h] = i;
  }
  for (size_t i = 0; i < 3; ++i) o.u32(hash_off + 8 + 4 * i, buckets[i]), o.u32(hash_off + 20 + 4 * i, chains[i]);
  o.str(dynstr_off, dynstr);

  // .dynamic
  const std::array<std::pair<int64_t, uint64_t>, 7> dynamic = {{{elf::DT_SYMTAB, dynsym_off},
                                                                {elf::DT_SYMENT, kSymSize},
                                                                {elf::DT_STRTAB, dynstr_off},
                                                                {elf::DT_STRSZ, dynstr.size()},
                                                                {elf::DT_GNU_HASH, gnu_hash_off},
                                                                {elf::DT_HASH, hash_off},
                                                                {elf::DT_NULL, 0}}};
  for (size_t i = 0; i < dynamic.size(); ++i)
    o.u64(dyn_off + i * kDynSize, uint64_t(dynamic[i].first)), o.u64(dyn_off + i * kDynSize + 8, dynamic[i].second);

  // Not loaded: .comment, .symtab (_DYNAMIC, then the globals), .shstrtab, .strtab.
  o.str(comment_off, comment);
  o.sym(symtab_off + kSymSize, dynamic_name, elf::STB_LOCAL << 4 | elf::STT_NOTYPE, elf::STV_HIDDEN, kDynamic, dyn_va, 0);
  for (size_t i = 0; i < 2; ++i) {
    const InSymbol& s = globals[i];
    o.sym(symtab_off + (i + 2) * kSymSize, name_off[i], s.info, s.other, out_shndx(s), address_of(s), s.size);
  }
  o.str(shstrtab_off, shstrtab);
  o.str(strtab_off, strtab_out);

  // Section headers.
  auto sh = [&](uint16_t i) { return shoff + i * kShdrSize; };
  o.shdr(sh(kNote), sh_name[kNote], elf::SHT_NOTE, note.flags, note_off, note_off, note.size, 0, 0, note.align, note.entsize);
  o.shdr(sh(kDynsym), sh_name[kDynsym], elf::SHT_DYNSYM, elf::SHF_ALLOC, dynsym_off, dynsym_off, dynsym_size, kDynstr, 1, 8,
         kSymSize);
  o.shdr(sh(kGnuHash), sh_name[kGnuHash], elf::SHT_GNU_HASH, elf::SHF_ALLOC, gnu_hash_off, gnu_hash_off, gnu_hash_size,
         kDynsym, 0, 8, 0);
  o.shdr(sh(kHash), sh_name[kHash], elf::SHT_HASH, elf::SHF_ALLOC, hash_off, hash_off, hash_size, kDynsym, 0, 4, 4);
  o.shdr(sh(kDynstr), sh_name[kDynstr], elf::SHT_STRTAB, elf::SHF_ALLOC, dynstr_off, dynstr_off, dynstr.size(), 0, 0, 1, 0);
  o.shdr(sh(kRodata), sh_name[kRodata], elf::SHT_PROGBITS, rodata.flags, rodata_off, rodata_off, rodata.size, 0, 0,
         rodata.align, rodata.entsize);
  o.shdr(sh(kText), sh_name[kText], elf::SHT_PROGBITS, text.flags, text_va, text_off, text.size, 0, 0, text.align,
         text.entsize);
  o.shdr(sh(kDynamic), sh_name[kDynamic], elf::SHT_DYNAMIC, elf::SHF_ALLOC | elf::SHF_WRITE, dyn_va, dyn_off, dyn_size,
         kDynstr, 0, 8, kDynSize);
  o.shdr(sh(kRelroPad), sh_name[kRelroPad], elf::SHT_NOBITS, elf::SHF_ALLOC | elf::SHF_WRITE, dyn_va + dyn_size,
         dyn_off + dyn_size, relro_pad, 0, 0, 1, 0);
  o.shdr(sh(kComment), sh_name[kComment], elf::SHT_PROGBITS, elf::SHF_MERGE | elf::SHF_STRINGS, 0, comment_off,
         comment_size, 0, 0, 1, 1);
  o.shdr(sh(kSymtab), sh_name[kSymtab], elf::SHT_SYMTAB, 0, 0, symtab_off, symtab_size, kStrtab, 2, 8, kSymSize);
  o.shdr(sh(kShstrtab), sh_name[kShstrtab], elf::SHT_STRTAB, 0, 0, shstrtab_off, shstrtab.size(), 0, 0, 1, 0);
  o.shdr(sh(kStrtab), sh_name[kStrtab], elf::SHT_STRTAB, 0, 0, strtab_off, strtab_out.size(), 0, 0, 1, 0);
  return std::move(o.b);
}

}  // namespace cdnajit
