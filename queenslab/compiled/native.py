"""Call Numba C callbacks without importing Numba: their machine code, cached per machine.

Importing Numba and loading a cached kernel through its dispatcher costs a process about
0.35 s, a fifth of ``queens count 16`` on two cores. A :class:`Callback` names a
``numba.cfunc`` whose module is imported only to compile it. The first process that needs
it lets Numba compile it, turns Numba's final LLVM module into object code for this CPU
and saves it beside Numba's own cache, under a digest of everything the code depends on
(the source of every module of the package the callback's module reaches through its
imports, found by reading them, never listed by hand; the Python, Numba, llvmlite and LLVM
versions; the CPU; every ``NUMBA_*`` setting). Later
processes load that object with llvmlite alone (about 40 ms) and call it through ctypes,
which releases the GIL, so threads run it in parallel. Whenever the saved code cannot be
used, the caller gets Numba's own compiled callback: the same code, a slower start-up.

One switch fences these start-up tricks: ``QUEENSLAB_NATIVE=0`` makes every callback
Numba's own and leaves Numba's cache loading as Numba wrote it (``compiled.jit``), for a
machine or a Numba version where saved code misbehaves.

Numba's wrapper around every callback reports an error through Numba's private C helpers,
which only a process that imported Numba can resolve. Callbacks raise nothing, so those
error paths are never taken; the saved code defines the helpers as a trap (a message on
standard error, then abort), so it needs nothing but the C library and Python's own
symbols, and never jumps to a null address. A callback whose code calls any other part of
Numba's runtime (allocating an array, say) is not saved.
"""

from __future__ import annotations

import ast
import ctypes
import hashlib
import importlib
import importlib.util
import json
import os
import re
import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

#: Numba's private helpers that its callback wrapper and reference counting name: reached
#: only when a callback raises, or frees an array it allocated (callbacks do neither).
ERROR_PATH_HELPERS = frozenset({
    "numba_gil_ensure", "numba_gil_release", "numba_unpickle", "numba_do_raise",
    "numba_runtime_build_excinfo_struct", "NRT_Free", "NRT_MemInfo_call_dtor",
})  # fmt: skip
SUFFIX = ".native"
#: The environment variable of the switch: "0" gives plain Numba everywhere.
SWITCH = "QUEENSLAB_NATIVE"
_DECLARATION = re.compile(
    r'declare (?P<result>[^@]*)@(?P<name>"[^"]+"|[\w.$]+)\((?P<parameters>[^()]*)\)'
)
#: Where those helpers lead in saved code: a message on standard error, then abort.
_MESSAGE = "queenslab: a native kernel took an error path that cannot happen; aborting"
TRAP = f"""
@queenslab.message = private unnamed_addr constant [{len(_MESSAGE) + 1} x i8] c"{_MESSAGE}\\0A"
declare i64 @write(i32, ptr, i64)
declare void @abort()
define internal void @queenslab.unreachable() cold noreturn {{
  %written = call i64 @write(i32 2, ptr @queenslab.message, i64 {len(_MESSAGE) + 1})
  call void @abort()
  unreachable
}}
"""


def enabled() -> bool:
    """Whether saved machine code and the cache shim may be used (``QUEENSLAB_NATIVE``)."""
    return os.environ.get(SWITCH, "1") != "0"


@dataclass(frozen=True)
class Callback:
    """The ``numba.cfunc`` ``name`` of ``module``, called with ctypes arguments."""

    module: str
    name: str
    restype: Any
    argtypes: tuple[Any, ...]

    def __call__(self, *args: Any) -> Any:
        return _function(self)(*args)


_loaded: dict[Callback, Callable[..., Any]] = {}
_lock = threading.Lock()
_engines: list[Any] = []  # the loaded code lives as long as its execution engine


def _function(callback: Callback) -> Callable[..., Any]:
    with _lock:
        if callback not in _loaded:
            _loaded[callback] = _load(callback)
        return _loaded[callback]


def _load(callback: Callback) -> Callable[..., Any]:
    """The saved machine code of ``callback``, else Numba's."""
    prototype = ctypes.CFUNCTYPE(callback.restype, *callback.argtypes)
    address = _saved_address(callback) if enabled() else 0
    return prototype(address or _compiled(callback).address)


def _compiled(callback: Callback) -> Any:
    """Numba's compiled callback (importing its module compiles it)."""
    return getattr(importlib.import_module(callback.module), callback.name)


def _saved_address(callback: Callback) -> int:
    """Where the saved machine code of ``callback`` is loaded, saving it first when there
    is none (or a damaged one) for this machine; 0 when it cannot be saved or loaded."""
    try:
        import llvmlite.binding as llvm

        path = _cache_file(callback, llvm)
        address = _load_object(path, llvm) if path.exists() else 0
        if not address:  # none yet, or a damaged one (removed): compile and save it
            compiled = _compiled(callback)
            if _save_object(compiled.inspect_llvm(), compiled.native_name, path, llvm):
                address = _load_object(path, llvm)
        return address
    except (ImportError, OSError, RuntimeError, TypeError, ValueError):
        return 0


def _cache_file(callback: Callback, llvm: Any) -> Path:
    """Where the machine code of ``callback`` is saved for this machine."""
    llvm.initialize_native_target()
    llvm.initialize_native_asmprinter()
    digest = hashlib.sha256()
    for name in sorted(reached(callback.module) | {__name__}):
        digest.update(name.encode() + b"\0" + _source(name).read_bytes())
    for package in ("numba", "llvmlite"):
        digest.update((_source(package).parent / "_version.py").read_bytes())
    settings = sorted((k, v) for k, v in os.environ.items() if k.startswith("NUMBA_"))
    versions = (sys.version, llvm.llvm_version_info)
    digest.update(repr((versions, _cpu(llvm), settings)).encode())
    directory = cache_root() / "queenslab-native"
    return directory / f"{callback.module}.{callback.name}-{digest.hexdigest()[:32]}{SUFFIX}"


