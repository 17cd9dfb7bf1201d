#!/usr/bin/env bash
# compile-headers.sh CLANG CLANGXX INCLUDE_DIR: compiles each public header alone as
# strict C11 and as C++17 (warnings are errors), printing each header that passed.
set -eu
cc=$1 cxx=$2 inc=$3
for h in "$inc"/orc-rt-c/*.h; do
  printf "#include \"%s\"\ntypedef int Unused;\n" "$h" | "$cc" -std=c11 -pedantic -Wall -Wextra -Werror -fsyntax-only -I "$inc" -x c -
  printf "#include \"%s\"\ntypedef int Unused;\n" "$h" | "$cxx" -std=c++17 -pedantic -Wall -Wextra -Werror -fsyntax-only -I "$inc" -x c++ -
  echo "ok: ${h#$inc/}"
done
