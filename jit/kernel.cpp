// Kernel: the builder front end — registers, arguments, ABI values, LDS,
// labels and structured control flow. Instruction calls go through emit().
#include "jit/kernel.hpp"

#include <fmt/format.h>

#include <charconv>

#include "jit/isa/opcode.hpp"
#include "jit/isa/suggest.hpp"
#include "jit/isa/target.hpp"
#include "jit/kernel_impl.hpp"
#include "jit/operand_check.hpp"

namespace cdnajit {

// ---------------------------------------------------------------- Reg / RegArray

Reg Reg::operator[](Index dword) const { return slice(dword.value, 1, dword.loc); }

Reg Reg::slice(int first_dword, int count, std::source_location loc) const {
  if (first_dword < 0 || count <= 0 || first_dword + count > dwords)
    throw Error(fmt::format("{}: register slice [{}, +{}) is outside a {}-dword register (valid: first in 0..{}, first+count <= {})",
                            where(loc), first_dword, count, dwords, dwords - 1, dwords));
  Reg r = *this;
  r.first = uint16_t(first + first_dword);
  r.dwords = uint16_t(count);
  return r;
}

RegArray::RegArray(std::vector<Reg> regs, std::vector<int> dims, size_t base)
    : regs_(std::make_shared<const std::vector<Reg>>(std::move(regs))), dims_(std::move(dims)), base_(base) {}

size_t RegArray::size() const {
  size_t n = 1;
  for (int d : dims_) n *= size_t(d);
  return n;
}

RegArray RegArray::operator[](Index index) const {
  const int i = index.value;
  if (dims_.empty())
    throw Error(fmt::format("{}: register array indexed with more subscripts than it has dimensions", where(index.loc)));
  if (i < 0 || i >= dims_[0])
    throw Error(fmt::format("{}: register array index {} out of range (valid: 0..{})", where(index.loc), i, dims_[0] - 1));
  RegArray sub;
  sub.regs_ = regs_;
  sub.dims_.assign(dims_.begin() + 1, dims_.end());
  sub.base_ = base_ + size_t(i) * sub.size();
  return sub;
}

RegArray::operator Reg() const {
  if (!dims_.empty())
    throw Error(fmt::format("register array used as a register with {} subscript(s) missing", dims_.size()));
  return (*regs_)[base_];
}

Reg RegArray::at(std::initializer_list<int> idx, std::source_location loc) const {
  // The element operator[] one subscript at a time reaches, with its checks and messages,
  // without building the sub-arrays in between (generators index accumulators in loops).
  size_t k = 0, base = base_;
  for (int i : idx) {
    if (k == dims_.size())
      throw Error(fmt::format("{}: register array indexed with more subscripts than it has dimensions", where(loc)));
    if (i < 0 || i >= dims_[k])
      throw Error(fmt::format("{}: register array index {} out of range (valid: 0..{})", where(loc), i, dims_[k] - 1));
    size_t inner = 1;  // elements per index of dimension k
    for (size_t d = k + 1; d < dims_.size(); ++d) inner *= size_t(dims_[d]);
    base += size_t(i) * inner;
    ++k;
  }
  if (k != dims_.size())
    throw Error(fmt::format("{}: register array used as a register with {} subscript(s) missing", where(loc), dims_.size() - k));
  return (*regs_)[base];
}

Reg RegArray::flat(size_t i, std::source_location loc) const {
  if (i >= size()) throw Error(fmt::format("{}: register array flat index {} out of range (size {})", where(loc), i, size()));
  return (*regs_)[base_ + i];
}

// ---------------------------------------------------------------- Impl helpers

namespace {

// `s` with control characters shown as \xNN, for messages.
std::string escaped(std::string_view s) {
  std::string out;
  for (char c : s) {
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f) out += fmt::format("\\x{:02x}", static_cast<unsigned char>(c));
    else out += c;
  }
  return out;
}

// Names and comments end up in the .s (comments, labels, the metadata block): a
// control character such as a newline would start a new assembler line.
void check_text(std::string_view s, const char* what, const std::source_location& loc) {
  for (char c : s)
    if (static_cast<unsigned char>(c) < 0x20 || c == 0x7f)
      throw Error(fmt::format("{}: {} '{}' contains a control character (valid: printable text on one line)",
                              where(loc), what, escaped(s)));
}

}  // namespace

