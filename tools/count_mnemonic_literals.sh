#!/bin/sh
# Counts string literals that look like instruction mnemonics ("v_...", "s_...", "ds_...",
# "global_..." ...) in the project's C++ sources outside jit/isa (the instruction table, its
# generated opcode enum and the assembly parser, the one home of mnemonic spellings) and the tests:
# instruction knowledge that is repeated instead of read from the table. Code names an instruction by
# its generated enumerator (isa::Opcode::s_endpgm; the simulator's registrations O::v_add_f32), which
# the compiler checks against the table. What remains is mostly message text ("s_waitcnt vmcnt(0) is
# needed") and names that only look like mnemonics (register names such as "flat_scratch_lo",
# "global_buffer" argument kinds); -v lists every occurrence.
# Usage: tools/count_mnemonic_literals.sh [-v]
cd "$(dirname "$0")/.." || exit 1
hits=$(grep -rnoE '"(s|v|ds|global|buffer|flat|scratch|tbuffer)_[a-z0-9_]+' \
         --include='*.cpp' --include='*.hpp' jit runtime codegen tools | grep -v '^jit/isa/')
[ "$1" = "-v" ] && printf '%s\n' "$hits"
printf '%s\n' "$hits" | awk -F: 'NF { n[$1]++; t++ } END { for (f in n) printf "%5d %s\n", n[f], f; printf "%5d total\n", t }' | sort -rn
