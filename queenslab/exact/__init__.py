"""Hand-written exact solvers: textbook backtracking and the bitmask counter."""
