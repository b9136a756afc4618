"""Kinds registered before the harness is collected, as a plug-in or a notebook would:
tests/harness/test_kind_backends.py runs them on every backend that takes them, against
their own brute force, with no line of the harness naming them."""

from queenslab.problems import register_kind
from tests.user_kinds import TotalDomination

register_kind(TotalDomination)
