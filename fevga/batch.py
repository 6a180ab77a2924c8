"""The batch path of ``python -m fevga plays|bestplay``: answer every whole line stdin holds, then write
the answers in one go. A client that sends one line and waits still gets its answer at once; a file
piped in is answered in large writes instead of one write and flush per line (docs/engine.md)."""

from __future__ import annotations

import codecs
import io
import json
from collections.abc import Callable
from typing import Any, TextIO, cast

from .jsonlines import answer_line

CHUNK = 1 << 16  # bytes read from stdin at most at a time

Fast = Callable[[Any], str | None]


def serve_batch(
    command: Callable[[Any], dict[str, Any]], fast: Fast | None, stdin: TextIO, stdout: TextIO
) -> None:
    """Answer every input line with exactly one output line, as ``fevga.jsonlines.serve`` does.

    ``fast(request)`` (the compiled core's ``plays_answer``) writes a whole answer line itself, or gives
    None for a request it leaves to ``command``. Lines split as text-mode stdin splits them (universal
    newlines, stdin's own encoding), so the answers are those of ``serve`` byte for byte.
    """
    decoder = codecs.getincrementaldecoder(stdin.encoding)(stdin.errors or "strict")
    decode = io.IncrementalNewlineDecoder(decoder, translate=True).decode
    read = cast(io.BufferedReader, stdin.buffer).read1
    pending = ""
    while True:
        chunk = read(CHUNK)
        lines = (pending + decode(chunk, not chunk)).split("\n")
        pending = lines.pop()  # a line not yet ended: it waits for the next chunk
        if not chunk and pending:
            lines.append(pending)
        if lines:
            stdout.write("".join(_answers(command, fast, lines)))
            stdout.flush()
        if not chunk:
            return


def _answers(command: Callable[[Any], dict[str, Any]], fast: Fast | None, lines: list[str]) -> list[str]:
    """The answer line of each input line: ``fast``'s when it takes the request, else ``command``'s."""
    if fast is None:
        return [answer_line(command, line) for line in lines]
    out: list[str] = []
    loads = json.loads
    for line in lines:
        try:
            text = fast(loads(line))
        except (ValueError, RecursionError):  # not JSON (or nested too deeply): the slow path says what is wrong
            text = None
        out.append(answer_line(command, line) if text is None else text)
    return out
