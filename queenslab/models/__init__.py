"""Declarative encodings of N-queens: CP-SAT, CNF for SAT/MaxSAT/#SAT solvers, MILP.

Each module builds a model from a ``Problem`` and hands it to an external solver; the
solver packages are imported inside the backends' methods so importing this package is
cheap. ``cubes`` splits a count into independent subproblems shared by cpsat and sat.
"""
