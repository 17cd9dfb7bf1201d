# Install rules (the .pc files find their prefix relative to themselves, so --prefix
# works): headers, both runtime libraries, the JIT library (liborc-rt-c-jit.a, which
# links LLVM 22's shared library once installed), a CMake package (find_package(OrcRTC))
# and pkg-config files (orc-rt-c.pc, orc-rt-c-jit.pc).
include(CMakePackageConfigHelpers)

install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/orc-rt-c
        DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS orc-rt-c orc-rt-c-static orc-rt-c-jit EXPORT OrcRTCTargets
        LIBRARY DESTINATION ${CMAKE_INSTALL_LIBDIR}
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
# The ELFNix platform runtime archive (lib/platform), next to the libraries. Its path
# is OrcRTC_ELFNIX_PLATFORM_RUNTIME in the CMake package and the variable
# orc_platform_runtime in orc-rt-c.pc (empty where it is not built).
set(ORC_RT_C_PLATFORM_ARCHIVE "")
if(TARGET orc-rt-c-elfnix)
  install(TARGETS orc-rt-c-elfnix EXPORT OrcRTCTargets
          ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
  get_target_property(_platform_name orc-rt-c-elfnix OUTPUT_NAME)
  set(ORC_RT_C_PLATFORM_ARCHIVE
      ${CMAKE_STATIC_LIBRARY_PREFIX}${_platform_name}${CMAKE_STATIC_LIBRARY_SUFFIX})
endif()

install(EXPORT OrcRTCTargets NAMESPACE OrcRTC::
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OrcRTC)

configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/OrcRTCConfig.cmake.in
  ${PROJECT_BINARY_DIR}/OrcRTCConfig.cmake
  INSTALL_DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OrcRTC)
write_basic_package_version_file(${PROJECT_BINARY_DIR}/OrcRTCConfigVersion.cmake
  COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/OrcRTCConfig.cmake
              ${PROJECT_BINARY_DIR}/OrcRTCConfigVersion.cmake
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/cmake/OrcRTC)

configure_file(${PROJECT_SOURCE_DIR}/cmake/orc-rt-c.pc.in
               ${PROJECT_BINARY_DIR}/orc-rt-c.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/orc-rt-c.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

configure_file(${PROJECT_SOURCE_DIR}/cmake/orc-rt-c-jit.pc.in
               ${PROJECT_BINARY_DIR}/orc-rt-c-jit.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/orc-rt-c-jit.pc
        DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)
