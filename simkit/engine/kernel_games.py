"""Compiled pieces every game's kernel plays the same way: who sits where in a game, and the
record of the bots' answers that lets `simkit replay` rerun a kernel game in the scalar engine.
Importing this module imports numba (only kernels import it)."""

from __future__ import annotations

from simkit.engine import kernel_rng as kr
from simkit.engine.kernel_rng import compiled


@compiled()
def seat_slots(n, seating, duplicate, index, seating_gen, slots):
    """Which lineup slot sits in each seat of game `index` (as `simkit.engine.play.seat_slots`:
    seating 0 rotates, 1 draws a shuffle from `seating_gen`, 2 keeps the lineup; a duplicate run
    rotates); returns the rotation."""
    if duplicate or seating == 0:
        rotation = index % n
        for s in range(n):
            slots[s] = (s + rotation) % n
        return rotation
    for s in range(n):
        slots[s] = s
    if seating == 1:
        kr.shuffle(seating_gen, slots, n)
    return 0


@compiled(inline=True)
def record_answer(trace, answer):
    """Append a bot's answer to `trace` (nothing when it is empty): trace[0] counts them."""
    if trace.size:
        at = trace[0] + 1
        if at < trace.size:
            trace[at] = answer
            trace[0] = at
