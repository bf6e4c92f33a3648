"""What every game's `determinize(view, rng)` shares (docs/determinize.md)."""

from __future__ import annotations

from balancer.rng import Stream


def reseeded_chance(rng: Stream) -> Stream:
    """A sampled world's own chance stream: keyed by one number drawn from `rng`, counter 0.

    A world must not go on with the true game's chance stream (it would know the
    draws to come: the next breeding lottery, the next deal), and its draws must
    be the searcher's own, so the stream is made from the searcher's `rng`.
    """
    chance = Stream.__new__(Stream)
    chance.key = rng.next_u64()
    chance.counter = 0
    return chance
