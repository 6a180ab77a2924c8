"""parse_mode handling like Telegram's: HTML, MarkdownV2 and legacy Markdown become plain text plus
entities, and malformed markup is refused with "can't parse entities: ..." (a frequent bot bug: an
unescaped '.', '_' or '<' in a user's name)."""

from __future__ import annotations

import re
from html.parser import HTMLParser

from .objects import JSON, utf16_len
from .requests import ApiError, bad_request

_HTML_TAGS = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline", "ins": "underline",
    "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough", "tg-spoiler": "spoiler",
    "span": "spoiler", "a": "text_link", "code": "code", "pre": "pre", "blockquote": "blockquote",
    "tg-emoji": "custom_emoji",
}  # fmt: skip
_TAG_START = re.compile(r"</?[A-Za-z][A-Za-z0-9-]*[\s/>]")
_MDV2_RESERVED = set("_*[]()~`>#+-=|{}.!")


def _cant_parse(why: str) -> ApiError:
    return bad_request(f"can't parse entities: {why}")


def _byte_offset(text: str, index: int) -> int:
    return len(text[:index].encode())


class _HtmlToEntities(HTMLParser):
    """Collect plain text and entities; raise ApiError on tags or nesting Telegram refuses."""

    def __init__(self, source: str) -> None:
        super().__init__(convert_charrefs=True)
        self.source = source
        self.plain: list[str] = []
        self.stack: list[tuple[str, int, dict[str, str | None]]] = []
        self.entities: list[JSON] = []

    def _position(self) -> int:
        line, col = self.getpos()
        lines = self.source.split("\n")
        return _byte_offset(self.source, sum(len(x) + 1 for x in lines[: line - 1]) + col)

    def _length(self) -> int:
        return utf16_len("".join(self.plain))

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag not in _HTML_TAGS or (tag == "span" and dict(attrs).get("class") != "tg-spoiler"):
            raise _cant_parse(f'Unsupported start tag "{tag}" at byte offset {self._position()}')
        if tag == "a" and not dict(attrs).get("href"):
            raise _cant_parse(f"Empty URL in a tag at byte offset {self._position()}")
        self.stack.append((tag, self._length(), dict(attrs)))

    def handle_endtag(self, tag: str) -> None:
        if not self.stack or self.stack[-1][0] != tag:
            expected = f'"</{self.stack[-1][0]}>"' if self.stack else "no end tag"
            raise _cant_parse(
                f'Unmatched end tag at byte offset {self._position()}, expected {expected}, found "</{tag}>"'
            )
        name, start, attrs = self.stack.pop()
        length = self._length() - start
        if length == 0:
            return
        entity: JSON = {"type": _HTML_TAGS[name], "offset": start, "length": length}
        if name == "a":
            entity["url"] = attrs.get("href")
        if name == "tg-emoji":
            entity["custom_emoji_id"] = attrs.get("emoji-id")
        if name == "pre" and self.entities and self.entities[-1]["type"] == "code":
            code = self.entities.pop()  # <pre><code class="language-x">: one pre entity with a language
            language = (code.get("language") or "").removeprefix("language-")
            if language:
                entity["language"] = language
        elif name == "code" and attrs.get("class"):
            entity["language"] = attrs.get("class")  # kept only when a <pre> wraps this <code>
        self.entities.append(entity)

    def handle_data(self, data: str) -> None:
        self.plain.append(data)


def parse_html(source: str) -> tuple[str, list[JSON]]:
    """Plain text and entities of Telegram-HTML; ApiError 400 for what Telegram refuses."""
    for match in re.finditer("<", source):
        if not _TAG_START.match(source, match.start()):
            following = source[match.start() + 1 : match.start() + 2]
            raise _cant_parse(
                f'Unsupported start tag "{following}" at byte offset {_byte_offset(source, match.start())}'
            )
    parser = _HtmlToEntities(source)
    parser.feed(source)
    parser.close()
    if parser.stack:
        raise _cant_parse(f'Can\'t find end tag corresponding to start tag "{parser.stack[-1][0]}"')
    for entity in parser.entities:
        if entity["type"] == "code":
            entity.pop("language", None)
    return "".join(parser.plain), sorted(parser.entities, key=lambda e: e["offset"])


_MDV2_TOGGLES = [("||", "spoiler"), ("__", "underline"), ("*", "bold"), ("_", "italic"), ("~", "strikethrough")]
_ENTITY_NAMES = {"bold": "Bold", "italic": "Italic", "underline": "Underline", "strikethrough": "Strikethrough",
                 "spoiler": "Spoiler", "code": "Code", "pre": "Pre", "text_link": "TextUrl"}  # fmt: skip


