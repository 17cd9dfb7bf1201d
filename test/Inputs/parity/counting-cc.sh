#!/bin/sh
# A compiler for test/parity/compile-cache-reuses-only-identical-compiles.test: runs
# $REAL_CC and appends a line to $CC_LOG for every compile (not for the cache's own
# -### and -E queries), so the test can count the compiles the cache let through.
case " $* " in
*" -### "* | *" -E "*) ;;
*) echo "compile: $*" >>"$CC_LOG" ;;
esac
exec "$REAL_CC" "$@"