uint32_t Kernel::Impl::new_vreg(RegClass c, int dwords, int align, std::string n, const std::source_location& loc) {
  check_text(n, "register name", loc);
  if (dwords < 1 || dwords > 16)
    throw Error(fmt::format("{}: register '{}' has {} dwords (valid: 1..16)", where(loc), n, dwords));
  if (align == 0)  // what gfx90a+ operands need (SGPR triples included: LLVM steps them by 4)
    align = isa::target::tuple_alignment(c == RegClass::S ? isa::RegFile::SGPR : isa::RegFile::VGPR, dwords);
  if (align != 1 && align != 2 && align != 4 && align != 8 && align != 16)
    throw Error(fmt::format("{}: register '{}' alignment {} (valid: 1, 2, 4, 8, 16)", where(loc), n, align));
  vregs.push_back(VRegDecl{c, uint16_t(dwords), uint16_t(align), -1, false, std::move(n), loc});
  return uint32_t(vregs.size() - 1);
}

Reg Kernel::Impl::reg_of(uint32_t id) const {
  Reg r;
  r.id = id;
  r.first = 0;
  r.dwords = vregs[id].dwords;
  r.cls = vregs[id].cls;
  r.owner = this;
  return r;
}

std::string Kernel::Impl::reg_label(const Reg& r) const {
  std::string s;
  append_reg_label(s, r);
  return s;
}

void Kernel::Impl::append_reg_label(std::string& out, const Reg& r) const {
  const VRegDecl& d = vregs.at(r.id);
  out += d.name;
  if (r.first == 0 && r.dwords == d.dwords) return;
  // "[first]" or "[first:last]", the decimals written directly (every .s comment names its
  // registers: fmt's formatting per name was a visible share of the text stage).
  auto number = [&out](unsigned v) {
    char digits[16];
    out.append(digits, std::to_chars(digits, digits + sizeof digits, v).ptr);
  };
  out += '[';
  number(r.first);
  if (r.dwords != 1) {
    out += ':';
    number(unsigned(r.first) + r.dwords - 1);
  }
  out += ']';
}

// ---------------------------------------------------------------- Kernel

namespace {

// The emptied entry lists of the last kernel destroyed on this thread: the next kernel
// defined here starts with their storage. With glibc's default heap, the instruction list
// of a conv kernel (~600 entries of ~200 bytes, grown by doubling) came from fresh pages
// that the previous kernel's free had returned to the system, on every definition.
struct SpareLists {
  DigestedList<IrInst> program;
  DigestedList<VRegDecl> vregs;
  ~SpareLists() { gone = true; }
  // Set once this thread's SpareLists is destroyed (a Kernel may outlive it at exit);
  // a trivially destructible flag, readable for the whole life of the thread.
  static thread_local bool gone;
};
thread_local bool SpareLists::gone = false;
thread_local SpareLists spare_lists;

}  // namespace

Kernel::Kernel(std::string name, Arch arch, std::source_location loc) : impl_(std::make_unique<Impl>()) {
  if (name.empty() || !(std::isalpha((unsigned char)name[0]) || name[0] == '_'))
    throw Error(fmt::format("{}: kernel name '{}' must start with a letter or '_'", where(loc), name));
  for (char c : name)
    if (!(std::isalnum((unsigned char)c) || c == '_'))
      throw Error(fmt::format("{}: kernel name '{}' may only contain letters, digits and '_'", where(loc), name));
  impl_->name = std::move(name);
  impl_->arch = arch;
  impl_->created_at = loc;
  if (!SpareLists::gone) {
    impl_->program.swap(spare_lists.program);
    impl_->vregs.swap(spare_lists.vregs);
  }
}

