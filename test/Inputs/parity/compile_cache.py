"""Content-addressed cache of compile outputs for the parity suite.

The normal test run runs test/parity about eleven times (one per driver, engine,
runtime and executor), and every run compiles every program again from the same
sources with the same flags. compare.py and jitlink-tool.py run each compile through
run(), which reuses the outputs of an earlier identical compile.

The cache is on only when ORC_RT_C_COMPILE_CACHE names its directory
(test/parity/lit.local.cfg sets it to build/test/parity/.compile-cache); by hand, or
with it unset or empty, every compile runs as it always did. Delete the directory to
clear the cache.

A compile's key is a SHA-256 over everything its outputs can depend on; when in
doubt, a thing is in the key:
  - the exact command line, the working directory and the environment (except the
    per-run temporary directory variables lit sets: TMP, TMPDIR, TEMP, TEMPDIR);
  - the compiler: its resolved path and contents, the identity (size, times, inode)
    of the LLVM libraries next to it, and its `-###` output: version, target and the
    exact jobs it would run (with the random names of its temporary objects
    masked);
  - the contents of every input file on the command line;
  - for C/C++ sources, their preprocessed text (`-E` with the same options), so
    every header, and which header a search path finds, is in the key;
  - when the command links, the linker's contents and `--verbose` output (default
    search path and script), every file it is given, and for each -l library (and
    each name in a linker script such as libc.so) the first candidate the linker
    would find, contents included, and that no candidate exists before it;
  - the size and time of /var/lib/dpkg/status, which changes whenever a Debian
    package is installed, removed or upgraded.
Anything the key cannot be computed for (a failing -E or -###, an unreadable file)
runs uncached.

On a miss the command runs exactly as without the cache; its outputs are stored only
if it succeeded and the key computed again afterwards is unchanged (no input changed
while it ran). An entry is written into a fresh temporary directory and renamed into
place, so two lit workers compiling the same program at once both succeed and a
reader never sees a partial entry; outputs are restored through a temporary file and
a rename in the same way.
"""
import glob
import hashlib
import os
import re
import shlex
import shutil
import subprocess
import tempfile

ENV_VAR = "ORC_RT_C_COMPILE_CACHE"
FORMAT = b"orc-rt-c parity compile cache 1"
# lit gives every run its own temporary directory; no compile output depends on it.
VOLATILE_ENV = ("TMP", "TMPDIR", "TEMP", "TEMPDIR", ENV_VAR)
# A clang temporary object in -### output: NAME-XXXXXX.o in the temporary directory.
TEMP_OBJECT = re.compile(r'"[^"]*-[0-9a-f]{6}\.o"')
SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx", ".C")
# Linker options whose value is a separate word (not a file to link).
LD_OPTS_WITH_VALUE = {"-o", "-m", "-dynamic-linker", "-rpath", "-rpath-link",
                      "-soname", "-h", "-T", "-z", "-plugin", "-plugin-opt", "-e",
                      "-u", "-y", "--version-script", "--dependency-file", "-Map"}


class Uncacheable(Exception):
    pass


def run(argv, outputs, execute):
    """Calls `execute(argv)`, which compiles or reports the failure and exits, unless
    the cache holds the outputs of an identical compile: then copies those to
    `outputs` instead. The input files and C/C++ sources are found in argv."""
    root = os.environ.get(ENV_VAR)
    if not root:
        execute(argv)
        return
    try:
        key = compute_key(argv)
    except Uncacheable:
        execute(argv)
        return
    entry = os.path.join(os.path.abspath(root), "objects", key[:2], key)
    if restore(entry, outputs):
        return
    execute(argv)
    try:
        if compute_key(argv) == key:
            store(root, entry, outputs)
    except (Uncacheable, OSError):
        pass  # the compile itself succeeded; it is just not cached


