"""The event log a determinized state may hold: every event in the form all seats see.

A game's true log names hidden cards (a deal lists every hand). A state made by `determinize`
for a seat must hold nothing that seat could not know, so its log is the public one: each event
whose kind a game lists in `hide` replaced by `hide[kind](event)`, the others kept as they are.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

#: event kind -> the event as every seat sees it
Hiders = Mapping[str, Callable[[tuple], tuple]]


def public_events(events: Sequence[tuple], hide: Hiders) -> list[tuple]:
    """`events` with every event of a kind in `hide` in its public form (same length, same order)."""
    get = hide.get
    out = []
    for event in events:
        public = get(event[0])
        out.append(event if public is None else public(event))
    return out
