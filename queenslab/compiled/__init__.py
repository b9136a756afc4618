"""Compiled code: Numba with a writable cache, and saved machine code loaded without Numba.

The platform beneath everything: these modules import nothing else of queenslab.
"""