def restore(entry, outputs):
    names = [os.path.join(entry, str(i)) for i in range(len(outputs))]
    if not all(os.path.isfile(n) for n in names):
        return False
    try:
        for src, dst in zip(names, outputs):
            tmp = "%s.cache-%d" % (dst, os.getpid())
            shutil.copy2(src, tmp)
            os.replace(tmp, dst)
    except OSError:
        return False  # compiled instead, which overwrites any output restored so far
    return True


def store(root, entry, outputs):
    tmpdir = os.path.join(os.path.abspath(root), "tmp")
    os.makedirs(tmpdir, exist_ok=True)
    os.makedirs(os.path.dirname(entry), exist_ok=True)
    staging = tempfile.mkdtemp(prefix="entry.", dir=tmpdir)
    try:
        for i, out in enumerate(outputs):
            shutil.copy2(out, os.path.join(staging, str(i)))
        try:
            os.rename(staging, entry)  # atomic; fails if another worker got there first
            staging = None
        except OSError:
            pass
    finally:
        if staging:
            shutil.rmtree(staging, ignore_errors=True)


def compute_key(argv):
    h = hashlib.sha256()

    def add(*parts):
        for p in parts:
            p = p if isinstance(p, bytes) else str(p).encode("utf-8", "surrogateescape")
            h.update(b"%d:" % len(p) + p)

    add(FORMAT, "cwd", os.getcwd())
    for k in sorted(os.environ):
        if k not in VOLATILE_ENV:
            add("env", k, os.environ[k])
    add("argv", len(argv), *argv)
    add("dpkg", stat_identity("/var/lib/dpkg/status"))

    cc = shutil.which(argv[0]) or argv[0]
    real_cc = os.path.realpath(cc)
    add("cc", real_cc, file_digest(real_cc))
    libdir = os.path.join(os.path.dirname(real_cc), "..", "lib")
    for lib in sorted(glob.glob(os.path.join(libdir, "libclang-cpp.so*")) +
                      glob.glob(os.path.join(libdir, "libLLVM*.so*"))):
        add("cc-lib", lib, stat_identity(lib))
    inputs, sources = input_files(argv)
    # The preprocessor runs while the driver prints its jobs (-###).
    preprocessed = Capture(preprocess_argv(argv, inputs, sources)) if sources else None
    jobs = Capture(argv + ["-###"]).stderr()
    add("jobs", TEMP_OBJECT.sub('"<temporary object>"', jobs))
    for f in inputs:
        add("input", f, file_digest(f))
    if preprocessed:
        add("preprocessed", preprocessed.stdout())
    for job in jobs.splitlines():
        words = shlex.split(job) if job.startswith(" \"") else []
        if words and words[1:2] != ["-cc1"]:
            add_link_inputs(add, words)
    return h.hexdigest()


def input_files(argv):
    """The existing files among argv's words that are not an option's value: the
    compile's inputs. Returns (all inputs, C/C++ sources among them)."""
    inputs = []
    words = iter(argv[1:])
    for w in words:
        if w == "-o":
            next(words, None)
        elif w in ("-MF", "-MT", "-MQ", "-include", "-x", "-Xlinker", "-Xclang", "-I",
                   "-isystem", "-L"):
            raise Uncacheable(w)  # an option with a separate value not modelled here
        elif not w.startswith("-") and os.path.isfile(w):
            inputs.append(w)
    return inputs, [f for f in inputs if f.endswith(SOURCE_SUFFIXES)]


def preprocess_argv(argv, inputs, sources):
    """argv with its output and input files removed, preprocessing `sources` to stdout
    with every option the compile gets."""
    out = []
    skip = False
    for w in argv:
        if skip:
            skip = False
        elif w == "-o":
            skip = True
        elif w not in inputs:
            out.append(w)
    return out + ["-Wno-unused-command-line-argument", "-E"] + sources


