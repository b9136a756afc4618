"""``prefetch(array, index)`` for Numba kernels: start loading a cache line now, use it later.

On boards of 10^7 queens and more, every counter a local search reads is a cache miss
(about 100 ns); a kernel that knows which cells it will read a few steps ahead asks for
them early, so the misses overlap instead of queueing. A prefetch never faults and never
changes a result, so the index may be a guess.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, cast

from llvmlite import ir

from queenslab.compiled.jit import cgutils, intrinsic, types


@intrinsic
def _prefetch(typingctx: Any, array: Any, index: Any) -> Any:  # pragma: no cover - compiled
    """Hint that ``array[index]`` will be read soon (LLVM's prefetch: read, keep in cache)."""
    signature = types.void(array, index)

    def codegen(context: Any, builder: Any, sig: Any, args: Any) -> Any:
        array_type = sig.args[0]
        view = context.make_array(array_type)(context, builder, args[0])
        address = cgutils.get_item_pointer(
            context, builder, array_type, view, [args[1]], wraparound=False
        )
        byte_pointer = ir.IntType(8).as_pointer()
        i32 = ir.IntType(32)
        hint = ir.FunctionType(ir.VoidType(), [byte_pointer, i32, i32, i32])
        function = cgutils.get_or_insert_function(builder.module, hint, "llvm.prefetch.p0i8")
        # read (0), keep in all cache levels (3), data cache (1)
        builder.call(function, [builder.bitcast(address, byte_pointer), i32(0), i32(3), i32(1)])
        return context.get_dummy_value()

    return signature, codegen


#: ``prefetch(array, index)`` as kernels call it (Numba's stubs keep the typing context).
prefetch = cast("Callable[[Any, Any], None]", _prefetch)
