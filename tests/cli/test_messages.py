"""Issue 35's messages: options a run does not use, checkpoints of other counts, the
first run's compile, the prefix of errors, and a SIGTERM before any command is imported."""

from __future__ import annotations

import os
import signal
import subprocess

import pytest

from queenslab import cli
from tests.conftest import ROOT, finish, queens_command


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