def add_link_inputs(add, words):
    """What a link job reads: the linker, its default search path and script, every
    file it is given, and each library as the linker searches for it."""
    linker = os.path.realpath(words[0])
    add("linker", linker, file_digest(linker))
    verbose = Capture([words[0], "--verbose"]).stdout()
    add("linker-verbose", verbose)
    default_dirs = [d.lstrip("=") for d in re.findall(r'SEARCH_DIR\("([^"]*)"\)', verbose)]
    dirs, libs, static = [], [], False
    i = 1
    while i < len(words):
        w = words[i]
        if w in LD_OPTS_WITH_VALUE:
            i += 1
        elif w.startswith("-L"):
            dirs.append(w[2:])
        elif w.startswith("-l"):
            libs.append((w[2:], static))
        elif w in ("-Bstatic", "-static", "-dn", "-non_shared"):
            static = True
        elif w in ("-Bdynamic", "-dy", "-call_shared"):
            static = False
        elif not w.startswith("-") and not TEMP_OBJECT.fullmatch('"%s"' % w):
            add_linked_file(add, w, dirs + default_dirs, set())
        i += 1
    for name, static in libs:
        add_library(add, name, static, dirs + default_dirs, set())


def add_library(add, name, static, dirs, seen):
    """-lNAME: in each directory in order, libNAME.so (unless static) then libNAME.a;
    the first that exists is the one linked; each missing candidate before it is in
    the key too, so a library appearing earlier in the path changes the key."""
    if name.startswith(":"):
        names = [name[1:]]
    else:
        names = ([] if static else ["lib%s.so" % name]) + ["lib%s.a" % name]
    for d in dirs:
        for n in names:
            path = os.path.join(d, n)
            if os.path.isfile(path):
                add_linked_file(add, path, dirs, seen)
                return
            add("absent", path)
    add("library not found", name)


def add_linked_file(add, path, dirs, seen):
    real = os.path.realpath(path)
    if real in seen:
        return
    seen.add(real)
    if not os.path.isfile(real):
        add("linked", path, "not a file")
        return
    add("linked", path, file_digest(real))
    with open(real, "rb") as f:
        head = f.read(4)
    if head in (b"\x7fELF", b"!<ar"):
        return
    # A linker script (libc.so, libgcc_s.so): every file and library it names.
    # A relative name may be found in the working directory, the script's directory
    # or the search path; every candidate that exists is in the key.
    with open(real, "rb") as f:
        script = re.sub(rb"/\*.*?\*/", b" ", f.read(), flags=re.S).decode("latin-1")
    for word in re.findall(r"[^\s(),]+", script):
        if word.startswith("-l"):
            add_library(add, word[2:], False, dirs, seen)
        elif word.startswith("/"):
            add_linked_file(add, word, dirs, seen)
        elif re.search(r"\.(so|a|o)(\.|$)", word):
            for d in [".", os.path.dirname(real)] + dirs:
                cand = os.path.join(d, word)
                if os.path.exists(cand):
                    add_linked_file(add, cand, dirs, seen)
                else:
                    add("absent", cand)


class Capture:
    """A command run for its output (into temporary files, so that several can run
    at once); a failure to start or a non-zero status makes the compile uncached."""

    def __init__(self, argv):
        self.argv = argv
        self.out, self.err = tempfile.TemporaryFile(), tempfile.TemporaryFile()
        try:
            self.proc = subprocess.Popen(argv, stdout=self.out, stderr=self.err)
        except OSError:
            raise Uncacheable(argv[0])

    def _read(self, f):
        if self.proc.wait() != 0:
            raise Uncacheable(" ".join(self.argv))
        f.seek(0)
        return f.read().decode("utf-8", "surrogateescape")

    def stdout(self):
        return self._read(self.out)

    def stderr(self):
        return self._read(self.err)


def file_digest(path):
    h = hashlib.sha256()
    try:
        with open(path, "rb") as f:
            for chunk in iter(lambda: f.read(1 << 20), b""):
                h.update(chunk)
    except OSError:
        raise Uncacheable(path)
    return h.hexdigest()


def stat_identity(path):
    try:
        st = os.stat(path)
    except OSError:
        return "absent"
    return "%d %d %d %d %d" % (st.st_size, st.st_mtime_ns, st.st_ctime_ns, st.st_ino,
                               st.st_dev)
