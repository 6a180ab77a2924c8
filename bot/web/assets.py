"""Static files of the page (``bot/web/static/``, owned by the page): read once per change, gzipped when that
helps, served with an ETag and cache headers. Only plain file names under the folder are served."""

from __future__ import annotations

import gzip
import hashlib
import mimetypes
import re
from dataclasses import dataclass
from pathlib import Path

from aiohttp import web

STATIC_DIR = Path(__file__).parent / "static"
PAGE = "game.html"
STATIC_MAX_AGE = 3600  # seconds; the page can bust it with ?v=<anything>
_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}(/[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}){0,3}")
_COMPRESSIBLE = ("text/", "application/javascript", "application/json", "image/svg+xml", "application/manifest")
_TYPES = {".js": "application/javascript", ".mjs": "application/javascript", ".css": "text/css",
          ".svg": "image/svg+xml", ".json": "application/json", ".webmanifest": "application/manifest+json",
          ".html": "text/html", ".woff2": "font/woff2", ".png": "image/png", ".ico": "image/x-icon"}


@dataclass(frozen=True)
class Asset:
    """One file as served: its bytes, the gzipped bytes when smaller, its type and ETag."""

    body: bytes
    gz: bytes | None
    content_type: str
    etag: str
    mtime: float


class Assets:
    """The files of one folder, cached in memory and reloaded when a file changes."""

    def __init__(self, root: Path = STATIC_DIR) -> None:
        self.root = root
        self._cache: dict[str, Asset] = {}

    def get(self, name: str) -> Asset | None:
        """The asset ``name`` (a relative path of plain names, no ``..``), or None."""
        if not _NAME.fullmatch(name) or ".." in name:
            return None
        path = self.root / name
        try:
            stat = path.stat()
        except OSError:
            return None
        if not path.is_file():
            return None
        kept = self._cache.get(name)
        if kept is not None and kept.mtime == stat.st_mtime:
            return kept
        body = path.read_bytes()
        ctype = _TYPES.get(path.suffix.lower()) or mimetypes.guess_type(path.name)[0] or "application/octet-stream"
        gz = None
        if ctype.startswith(_COMPRESSIBLE) and len(body) > 256:
            packed = gzip.compress(body, 9, mtime=0)
            gz = packed if len(packed) < len(body) * 0.9 else None
        etag = '"' + hashlib.sha256(body).hexdigest()[:20] + '"'
        asset = self._cache[name] = Asset(body, gz, ctype, etag, stat.st_mtime)
        return asset

    def response(self, request: web.Request, asset: Asset, cache_control: str) -> web.Response:
        """The asset for this request: 304 when the client has it, gzip when it accepts it."""
        headers = {"Cache-Control": cache_control, "ETag": asset.etag, "Vary": "Accept-Encoding"}
        if request.headers.get("If-None-Match") == asset.etag:
            return web.Response(status=304, headers=headers)
        body = asset.body
        if asset.gz is not None and "gzip" in request.headers.get("Accept-Encoding", ""):
            body = asset.gz
            headers["Content-Encoding"] = "gzip"
        charset = "utf-8" if asset.content_type.startswith(("text/", "application/javascript")) else None
        resp = web.Response(body=body, headers=headers, content_type=asset.content_type, charset=charset)
        return resp
