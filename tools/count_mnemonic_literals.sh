#!/bin/sh
# Counts string literals that look like instruction mnemonics ("v_...", "s_...", "ds_...",
# "global_..." ...) in the project's C++ sources outside the instruction table (instructions.def
# and jit/isa/table.cpp, which derives each row's class bits from it), the simulator's semantic
# definitions (runtime/sim/ops_*.cpp register the semantics by name) and the tests: instruction
# knowledge that is repeated instead of read from the table. Identity tests in the passes use the
# generated opcode enum (isa::Opcode::s_endpgm), which the compiler checks against the table.
# Usage: tools/count_mnemonic_literals.sh [-v]   (-v lists every occurrence)
cd "$(dirname "$0")/.." || exit 1
hits=$(grep -rnoE '"(s|v|ds|global|buffer|flat|scratch|tbuffer)_[a-z0-9_]+' \
         --include='*.cpp' --include='*.hpp' jit runtime codegen tools | grep -v '^runtime/sim/ops_' | grep -v '^jit/isa/table.cpp:')
[ "$1" = "-v" ] && printf '%s\n' "$hits"
printf '%s\n' "$hits" | awk -F: 'NF { n[$1]++; t++ } END { for (f in n) printf "%5d %s\n", n[f], f; printf "%5d total\n", t }' | sort -rn