Kernel::~Kernel() {
  if (!impl_ || SpareLists::gone) return;
  impl_->program.clear();
  impl_->vregs.clear();
  if (impl_->program.capacity() > spare_lists.program.capacity()) impl_->program.swap(spare_lists.program);
  if (impl_->vregs.capacity() > spare_lists.vregs.capacity()) impl_->vregs.swap(spare_lists.vregs);
}
const std::string& Kernel::name() const { return impl_->name; }
Arch Kernel::arch() const { return impl_->arch; }

void Kernel::set_workgroup_size(uint32_t x, uint32_t y, uint32_t z, std::source_location loc) {
  uint64_t n = uint64_t(x) * y * z;
  if (x == 0 || y == 0 || z == 0 || n > 1024)
    throw Error(fmt::format("{}: workgroup size {}x{}x{} = {} threads (valid: 1..1024 threads, each dimension >= 1)",
                            where(loc), x, y, z, n));
  impl_->wg_size[0] = x;
  impl_->wg_size[1] = y;
  impl_->wg_size[2] = z;
  if (y > 1) impl_->workitem_dims = std::max(impl_->workitem_dims, 2);
  if (z > 1) impl_->workitem_dims = 3;
}

std::array<uint32_t, 3> Kernel::workgroup_size() const { return {impl_->wg_size[0], impl_->wg_size[1], impl_->wg_size[2]}; }

static uint32_t arg_size(ArgType t) { return (t == ArgType::i64 || t == ArgType::u64 || t == ArgType::ptr) ? 8 : 4; }

static Arg add_arg(Kernel::Impl& k, ArgDecl d, const std::source_location& loc) {
  check_text(d.name, "argument name", loc);
  for (const ArgDecl& a : k.args)
    if (a.name == d.name) throw Error(fmt::format("{}: kernel argument '{}' declared twice", where(loc), d.name));
  uint32_t size = arg_size(d.type);
  uint32_t offset = (k.kernarg_bytes + size - 1) / size * size;
  d.arg = Arg{uint32_t(k.args.size()), offset, size, d.type};
  k.kernarg_bytes = offset + size;
  k.args.push_back(d);
  return d.arg;
}

Arg Kernel::arg_ptr(std::string name, ElemType elem, bool is_const, std::source_location loc) {
  return add_arg(*impl_, ArgDecl{std::move(name), ArgType::ptr, elem, is_const, {}}, loc);
}

Arg Kernel::arg_value(std::string name, ArgType type, std::source_location loc) {
  if (type == ArgType::ptr) throw Error(fmt::format("{}: use arg_ptr() for pointer argument '{}'", where(loc), name));
  return add_arg(*impl_, ArgDecl{std::move(name), type, ElemType::u8, false, {}}, loc);
}

Reg Kernel::kernarg_ptr() {
  if (impl_->kernarg_vreg < 0) {
    uint32_t id = impl_->new_vreg(RegClass::S, 2, 2, "kernarg_ptr", impl_->created_at);
    impl_->vregs.modify(id, [](VRegDecl& d) { d.pinned = 0, d.live_in = true; });
    impl_->kernarg_vreg = int(id);
  }
  return impl_->reg_of(uint32_t(impl_->kernarg_vreg));
}

Reg Kernel::load_arg(const Arg& a, std::source_location loc) {
  if (a.index >= impl_->args.size() || impl_->args[a.index].arg.offset != a.offset)
    throw Error(fmt::format("{}: load_arg() given an argument that does not belong to kernel '{}'", where(loc), impl_->name));
  const ArgDecl& d = impl_->args[a.index];
  Reg r = sgpr(d.name, int(a.size / 4), 0, loc);
  if (a.size == 8)
    emit(isa::Opcode::s_load_dwordx2, {r, kernarg_ptr(), int64_t(a.offset)}, loc);
  else
    emit(isa::Opcode::s_load_dword, {r, kernarg_ptr(), int64_t(a.offset)}, loc);
  return r;
}

