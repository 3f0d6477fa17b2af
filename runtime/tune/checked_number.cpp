#include "runtime/tune/checked_number.hpp"

#include <fmt/format.h>

#include <charconv>
#include <string>

#include "jit/isa/error.hpp"

namespace cdnajit {

namespace {

[[noreturn]] void bad(std::string_view what, std::string_view text, const std::string& why) {
  throw Error(fmt::format("{}: '{}' {}", what, text, why));
}

// Digits only (after an optional 0x): from_chars alone would accept "12abc" as 12.
bool parse_digits(std::string_view t, uint64_t& out) {
  int base = 10;
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X')) {
    base = 16;
    t.remove_prefix(2);
  }
  if (t.empty()) return false;
  auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out, base);
  return ec == std::errc() && p == t.data() + t.size();
}

// Digits that from_chars refused only because they do not fit 64 bits.
bool too_big(std::string_view t) {
  if (t.size() > 2 && t[0] == '0' && (t[1] == 'x' || t[1] == 'X'))
    return t.substr(2).find_first_not_of("0123456789abcdefABCDEF") == std::string_view::npos;
  return !t.empty() && t.find_first_not_of("0123456789") == std::string_view::npos;
}

}  // namespace

uint64_t parse_uint(std::string_view text, std::string_view what, uint64_t lo, uint64_t hi) {
  std::string range = fmt::format("(valid: an integer {}..{})", lo, hi);
  uint64_t v = 0;
  if (!text.empty() && text[0] == '-' && (parse_digits(text.substr(1), v) || too_big(text.substr(1))))
    bad(what, text, "is negative " + range);
  if (!parse_digits(text, v)) bad(what, text, std::string(too_big(text) ? "is out of range " : "is not an integer ") + range);
  if (v < lo || v > hi) bad(what, text, "is out of range " + range);
  return v;
}

int64_t parse_int(std::string_view text, std::string_view what, int64_t lo, int64_t hi) {
  std::string range = fmt::format("(valid: an integer {}..{})", lo, hi);
  bool neg = !text.empty() && text[0] == '-';
  uint64_t mag = 0;
  std::string_view digits = neg ? text.substr(1) : text;
  if (!parse_digits(digits, mag))
    bad(what, text, std::string(too_big(digits) ? "is out of range " : "is not an integer ") + range);
  // Compare magnitudes in unsigned arithmetic so INT64_MIN works and nothing wraps.
  if (neg ? mag > uint64_t(-(lo + 1)) + 1 : (hi < 0 || mag > uint64_t(hi))) bad(what, text, "is out of range " + range);
  int64_t v = neg ? int64_t(0 - mag) : int64_t(mag);
  if (v < lo || v > hi) bad(what, text, "is out of range " + range);
  return v;
}

}  // namespace cdnajit
