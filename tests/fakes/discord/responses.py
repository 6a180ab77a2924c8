"""HTTP helpers of the fake: Discord-style JSON answers and request-body decoding."""

from __future__ import annotations

import json
import logging
from typing import Any

from aiohttp import web

from .models import StoredAttachment, snowflake
from .validation import form_error

log = logging.getLogger("fake_discord.rest")


def jresp(data: Any, status: int = 200) -> web.Response:
    """A JSON response with exactly `Content-Type: application/json` (discord.py compares it verbatim)."""
    return web.Response(status=status, body=json.dumps(data).encode(), headers={"Content-Type": "application/json"})


def error(status: int, code: int, message: str) -> web.Response:
    return jresp({"message": message, "code": code}, status)


def invalid(problems: dict[str, str]) -> web.Response | None:
    """A 400 like Discord's when a body breaks its limits, else None."""
    if not problems:
        return None
    log.warning("fake Discord rejects a body: %s", problems)
    return jresp(form_error(problems), 400)


async def parse_body(request: web.Request) -> tuple[Any, list[StoredAttachment]]:
    """JSON body, or multipart payload_json plus files[n] parts (ordered by n)."""
    if request.content_type.startswith("multipart/"):
        body: Any = {}
        files: list[tuple[int, StoredAttachment]] = []
        reader = await request.multipart()
        async for part in reader:
            if part is None:
                break
            name = getattr(part, "name", None) or ""
            if name == "payload_json":
                body = json.loads(await part.text())  # type: ignore[union-attr]
            elif name.startswith("files["):
                data = bytes(await part.read(decode=False))  # type: ignore[union-attr]
                ctype = part.headers.get("Content-Type")
                att = StoredAttachment(
                    id=snowflake(), filename=getattr(part, "filename", None) or "file", data=data, content_type=ctype
                )
                files.append((int(name[6:-1]), att))
        return body, [a for _, a in sorted(files, key=lambda f: f[0])]
    text = await request.text() if request.can_read_body else ""
    return (json.loads(text) if text else None), []
