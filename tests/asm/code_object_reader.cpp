#include "code_object_reader.hpp"

#include <stdexcept>

#include "llvm/BinaryFormat/ELF.h"
#include "llvm/BinaryFormat/MsgPackDocument.h"
#include "llvm/Object/ELFObjectFile.h"
#include "llvm/Support/Error.h"
#include "llvm/Support/MemoryBuffer.h"

namespace cdnajit::test {
namespace {

template <typename T>
T take(llvm::Expected<T> e, const char* what) {
  if (!e) throw std::runtime_error(std::string(what) + ": " + llvm::toString(e.takeError()));
  return std::move(*e);
}

uint32_t le32(const uint8_t* p) { return p[0] | p[1] << 8 | p[2] << 16 | uint32_t(p[3]) << 24; }

std::string scalar(llvm::msgpack::DocNode& n) {
  using llvm::msgpack::Type;
  switch (n.getKind()) {
    case Type::String: return n.getString().str();
    case Type::UInt: return std::to_string(n.getUInt());
    case Type::Int: return std::to_string(n.getInt());
    case Type::Boolean: return n.getBool() ? "true" : "false";
    case Type::Array: {
      std::string s;
      for (auto& e : n.getArray()) {
        if (!s.empty()) s += ',';
        s += scalar(e);
      }
      return s;
    }
    default: return "?";
  }
}

std::map<std::string, std::string> scalars(llvm::msgpack::DocNode& map_node) {
  std::map<std::string, std::string> out;
  for (auto& [k, v] : map_node.getMap())
    if (v.getKind() != llvm::msgpack::Type::Map &&
        !(v.getKind() == llvm::msgpack::Type::Array && !v.getArray().empty() &&
          v.getArray()[0].getKind() == llvm::msgpack::Type::Map))
      out[k.getString().str()] = scalar(v);
  return out;
}

}  // namespace

CodeObjectInfo read_code_object(std::span<const uint8_t> bytes) {
  llvm::MemoryBufferRef ref(
      llvm::StringRef(reinterpret_cast<const char*>(bytes.data()), bytes.size()), "code-object");
  auto obj = take(llvm::object::ELF64LEObjectFile::create(ref), "not a 64-bit ELF");
  const auto& elf = obj.getELFFile();
  const auto& header = elf.getHeader();

  CodeObjectInfo info;
  info.e_type = header.e_type;
  info.e_machine = header.e_machine;
  info.e_flags = header.e_flags;
  info.abi_version = header.e_ident[llvm::ELF::EI_ABIVERSION];

  for (const auto& sym : obj.symbols()) {
    std::string name = take(sym.getName(), "symbol name").str();
    uint64_t value = take(sym.getValue(), "symbol value");
    info.symbols[name] = value;
  }

  auto sections = take(elf.sections(), "section table");
  for (const auto& [name, addr] : info.symbols) {
    if (name.size() < 4 || name.compare(name.size() - 3, 3, ".kd") != 0) continue;
    for (const auto& sec : sections) {
      if (addr < sec.sh_addr || addr + 64 > sec.sh_addr + sec.sh_size || sec.sh_type == llvm::ELF::SHT_NOBITS)
        continue;
      auto contents = take(elf.getSectionContents(sec), "section contents");
      const uint8_t* d = contents.data() + (addr - sec.sh_addr);
      KernelDescriptorFields kd;
      kd.group_segment_fixed_size = le32(d + 0);
      kd.private_segment_fixed_size = le32(d + 4);
      kd.kernarg_size = le32(d + 8);
      kd.kernel_code_entry_byte_offset = int64_t(uint64_t(le32(d + 16)) | uint64_t(le32(d + 20)) << 32);
      kd.compute_pgm_rsrc3 = le32(d + 44);
      kd.compute_pgm_rsrc1 = le32(d + 48);
      kd.compute_pgm_rsrc2 = le32(d + 52);
      kd.kernel_code_properties = uint16_t(d[56] | d[57] << 8);
      kd.address = addr;
      info.descriptors[name] = kd;
      break;
    }
  }

  for (const auto& phdr : take(elf.program_headers(), "program headers")) {
    if (phdr.p_type != llvm::ELF::PT_NOTE) continue;
    llvm::Error err = llvm::Error::success();
    for (const auto& note : elf.notes(phdr, err)) {
      if (note.getName() != "AMDGPU" || note.getType() != llvm::ELF::NT_AMDGPU_METADATA) continue;
      auto desc = note.getDesc(phdr.p_align);
      llvm::msgpack::Document doc;
      if (!doc.readFromBlob(llvm::StringRef(reinterpret_cast<const char*>(desc.data()), desc.size()), false))
        throw std::runtime_error("metadata note is not valid msgpack");
      auto& root = doc.getRoot();
      info.metadata_top = scalars(root);
      for (auto& kernel : root.getMap()["amdhsa.kernels"].getArray()) {
        KernelMetadata km;
        km.fields = scalars(kernel);
        auto it = kernel.getMap().find(doc.getNode(".args"));
        if (it != kernel.getMap().end())
          for (auto& arg : it->second.getArray()) km.args.push_back(scalars(arg));
        info.kernels.push_back(std::move(km));
      }
    }
    if (err) throw std::runtime_error("bad note: " + llvm::toString(std::move(err)));
  }
  return info;
}

}  // namespace cdnajit::test
