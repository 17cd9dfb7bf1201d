#!/bin/sh
# Starts $ORC_EXECUTOR_REAL with the test-jitloadergdb flag in front of the arguments
# the client passes (the clients cannot pass executor flags themselves).
exec "$ORC_EXECUTOR_REAL" test-jitloadergdb "$@"