Reg Kernel::workgroup_id(int dim, std::source_location loc) {
  if (dim < 0 || dim > 2) throw Error(fmt::format("{}: workgroup_id({}): dimension must be 0, 1 or 2", where(loc), dim));
  if (impl_->wg_id_vreg[dim] < 0) {
    // SGPR layout at entry: s[0:1] kernarg pointer, then workgroup id x, y, z (x always enabled).
    // y/z positions are fixed at build time (see lower.cpp) because enabling y shifts z.
    uint32_t id = impl_->new_vreg(RegClass::S, 1, 1, fmt::format("workgroup_id_{}", "xyz"[dim]), impl_->created_at);
    impl_->vregs.modify(id, [](VRegDecl& d) { d.live_in = true; });
    impl_->wg_id_vreg[dim] = int(id);
  }
  return impl_->reg_of(uint32_t(impl_->wg_id_vreg[dim]));
}

Reg Kernel::workitem_id(int dim, std::source_location loc) {
  if (dim < 0 || dim > 2) throw Error(fmt::format("{}: workitem_id({}): dimension must be 0, 1 or 2", where(loc), dim));
  if (impl_->tid_vreg < 0) {
    uint32_t id = impl_->new_vreg(RegClass::V, 1, 1, "v0_workitem_ids", impl_->created_at);
    impl_->vregs.modify(id, [](VRegDecl& d) { d.pinned = 0, d.live_in = true; });
    impl_->tid_vreg = int(id);
  }
  impl_->workitem_dims = std::max(impl_->workitem_dims, dim + 1);
  // gfx90a+ packs the ids into v0: x in bits 0..9, y in 10..19, z in 20..29.
  Reg out = vgpr(fmt::format("workitem_id_{}", "xyz"[dim]), 1, 0, loc);
  emit(isa::Opcode::v_bfe_u32, {out, impl_->reg_of(uint32_t(impl_->tid_vreg)), int64_t(10 * dim), int64_t(10)}, loc);
  return out;
}

Reg Kernel::sgpr(std::string name, int dwords, int align, std::source_location loc) {
  return impl_->reg_of(impl_->new_vreg(RegClass::S, dwords, align, std::move(name), loc));
}
Reg Kernel::vgpr(std::string name, int dwords, int align, std::source_location loc) {
  return impl_->reg_of(impl_->new_vreg(RegClass::V, dwords, align, std::move(name), loc));
}
Reg Kernel::agpr(std::string name, int dwords, int align, std::source_location loc) {
  return impl_->reg_of(impl_->new_vreg(RegClass::A, dwords, align, std::move(name), loc));
}

static RegArray make_array(Kernel::Impl& k, RegClass c, const std::string& name, std::vector<int> dims, int dwords,
                           const std::source_location& loc) {
  size_t n = 1;
  for (int d : dims) {
    if (d <= 0) throw Error(fmt::format("{}: register array '{}' has a dimension of size {} (valid: >= 1)", where(loc), name, d));
    n *= size_t(d);
  }
  std::vector<Reg> regs;
  regs.reserve(n);
  for (size_t i = 0; i < n; ++i) {
    // Element name with its multi-index, e.g. A[1][4][0].
    std::string en = name;
    size_t rem = i, stride = n;
    for (int d : dims) {
      stride /= size_t(d);
      en += fmt::format("[{}]", rem / stride);
      rem %= stride;
    }
    regs.push_back(k.reg_of(k.new_vreg(c, dwords, 0, std::move(en), loc)));
  }
  return RegArray(std::move(regs), std::move(dims));
}

RegArray Kernel::vgprs(std::string name, std::vector<int> dims, int dwords, std::source_location loc) {
  return make_array(*impl_, RegClass::V, name, std::move(dims), dwords, loc);
}
RegArray Kernel::sgprs(std::string name, std::vector<int> dims, int dwords, std::source_location loc) {
  return make_array(*impl_, RegClass::S, name, std::move(dims), dwords, loc);
}
RegArray Kernel::agprs(std::string name, std::vector<int> dims, int dwords, std::source_location loc) {
  return make_array(*impl_, RegClass::A, name, std::move(dims), dwords, loc);
}

