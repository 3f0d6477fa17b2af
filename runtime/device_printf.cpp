#include "runtime/device_printf.hpp"

#include <cinttypes>
#include <cstdio>
#include <cstring>
#include <map>
#include <string_view>

namespace cdnajit {

namespace {

uint32_t u32_at(std::span<const uint8_t> b, uint64_t at) {
  uint32_t v = 0;
  std::memcpy(&v, b.data() + at, 4);
  return v;
}

// A frame's argument area: 8-byte words and, for a constant format, inline %s strings.
struct Args {
  std::span<const uint8_t> bytes;
  uint64_t at = 0;
  bool failed = false;
  uint64_t word() {
    if (at + 8 > bytes.size()) {
      failed = true;
      return 0;
    }
    uint64_t v;
    std::memcpy(&v, bytes.data() + at, 8);
    at += 8;
    return v;
  }
  std::string string() {
    const uint8_t* p = bytes.data() + std::min<uint64_t>(at, bytes.size());
    const void* nul = std::memchr(p, 0, bytes.size() - std::min<uint64_t>(at, bytes.size()));
    if (!nul) {
      failed = true;
      return {};
    }
    std::string s(reinterpret_cast<const char*>(p), static_cast<const uint8_t*>(nul) - p);
    at += (s.size() + 1 + 7) / 8 * 8;
    return s;
  }
};

template <class T>
void append_formatted(std::string& out, const std::string& spec, T value) {
  char small[128];
  const int n = std::snprintf(small, sizeof small, spec.c_str(), value);
  if (n < 0) return;
  if (size_t(n) < sizeof small) {
    out.append(small, size_t(n));
    return;
  }
  std::string big(size_t(n) + 1, '\0');
  std::snprintf(big.data(), big.size(), spec.c_str(), value);
  out.append(big.data(), size_t(n));
}

// printf's formatting of `fmt` with the frame's arguments, as C's printf reads them: an integer
// argument narrowed to the length modifier's width (no modifier: int), a float one as a double.
// `inline_strings`: %s arguments are stored in the frame (constant formats), else as pointers.
std::string render(std::string_view fmt, Args& args, bool inline_strings) {
  std::string out;
  for (size_t i = 0; i < fmt.size(); ++i) {
    if (fmt[i] != '%') {
      out += fmt[i];
      continue;
    }
    if (i + 1 < fmt.size() && fmt[i + 1] == '%') {
      out += '%';
      ++i;
      continue;
    }
    // %[flags][width][.precision][length]conversion
    size_t j = i + 1;
    std::string spec = "%";
    while (j < fmt.size() && std::strchr("-+ #0", fmt[j])) spec += fmt[j++];
    auto number = [&](std::string& into) {
      if (j < fmt.size() && fmt[j] == '*') {
        into += std::to_string(int32_t(uint32_t(args.word())));
        ++j;
      } else {
        while (j < fmt.size() && fmt[j] >= '0' && fmt[j] <= '9') into += fmt[j++];
      }
    };
    number(spec);
    if (j < fmt.size() && fmt[j] == '.') {
      spec += fmt[j++];
      number(spec);
    }
    std::string length;
    while (j < fmt.size() && std::strchr("hljztLq", fmt[j])) length += fmt[j++];
    if (j >= fmt.size()) {  // a format ending inside a conversion: printed as written
      out.append(fmt.substr(i));
      break;
    }
    const char conv = fmt[j];
    const bool wide = length == "l" || length == "ll" || length == "j" || length == "z" || length == "t" || length == "q";
    if (std::strchr("di", conv)) {
      const uint64_t v = args.word();
      const int64_t s = wide ? int64_t(v) : length == "hh" ? int8_t(v) : length == "h" ? int16_t(v) : int32_t(uint32_t(v));
      append_formatted(out, spec + "lld", static_cast<long long>(s));
    } else if (std::strchr("ouxX", conv)) {
      const uint64_t v = args.word();
      const uint64_t u = wide ? v : length == "hh" ? uint8_t(v) : length == "h" ? uint16_t(v) : uint32_t(v);
      append_formatted(out, spec + "ll" + conv, static_cast<unsigned long long>(u));
    } else if (std::strchr("fFeEgGaA", conv)) {
      const uint64_t v = args.word();
      double d;
      std::memcpy(&d, &v, 8);
      append_formatted(out, spec + conv, d);
    } else if (conv == 'c') {
      append_formatted(out, spec + "c", int(uint8_t(args.word())));
    } else if (conv == 'p') {
      append_formatted(out, spec + "p", reinterpret_cast<void*>(uintptr_t(args.word())));
    } else if (conv == 's') {
      if (inline_strings) {
        const std::string s = args.string();
        append_formatted(out, spec + "s", s.c_str());
      } else {  // a non-constant format: the compiler stored the pointer, not the characters
        char text[64];
        std::snprintf(text, sizeof text, "<string at 0x%" PRIx64 ">", args.word());
        out += text;
      }
    } else if (conv == 'n') {
      args.word();  // nothing to store back to
    } else {  // not a conversion: printed as written
      out.append(fmt.substr(i, j + 1 - i));
    }
    i = j;
  }
  return out;
}

}  // namespace

std::vector<uint8_t> printf_buffer_header(uint32_t capacity) {
  std::vector<uint8_t> h(kPrintfHeaderBytes, 0);
  std::memcpy(h.data() + 4, &capacity, 4);
  return h;
}

uint64_t printf_buffer_used(std::span<const uint8_t> header) {
  if (header.size() < kPrintfHeaderBytes) return kPrintfHeaderBytes;
  return kPrintfHeaderBytes + std::min(u32_at(header, 0), u32_at(header, 4));
}

PrintedText format_printf_buffer(std::span<const uint8_t> buffer, const std::vector<std::string>& formats) {
  PrintedText text;
  if (buffer.size() < kPrintfHeaderBytes) return text;
  // The formats by their hash: "0:0:<hex>,<format>" (the id and size fields are not used).
  std::map<uint64_t, std::string_view> by_hash;
  for (const std::string& f : formats) {
    const size_t colon = f.find(':', f.find(':') + 1), comma = f.find(',');
    if (colon == std::string::npos || comma == std::string::npos || comma < colon) continue;
    by_hash.emplace(std::strtoull(f.substr(colon + 1, comma - colon - 1).c_str(), nullptr, 16),
                    std::string_view(f).substr(comma + 1));
  }
  const uint64_t end = std::min<uint64_t>(printf_buffer_used(buffer), buffer.size());
  uint64_t at = kPrintfHeaderBytes;
  while (at + 4 <= end) {
    const uint32_t control = u32_at(buffer, at);
    const uint64_t size = control >> 2;
    if (size < 4 || at + size > end) {
      text.err += "cdnajit: device printf: a malformed frame at byte " + std::to_string(at) + " of the buffer (" +
                  std::to_string(size) + " bytes); the rest of the output is lost\n";
      break;
    }
    std::string& out = control & 1 ? text.err : text.out;
    Args args{buffer.subspan(at + 4, size - 4)};
    std::string fmt;
    const bool constant = control & 2;
    if (constant) {
      const uint64_t hash = args.word();
      auto f = by_hash.find(hash);
      if (f == by_hash.end()) {
        char line[128];
        std::snprintf(line, sizeof line, "cdnajit: device printf: format %016" PRIx64 " is not in the code object's amdhsa.printf\n", hash);
        text.err += line;
        at += size;
        continue;
      }
      fmt = f->second;
    } else {
      fmt = args.string();
    }
    const std::string s = render(fmt, args, constant);
    if (args.failed)
      text.err += "cdnajit: device printf: the frame at byte " + std::to_string(at) + " holds fewer arguments than its format \"" +
                  fmt + "\" reads\n";
    else
      out += s;
    at += size;
  }
  const uint32_t dropped = u32_at(buffer, 8);
  if (dropped)
    text.err += "cdnajit: device printf: " + std::to_string(dropped) + " printf calls did not fit the launch's " +
                std::to_string(u32_at(buffer, 4)) + "-byte buffer and printed nothing\n";
  return text;
}

}  // namespace cdnajit
