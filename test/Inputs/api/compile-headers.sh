#!/usr/bin/env bash
# compile-headers.sh CLANG CLANGXX INCLUDE_DIR: compiles each public header alone as
# strict C11 and as C++17 (warnings are errors), printing each header that passed.
set -eu
cc=$1 cxx=$2 inc=$3
for h in "$inc"/orc-rt-c/*.h; do
  # Also with ORC_RT_C_INLINE_ENTRY (what pkg-config and the CMake package add), which
  # compiles the inline entry of orc-rt-c/EntryFastPath.h.
  for d in -UORC_RT_C_INLINE_ENTRY -DORC_RT_C_INLINE_ENTRY; do
    printf "#include \"%s\"\ntypedef int Unused;\n" "$h" | "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only $d -I "$inc" -x c -
    printf "#include \"%s\"\ntypedef int Unused;\n" "$h" | "$cxx" -std=c++17 -pedantic -Wall -Wextra -Werror -fsyntax-only $d -I "$inc" -x c++ -
  done
  echo "ok: ${h#$inc/}"
done
