"""``python -m queenslab`` runs the ``queens`` command."""

from queenslab.cli import entry

entry()
