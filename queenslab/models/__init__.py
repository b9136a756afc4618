"""Declarative encodings of N-queens: CP-SAT, CNF for SAT solvers, and a Pyomo MILP."""
