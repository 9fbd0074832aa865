"""Declared clones: a `State` subclass says how each of its fields is copied, not how to copy.

A game state declares, as the class attribute `cloning`, which of its fields are lists to copy,
lists of lists to copy, chance generators, reset in the clone or computed from the original;
every other field is shared between the original and the clone (configs, tuples, numbers,
strings: values nobody mutates). `State.__init_subclass__` then gives the class a `clone()`
written once as straight-line code (one assignment per field, as a hand-written clone has), so
a search that clones per iteration pays nothing for the declaration:

    class MyState(State):
        cloning = Cloning(lists=("events", "discard"), nested=("hands",), generators=("rng",))

The clone shares the other slots one by one and, unless `__slots__` is on every class between
it and `State`, the instance `__dict__` at once; then it sets the declared fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from simkit.engine.seeding import generator_from_state, generator_state


def copy_generator(rng: np.random.Generator) -> np.random.Generator:
    """An independent generator that continues `rng`'s stream exactly (what `copy.deepcopy`
    gives, at a quarter of its cost: the bit generator's state is copied, nothing pickled)."""
    return generator_from_state(generator_state(rng))


@dataclass(frozen=True)
class Cloning:
    """How a state's fields are copied by `clone()`; an undeclared field is shared."""

    #: lists whose clone is a new list of the same items (`value[:]`)
    lists: tuple[str, ...] = ()
    #: lists of lists: a new outer list of new inner lists (`[x[:] for x in value]`)
    nested: tuple[str, ...] = ()
    #: `numpy.random.Generator`s: the clone's continues the same stream independently
    generators: tuple[str, ...] = ()
    #: fields the clone starts with this immutable value (caches, e.g. None)
    reset: Mapping[str, Any] = field(default_factory=dict)
    #: fields the clone gets as `function(original)`: shapes the kinds above do not cover
    computed: Mapping[str, Callable[[Any], Any]] = field(default_factory=dict)

    def declared(self) -> list[str]:
        names = [*self.lists, *self.nested, *self.generators, *self.reset, *self.computed]
        twice = sorted({name for name in names if names.count(name) > 1})
        if twice:
            raise TypeError(f"Cloning declares {', '.join(twice)} more than once")
        bad = [name for name in names if not name.isidentifier()]
        if bad:
            raise TypeError(f"Cloning: {', '.join(map(repr, bad))} are not field names")
        return names


def slots_below(cls: type, base: type) -> tuple[list[str], bool]:
    """Every slot of `cls` below `base` in MRO order, and whether one of those classes has no
    `__slots__` (then its instances keep their other fields in a `__dict__`)."""
    names: list[str] = []
    has_dict = False
    for klass in reversed(cls.__mro__):
        if klass is object or issubclass(base, klass):
            continue
        slots = klass.__dict__.get("__slots__")
        if slots is None:
            has_dict = True
        else:
            names += [slots] if isinstance(slots, str) else list(slots)
    return names, has_dict


def clone_function(cls: type, cloning: Cloning, base: type, reseeded: bool = False) -> Callable[..., Any]:
    """The `clone(self)` of `cls` as declared by `cloning`, compiled once.

    With `reseeded`, `reseeded_clone(self, rng)` instead: the same copy, except that every
    generator field is `rng` itself rather than a copy of the original's (for `determinize`,
    whose copy draws its chance from the searcher's generator: copying the original's state
    first would be wasted work)."""
    declared = cloning.declared()
    slots, has_dict = slots_below(cls, base)
    namespace: dict[str, Any] = {"_new": object.__new__, "_cls": cls, "_copy_generator": copy_generator}
    fname = "reseeded_clone" if reseeded else "clone"
    lines = ["def reseeded_clone(self, rng):" if reseeded else "def clone(self):", "    c = _new(_cls)"]
    if has_dict:
        lines.append("    c.__dict__.update(self.__dict__)")
    else:
        unknown = [name for name in declared if name not in slots]
        if unknown:
            raise TypeError(f"{cls.__name__}.cloning names {', '.join(unknown)}, not among its __slots__")
    lines += [f"    c.{name} = self.{name}" for name in slots if name not in declared]
    lines += [f"    c.{name} = self.{name}[:]" for name in cloning.lists]
    lines += [f"    c.{name} = [x[:] for x in self.{name}]" for name in cloning.nested]
    lines += [f"    c.{gen} = rng" if reseeded else f"    c.{gen} = _copy_generator(self.{gen})"
              for gen in cloning.generators]
    for k, (name, value) in enumerate(cloning.reset.items()):
        namespace[f"_reset_{k}"] = value
        lines.append(f"    c.{name} = _reset_{k}")
    for k, (name, function) in enumerate(cloning.computed.items()):
        namespace[f"_computed_{k}"] = function
        lines.append(f"    c.{name} = _computed_{k}(self)")
    lines.append("    return c")
    source = "\n".join(lines)
    exec(compile(source, f"<clone of {cls.__qualname__}>", "exec"), namespace)
    clone = namespace[fname]
    clone.__qualname__ = f"{cls.__qualname__}.{fname}"
    what = "A copy whose generators are `rng`" if reseeded else "A fully independent copy"
    clone.__doc__ = f"{what}, as `{cls.__name__}.cloning` declares.\n\n{source}"
    clone.generated_from = cloning
    return clone
