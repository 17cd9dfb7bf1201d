#!/usr/bin/env python3
"""Runs lli's codegen flags through lli-22 and mini-lli, on each JIT engine.

usage: codegen-flags-vs-lli.py MINI_LLI LLI PROGRAM TMPDIR

The flags are the ones mini-lli lists under "Code generation options" in
--help-hidden, each given a value other than lli's default (SAMPLES). Checks:
  - every flag is one lli-22 knows (its --help-list-hidden), and SAMPLES has a
    value for every flag mini-lli lists;
  - -jit-kind=orc with all the flags at once: mini-lli prints and exits as
    lli-22 does (lli's orc mode ignores them);
  - -jit-kind=mcjit with all the flags at once, and with each flag of
    MCJIT_ACTS (lli's MCJIT compiles differently with it; mini-lli's MCJIT
    does the same to the IR, lib/jit/mcjit/MCJITFlags.h) alone: the same as
    lli-22. (The program has no exception handling and no inline assembly,
    the two cases where mini-lli's MCJIT refuses -exception-model=sjlj and
    -x86-sse2avx / -fatal-warnings.)
Prints one line per difference and exits 1 if there is any."""
import os
import re
import subprocess
import sys

SAMPLES = {
    "W": "-W", "addrsig": "-addrsig", "align-loops": "-align-loops=32",
    "as-secure-log-file": "-as-secure-log-file=%(tmp)s/secure.log",
    "asm-show-inst": "-asm-show-inst",
    "basic-block-address-map": "-basic-block-address-map",
    "basic-block-sections": "-basic-block-sections=all",
    "call-graph-section": "-call-graph-section", "crel": "-crel",
    "data-sections": "-data-sections", "debug-entry-values": "-debug-entry-values",
    "debugger-tune": "-debugger-tune=lldb",
    "denormal-fp-math": "-denormal-fp-math=preserve-sign",
    "denormal-fp-math-f32": "-denormal-fp-math-f32=preserve-sign",
    "disable-tail-calls": "-disable-tail-calls", "dwarf-version": "-dwarf-version=4",
    "dwarf64": "-dwarf64", "emit-call-site-info": "-emit-call-site-info",
    "emit-compact-unwind-non-canonical": "-emit-compact-unwind-non-canonical",
    "emit-dwarf-unwind": "-emit-dwarf-unwind=always",
    "emit-gnuas-syntax-on-zos": "-emit-gnuas-syntax-on-zos",
    "enable-jmc-instrument": "-enable-jmc-instrument",
    "enable-no-infs-fp-math": "-enable-no-infs-fp-math",
    "enable-no-nans-fp-math": "-enable-no-nans-fp-math",
    "enable-no-signed-zeros-fp-math": "-enable-no-signed-zeros-fp-math",
    "enable-no-trapping-fp-math": "-enable-no-trapping-fp-math",
    "enable-sign-dependent-rounding-fp-math":
        "-enable-sign-dependent-rounding-fp-math",
    "enable-tlsdesc": "-enable-tlsdesc", "exception-model": "-exception-model=sjlj",
    "fatal-warnings": "-fatal-warnings", "fdpic": "-fdpic",
    "filetype": "-filetype=null", "float-abi": "-float-abi=soft",
    "force-dwarf-frame-section": "-force-dwarf-frame-section",
    "fp-contract": "-fp-contract=fast", "frame-pointer": "-frame-pointer=all",
    "function-sections": "-function-sections", "gsframe": "-gsframe",
    "ignore-xcoff-visibility": "-ignore-xcoff-visibility",
    "implicit-mapsyms": "-implicit-mapsyms",
    "incremental-linker-compatible": "-incremental-linker-compatible",
    "large-data-threshold": "-large-data-threshold=1",
    "mc-relax-all": "-mc-relax-all", "meabi": "-meabi=gnu",
    "mxcoff-roptr": "-mxcoff-roptr", "no-deprecated-warn": "-no-deprecated-warn",
    "no-integrated-as": "-no-integrated-as", "no-type-check": "-no-type-check",
    "no-warn": "-no-warn", "nozero-initialized-in-bss": "-nozero-initialized-in-bss",
    "partition-static-data-sections": "-partition-static-data-sections",
    "save-temp-labels": "-save-temp-labels",
    "separate-named-sections": "-separate-named-sections",
    "split-machine-functions": "-split-machine-functions",
    "stack-size-section": "-stack-size-section",
    "stack-symbol-ordering": "-stack-symbol-ordering=false",
    "stackrealign": "-stackrealign", "strict-dwarf": "-strict-dwarf",
    "swift-async-fp": "-swift-async-fp=never", "tailcallopt": "-tailcallopt",
    "target-abi": "-target-abi=lp64", "thread-model": "-thread-model=single",
    "tls-size": "-tls-size=12", "trap-func": "-trap-func=abort",
    "unique-basic-block-section-names": "-unique-basic-block-section-names",
    "unique-section-names": "-unique-section-names=false", "use-ctors": "-use-ctors",
    "vec-extabi": "-vec-extabi", "x86-relax-relocations": "-x86-relax-relocations=0",
    "x86-sse2avx": "-x86-sse2avx",
    "xcoff-traceback-table": "-xcoff-traceback-table=false",
    "xray-function-index": "-xray-function-index=false",
}

MCJIT_ACTS = {
    "enable-jmc-instrument", "exception-model", "fatal-warnings", "fp-contract",
    "tailcallopt", "target-abi", "x86-sse2avx",
}


def run(cmd):
    p = subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       stdin=subprocess.DEVNULL)
    return p.returncode, p.stdout.decode(), p.stderr.decode()


def main():
    mini, lli, prog, tmp = sys.argv[1:5]
    problems = []
    help_text = run([mini, "--help-hidden"])[1]
    section = help_text.split("Code generation options", 1)[1]
    section = section.split("\n\n", 2)[1]
    flags = re.findall(r"^  --?([\w-]+)", section, re.M)
    lli_names = set(re.findall(r"^  --?([\w-]+)", run([lli, "--help-list-hidden"])[1],
                               re.M))
    for f in flags:
        if f not in lli_names:
            problems.append("not an option of lli-22: -%s" % f)
        if f not in SAMPLES:
            problems.append("no sample value for -%s" % f)
    if not flags:
        problems.append("mini-lli --help-hidden lists no code generation options")
    values = lambda names: [SAMPLES[f] % {"tmp": tmp} for f in names if f in SAMPLES]

    def compare(engine, names):
        args = ["-jit-kind=" + engine] + values(names) + [prog]
        want, got = run([lli] + args), run([mini] + args)
        if (want[0], want[1]) != (got[0], got[1]):
            problems.append("-jit-kind=%s: lli-22 gave status %d, output %r; "
                            "mini-lli status %d, output %r (stderr %r)"
                            % (engine, want[0], want[1], got[0], got[1], got[2]))

    compare("orc", flags)
    compare("mcjit", flags)
    for f in sorted(MCJIT_ACTS):
        if f not in flags:
            problems.append("not a flag mini-lli lists: -%s" % f)
        compare("mcjit", [f])
    for p in problems:
        print(p)
    print("%d flags, %d problems" % (len(flags), len(problems)))
    sys.exit(1 if problems else 0)


if __name__ == "__main__":
    main()
