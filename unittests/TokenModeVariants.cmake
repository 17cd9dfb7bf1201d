# Every test that exercises tokens runs twice: the plain binary in the default
# token mode (membarrier where available), and a "-fallback" twin linked with
# ForceFallbackMode.c. scripts/run-tests.py and ctest pick both up.
foreach(name TaskGroupTest NestedGroupTest SessionTest SessionStressTest ManagedThreadTest
             DispatchTest)
  set(twin ${name}-fallback)
  add_executable(${twin} ${name}.c ForceFallbackMode.c)
  set_target_properties(${twin} PROPERTIES
    RUNTIME_OUTPUT_DIRECTORY ${PROJECT_BINARY_DIR}/bin/unittests)
  target_link_libraries(${twin} PRIVATE orc-rt-c-static cmocka::cmocka)
  target_include_directories(${twin} PRIVATE ${PROJECT_SOURCE_DIR}/lib)
  add_test(NAME ${twin} COMMAND ${twin})
  set_tests_properties(${twin} PROPERTIES TIMEOUT 300)
endforeach()
