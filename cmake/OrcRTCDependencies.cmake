# Finds the third-party pieces: pthreads (runtime), LLVM 22 (mini-lli and the lit tools)
# and cmocka (unit tests). A missing one stops configuration and names the Debian package.
find_package(Threads REQUIRED)
# The tests' %python: the interpreter lit itself runs on (llvm-22-tools' lit starts
# with #!/usr/bin/python3), unless one is given. The first python3 on PATH may be a
# version manager's shim (pyenv's takes about 0.4 s to start, against 0.03 s), and
# the suite starts Python thousands of times.
if(NOT Python3_EXECUTABLE AND EXISTS /usr/bin/python3)
  set(Python3_EXECUTABLE /usr/bin/python3)
endif()
find_package(Python3 REQUIRED COMPONENTS Interpreter)

function(orc_rt_c_missing what pkg)
  message(FATAL_ERROR "${what} not found. Install it with: apt-get install ${pkg} "
                      "(or run scripts/install-deps.sh as root)")
endfunction()

# LLVM's version file only accepts an exact major.minor, so ask for the package at the
# LLVM 22 prefix and check the major version ourselves (any 22.x will do).
find_package(LLVM CONFIG QUIET
             HINTS /usr/lib/llvm-22/lib/cmake/llvm NO_DEFAULT_PATH)
if(NOT LLVM_FOUND OR NOT LLVM_VERSION_MAJOR EQUAL 22)
  orc_rt_c_missing("LLVM 22 (CMake package LLVMConfig.cmake)" "llvm-22-dev")
endif()
message(STATUS "orc-rt-c: LLVM ${LLVM_PACKAGE_VERSION} at ${LLVM_TOOLS_BINARY_DIR}")

# mini-lli links LLVM's static component libraries (lib/jit/CMakeLists.txt).
# Their LLVMSupport names zstd::libzstd_shared, which LLVMConfig defines only if
# zstd's CMake/dev files are installed; the runtime library (libzstd1, which
# libLLVM itself needs) is always there, so use it directly if need be.
if(NOT TARGET zstd::libzstd_shared)
  find_library(ORC_RT_C_ZSTD NAMES zstd libzstd.so.1)
  if(NOT ORC_RT_C_ZSTD)
    orc_rt_c_missing("libzstd (needed by LLVM's static libraries)" "libzstd1")
  endif()
  add_library(zstd::libzstd_shared UNKNOWN IMPORTED)
  set_target_properties(zstd::libzstd_shared PROPERTIES
    IMPORTED_LOCATION "${ORC_RT_C_ZSTD}")
endif()

if(ORC_RT_C_BUILD_TESTS)
  foreach(tool FileCheck not count)
    find_program(ORC_RT_C_${tool} ${tool} HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
    if(NOT ORC_RT_C_${tool})
      orc_rt_c_missing("LLVM 22 '${tool}'" "llvm-22-tools")
    endif()
  endforeach()
  find_program(ORC_RT_C_LIT NAMES lit llvm-lit HINTS ${LLVM_TOOLS_BINARY_DIR} NO_DEFAULT_PATH)
  if(NOT ORC_RT_C_LIT)
    orc_rt_c_missing("LLVM 22 'lit'" "llvm-22-tools")
  endif()
  find_program(ORC_RT_C_CLANG clang-22 HINTS ${LLVM_TOOLS_BINARY_DIR})
  if(NOT ORC_RT_C_CLANG)
    orc_rt_c_missing("clang-22" "clang-22")
  endif()

  find_path(CMOCKA_INCLUDE_DIR cmocka.h)
  find_library(CMOCKA_LIBRARY cmocka)
  if(NOT CMOCKA_INCLUDE_DIR OR NOT CMOCKA_LIBRARY)
    orc_rt_c_missing("cmocka" "libcmocka-dev")
  endif()
  add_library(cmocka::cmocka UNKNOWN IMPORTED)
  set_target_properties(cmocka::cmocka PROPERTIES IMPORTED_LOCATION ${CMOCKA_LIBRARY}
                        INTERFACE_INCLUDE_DIRECTORIES ${CMOCKA_INCLUDE_DIR})
endif()
