"""Incomplete methods and constructions that find one board for very large n.

Local search (min-conflicts, hill climbing), the Las Vegas + backtracking hybrid and two
deterministic constructions (divide and conquer, the explicit formula). Numba kernels live
in ``kernels`` and are imported only when a search runs, so importing a backend is cheap.
"""
