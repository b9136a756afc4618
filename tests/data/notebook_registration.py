"""A pytest plugin (``-p notebook_registration``) that registers a backend as a notebook
would, with ``ql.register_backend``, before the harness in tests/harness/test_backends.py is
collected from the registry."""

from queenslab_permutations import PermutationsBackend

import queenslab as ql


class NotebookPermutations(PermutationsBackend):
    name = "notebook-permutations"


ql.register_backend(NotebookPermutations)
