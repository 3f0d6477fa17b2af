# Install rules and the exported CMake package: find_package(cdnajit) gives
# cdnajit::cdnajit (builder DSL + JIT pipeline), cdnajit::runtime (device API,
# simulator back end), cdnajit::sim, cdnajit::codegen, cdnajit::examples and the
# layers beneath them (cdnajit::tune: configuration search and performance
# database), with their LLVM / lld / fmt dependencies.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(CDNAJIT_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/cdnajit)
# Libraries a consumer may link; their private static dependencies come along.
set(CDNAJIT_EXPORTED_LIBRARIES
  cdnajit_isa cdnajit_codeobject cdnajit_regalloc cdnajit_asm cdnajit_passes cdnajit
  cdnajit_sim cdnajit_runtime cdnajit_reference cdnajit_codegen cdnajit_examples cdnajit_model cdnajit_tune)

install(TARGETS ${CDNAJIT_EXPORTED_LIBRARIES} EXPORT cdnajitTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(TARGETS cdnajit_cli RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# Public headers keep the project's include paths: #include "jit/kernel.hpp".
foreach(dir jit runtime codegen)
  install(DIRECTORY ${CDNAJIT_ROOT}/${dir}/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/${dir}
          FILES_MATCHING PATTERN "*.hpp" PATTERN "*.h" PATTERN "*.def")
endforeach()

install(EXPORT cdnajitTargets NAMESPACE cdnajit:: DESTINATION ${CDNAJIT_INSTALL_CMAKEDIR})
configure_package_config_file(${CDNAJIT_ROOT}/cmake/cdnajitConfig.cmake.in
  ${CMAKE_CURRENT_BINARY_DIR}/cdnajitConfig.cmake INSTALL_DESTINATION ${CDNAJIT_INSTALL_CMAKEDIR})
write_basic_package_version_file(${CMAKE_CURRENT_BINARY_DIR}/cdnajitConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/cdnajitConfig.cmake ${CMAKE_CURRENT_BINARY_DIR}/cdnajitConfigVersion.cmake
        DESTINATION ${CDNAJIT_INSTALL_CMAKEDIR})

# Documentation beside the headers: the instruction reference generated from the
# table (`cdnajit isa`), the README, and the simulator's and the model's READMEs (MFMA lane
# layouts, numerics, model parameters).
set(CDNAJIT_INSTALL_DOCDIR ${CMAKE_INSTALL_DATADIR}/doc/cdnajit)
install(CODE "execute_process(COMMAND \"$<TARGET_FILE:cdnajit_cli>\" isa
                              OUTPUT_FILE \"${CMAKE_CURRENT_BINARY_DIR}/isa.md\" COMMAND_ERROR_IS_FATAL ANY)")
install(FILES ${CMAKE_CURRENT_BINARY_DIR}/isa.md DESTINATION ${CDNAJIT_INSTALL_DOCDIR})
# The top-level README carries the DSL tutorial (softmax, LDS transpose, MFMA tile).
install(FILES ${CDNAJIT_ROOT}/README.md DESTINATION ${CDNAJIT_INSTALL_DOCDIR})
install(FILES ${CDNAJIT_ROOT}/runtime/sim/README.md DESTINATION ${CDNAJIT_INSTALL_DOCDIR} RENAME simulator.md)
install(FILES ${CDNAJIT_ROOT}/runtime/model/README.md DESTINATION ${CDNAJIT_INSTALL_DOCDIR} RENAME timing-model.md)