def parse_markdown_v2(source: str) -> tuple[str, list[JSON]]:
    """Plain text and entities of MarkdownV2; refuses unescaped reserved characters like Telegram."""
    plain: list[str] = []
    entities: list[JSON] = []
    open_: dict[str, tuple[int, int]] = {}  # entity type -> (utf16 start, source index)
    links: list[tuple[int, int]] = []
    i = 0

    def here() -> int:
        return utf16_len("".join(plain))

    while i < len(source):
        ch = source[i]
        if ch == "\\":
            if i + 1 >= len(source) or not 1 <= ord(source[i + 1]) <= 126:
                raise _cant_parse("Character '\\' is reserved and must be escaped with the preceding '\\'")
            plain.append(source[i + 1])
            i += 2
            continue
        if source.startswith("```", i):
            end = source.find("```", i + 3)
            if end < 0:
                raise _cant_parse(f"Can't find end of Pre entity at byte offset {_byte_offset(source, i)}")
            body = source[i + 3 : end]
            language, _, code = body.partition("\n") if "\n" in body else ("", "", body)
            start = here()
            plain.append(re.sub(r"\\([`\\])", r"\1", code))
            entity: JSON = {"type": "pre", "offset": start, "length": here() - start}
            if language.strip():
                entity["language"] = language.strip()
            entities.append(entity)
            i = end + 3
            continue
        if ch == "`":
            end = source.find("`", i + 1)
            while end > 0 and source[end - 1] == "\\":
                end = source.find("`", end + 1)
            if end < 0:
                raise _cant_parse(f"Can't find end of Code entity at byte offset {_byte_offset(source, i)}")
            start = here()
            plain.append(re.sub(r"\\([`\\])", r"\1", source[i + 1 : end]))
            entities.append({"type": "code", "offset": start, "length": here() - start})
            i = end + 1
            continue
        if ch == "[":
            links.append((here(), i))
            i += 1
            continue
        if ch == "]" and links and source.startswith("(", i + 1):
            end = source.find(")", i + 2)
            if end < 0:
                raise _cant_parse(f"Can't find end of a URL at byte offset {_byte_offset(source, i)}")
            start, _ = links.pop()
            url = source[i + 2 : end].replace("\\)", ")").replace("\\\\", "\\")
            entities.append({"type": "text_link", "offset": start, "length": here() - start, "url": url})
            i = end + 1
            continue
        if ch == ">" and (i == 0 or source[i - 1] == "\n"):
            i += 1  # blockquote marker: the text stays, the marker goes
            continue
        toggle = next(((mark, kind) for mark, kind in _MDV2_TOGGLES if source.startswith(mark, i)), None)
        if toggle is not None:
            mark, kind = toggle
            if kind in open_:
                start, _ = open_.pop(kind)
                if here() > start:
                    entities.append({"type": kind, "offset": start, "length": here() - start})
            else:
                open_[kind] = (here(), i)
            i += len(mark)
            continue
        if ch in _MDV2_RESERVED:
            raise _cant_parse(f"Character '{ch}' is reserved and must be escaped with the preceding '\\'")
        plain.append(ch)
        i += 1
    if open_:
        kind, (_, index) = min(open_.items(), key=lambda item: item[1][1])
        offset = _byte_offset(source, index)
        raise _cant_parse(f"Can't find end of {_ENTITY_NAMES[kind]} entity at byte offset {offset}")
    if links:
        raise _cant_parse("Character '[' is reserved and must be escaped with the preceding '\\'")
    return "".join(plain), sorted(entities, key=lambda e: e["offset"])


def parse_markdown(source: str) -> tuple[str, list[JSON]]:
    """Legacy Markdown: *bold*, _italic_, `code`, ```pre```, [text](url); no escaping inside entities."""
    plain: list[str] = []
    entities: list[JSON] = []
    pattern = re.compile(r"```(.*?)```|`([^`]*)`|\*([^*]*)\*|_([^_]*)_|\[([^\]]*)\]\(([^)]*)\)", re.S)
    i = 0
    for match in pattern.finditer(source):
        plain.append(source[i : match.start()])
        start = utf16_len("".join(plain))
        kinds = ["pre", "code", "bold", "italic", "text_link"]
        group = next(g for g in range(1, 6) if match.group(g) is not None)
        plain.append(match.group(group))
        entity: JSON = {"type": kinds[group - 1], "offset": start, "length": utf16_len("".join(plain)) - start}
        if group == 5:
            entity["url"] = match.group(6)
        if entity["length"]:
            entities.append(entity)
        i = match.end()
    rest = source[i:]
    for mark in ("*", "_", "`", "["):
        if mark in rest:
            offset = _byte_offset(source, i + rest.index(mark))
            raise _cant_parse(f"Can't find end of the entity starting at byte offset {offset}")
    plain.append(rest)
    return "".join(plain), entities


def apply_parse_mode(text: str, parse_mode: str | None) -> tuple[str, list[JSON]] | None:
    """(plain text, entities) for text sent with parse_mode, or None when there is no parse_mode."""
    if not parse_mode:
        return None
    mode = parse_mode.lower()
    if mode == "html":
        return parse_html(text)
    if mode == "markdownv2":
        return parse_markdown_v2(text)
    if mode == "markdown":
        return parse_markdown(text)
    raise bad_request(f"unsupported parse_mode {parse_mode!r}")
