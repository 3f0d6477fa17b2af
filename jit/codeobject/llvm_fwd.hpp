// Forward declarations of the LLVM classes that the jit headers name only by pointer or
// reference (the MC layer the assembler and the metadata note emit through), so that including
// those headers does not pull in LLVM's; the .cpp files that use the classes include LLVM.
#pragma once

namespace llvm {
class MCAsmInfo;
class MCContext;
class MCInst;
class MCInstrInfo;
class MCRegisterInfo;
class MCStreamer;
class MCSubtargetInfo;
class MCTargetOptions;
class Target;
class Triple;
}  // namespace llvm
