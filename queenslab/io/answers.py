"""Read back the answer of a result file, to start another run from it (``--start FILE``).

A result record as ``queens optimize --format json`` writes it holds a problem kind's
``answer`` (JSON data in the kind's form) beside its ``problem``, ``n`` and ``variant``;
a placement's record holds its ``cols``. The answer is returned as it is written: the
kind reads it (``ProblemKind.from_json``) and checks it, so a file from anyone is judged
by the kind's own checker, never trusted.
"""

from __future__ import annotations

import json
from typing import Any

from queenslab.boards import DEFAULT_VARIANT
from queenslab.core.errors import UsageError
from queenslab.io.textfiles import read_text, unique_keys

#: A result record with its answer is small; anything larger is no such file.
MAX_ANSWER_BYTES = 64 << 20


def read_answer(path: str, kind: str, n: int, variant: str) -> Any:
    """The answer data in the result file at ``path``, for problem ``kind`` on a board of
    ``n`` and ``variant``; a one-line UsageError when the file is no result record, or
    one of another problem or board."""
    text = read_text(path, MAX_ANSWER_BYTES, "result file")
    try:
        record = json.loads(text, object_pairs_hook=unique_keys)
    except ValueError as exc:
        raise UsageError(f"{path} is not a JSON result: {exc}") from None
    if not isinstance(record, dict):
        raise UsageError(f"{path} holds no result record (as --format json writes one)")
    written_kind = record.get("problem", "placement")
    if written_kind != kind:
        raise UsageError(f"{path} holds a {written_kind} answer, not a {kind} one")
    for key, wanted in (("n", n), ("variant", variant)):
        written = record.get(key, DEFAULT_VARIANT if key == "variant" else wanted)
        if written != wanted:
            raise UsageError(f"{path} is an answer for {key} = {written}, not {wanted}")
    data = record.get("answer" if "problem" in record else "cols")
    if data is None:
        raise UsageError(f"{path} holds no answer (status {record.get('status', 'unknown')})")
    return data