uint32_t Kernel::lds_alloc(std::string name, uint32_t bytes, uint32_t align, std::source_location loc) {
  check_text(name, "LDS block name", loc);
  if (align == 0 || (align & (align - 1)))
    throw Error(fmt::format("{}: LDS block '{}' alignment {} is not a power of two", where(loc), name, align));
  uint64_t offset = (uint64_t(impl_->lds_bytes) + align - 1) / align * align;
  uint64_t end = offset + bytes;
  if (end > lds_bytes_per_cu(impl_->arch))
    throw Error(fmt::format("{}: LDS exhausted: '{}' needs {} bytes at offset {}, ending at {}, but {} has {} bytes of LDS per workgroup",
                            where(loc), name, bytes, offset, end, arch_name(impl_->arch), lds_bytes_per_cu(impl_->arch)));
  impl_->lds_bytes = uint32_t(end);
  return uint32_t(offset);
}

uint32_t Kernel::lds_bytes() const { return impl_->lds_bytes; }

// ---------------------------------------------------------------- control flow

Label Kernel::new_label(std::string name, std::source_location loc) {
  // Label names become assembler symbols (.Lname_N): letters, digits and '_' only.
  for (char c : name)
    if (!(std::isalnum(static_cast<unsigned char>(c)) || c == '_'))
      throw Error(fmt::format("{}: label name '{}' may only contain letters, digits and '_'", where(loc), escaped(name)));
  Label l{uint32_t(impl_->label_names.size()), impl_.get()};
  impl_->label_names.push_back(name.empty() ? fmt::format("L{}", l.id) : fmt::format("{}_{}", name, l.id));
  impl_->label_bound.push_back(false);
  return l;
}

void Kernel::bind(Label l, std::source_location loc) {
  if (l.owner != impl_.get() || l.id >= impl_->label_names.size())
    throw Error(fmt::format("{}: bind() of a label from another kernel", where(loc)));
  if (impl_->label_bound[l.id])
    throw Error(fmt::format("{}: label '{}' bound twice", where(loc), impl_->label_names[l.id]));
  impl_->label_bound[l.id] = true;
  IrInst in;
  in.label = l.id;
  in.loc = loc;
  impl_->program.push_back(std::move(in));
}

void Kernel::do_while_scc(const std::function<void()>& body, const std::function<void()>& cond, std::source_location loc) {
  Label top = new_label("loop");
  bind(top, loc);
  body();
  cond();
  emit(isa::Opcode::s_cbranch_scc1, {top}, loc);
}

void Kernel::if_scc(const std::function<void()>& cond, const std::function<void()>& then_fn,
                    const std::function<void()>& else_fn, std::source_location loc) {
  Label l_else = new_label("else"), l_end = new_label("endif");
  cond();
  emit(isa::Opcode::s_cbranch_scc0, {l_else}, loc);
  then_fn();
  if (else_fn) emit(isa::Opcode::s_branch, {l_end}, loc);
  bind(l_else, loc);
  if (else_fn) else_fn();
  bind(l_end, loc);
}

void Kernel::if_vcc(const std::function<void()>& cond, const std::function<void()>& then_fn,
                    const std::function<void()>& else_fn, std::source_location loc) {
  Label l_else = new_label("else"), l_end = new_label("endif");
  cond();
  Reg saved = sgpr("saved_exec", 2, 2, loc);
  emit(isa::Opcode::s_and_saveexec_b64, {saved, vcc}, loc);   // exec = old & vcc
  emit(isa::Opcode::s_cbranch_execz, {l_else}, loc);
  then_fn();
  bind(l_else, loc);
  if (else_fn) {
    emit(isa::Opcode::s_andn2_b64, {exec, saved, exec}, loc);  // lanes of old exec not taken by `then`
    emit(isa::Opcode::s_cbranch_execz, {l_end}, loc);
    else_fn();
  }
  bind(l_end, loc);
  emit(isa::Opcode::s_mov_b64, {exec, saved}, loc);
}

