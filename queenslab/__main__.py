"""``python -m queenslab`` runs the ``queens`` command."""

import sys

from queenslab.cli import main

sys.exit(main())
