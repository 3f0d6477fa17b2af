// The numbers of a family's problem text ("N1 C512 D61 H45 W80 k3x5x5 pad0,2,2"), read with the
// one checked integer parser (checked_number.hpp) instead of sscanf's %d, which wraps a number
// that does not fit an int ("W4294967304" became W8) and accepts signs and spaces anywhere.
#pragma once
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

namespace cdnajit::tune {

// Matches `text` against `format`, in which each "{NAME}" or "{NAME:MAX}" is an integer field
// and everything else must appear literally ("N{N} C{C} k{KD:1024}x{KH:1024}x{KW:1024}"). A field's text runs up to the
// format's next literal character (or the end of the text). Returns the fields' values in
// order, or nullopt when the text does not have the form (the caller names the accepted
// format). A field that has the form but not a valid value throws Error naming the problem
// text, the field and the valid range ("dwconv3d problem '...': W: '4294967304' is out of
// range (valid: an integer 0..1073741824)"). A field's value lies in 0..MAX, or 0..kMaxSize
// without one. The bounds keep the families' int shape arithmetic (sums and products of sizes,
// filters, strides and dilations) from overflowing before their own checks run; those then
// reject zero sizes, oversized tensors and the like with the family's reasons.
inline constexpr int64_t kMaxSize = int64_t(1) << 30;  // no tensor dimension reaches 2^30 under the 1 GiB limits
std::optional<std::vector<int64_t>> parse_problem_fields(std::string_view text, std::string_view format,
                                                         std::string_view family);

}  // namespace cdnajit::tune
