"""What a primitive's compiled card ways share (primitives/steal.py and discard.py
`kernel_ways`): offering one card as a way of the step kernel/acts.py `_ways` counts,
lists or searches. Each caller lists its own cards; this is the bookkeeping of one."""

from __future__ import annotations

import numpy as np

from balancer.games.roles.kernel.layout import inlined


@inlined
def offer(
    out: np.ndarray,
    m: int,
    found: int,
    action: int,
    card: int,
    write: bool,
    match: bool,
    want: int,
    counting: bool,
) -> tuple[int, int, bool]:
    """Card `card` as the step's way number m, its action `action`: written to out[m]
    (`write`); `found` becomes the card when it is the way wanted (`match`) or the
    first way (m was 0). Returns (m + 1, found, stop): stop when the caller has its
    answer (two ways when only counting, or the match)."""
    if write:
        out[m] = action
    if (match and action == want) or (not match and m == 0):
        found = card
    m += 1
    return m, found, (counting and m > 1) or (match and found >= 0)
