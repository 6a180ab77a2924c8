"""Discord's limits on message, autocomplete and modal bodies, so a frontend that breaks them fails
in tests the way it would fail in production (400, code 50035 Invalid Form Body)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from .models import StoredAttachment

MAX_CONTENT, MAX_EMBEDS, MAX_ROWS, MAX_ROW_BUTTONS, MAX_FILES = 2000, 10, 5, 5, 10
MAX_CUSTOM_ID, MAX_LABEL, MAX_OPTIONS, MAX_CHOICES, MAX_MODAL_TITLE = 100, 80, 25, 25, 45
MAX_FILE_BYTES = 10 * 1024 * 1024
EMBED_LIMITS = {"title": 256, "description": 4096}
COMPONENTS_V2 = 1 << 15


def _walk(components: list[dict[str, Any]], path: str) -> Iterator[tuple[str, dict[str, Any]]]:
    for i, comp in enumerate(components):
        here = f"{path}.{i}"
        yield here, comp
        yield from _walk(list(comp.get("components", [])), here + ".components")
        if "accessory" in comp:
            yield here + ".accessory", comp["accessory"]


def component_problems(components: list[dict[str, Any]], v2: bool) -> dict[str, str]:
    out: dict[str, str] = {}
    if not v2 and len(components) > MAX_ROWS:
        out["components"] = f"Must be {MAX_ROWS} or fewer in length."
    seen: set[str] = set()
    for path, comp in _walk(components, "components"):
        custom_id = comp.get("custom_id")
        if custom_id is not None:
            if not 1 <= len(custom_id) <= MAX_CUSTOM_ID:
                out[path + ".custom_id"] = f"Must be between 1 and {MAX_CUSTOM_ID} in length."
            if custom_id in seen:
                out[path + ".custom_id"] = "Component custom id cannot be duplicated"
            seen.add(custom_id)
        if comp.get("type") == 2 and len(comp.get("label") or "") > MAX_LABEL:
            out[path + ".label"] = f"Must be {MAX_LABEL} or fewer in length."
        if comp.get("type") == 2 and not (comp.get("custom_id") or comp.get("url") or comp.get("sku_id")):
            out[path] = "A button needs a custom_id, url or sku_id"
        if comp.get("type") == 1 and not v2:
            kids = comp.get("components", [])
            if len(kids) > MAX_ROW_BUTTONS or (len(kids) > 1 and any(k.get("type") != 2 for k in kids)):
                out[path + ".components"] = "An action row holds up to 5 buttons or a single select menu"
        if comp.get("type") == 3 and not 1 <= len(comp.get("options", [])) <= MAX_OPTIONS:
            out[path + ".options"] = f"Must be between 1 and {MAX_OPTIONS} in length."
    return out


def message_problems(body: dict[str, Any], files: list[StoredAttachment], *, creating: bool) -> dict[str, str]:
    """Field path -> Discord's complaint, for a create/edit message body (empty when it is valid)."""
    out: dict[str, str] = {}
    v2 = bool(int(body.get("flags") or 0) & COMPONENTS_V2)
    content = body.get("content") or ""
    if len(content) > MAX_CONTENT:
        out["content"] = f"Must be {MAX_CONTENT} or fewer in length."
    embeds = body.get("embeds") or []
    if len(embeds) > MAX_EMBEDS:
        out["embeds"] = f"Must be {MAX_EMBEDS} or fewer in length."
    for i, embed in enumerate(embeds):
        for key, limit in EMBED_LIMITS.items():
            if len(embed.get(key) or "") > limit:
                out[f"embeds.{i}.{key}"] = f"Must be {limit} or fewer in length."
    if v2 and (content or embeds):
        out["content"] = "content and embeds cannot be used with the IS_COMPONENTS_V2 flag"
    out.update(component_problems(list(body.get("components") or []), v2))
    if len(files) > MAX_FILES:
        out["files"] = f"Must be {MAX_FILES} or fewer in length."
    for i, f in enumerate(files):
        if f.size > MAX_FILE_BYTES:
            out[f"files.{i}"] = "Request entity too large"
    if creating and not (content or embeds or files or body.get("components") or body.get("sticker_ids")):
        out["content"] = "Cannot send an empty message"
    return out


def callback_problems(kind: int, data: dict[str, Any], files: list[StoredAttachment]) -> dict[str, str]:
    """Problems of an interaction callback's `data` for its type."""
    if kind == 4:
        return message_problems(data, files, creating=True)
    if kind == 7:
        return message_problems(data, files, creating=False)
    if kind == 8:
        choices = data.get("choices") or []
        bad = {
            f"choices.{i}.name": "Must be between 1 and 100 in length."
            for i, c in enumerate(choices)
            if not 1 <= len(str(c.get("name", ""))) <= 100
        }
        if len(choices) > MAX_CHOICES:
            bad["choices"] = f"Must be {MAX_CHOICES} or fewer in length."
        return bad
    if kind == 9:
        out = component_problems(list(data.get("components") or []), v2=True)
        if not 1 <= len(data.get("title") or "") <= MAX_MODAL_TITLE:
            out["title"] = f"Must be between 1 and {MAX_MODAL_TITLE} in length."
        if not 1 <= len(data.get("components") or []) <= 5:
            out["components"] = "Must be between 1 and 5 in length."
        return out
    return {}


def form_error(problems: dict[str, str]) -> dict[str, Any]:
    """Discord's 400 body for an invalid form: nested `errors` with `_errors` lists."""
    if list(problems.values()) == ["Cannot send an empty message"]:
        return {"code": 50006, "message": "Cannot send an empty message"}
    errors: dict[str, Any] = {}
    for path, message in problems.items():
        node = errors
        for part in path.split("."):
            node = node.setdefault(part, {})
        node.setdefault("_errors", []).append({"code": "BASE_TYPE_INVALID", "message": message})
    return {"code": 50035, "message": "Invalid Form Body", "errors": errors}
