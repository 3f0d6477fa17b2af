# Target facts live in jit/isa/target.hpp (TargetInfo). This check (cmake -P) fails when the
# product code restates one of them as a literal the way the removed copies did: the LDS size
# or allocation block, the descriptor's VGPR granule formula, the reserved SGPRs, the s_waitcnt
# field layout. Each pattern names the fact and where it lives.
#   cmake -DROOT=<checkout> -P check_target_literals.cmake
if(NOT ROOT)
  message(FATAL_ERROR "usage: cmake -DROOT=<checkout> -P check_target_literals.cmake")
endif()

# "<regex>|<what it restates: read it from>" per entry.
set(patterns
  "160 \\* 1024|the gfx950 LDS size: isa::target::lds_bytes / kMaxLdsBytes"
  "1280 : 512|the LDS allocation block: isa::target::lds_block_bytes"
  "& 63\\) \\+ 1\\) \\* 8|the descriptor's VGPR granule: isa::target::descriptor_vector_regs"
  "sgpr_count\\) - 6|the reserved SGPRs: isa::target::kReservedSgprs (allocated_sgprs in jit/codeobject/kernel_occupancy.hpp)"
  "kReservedSgprs = 6|the reserved SGPRs: isa::target::kReservedSgprs"
  ">> 14\\) & 3\\) << 4|the s_waitcnt vmcnt field: isa::target::waitcnt_vmcnt / isa::decode_waitcnt")

set(found "")
file(GLOB_RECURSE sources RELATIVE ${ROOT} ${ROOT}/jit/*.cpp ${ROOT}/jit/*.hpp ${ROOT}/codegen/*.cpp ${ROOT}/codegen/*.hpp
     ${ROOT}/runtime/*.cpp ${ROOT}/runtime/*.hpp ${ROOT}/tools/*.cpp ${ROOT}/tools/*.hpp)
foreach(src IN LISTS sources)
  if(src STREQUAL "jit/isa/target.hpp")
    continue()
  endif()
  file(READ ${ROOT}/${src} text)
  foreach(p IN LISTS patterns)
    string(REPLACE "|" ";" parts "${p}")
    list(GET parts 0 regex)
    list(GET parts 1 what)
    if(text MATCHES "${regex}")
      string(APPEND found "\n  ${src}: restates ${what}")
    endif()
  endforeach()
endforeach()
if(NOT found STREQUAL "")
  message(FATAL_ERROR "target facts outside jit/isa/target.hpp:${found}")
endif()
message(STATUS "target literals: none outside jit/isa/target.hpp")
