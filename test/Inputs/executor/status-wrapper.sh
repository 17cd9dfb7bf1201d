#!/bin/sh
# Stands in for an executor: runs $ORC_EXECUTOR_REAL with our arguments and reports its
# exit status on stderr, so a test can see how the executor itself ended.
"$ORC_EXECUTOR_REAL" "$@"
echo "executor exit status: $?" >&2
