"""Package data: the OEIS tables used by reference.py."""