void Kernel::raw(std::string text, std::vector<Reg> regs, std::vector<int> defs, std::source_location loc) {
  for (int d : defs)
    if (d < 0 || size_t(d) >= regs.size())
      throw Error(fmt::format("{}: raw(): def index {} does not name one of the {} registers", where(loc), d, regs.size()));
  for (const Reg& r : regs)
    if (!r.valid() || r.owner != impl_.get() || r.id >= impl_->vregs.size())
      throw Error(fmt::format("{}: raw(): register operand from another kernel or uninitialised", where(loc)));
  if (text.find_first_of("\n\r;") != std::string::npos)
    throw Error(fmt::format("{}: raw(): '{}' holds a line break or ';' (valid: one instruction per raw() call)", where(loc),
                            escaped(text)));
  IrInst in;
  in.raw_text = std::move(text);
  in.raw_regs = std::move(regs);
  in.raw_defs = std::move(defs);
  in.loc = loc;
  impl_->program.push_back(std::move(in));
}

void Kernel::comment(std::string text, std::source_location loc) {
  check_text(text, "comment", loc);
  IrInst in;
  in.comment = std::move(text);
  in.loc = loc;
  impl_->program.push_back(std::move(in));
}

namespace {
// One instruction of the table row `info` with the caller's operands, checked and appended.
void append(Kernel::Impl& impl, const isa::InstrInfo& info, std::vector<Opnd> ops, std::source_location loc) {
  IrInst in;
  in.info = &info;
  in.loc = loc;
  check_and_fold_operands(impl, info, std::move(ops), in);
  impl.program.push_back(std::move(in));
}
}  // namespace

void Kernel::emit(std::string_view mnemonic, std::vector<Opnd> ops, std::source_location loc) {
  // The row of the mnemonic this thread looked up last, compared by its text: a generator emits
  // the same instruction by name in a loop (a GEMM's ~1000 MFMAs), and hashing the name for the
  // table's map each time cost more than comparing it with the previous one.
  thread_local std::string last_mnemonic;
  thread_local const isa::InstrInfo* last_info = nullptr;
  const isa::InstrInfo* info = last_info && mnemonic == last_mnemonic ? last_info : isa::find(mnemonic);
  if (info && info != last_info) last_mnemonic = mnemonic, last_info = info;
  if (!info)
    throw Error(fmt::format("{}: '{}' is not in the instruction table{}; use Kernel::raw() for instructions the table lacks",
                            where(loc), mnemonic, isa::did_you_mean(mnemonic)));
  append(*impl_, *info, std::move(ops), loc);
}

void Kernel::emit(isa::Opcode op, std::vector<Opnd> ops, std::source_location loc) {
  append(*impl_, isa::info(op), std::move(ops), loc);
}

#define CDNAJIT_INSTR(mnemonic, ...)                                                                      \
  void Kernel::mnemonic(Opnd a, Opnd b, Opnd c, Opnd d, Opnd e, Opnd f, Opnd g, Opnd h, std::source_location loc) { \
    std::vector<Opnd> ops;                                                                                \
    size_t given = 0; /* one allocation of the right size, not one per doubling */                        \
    for (Opnd* o : {&a, &b, &c, &d, &e, &f, &g, &h}) given += !o->empty();                                \
    ops.reserve(given);                                                                                   \
    for (Opnd* o : {&a, &b, &c, &d, &e, &f, &g, &h})                                                      \
      if (!o->empty()) ops.push_back(std::move(*o));                                                      \
    emit(isa::Opcode::mnemonic, std::move(ops), loc);                                                     \
  }
#include "jit/isa/instructions.def"
#undef CDNAJIT_INSTR

}  // namespace cdnajit
