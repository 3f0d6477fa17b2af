// ELF64 + AMDGPU kernel descriptor + msgpack metadata reader. Every read goes
// through a bounds-checked cursor so malformed input becomes cdnajit::Error.
#include "jit/codeobject/code_object.hpp"

#include <cstring>
#include <algorithm>
#include <map>
#include <set>
#include <optional>
#include <string_view>
#include <unordered_map>

#include <fmt/format.h>

#include "jit/isa/error.hpp"
#include "jit/codeobject/msgpack.hpp"

namespace cdnajit {
namespace {

[[noreturn]] void bad(const std::string& what) { throw Error("read_code_object: " + what); }

struct Bytes {
  std::span<const uint8_t> b;
  template <class T>
  T get(uint64_t off, const char* what) const {
    if (off > b.size() || b.size() - off < sizeof(T))
      bad(std::string("truncated: ") + what + " at offset " + std::to_string(off) + " beyond file size " +
          std::to_string(b.size()));
    T v;
    std::memcpy(&v, b.data() + off, sizeof(T));
    return v;
  }
  std::span<const uint8_t> slice(uint64_t off, uint64_t n, const char* what) const {
    if (off > b.size() || b.size() - off < n)
      bad(std::string("truncated: ") + what + " [" + std::to_string(off) + ", +" + std::to_string(n) +
          ") beyond file size " + std::to_string(b.size()));
    return b.subspan(off, n);
  }
};

struct Section {
  std::string name;
  uint32_t type = 0;
  uint64_t flags = 0, addr = 0, offset = 0, size = 0, link = 0, entsize = 0;
};

struct Symbol {
  std::string name;
  uint8_t type = 0;
  uint16_t shndx = 0;
  uint64_t value = 0, size = 0;
};

std::string cstr(std::span<const uint8_t> tab, uint64_t off, const char* what) {
  if (off >= tab.size()) bad(std::string(what) + " name offset " + std::to_string(off) + " outside string table");
  const uint8_t* p = tab.data() + off;
  const void* end = std::memchr(p, 0, tab.size() - off);
  if (!end) bad(std::string(what) + " name not NUL-terminated in string table");
  return std::string(reinterpret_cast<const char*>(p), reinterpret_cast<const uint8_t*>(end) - p);
}

void apply_metadata(const msgpack::Value& root, CodeObject& co) {
  if (const msgpack::Value* formats = root.get("amdhsa.printf")) {
    if (formats->kind != msgpack::Value::Array) bad("metadata: amdhsa.printf is not an array");
    for (const auto& f : formats->array) {
      if (f.kind != msgpack::Value::String) bad("metadata: an amdhsa.printf entry is not a string");
      co.printf_formats.push_back(f.str);
    }
  }
  const msgpack::Value* kernels = root.get("amdhsa.kernels");
  if (!kernels) return;
  // Kernels by name (the last of equal names, as a linear search from the front would
  // keep): one lookup per metadata entry instead of a scan of every kernel.
  std::unordered_map<std::string_view, KernelInfo*> by_name;
  for (auto& k : co.kernels) by_name[k.name] = &k;
  if (kernels->kind != msgpack::Value::Array) bad("metadata: amdhsa.kernels is not an array");
  for (const auto& km : kernels->array) {
    if (km.kind != msgpack::Value::Map) bad("metadata: kernel entry is not a map");
    const msgpack::Value* name = km.get(".name");
    if (!name || name->kind != msgpack::Value::String) bad("metadata: kernel without .name");
    auto found = by_name.find(name->str);
    if (found == by_name.end()) continue;  // metadata for a kernel without a descriptor symbol: ignore
    KernelInfo* k = found->second;
    if (auto* v = km.get(".wavefront_size")) k->wavefront_size = v->as_u32(".wavefront_size");
    if (auto* v = km.get(".sgpr_count")) k->sgpr_count = v->as_u32(".sgpr_count");
    if (auto* v = km.get(".vgpr_count")) k->vgpr_count = v->as_u32(".vgpr_count");
    if (auto* v = km.get(".agpr_count")) k->agpr_count = v->as_u32(".agpr_count");
    if (auto* v = km.get(".max_flat_workgroup_size"))
      k->max_flat_workgroup_size = v->as_u32(".max_flat_workgroup_size");
    if (auto* v = km.get(".kernarg_segment_align")) k->kernarg_alignment = v->as_u32(".kernarg_segment_align");
    if (auto* args = km.get(".args")) {
      if (args->kind != msgpack::Value::Array) bad("metadata: .args of " + k->name + " is not an array");
      for (const auto& a : args->array) {
        if (a.kind != msgpack::Value::Map) bad("metadata: argument of " + k->name + " is not a map");
        KernelArgInfo ai;
        if (auto* v = a.get(".name"); v && v->kind == msgpack::Value::String) ai.name = v->str;
        if (auto* v = a.get(".offset")) ai.offset = v->as_u32(".offset");
        if (auto* v = a.get(".size")) ai.size = v->as_u32(".size");
        if (auto* v = a.get(".value_kind"); v && v->kind == msgpack::Value::String) ai.value_kind = v->str;
        if (auto* v = a.get(".address_space"); v && v->kind == msgpack::Value::String) ai.address_space = v->str;
        if (auto* v = a.get(".type_name"); v && v->kind == msgpack::Value::String) ai.type_name = v->str;
        if (auto* v = a.get(".is_const"); v && v->kind == msgpack::Value::Bool) ai.is_const = v->b;
        if (uint64_t(ai.offset) + ai.size > k->kernarg_size && k->kernarg_size != 0)
          bad("metadata: argument '" + ai.name + "' of " + k->name + " at offset " + std::to_string(ai.offset) +
              " size " + std::to_string(ai.size) + " exceeds kernarg size " + std::to_string(k->kernarg_size));
        k->args.push_back(std::move(ai));
      }
    }
  }
}

void decode_descriptor(std::span<const uint8_t> kd, KernelInfo& k) {
  auto u32 = [&](size_t off) { uint32_t v; std::memcpy(&v, kd.data() + off, 4); return v; };
  k.group_segment_size = u32(0);
  k.private_segment_size = u32(4);
  k.kernarg_size = u32(8);
  k.rsrc3 = u32(44);
  k.rsrc1 = u32(48);
  k.rsrc2 = u32(52);
  std::memcpy(&k.kernel_code_properties, kd.data() + 56, 2);
  uint16_t pre;
  std::memcpy(&pre, kd.data() + 58, 2);
  k.kernarg_preload_length = pre & 0x7f;
  k.kernarg_preload_offset = pre >> 7;
  uint16_t p = k.kernel_code_properties;
  k.private_segment_buffer = p & 1;
  k.dispatch_ptr = p & 2;
  k.queue_ptr = p & 4;
  k.kernarg_ptr = p & 8;
  k.dispatch_id = p & 16;
  k.flat_scratch_init = p & 32;
  k.private_segment_size_sgpr = p & 64;
  if (p & (1u << 10)) k.wavefront_size = 32;
  k.float_round_mode_32 = (k.rsrc1 >> 12) & 3;
  k.float_round_mode_16_64 = (k.rsrc1 >> 14) & 3;
  k.float_denorm_mode_32 = (k.rsrc1 >> 16) & 3;
  k.float_denorm_mode_16_64 = (k.rsrc1 >> 18) & 3;
  k.dx10_clamp = (k.rsrc1 >> 21) & 1;
  k.ieee_mode = (k.rsrc1 >> 23) & 1;
  k.private_segment_wave_offset = k.rsrc2 & 1;
  k.user_sgpr_count = int((k.rsrc2 >> 1) & 31);
  k.wg_id_x = (k.rsrc2 >> 7) & 1;
  k.wg_id_y = (k.rsrc2 >> 8) & 1;
  k.wg_id_z = (k.rsrc2 >> 9) & 1;
  k.wg_info = (k.rsrc2 >> 10) & 1;
  k.workitem_id_vgprs = int((k.rsrc2 >> 11) & 3);
  // gfx90a+: unified register file; AGPRs start at accum_offset.
  uint32_t total = isa::target::descriptor_vector_regs(k.rsrc1);
  k.accum_offset = ((k.rsrc3 & 63) + 1) * 4;
  if (k.vgpr_count == 0) k.vgpr_count = std::min<uint32_t>(k.accum_offset, total);
  if (k.agpr_count == 0 && total > k.accum_offset) k.agpr_count = total - k.accum_offset;
  if (k.sgpr_count == 0) k.sgpr_count = (((k.rsrc1 >> 6) & 15) + 1) * 8;
}

void check_limit(const KernelInfo& k, const char* field, uint64_t value, uint64_t limit, const char* constant) {
  if (value > limit)
    bad("kernel " + k.name + ": descriptor " + field + " " + std::to_string(value) + " exceeds the limit of " +
        std::to_string(limit) + " (" + constant + " in jit/codeobject/code_object.hpp)");
}

// The loadable image: PT_LOAD segments, the dynamic relocations (SHT_RELA sections a loader
// reads, with their symbols from the linked dynamic symbol table) and the global variables.
void read_load_image(const Bytes& f, const std::vector<Section>& secs, const std::vector<Symbol>& syms, CodeObject& co) {
  const uint64_t phoff = f.get<uint64_t>(32, "e_phoff");
  const uint16_t phentsize = f.get<uint16_t>(54, "e_phentsize"), phnum = f.get<uint16_t>(56, "e_phnum");
  if (phnum && phentsize != 56) bad("program header size " + std::to_string(phentsize) + " is not 56");
  for (uint16_t i = 0; i < phnum; ++i) {
    const uint64_t h = phoff + uint64_t(i) * 56;
    if (f.get<uint32_t>(h, "p_type") != 1 /*PT_LOAD*/) continue;
    LoadSegment s;
    s.file_offset = f.get<uint64_t>(h + 8, "p_offset");
    s.vaddr = f.get<uint64_t>(h + 16, "p_vaddr");
    s.file_size = f.get<uint64_t>(h + 32, "p_filesz");
    s.mem_size = f.get<uint64_t>(h + 40, "p_memsz");
    f.slice(s.file_offset, s.file_size, "PT_LOAD segment");
    if (s.file_size > s.mem_size || s.vaddr > kMaxImageBytes || s.mem_size > kMaxImageBytes - s.vaddr)
      bad("PT_LOAD segment at " + fmt::format("{:#x}", s.vaddr) + " of " + std::to_string(s.mem_size) + " bytes (" +
          std::to_string(s.file_size) + " in the file) does not fit the image limit of " + std::to_string(kMaxImageBytes) +
          " bytes (kMaxImageBytes in jit/codeobject/code_object.hpp)");
    co.segments.push_back(s);
  }
  for (const Section& rs : secs) {
    if (rs.type != 4 /*SHT_RELA*/ || !(rs.flags & 2 /*SHF_ALLOC*/)) continue;
    if (rs.link >= secs.size()) bad("relocation section " + rs.name + " links to section " + std::to_string(rs.link));
    const Section& ds = secs[rs.link];
    const auto dsyms = f.slice(ds.offset, ds.size, "dynamic symbol table");
    const auto dstr = ds.link < secs.size() ? f.slice(secs[ds.link].offset, secs[ds.link].size, "dynamic string table")
                                            : std::span<const uint8_t>();
    const Bytes d{dsyms};
    const auto rel = f.slice(rs.offset, rs.size, "relocation section");
    const Bytes r{rel};
    if (rel.size() / 24 > kMaxSymbols) bad("relocation section " + rs.name + " has too many entries");
    for (uint64_t off = 0; off + 24 <= rel.size(); off += 24) {
      DynamicRelocation x;
      x.offset = r.get<uint64_t>(off, "r_offset");
      const uint64_t info = r.get<uint64_t>(off + 8, "r_info");
      x.type = uint32_t(info);
      x.addend = r.get<int64_t>(off + 16, "r_addend");
      if (const uint64_t sym = info >> 32) {
        x.symbol = cstr(dstr, d.get<uint32_t>(sym * 24, "st_name"), "dynamic symbol");
        x.symbol_defined = d.get<uint16_t>(sym * 24 + 6, "st_shndx") != 0;
        x.symbol_value = d.get<uint64_t>(sym * 24 + 8, "st_value");
      }
      co.relocations.push_back(std::move(x));
    }
  }
  for (const Symbol& s : syms)
    if (s.type == 1 /*OBJECT*/ && s.shndx != 0 && s.shndx < secs.size() &&
        !(s.name.size() > 3 && s.name.compare(s.name.size() - 3, 3, ".kd") == 0))
      co.globals.push_back(GlobalVariable{s.name, s.value, s.size});
}

}  // namespace

const KernelArgInfo* KernelInfo::find_arg_kind(std::string_view kind) const {
  for (auto& a : args)
    if (a.value_kind == kind) return &a;
  return nullptr;
}

std::vector<CodeRange> kernel_code_ranges(const CodeObject& co, const KernelInfo& k) {
  std::vector<CodeRange> ranges = {{k.entry_offset, k.code_size}};
  uint64_t last_end = 0;
  for (const DeviceFunction& f : co.functions) {
    const bool clear_of_kernel = f.offset + f.size <= k.entry_offset || f.offset >= k.entry_offset + k.code_size;
    if (f.offset + f.size <= co.text.size() && clear_of_kernel && f.offset >= last_end) {
      ranges.push_back({f.offset, f.size});
      last_end = f.offset + f.size;
    }
  }
  return ranges;
}

const KernelInfo* CodeObject::find(std::string_view name) const {
  for (auto& k : kernels)
    if (k.name == name) return &k;
  return nullptr;
}

const GlobalVariable* CodeObject::find_global(std::string_view name) const {
  for (auto& g : globals)
    if (g.name == name) return &g;
  return nullptr;
}

uint64_t CodeObject::image_size() const {
  uint64_t end = 0;
  for (const auto& s : segments) end = std::max(end, s.vaddr + s.mem_size);
  return end;
}

uint32_t architectural_vgprs(const KernelInfo& k) {
  return k.agpr_count > 0 && k.vgpr_count > k.agpr_count ? k.vgpr_count - k.agpr_count : k.vgpr_count;
}

CodeObject read_code_object(std::span<const uint8_t> bytes) {
  Bytes f{bytes};
  if (bytes.size() < 64) bad("file of " + std::to_string(bytes.size()) + " bytes is too small for an ELF64 header");
  if (std::memcmp(bytes.data(), "\x7f" "ELF", 4) != 0) bad("not an ELF file (bad magic)");
  if (bytes[4] != 2 || bytes[5] != 1) bad("not a little-endian ELF64 file");
  uint16_t etype = f.get<uint16_t>(16, "e_type");
  if (etype == 1)
    bad("a relocatable object (ET_REL: assembler output that was not linked); its kernel entry offsets are not "
        "relocated. Link it first (ld.lld -shared) into a code object");
  if (etype != 3) bad("e_type " + std::to_string(etype) + " is not a shared object (ET_DYN = 3), which every code object is");
  uint16_t machine = f.get<uint16_t>(18, "e_machine");
  if (machine != 224) bad("e_machine " + std::to_string(machine) + " is not EM_AMDGPU (224)");
  uint32_t eflags = f.get<uint32_t>(48, "e_flags");
  CodeObject co;
  switch (eflags & 0xff) {
    case 0x4c: co.arch = Arch::gfx942; break;
    case 0x4f: co.arch = Arch::gfx950; break;
    default: bad("unsupported GPU (e_flags mach " + fmt::format("{:#x}", eflags & 0xff) + "); valid: gfx942 (0x4c), gfx950 (0x4f)");
  }
  uint64_t shoff = f.get<uint64_t>(40, "e_shoff");
  uint16_t shentsize = f.get<uint16_t>(58, "e_shentsize");
  uint16_t shnum = f.get<uint16_t>(60, "e_shnum");
  uint16_t shstrndx = f.get<uint16_t>(62, "e_shstrndx");
  if (shnum == 0) bad("no section headers");
  if (shentsize != 64) bad("section header size " + std::to_string(shentsize) + " is not 64");
  if (shstrndx >= shnum) bad("section name table index " + std::to_string(shstrndx) + " out of range");
  f.slice(shoff, uint64_t(shnum) * 64, "section header table");
  std::vector<Section> secs(shnum);
  for (uint16_t i = 0; i < shnum; ++i) {
    uint64_t h = shoff + uint64_t(i) * 64;
    Section& s = secs[i];
    s.type = f.get<uint32_t>(h + 4, "sh_type");
    s.flags = f.get<uint64_t>(h + 8, "sh_flags");
    s.addr = f.get<uint64_t>(h + 16, "sh_addr");
    s.offset = f.get<uint64_t>(h + 24, "sh_offset");
    s.size = f.get<uint64_t>(h + 32, "sh_size");
    s.link = f.get<uint32_t>(h + 40, "sh_link");
    s.entsize = f.get<uint64_t>(h + 56, "sh_entsize");
    if (s.type != 8 /*NOBITS*/) f.slice(s.offset, s.size, "section contents");
  }
  auto shstr = f.slice(secs[shstrndx].offset, secs[shstrndx].size, "section name table");
  for (uint16_t i = 0; i < shnum; ++i) {
    uint32_t nameoff = f.get<uint32_t>(shoff + uint64_t(i) * 64, "sh_name");
    secs[i].name = cstr(shstr, nameoff, "section");
  }
  co.bytes.assign(bytes.begin(), bytes.end());

  int text_idx = -1, symtab_idx = -1;
  for (uint16_t i = 0; i < shnum; ++i) {
    if (secs[i].name == ".text" && secs[i].type == 1) text_idx = i;
    if (secs[i].type == 2 /*SYMTAB*/ && symtab_idx < 0) symtab_idx = i;
  }
  if (text_idx < 0) bad("no .text section");
  const Section& text = secs[text_idx];
  auto tb = f.slice(text.offset, text.size, ".text");
  co.text.assign(tb.begin(), tb.end());
  co.text_address = text.addr;

  // Metadata note (NT_AMDGPU_METADATA = 32, owner "AMDGPU").
  std::optional<msgpack::Value> meta;
  for (const auto& s : secs) {
    if (s.type != 7 /*NOTE*/) continue;
    auto nb = f.slice(s.offset, s.size, "note section");
    Bytes n{nb};
    uint64_t off = 0;
    while (off + 12 <= nb.size()) {
      uint32_t namesz = n.get<uint32_t>(off, "note namesz"), descsz = n.get<uint32_t>(off + 4, "note descsz"),
               type = n.get<uint32_t>(off + 8, "note type");
      uint64_t name_off = off + 12, desc_off = name_off + ((uint64_t(namesz) + 3) & ~3ull);
      auto name = n.slice(name_off, namesz, "note name");
      auto desc = n.slice(desc_off, descsz, "note descriptor");
      if (type == 32 && namesz >= 6 && std::memcmp(name.data(), "AMDGPU", 6) == 0) meta = msgpack::parse(desc);
      off = desc_off + ((uint64_t(descsz) + 3) & ~3ull);
    }
  }

  if (symtab_idx < 0) bad("no symbol table");
  const Section& st = secs[symtab_idx];
  if (st.link >= shnum) bad("symbol table string-table link out of range");
  auto strtab = f.slice(secs[st.link].offset, secs[st.link].size, "symbol string table");
  auto symb = f.slice(st.offset, st.size, "symbol table");
  std::vector<Symbol> syms;
  Bytes sb{symb};
  if (symb.size() / 24 > kMaxSymbols)
    bad("symbol table of " + std::to_string(symb.size() / 24) + " entries exceeds the limit of " +
        std::to_string(kMaxSymbols) + " (kMaxSymbols in jit/codeobject/code_object.hpp)");
  for (uint64_t off = 0; off + 24 <= symb.size(); off += 24) {
    Symbol s;
    s.name = cstr(strtab, sb.get<uint32_t>(off, "st_name"), "symbol");
    s.type = sb.get<uint8_t>(off + 4, "st_info") & 15;
    s.shndx = sb.get<uint16_t>(off + 6, "st_shndx");
    s.value = sb.get<uint64_t>(off + 8, "st_value");
    s.size = sb.get<uint64_t>(off + 16, "st_size");
    syms.push_back(std::move(s));
  }
  // FUNC symbols indexed once: (name, start) -> size (of the last such symbol with a
  // size) and the sorted start addresses. Each kernel's extent is then a lookup, not a
  // scan of the whole table per kernel (which was quadratic: kMaxKernels x kMaxSymbols).
  std::map<std::pair<std::string_view, uint64_t>, uint64_t> func_sizes;
  std::vector<uint64_t> func_starts;
  for (const auto& s : syms)
    if (s.type == 2 /*FUNC*/) {
      if (s.size) func_sizes[{s.name, s.value}] = s.size;
      func_starts.push_back(s.value);
    }
  std::sort(func_starts.begin(), func_starts.end());
  for (const auto& s : syms) {
    if (s.name.size() <= 3 || s.name.compare(s.name.size() - 3, 3, ".kd") != 0) continue;
    if (s.shndx == 0 || s.shndx >= shnum) bad("descriptor symbol " + s.name + " has no valid section");
    const Section& ds = secs[s.shndx];
    if (s.value < ds.addr || s.value - ds.addr > ds.size || ds.size - (s.value - ds.addr) < 64)
      bad("descriptor " + s.name + " at " + fmt::format("{:#x}", s.value) + " does not fit 64 bytes inside section " + ds.name);
    auto kd = f.slice(ds.offset + (s.value - ds.addr), 64, "kernel descriptor");
    KernelInfo k;
    k.name = s.name.substr(0, s.name.size() - 3);
    if (co.kernels.size() == kMaxKernels)
      bad("more than " + std::to_string(kMaxKernels) + " kernel descriptors (kMaxKernels in jit/codeobject/code_object.hpp)");
    decode_descriptor(kd, k);
    check_limit(k, "kernarg_size", k.kernarg_size, kMaxKernargBytes, "kMaxKernargBytes");
    check_limit(k, "private_segment_fixed_size (scratch bytes per work-item)", k.private_segment_size,
                kMaxPrivateSegmentBytes, "kMaxPrivateSegmentBytes");
    check_limit(k, "group_segment_fixed_size (LDS bytes)", k.group_segment_size, kMaxGroupSegmentBytes,
                "kMaxGroupSegmentBytes");
    int64_t entry;
    std::memcpy(&entry, kd.data() + 16, 8);
    uint64_t code = s.value + uint64_t(entry);
    if (code < text.addr || code - text.addr >= text.size || (code & 3))
      bad("kernel " + k.name + ": entry address " + fmt::format("{:#x}", code) + " is not a 4-byte aligned address inside .text");
    k.entry_offset = code - text.addr;
    // The kernel's code ends where its FUNC symbol's size says (the last such symbol
    // when there are several), else at the next FUNC symbol, else at the end of .text.
    uint64_t end = text.size;
    if (auto f = func_sizes.find({k.name, code}); f != func_sizes.end()) {
      end = std::min<uint64_t>(text.size, k.entry_offset + f->second);
    } else {
      auto next = std::upper_bound(func_starts.begin(), func_starts.end(), code);
      if (next != func_starts.end()) end = std::min<uint64_t>(end, *next - text.addr);
    }
    k.code_size = end - k.entry_offset;
    co.kernels.push_back(std::move(k));
  }
  // The other functions of .text (each once, by its start).
  std::set<uint64_t> kernel_entries;
  for (const auto& k : co.kernels) kernel_entries.insert(k.entry_offset);
  std::map<uint64_t, const Symbol*> others;
  for (const auto& s : syms)
    if (s.type == 2 /*FUNC*/ && s.size && s.value >= text.addr && s.value - text.addr < text.size &&
        !kernel_entries.count(s.value - text.addr))
      others.emplace(s.value - text.addr, &s);
  for (const auto& [offset, s] : others)
    co.functions.push_back({s->name, offset, std::min<uint64_t>(s->size, text.size - offset)});
  read_load_image(f, secs, syms, co);
  if (meta) apply_metadata(*meta, co);
  return co;
}

}  // namespace cdnajit
