// The one parser of the whole numbers a user types: command-line options (tools/cli/values)
// and the families' problem texts (problem_text.hpp). The whole text must be the number
// (decimal, or 0x-hex; no sign for parse_uint, no spaces, no suffix), read into 64 bits and
// checked against [lo, hi]: nothing wraps and nothing is cut. An error is a cdnajit::Error
// naming `what` (the option or field), the text as typed and the valid range:
//   "--lds: '12k' is not an integer (valid: an integer 0..163840)".
// Lives below the command line (in cdnajit_tune) because the families parse problem texts too.
#pragma once
#include <cstdint>
#include <string_view>

namespace cdnajit {

uint64_t parse_uint(std::string_view text, std::string_view what, uint64_t lo, uint64_t hi);
int64_t parse_int(std::string_view text, std::string_view what, int64_t lo, int64_t hi);

}  // namespace cdnajit
