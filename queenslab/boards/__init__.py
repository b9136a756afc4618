"""The board layer: what a board is (cells, attack lines, symmetries), written once."""
