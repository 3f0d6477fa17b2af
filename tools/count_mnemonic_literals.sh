#!/bin/sh
# Counts the instruction mnemonics spelled as string literals in the project's C++ product code:
# instruction knowledge repeated instead of read from the ISA table (jit/isa/instructions.def).
# Code names an instruction by its generated enumerator (isa::Opcode::s_barrier), which the compiler
# checks against the table, and prints one by the table row's name (isa::info(op).mnemonic).
#
# What counts: a double-quoted literal, in code or quoted in a comment, whose leading identifier
#   - is a mnemonic of the table ("s_barrier", "s_waitcnt vmcnt(0)", "v_add_f32 is ..."), also with
#     an encoding suffix ("v_max_f16_e32"), or
#   - is the stem of table mnemonics: a prefix that ends where a mnemonic continues with '_'
#     ("s_getreg of ..." for s_getreg_b32, "v_mfma ..."), or one written as a pattern, followed by a
#     wildcard ("v_permlane*_swap", "v_mfma_scale_*") or standing alone as a prefix to match names
#     with ("v_mfma_scale_"). A stem has at least one character after its first '_' ("v_*" is a
#     unit, not an instruction).
#   The set of mnemonics is read from the table's rows (CDNAJIT_INSTR(mnemonic, ...)), so the count
#   follows the table and nothing else.
# What does not: names that merely share a mnemonic's prefix but name no instruction, such as the
#   registers "flat_scratch_lo" / "xnack_mask" or the argument value kind "global_buffer" (no table
#   row is, or begins with, these names); identifiers (isa::Opcode::s_barrier is the table's name);
#   a mnemonic further into a literal ("lds_dma: global_load_lds_dwordx4 ...", help text that names
#   an instruction mid-sentence): only what a literal starts with is taken for a spelled instruction.
# Where: *.cpp *.hpp *.h *.c *.inc under jit, runtime, codegen and tools, outside jit/isa (the table,
#   its opcode enum, the reference printer and the assembly parser/printer: the one home of the
#   spellings). Tests are not product code.
#   HIP device sources (codegen/hip/: *.hip and their headers) are kernels whose inline assembly is
#   assembly text for the device compiler, not C++ that reasons about instructions.
# Usage: tools/count_mnemonic_literals.sh [-v] [--max N]
#   -v       list every occurrence (file:line: literal)
#   --max N  exit 1 when the total exceeds N (the test in tests/layering runs --max 0)
cd "$(dirname "$0")/.." || exit 1
verbose=0 max=
while [ $# -gt 0 ]; do
  case "$1" in
    -v) verbose=1 ;;
    --max) shift; max="$1" ;;
    *) echo "usage: tools/count_mnemonic_literals.sh [-v] [--max N]" >&2; exit 2 ;;
  esac
  shift
done
case "$max" in ''|*[!0-9]*) [ -n "$max" ] && { echo "--max needs a count, got '$max'" >&2; exit 2; } ;; esac

table=jit/isa/instructions.def
[ -f "$table" ] || { echo "no instruction table at $table" >&2; exit 1; }
files=$(find jit runtime codegen tools -type f \( -name '*.cpp' -o -name '*.hpp' -o -name '*.h' \
          -o -name '*.c' -o -name '*.inc' \) ! -path 'jit/isa/*' ! -path 'codegen/hip/*' | sort)

# shellcheck disable=SC2086
report="$(perl -e '
  my ($table, $verbose, @files) = @ARGV;
  my (%mnemonic, @all);
  open(my $t, "<", $table) or die "cannot read $table\n";
  while (<$t>) { if (/^CDNAJIT_INSTR\(\s*([a-z0-9_]+)\s*,/) { $mnemonic{$1} = 1; push @all, $1; } }
  die "no CDNAJIT_INSTR rows in $table\n" unless @all;
  my $is_stem = sub { my $s = shift; return scalar grep { index($_, $s) == 0 } @all; };
  my (%per_file, $total);
  for my $f (@files) {
    open(my $in, "<", $f) or die "cannot read $f\n";
    while (my $line = <$in>) {
      # complete double-quoted literals; a character literal such as \x27"\x27 is not one
      (my $text = $line) =~ s/\x27(?:[^\x27\\]|\\.)\x27/\x27\x27/g;
      while ($text =~ /"((?:[^"\\]|\\.)*)"/g) {
        my $lit = $1;
        next unless $lit =~ /^([a-z][a-z0-9]*_[a-z0-9][a-z0-9_]*)(.?)/;
        my ($id, $next) = ($1, $2);
        (my $plain = $id) =~ s/_(e32|e64|sdwa|dpp)$//;  # an encoding-suffixed spelling
        my $counts = $mnemonic{$id} || $mnemonic{$plain}            # a mnemonic
                  || $is_stem->($id . "_")                           # its stem: "s_getreg of", "v_mfma ..."
                  || ($next =~ /^[*?\[]$/ && $is_stem->($id))        # a stem with a wildcard: "v_permlane*"
                  || ($next eq "" && $is_stem->($id));               # a stem on its own: "v_mfma_scale_"
        next unless $counts;
        $per_file{$f}++; $total++;
        print "$f:$.: \"$lit\"\n" if $verbose;
      }
    }
    close($in);
  }
  for my $f (sort { $per_file{$b} <=> $per_file{$a} || $a cmp $b } keys %per_file) {
    printf "%5d %s\n", $per_file{$f}, $f;
  }
  printf "%5d total\n", $total // 0;
' "$table" "$verbose" $files)" || exit 1
printf '%s\n' "$report"
total=$(printf '%s\n' "$report" | tail -n 1 | awk '{ print $1 }')
if [ -n "$max" ] && [ "$total" -gt "$max" ]; then
  echo "$total mnemonic literals in product code, at most $max allowed (-v lists them)" >&2
  exit 1
fi
exit 0
