// Near misses for a mnemonic the table does not have: the names a kernel author
// most likely meant, for error messages ("did you mean ...?").
#pragma once
#include <string>
#include <string_view>
#include <vector>

namespace cdnajit::isa {

// Up to `max` table mnemonics closest to `name`, best first. Spellings that differ
// only in ways the assembler or older LLVM versions accept are found first:
// encoding suffixes (_e32, _e64, _vop3, _sdwa, _dpp), the `_1k` suffix of the
// gfx908 bf16 MFMA names and underscores inside the type (`32x32x8bf16_1k` is
// `32x32x8_bf16`). Otherwise the names nearest by edit distance, if any is near.
std::vector<std::string_view> near_misses(std::string_view name, size_t max = 3);

// "; did you mean 'a', 'b'?" or "" when nothing is near.
std::string did_you_mean(std::string_view name);

}  // namespace cdnajit::isa
