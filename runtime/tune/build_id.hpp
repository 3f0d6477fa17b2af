// The identity of the code this binary generates, for the performance database's key.
#pragma once
#include <string>

namespace cdnajit::tune {

// A stored winner says "configuration C of family F was the fastest kernel this build generated
// for problem P". Any change to a generator, the DSL, the passes or the assembler can change the
// kernels (and so which configuration wins) without changing the project version, so the key
// holds the linked binary's identity: the GNU build id of the ELF object this function is linked
// into (the linker's hash of the whole output, generators included: it changes whenever any
// linked code changes and stays the same when identical sources are rebuilt). Without a build-id
// note, the FNV-1a 64 hash of that object's file bytes. A hash of the configuration alone would
// not do (the same configuration generates other code after a generator change), and a hash of
// the winner's code object cannot be part of a key looked up before the winner is known.
// Cost: a rebuild with any code change re-tunes. Returns "build-id:<hex>" or "file-fnv1a:<hex>".
// Throws cdnajit::Error when neither can be read.
const std::string& build_id();

}  // namespace cdnajit::tune
