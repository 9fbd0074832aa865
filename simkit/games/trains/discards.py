"""What the public log says about the face-down discard pile (§8 [CHOICE]: players reconstruct
it from the log), read the same way by the `greedy`/`rival` bots' `DiscardMemory`
(strategies/trains/heuristic.py) and the kernel rollouts' `KnownDiscards` (kernel_rollout.py)."""

from __future__ import annotations


def read_discards(events, cards: set[int], pending: int, used_after: bool) -> int:
    """Add to `cards` what `events` put on the pile: uses (but the swap, effect 8), pairs, voided
    and wasted locks; a T13 reshuffle empties it but for the used card still pending (T10, with
    `used_after`). `pending` (0: none) is the used card not yet discarded when `events` start;
    returns the one pending after them."""
    for ev in events:
        kind = ev[0]
        if kind == "use":
            pending = 0
            if ev[2] != 8:
                cards.add(ev[4])
                if used_after:
                    pending = ev[4]      # discarded after any reshuffle of its own effect
        elif kind == "pairs":
            cards.update(ev[2])
        elif kind == "void" or kind == "wasted_lock":
            cards.add(ev[3])
        elif kind == "reshuffle":
            cards.clear()
            if pending:
                cards.add(pending)
        elif kind == "draw" or kind == "place":
            pending = 0
    return pending
