# Build options shared by every target: language level, warnings, sanitizers.
option(ORC_RT_C_WERROR "Treat warnings as errors" OFF)
option(ORC_RT_C_BUILD_TESTS "Build unit and lit tests" ON)
option(ORC_RT_C_BUILD_BENCH "Build benchmarks" ON)
set(ORC_RT_C_SANITIZER "" CACHE STRING
    "Sanitizer build: empty, 'address' (ASan+UBSan) or 'thread' (TSan)")
set_property(CACHE ORC_RT_C_SANITIZER PROPERTY STRINGS "" address thread)

set(CMAKE_C_STANDARD 11)
set(CMAKE_C_STANDARD_REQUIRED ON)
set(CMAKE_C_EXTENSIONS OFF)
set(CMAKE_CXX_STANDARD 17)
set(CMAKE_POSITION_INDEPENDENT_CODE ON)
set(CMAKE_EXPORT_COMPILE_COMMANDS ON)
set(CMAKE_C_VISIBILITY_PRESET hidden)
set(CMAKE_RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin)
set(CMAKE_LIBRARY_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
set(CMAKE_ARCHIVE_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/lib)
add_compile_definitions(_GNU_SOURCE)

add_compile_options(-Wall -Wextra -Wpedantic)
if(ORC_RT_C_WERROR)
  add_compile_options(-Werror)
endif()

if(ORC_RT_C_SANITIZER STREQUAL "address")
  set(_san -fsanitize=address,undefined -fno-sanitize-recover=undefined
           -fno-omit-frame-pointer)
elseif(ORC_RT_C_SANITIZER STREQUAL "thread")
  set(_san -fsanitize=thread -fno-omit-frame-pointer)
elseif(NOT ORC_RT_C_SANITIZER STREQUAL "")
  message(FATAL_ERROR "ORC_RT_C_SANITIZER must be empty, 'address' or 'thread', "
                      "not '${ORC_RT_C_SANITIZER}'")
endif()
if(_san)
  add_compile_options(${_san})
  add_link_options(${_san})
endif()
