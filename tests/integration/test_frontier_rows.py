"""benchmarks/frontier.py's row functions, beyond its smoke run (which runs a command row):
a ledger row resumes a split proof from its checkpoint and says how much of it was refuted
before and after; every row names the published value's source. Untimed."""

from __future__ import annotations

import importlib.util
import sys

import pytest

from tests.conftest import ROOT

BENCHMARKS = ROOT / "benchmarks"


@pytest.fixture(scope="module")
def frontier():
    sys.path.insert(0, str(BENCHMARKS))  # the script imports _process as a sibling
    try:
        spec = importlib.util.spec_from_file_location("frontier", BENCHMARKS / "frontier.py")
        module = sys.modules["frontier"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)  # its dataclasses look their module up by name
        yield module
    finally:
        sys.path.remove(str(BENCHMARKS))
        sys.modules.pop("frontier", None)


def test_a_ledger_row_resumes_its_checkpoint(frontier, tmp_path):
    """The first run refutes every cube and records them; the second finds them all in the
    ledger (none left to solve), and both say so."""
    ledger = tmp_path / "split.sqlite"
    argv = frontier._decide("domination", 6, 2, "-b", "sat", "--split", "2")
    row = frontier.ledger("domination", 6, argv, str(ledger), 120)
    first, again = row(1.0), row(1.0)
    assert first.status == "no: 4 of 4 pieces refuted (0 before)"
    assert again.status == "no: 4 of 4 pieces refuted (4 before)"
    assert first.what.endswith(f"--checkpoint {ledger}")
    assert first.published == "3 (A075458; Bird 2017, Rostami and Bright 2025)"


def test_every_row_is_a_function_of_the_scale(frontier):
    """The registry holds one entry per row, each with a group, a board size and a row
    function; every problem it names has a source for its published values."""
    assert all(callable(entry.row) and entry.n > 0 for entry in frontier.ROWS)
    cited = {"coloring", "domination", "independent-domination", "peaceable"}
    assert set(frontier.SOURCES) == cited


def test_a_value_past_the_table_is_cited_with_its_source(frontier):
    assert frontier.published("independent-domination", 15, 9, "Gibbons and Webb 1997") == (
        "9 (Gibbons and Webb 1997)"
    )
    assert frontier.published("independent-domination", 17) == "-"