def reached(module: str) -> set[str]:
    """``module`` and every module of its package it imports, directly or not.

    Read from the sources (an ``import`` anywhere in a module counts, inside functions
    too), so a kernel that starts calling another module is covered without a list kept
    by hand. ``from package import name`` counts ``package.name`` when that is a module.
    """
    top = module.split(".")[0]
    found: set[str] = set()
    waiting = [module]
    while waiting:
        name = waiting.pop()
        if name in found:
            continue
        found.add(name)
        tree = ast.parse(_source(name).read_bytes())
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets = [node.module]
                targets += [f"{node.module}.{alias.name}" for alias in node.names]
            else:
                continue
            for target in targets:
                if target.split(".")[0] == top and _is_module(target) and target not in found:
                    waiting.append(target)
    return found


def _is_module(name: str) -> bool:
    """Whether ``name`` is a module, importing no module that is not a package (looking
    inside a kernel module would import Numba, which saved code is here to avoid)."""
    parent = name.rpartition(".")[0]
    try:
        inside = importlib.util.find_spec(parent) if parent else None
        if parent and (inside is None or inside.submodule_search_locations is None):
            return False  # a name defined in a module
        return importlib.util.find_spec(name) is not None
    except (ImportError, ValueError):
        return False


def _source(module: str) -> Path:
    spec = importlib.util.find_spec(module)
    if spec is None or spec.origin is None:
        raise OSError(f"no source for {module}")
    return Path(spec.origin)


def cache_root() -> Path:
    """Where this package's compiled code is kept: ``NUMBA_CACHE_DIR`` when set, else the
    user's cache. One place for every copy of the sources (the checkout the tests import,
    the installed ``queens``) and every command: a cache beside the sources was one per copy,
    so the installed command compiled again what the tests had compiled."""
    configured = os.environ.get("NUMBA_CACHE_DIR")
    if configured:
        return Path(configured)
    home_cache = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(home_cache) / "queenslab" / "numba"


def _cpu(llvm: Any) -> tuple[str, str]:
    """The CPU name and features code is made for: Numba's choice, settings included."""
    name = os.environ.get("NUMBA_CPU_NAME") or llvm.get_host_cpu_name()
    features = os.environ.get("NUMBA_CPU_FEATURES") or llvm.get_host_cpu_features().flatten()
    return name, features


def _target_machine(llvm: Any) -> Any:
    name, features = _cpu(llvm)
    target = llvm.Target.from_default_triple()
    return target.create_target_machine(
        cpu=name, features=features, opt=3, reloc="static", codemodel="jitdefault", jit=True
    )


def _save_object(ir: str, symbol: str, path: Path, llvm: Any) -> bool:
    """Write the object code of ``ir`` with what loading it needs; False when it may not
    be saved (it calls into Numba's runtime) or cannot be (an unwritable directory)."""
    try:
        module = llvm.parse_assembly(_sealed(ir))
    except RuntimeError:  # a declaration of a helper this module cannot rewrite
        return False
    external = sorted(
        f.name for f in module.functions if f.is_declaration and not f.name.startswith("llvm.")
    )
    if not _in_process(external):
        return False
    code = _target_machine(llvm).emit_object(module)
    header = {"symbol": symbol, "external": external, "digest": hashlib.sha256(code).hexdigest()}
    partial = path.with_name(f".{path.name}.{os.getpid()}.{threading.get_ident()}")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial.write_bytes(json.dumps(header).encode() + b"\n" + code)
        os.replace(partial, path)
    except OSError:
        partial.unlink(missing_ok=True)
        return False
    for stale in path.parent.glob(path.name.rsplit("-", 1)[0] + "-*" + SUFFIX):
        if stale != path:
            stale.unlink(missing_ok=True)
    return True


def _in_process(symbols: list[str]) -> bool:
    """Whether this process defines every one of ``symbols`` (the C library, Python)."""
    process = ctypes.CDLL(None)
    return all(hasattr(process, name) for name in symbols)


def _sealed(ir: str) -> str:
    """``ir`` with Numba's error-path helpers defined in it, as a call to ``TRAP``."""
    lines = []
    for line in ir.splitlines():
        found = _DECLARATION.match(line)
        if found and found["name"].strip('"') in ERROR_PATH_HELPERS:
            line = (
                f"define internal {found['result']}@{found['name']}({found['parameters']}) {{\n"
                "  call void @queenslab.unreachable()\n  unreachable\n}"
            )
        lines.append(line)
    return "\n".join([*lines, TRAP])


def _load_object(path: Path, llvm: Any) -> int:
    """The callback's address in the object saved at ``path``, 0 when it cannot be used
    (then the file goes: it is rebuilt)."""
    try:
        line, code = path.read_bytes().split(b"\n", 1)
        header = json.loads(line)
        if hashlib.sha256(code).hexdigest() != header["digest"]:
            raise ValueError("damaged")
        if not _in_process(header["external"]):
            raise ValueError("a symbol this process lacks")
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), _target_machine(llvm))
        engine.add_object_file(llvm.ObjectFileRef.from_data(code))
        engine.finalize_object()
        address = engine.get_function_address(header["symbol"])
        if not address:
            raise ValueError("no such callback in the file")
    except (OSError, ValueError, KeyError, TypeError, RuntimeError):
        path.unlink(missing_ok=True)
        return 0
    _engines.append(engine)
    return int(address)
