"""Toroidal queens: the diagonals continue across the edges, as on a torus.

Solutions exist exactly when gcd(n, 6) = 1 (Pólya, 1918); the counts are OEIS A051906.
"""

from queenslab.boards.base import Variant


class Toroidal(Variant):
    name = "toroidal"
    summary = "diagonals wrap around the edges (a torus)"
    wraps = True
    total_sequence = "A051906"
