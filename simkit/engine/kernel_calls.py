"""Calling a compiled kernel many times from Python at a few microseconds a call (issue 21 item 4:
search rollouts call the kernel once per iteration).

A numba dispatcher call types every argument first. For a bot passed as a first-class function
(a dispatcher, typed as `FunctionType`) and for tuples (a lineup's bots and parameters) numba
types them in Python, and then looks the bot's compiled address up again when it unboxes it:
measured about 1-4 ms a call with a lineup of 10 bots, which is nothing for a chunk of 65,536
games and everything for a rollout of 40 µs. Two remedies, both here:

- `CompiledBot(dispatcher)`: the bot with its address looked up once (numba's wrapper address
  protocol), so unboxing it costs a Python attribute call;
- `FastCall(dispatcher)`: calls the compiled overload's native entry point directly, after a
  first call through the dispatcher (which compiles or loads it, and types the arguments once).
  Every later call must pass arguments of the same types (arrays of the same dtype, layout and
  dimensions): the entry point does not check them.

Only kernels import this module (it imports numba).
"""

from __future__ import annotations

from typing import Any

from numba.core import types


class CompiledBot(types.WrapperAddressProtocol):
    """A compiled kernel bot (a numba dispatcher compiled for one signature) as a first-class
    function whose address is looked up once."""

    def __init__(self, dispatcher: Any):
        signatures = dispatcher.signatures
        if len(signatures) != 1:
            raise ValueError(f"{dispatcher} must be compiled for exactly one signature")
        compiled = dispatcher.overloads[signatures[0]]
        self._signature = compiled.signature
        self._address = compiled.library.get_pointer_to_function(compiled.fndesc.llvm_cfunc_wrapper_name)

    def __wrapper_address__(self) -> int:
        return self._address

    def signature(self) -> Any:
        return self._signature


class FastCall:
    """`dispatcher(*args)` through the compiled overload's entry point once it is known."""

    def __init__(self, dispatcher: Any):
        self.dispatcher = dispatcher
        self.entry: Any = None

    def __call__(self, *args: Any) -> Any:
        entry = self.entry
        if entry is not None:
            return entry(*args)
        result = self.dispatcher(*args)
        key = tuple(self.dispatcher.typeof_pyval(a) for a in args)
        found = self.dispatcher.overloads.get(key)
        if found is not None:
            self.entry = found.entry_point
        return result
