"""The event log a determinized state may hold: every event in the form all seats see.

A game's true log names hidden cards (a deal lists every hand). A state made by `determinize`
for a seat must hold nothing that seat could not know, so its log is the public one: each event
whose kind a game lists in `hide` replaced by `hide[kind](event)`, the others kept as they are.
A search determinizes the same true state hundreds of times a decision, so `PublicLog` keeps the
public form of a state's (append-only) log and extends it only by the events logged since.
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


class PublicLog:
    """The public form of one append-only event list, caught up on each `of` call."""

    __slots__ = ("source", "public")

    def __init__(self) -> None:
        self.source: list | None = None
        self.public: list[tuple] = []

    def of(self, events: list, hide: Hiders) -> list[tuple]:
        """A new list: `public_events(events, hide)`, computed only for the events not seen yet
        (a different list than last time, or a shorter one, starts afresh)."""
        if self.source is not events or len(self.public) > len(events):
            self.source = events
            self.public = []
        done = len(self.public)
        if done < len(events):
            self.public.extend(public_events(events[done:], hide))
        return self.public[:]
