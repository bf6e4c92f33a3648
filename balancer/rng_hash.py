"""The hash's constants, shared by both writings of the randomness contract (rng.py documents it).

Here, beneath both, so that the compiled kernels (rng_kernels.py) need not
import rng.py, which re-exports them: the two would import each other.
"""

_GAMMA = 0x9E3779B97F4A7C15
_M1 = 0xBF58476D1CE4E5B9
_M2 = 0x94D049BB133111EB

TWO_53 = float(2**53)
