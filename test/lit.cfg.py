# lit configuration for orc-rt-c. Tests are grouped by the question they ask:
#   shutdown/   what happens to live frames and new entries when shutdown starts
#   mini-lli/   does mini-lli behave like lli (argv, exit codes, options, lifecycle)
#   executor/   does orc-executor work as a drop-in under the stock LLVM 22 clients
#   bad-input/  does every bad input get a clear error and a defined status
#   parity/     do programs print and exit the same under mini-lli as natively
#   layering/   does every #include follow the folder map (docs/Design.md)
#   platform/   does our ELFNix platform runtime archive work under stock llvm-jitlink/lli
#   host/       does a C host embedding the JIT library (orc-rt-c/Jit.h) get its rules
# Inputs/ holds shared inputs and is never run as tests.
import os
import lit.formats

config.name = "orc-rt-c"
config.test_format = lit.formats.ShTest(execute_external=False)
config.suffixes = [".ll", ".c", ".cpp", ".test"]
config.excludes = ["Inputs", "CMakeLists.txt", "lit.cfg.py", "lit.site.cfg.py", "lsan.supp"]
config.test_source_root = os.path.dirname(__file__)
config.test_exec_root = os.path.join(config.orc_rt_c_obj_root, "test")

# Our tools first, then LLVM 22's (FileCheck, not, lli, llvm-jitlink, ...): never an
# older LLVM that may also be on PATH.
config.environment["PATH"] = os.pathsep.join(
    [config.orc_rt_c_tools_dir, config.llvm_tools_dir, config.environment.get("PATH", "")])
for var in ("HOME", "TMPDIR", "ASAN_OPTIONS", "UBSAN_OPTIONS", "TSAN_OPTIONS"):
    if var in os.environ:
        config.environment[var] = os.environ[var]

include = os.path.join(config.orc_rt_c_src_root, "include")
clangxx = os.path.join(config.llvm_tools_dir, "clang++")
config.substitutions += [
    ("%orc-rt-src", config.orc_rt_c_src_root),
    ("%orc-rt-include", include),
    ("%orc-rt-lib", config.orc_rt_c_lib_dir),
    ("%inputs", os.path.join(config.test_source_root, "Inputs")),
    ("%clangxx", clangxx),
    ("%clang", config.clang),
    ("%python", config.python_executable),
    ("%lli", os.path.join(config.llvm_tools_dir, "lli")),
    ("%llvm-jitlink-executor", os.path.join(config.llvm_tools_dir, "llvm-jitlink-executor")),
    ("%llvm-jitlink", os.path.join(config.llvm_tools_dir, "llvm-jitlink")),
    ("%lli-child-target", os.path.join(config.llvm_tools_dir, "lli-child-target")),
]

# The flags the runtime was built with, for programs that link it in a test.
san_flags = {"address": "-fsanitize=address,undefined", "thread": "-fsanitize=thread"}
san = san_flags.get(config.sanitizer, "")
config.substitutions += [
    ("%orc-rt-build", config.orc_rt_c_obj_root),
    ("%cc", config.cc),
    ("%sanitizer-cflags", san),
    ("%sanitizer-cmake-flags", '"-DCMAKE_C_FLAGS=%s"' % san if san else ""),
]
if config.sanitizer:
    config.available_features.add(config.sanitizer + "-sanitizer")
if config.sanitizer == "address":
    supp = os.path.join(config.test_source_root, "lsan.supp")
    config.environment["LSAN_OPTIONS"] = "suppressions=%s:print_suppressions=0" % supp

# orc-executor tests (test/executor): our executor by full path (lli does no PATH
# search) and clang's ORC runtime archive for llvm-jitlink -orc-runtime.
import glob
config.substitutions.append(
    ("%orc-executor", os.path.join(config.orc_rt_c_tools_dir, "orc-executor")))
_orc_rt_archives = sorted(glob.glob(os.path.join(
    config.llvm_tools_dir, "..", "lib", "clang", "*", "lib", "linux", "liborc_rt-x86_64.a")))
if _orc_rt_archives:
    config.available_features.add("jit-orc-runtime")
    config.substitutions.append(("%jit-orc-runtime", os.path.realpath(_orc_rt_archives[-1])))
# platform/: our ELFNix platform runtime archive (lib/platform), for -orc-runtime=.
# Built on every x86-64 host (lib/platform/CMakeLists.txt), so no existence check: a
# missing archive fails the tests instead of skipping them.
import platform as _host
if _host.machine() in ("x86_64", "AMD64"):
    config.available_features.add("orc-rt-platform")
config.substitutions.append(("%orc-rt-platform", os.path.join(
    config.orc_rt_c_lib_dir, "liborc-rt-c-elfnix-x86_64.a")))
# fuzz-smoke: test/executor/fuzz-smoke.test builds and runs the libFuzzer target.
if os.environ.get("ORC_RT_C_FUZZ"):
    config.available_features.add("fuzz-smoke")
    config.environment["ORC_RT_C_FUZZ"] = os.environ["ORC_RT_C_FUZZ"]
# host-fma: the host CPU has FMA3 (test/mini-lli/codegen-flags-as-lli.test runs
# code built with -mattr=+fma).
try:
    with open("/proc/cpuinfo") as _cpuinfo:
        if any(l.startswith("flags") and " fma " in l + " " for l in _cpuinfo):
            config.available_features.add("host-fma")
except OSError:
    pass
