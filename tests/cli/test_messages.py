"""Issue 35's messages: options a run does not use, checkpoints of other counts, the
first run's compile, the prefix of errors, and a SIGTERM before any command is imported."""

from __future__ import annotations

import os
import re
import signal
import subprocess

import pytest

from queenslab import cli
from tests.conftest import ROOT, finish, on_terminal, queens_command


def test_a_sigterm_that_came_before_the_handler_ends_the_run_cleanly():
    """A SIGTERM held back until the process can take it (blocked at exec, as one in the
    first moments of a run would be pending) ends it with the message and code 143: it
    ended the process silently before the handler was installed."""
    process = subprocess.Popen(
        [*queens_command(), "count", "8"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        start_new_session=True,
        preexec_fn=lambda: signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGTERM}),
    )
    process.send_signal(signal.SIGTERM)
    code, out, err = finish(process)
    assert (code, out, err) == (143, "", "queens: terminated\n")


def test_unknown_command_suggests_the_nearest(queens):
    run = queens("slove", "8")
    assert (run.returncode, run.stdout) == (2, "")
    assert run.stderr == "queens: error: unknown command 'slove'; did you mean solve?\n"


def test_errors_of_a_command_have_the_one_prefix(queens):
    run = queens("solve", "0")
    assert run.returncode == 2
    assert run.stderr.startswith("queens: error: "), run.stderr


@pytest.mark.parametrize("command", [[], *[[name] for name in cli.COMMANDS]])
def test_help_fits_a_terminal(command, capsys, monkeypatch):
    """Every help, epilog included, on an 80-column terminal: lines of 122-158 characters
    came from the list of commands, --encoding's choices and the epilog of trace."""
    monkeypatch.setenv("COLUMNS", "80")
    with pytest.raises(SystemExit):
        cli.main([*command, "--help"])
    widest = max(capsys.readouterr().out.splitlines(), key=len)
    assert len(widest) <= 100, widest


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["optimize", "5", "--problem", "domination", "-b", "graph-search", "--model", "lines"],
         "backend 'graph-search' builds no model: --model, --symmetry and --axioms none"),
        (["optimize", "5", "--problem", "domination", "-b", "graph-search",
          "--symmetry", "lex-leader"], "backend 'graph-search' builds no model"),
        (["optimize", "5", "--problem", "domination", "-b", "cpsat", "--formulation", "integer"],
         "backend 'cpsat' uses option 'formulation' only in its own search of placement, not "
         "on a problem's 0-1 model"),
        (["count", "4", "--problem", "domination", "-b", "sat", "--workers", "2"],
         "backend 'sat' uses option 'workers' only in its own search of placement"),
        (["count", "5", "--problem", "domination", "--checkpoint", "F"],
         "option 'checkpoint' is only for counting placement; optimizing, deciding peaceable "
         "(bitmask, gpu, armies), not for counting domination"),
        (["count", "4", "--problem", "domination", "--solver-cmd", "cadical"],
         "option 'solver_cmd' is only for solving, enumerating, counting placement; deciding "
         "any problem (sat)"),
    ],
)  # fmt: skip
def test_an_option_the_run_does_not_use_is_refused(queens, argv, message, tmp_path):
    """Each was accepted and ignored (the checkpoint's refusal said "none takes them all")."""
    run = queens(*argv)
    assert (run.returncode, run.stdout) == (2, ""), run.stderr
    assert run.stderr == f"queens: error: {message}" + run.stderr.split(message, 1)[1]
    assert run.stderr.count("\n") == 1


def test_an_ignored_option_is_refused_by_the_api():
    import queenslab as ql

    with pytest.raises(ql.UsageError, match="'checkpoint' only when counting"):
        ql.solve(8, "bitmask", checkpoint="unused.sqlite")
    with pytest.raises(ql.UsageError, match=r"^no backend has an option 'bogus'$"):
        ql.count(5, problem="domination", bogus=1)


def test_output_suffix_of_a_kind_names_its_format(queens, tmp_path):
    """``--output x.weird`` with --problem wrote text (placement refuses the suffix)."""
    target = tmp_path / "x.weird"
    run = queens("optimize", "5", "--problem", "domination", "--output", str(target))
    assert run.returncode == 2 and "from its suffix '.weird'" in run.stderr, run.stderr
    assert list(tmp_path.iterdir()) == []


@pytest.mark.slow
def test_a_first_run_says_that_it_compiles_and_for_how_long_when_piped(tmp_path):
    """Piped, the first `count 12 --unique` compiled for 45 s with nothing printed."""

    def first_run(*flags: str) -> subprocess.CompletedProcess[str]:
        cache = {"NUMBA_CACHE_DIR": str(tmp_path / "-".join(["cache", *flags]))}
        return subprocess.run(
            [*queens_command(), *flags, "solve", "8", "-b", "las-vegas", "--seed", "1"],
            capture_output=True, text=True, timeout=300,
            env={**os.environ, "PYTHONPATH": str(ROOT), **cache},
        )  # fmt: skip

    run = first_run()
    said = run.stderr.splitlines()
    assert run.returncode == 0 and said[0] == "queens: compiling kernels (first run only)"
    assert re.fullmatch(r"queens: kernels compiled in \d+\.\d s; later runs load them", said[1])
    assert len(said) == 2, said
    assert first_run("--quiet").stderr == ""


def test_a_count_of_a_kind_reports_the_answers_it_finds():
    """`count 8 --problem domination` showed 0/? for its whole run: nothing was reported."""
    import queenslab as ql

    reported: list[tuple[int, int | None]] = []
    result = ql.count(6, problem="domination", progress=lambda *p: reported.append(p))
    assert result.total == 4
    assert [done for done, total in reported if done] == [1, 2, 3, 4]
    assert {total for _, total in reported} == {None}


def test_the_crosscheck_table_comes_in_blocks_that_fit_a_terminal():
    """The default cross-check's one table was 198 columns wide."""
    from queenslab.lab.crosscheck import Answer, Row, Table
    from queenslab.registry import names

    counters = names()
    row = Row(10, 724, {name: Answer(724, 12.5) for name in counters})
    row.counts[counters[-1]] = Answer(725, 0.5)
    text = Table(counters, [], [row]).to_text()
    blocks = text.split("\n\n")
    assert len(blocks) > 1 and max(map(len, text.splitlines())) <= 100, text
    assert all(block.startswith("n   OEIS  ") for block in blocks), text
    assert blocks[-1].splitlines()[2].endswith("  725 (0.50s)  !! disagree"), text
    assert sum(block.count("724 (12.50s)") for block in blocks) == len(counters) - 1


@pytest.mark.slow
def test_on_a_terminal_the_bar_waits_for_the_first_report(tmp_path):
    """The bar was drawn at once, its clock standing at 0:00:00 while kernels compiled."""
    code, seen = on_terminal("count", "8", "-b", "bitmask", NUMBA_CACHE_DIR=str(tmp_path))
    assert code == 0 and seen.startswith("queens: compiling kernels (first run only)\r\n"), seen
    assert "counting n=8" in seen and "queens: kernels compiled in " in seen, seen
