"""The classic board: queens attack along rows, columns and both diagonals."""

from queenslab.boards.base import Variant


class Standard(Variant):
    name = "standard"
    summary = "queens attack along rows, columns and diagonals"
    total_sequence = "A000170"
    unique_sequence = "A002562"
