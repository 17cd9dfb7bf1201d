#!/bin/sh
# Stands in for an executor: records its PID in $ORC_EXECUTOR_PIDFILE and becomes
# $ORC_EXECUTOR_REAL (exec: the same process), so a test can signal the executor.
echo $$ > "$ORC_EXECUTOR_PIDFILE"
exec "$ORC_EXECUTOR_REAL" "$@"
