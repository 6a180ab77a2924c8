"""The board picture: ``render_board(scene, perspective) -> PNG bytes``, built from cached palette tiles.

Pure: the scene is read, never changed. A render takes a few milliseconds of CPU, so async
frontends should still call it in a worker thread (``asyncio.to_thread``) off the event loop.
"""

from __future__ import annotations

import re
from functools import partial

from PIL import Image, ImageDraw

from fevga.position import Position
from fevga.rules import OFF
from fevga.variants import TavliPosition

from . import fallback, sprites, textrun
from .arrows import endpoints, paint_arrows
from .background import start_points
from .fonts import font
from .layers import Kit, kit, put
from .layout import DEFAULT_SIZE, VISIBLE_STACK, Box, Geometry, checker_centre, label_box
from .png import encode_png
from .scene import BoardScene
from .tavli_png import draw_match_line, draw_tavli
from .theme import RGB

INFO_DOT = "  ·  "  # between the pips, borne-off count and score on a name strip
_DIGIT_OR_WORDS = re.compile(r"\d|\D+")


def render_board(scene: BoardScene, perspective: int, size: int = DEFAULT_SIZE, theme: str | None = None) -> bytes:
    """The board as PNG bytes, drawn for ``perspective`` (0 or 1): his numbering 1-24, his side at the bottom."""
    return encode_png(render_board_image(scene, perspective, size=size, theme=theme))


def warm_up(sizes: tuple[int, ...] = (DEFAULT_SIZE,), themes: tuple[str, ...] = ("classic",)) -> None:
    """Build the cached layers ahead of time (about 0.3 s each), e.g. in a thread at start-up.

    The warm-up scene is the engine's start position with dice, so no demo data is imported here. The
    fallback fonts' coverage is read here too, so the first unusual name costs no handler that time.
    """
    scene = BoardScene(Position.start(), turn=0, dice=(6, 5))
    fallback.chain()  # the fallback fonts' coverage (about 0.5 s, read once)
    fallback.others()
    for size in sizes:
        for name in themes:
            for perspective in (0, 1):
                render_board_image(scene, perspective, size=size, theme=name)


def render_board_image(
    scene: BoardScene, perspective: int, size: int = DEFAULT_SIZE, theme: str | None = None
) -> Image.Image:
    """The board as a palette ("P") image; the replay reuses it as a GIF frame."""
    if perspective not in (0, 1):
        raise ValueError(f"perspective must be 0 or 1, not {perspective!r}")
    game = scene.game
    k = kit(theme or scene.theme, size, perspective, game)
    img = k.bg.copy()
    shown = scene.shown_for(perspective)
    froms, tos = scene.marks(perspective)
    if isinstance(shown, TavliPosition):
        draw_tavli(img, k, scene, perspective, shown)
    else:
        _checkers(img, k, shown, perspective, froms, tos)
    _labels(img, k, froms, tos, start_points(game))
    _trays(img, k, scene, perspective)
    _strips(img, k, scene, perspective)
    _middle(img, k, scene, perspective)
    if scene.shows_match_line():
        draw_match_line(img, k, scene, perspective)
    if scene.pending_steps and scene.turn is not None and game == "fevga":
        side = 0 if scene.turn == perspective else 1
        paint_arrows(img, k, endpoints(k, shown, scene.steps_for(perspective), side))
    return img


def _checkers(
    img: Image.Image, k: Kit, drawn: Position, perspective: int, froms: frozenset[int], tos: frozenset[int]
) -> None:
    """Every checker of the drawn position (viewer numbering), arrivals ringed, departures as ghosts."""
    for index, signed in enumerate(drawn.board):
        point = index + 1
        if signed or point in froms:
            key = ("stack", point, signed, point in froms, point in tos)
            for tile, xy in k.cached(key, partial(_stack, k, point, signed, point in froms, point in tos)):
                put(img, tile, xy)


def _stack(k: Kit, point: int, signed: int, left: bool, reached: bool) -> list[tuple[Image.Image, tuple[int, int]]]:
    """One point's checkers (the top one ringed when the last play ``reached`` it, a ghost above them when
    it ``left`` it) as tiles and where they go, made once a kit."""
    theme, geom = k.theme, k.geom
    u, r = geom.unit, geom.radius
    count = abs(signed)
    owner = k.perspective if signed > 0 else 1 - k.perspective
    colours = theme.checkers[owner]
    shown = min(count, VISIBLE_STACK)
    out: list[tuple[Image.Image, tuple[int, int]]] = []
    for slot in range(shown):
        number = count if (slot == VISIBLE_STACK - 1 and count > VISIBLE_STACK) else None
        ring = theme.highlight if (reached and slot == shown - 1) else None
        box = _slot_box(k, point, slot)
        make = partial(sprites.checker, colours, u, r, count=number, ring=ring)
        out.append((k.sprite_on(("checker", owner, number, ring), box, make), (box[0], box[1])))
    if left and shown < VISIBLE_STACK:
        box = _slot_box(k, point, shown)
        out.append((k.sprite_on(("ghost",), box, partial(sprites.ghost, u, r, theme.highlight)), (box[0], box[1])))
    return out


def _slot_box(k: Kit, point: int, slot: int) -> Box:
    cx, cy = checker_centre(k.geom, point, slot)
    half = k.geom.unit // 2
    x, y = int(cx) - half, int(cy) - half
    return x, y, x + k.geom.unit, y + k.geom.unit


def _labels(
    img: Image.Image, k: Kit, froms: frozenset[int], tos: frozenset[int], starts: tuple[int, int] = (1, 13)
) -> None:
    """Point numbers the last play left (outlined) or reached (filled) in the highlight colour."""
    for point in (froms | tos) - {OFF, 0}:
        box = label_box(k.geom, point)
        filled = point in tos
        tile = k.cached(("label", point, filled), partial(_label_tile, k, box, point, filled, starts))
        img.paste(tile, box[:2])


def _label_tile(k: Kit, box: Box, point: int, filled: bool, starts: tuple[int, int] = (1, 13)) -> Image.Image:
    theme = k.theme
    base = k.bg_rgb.crop(box)
    w, h = base.size
    ss = sprites.SS
    pill = Image.new("RGBA", (w * ss, h * ss), (0, 0, 0, 0))
    d = ImageDraw.Draw(pill)
    m = ss * max(1, h // 12)
    rect = (m, m, w * ss - m - 1, h * ss - m - 1)
    if filled and point not in starts:
        d.rounded_rectangle(rect, radius=h * ss // 2, fill=(*theme.highlight, 255))
    else:
        d.rounded_rectangle(rect, radius=h * ss // 2, outline=(*theme.highlight, 255), width=ss * max(2, h // 9))
    pill = pill.resize((w, h), Image.Resampling.BOX)
    if filled and point not in starts:
        base.paste(pill, (0, 0), pill)
        f = font(max(9, int(k.geom.label * 0.62)), bold=True)
        ImageDraw.Draw(base).text((w / 2, h / 2), str(point), font=f, fill=theme.frame_edge, anchor="mm")
    else:
        base.paste(pill, (0, 0), pill)
    return k.to_p(base)


def _trays(img: Image.Image, k: Kit, scene: BoardScene, perspective: int) -> None:
    """Borne-off checkers as side-on slabs, with the count; the viewer's tray is at the bottom."""
    pos = scene.shown_position()
    offs = (pos.me_off, pos.opp_off)  # player 0, player 1
    for side, owner in ((0, perspective), (1, 1 - perspective)):
        count = offs[owner]
        if scene.pending_steps:
            mark = scene.turn == owner and any(b == OFF for _a, b in scene.pending_steps)
        else:
            mark = scene.last_mover == owner and any(b == OFF for _a, b in scene.last_play_steps)
        box = k.geom.trays[side]
        tile = k.cached(("tray", side, owner, count, mark), partial(_tray_tile, k, box, owner, count, mark, side))
        img.paste(tile, box[:2])


def _tray_tile(k: Kit, box: Box, owner: int, count: int, mark: bool, side: int) -> Image.Image:
    theme, u = k.theme, k.geom.unit
    base = k.bg_rgb.crop(box).convert("RGBA")
    w, h = base.size
    slab_h = max(4, min(u // 3, (h - u) // 15))
    slab_w = w - 2 * max(3, w // 10)
    piece = k.cached(("slab", owner, slab_w, slab_h), partial(sprites.slab, slab_w, slab_h, theme.checkers[owner]))
    x = (w - slab_w) // 2
    pad = max(3, u // 10)
    for i in range(count):
        y = h - pad - (i + 1) * slab_h if side == 0 else pad + i * slab_h
        base.alpha_composite(piece, (x, y))
    label = str(count)
    f = font(max(10, int(u * 0.42)), bold=True)
    d = ImageDraw.Draw(base)
    ty = pad + u * 0.35 if side == 0 else h - pad - u * 0.35
    d.text((w / 2, ty), label, font=f, fill=(*theme.label, 255), anchor="mm")
    if mark:
        rw = max(2, u // 14)
        d.rounded_rectangle((0, 0, w - 1, h - 1), radius=u // 6, outline=(*theme.highlight, 255), width=rw)
    return k.to_p(base)


def _strips(img: Image.Image, k: Kit, scene: BoardScene, perspective: int) -> None:
    """Name strips: viewer at the bottom, opponent at the top, with colour, pips, score, turn or win."""
    theme, geom = k.theme, k.geom
    u = geom.unit
    shown = scene.shown_for(perspective)
    pips_by_viewer = shown.pips()
    for side, owner in ((0, perspective), (1, 1 - perspective)):
        x0, y0, x1, y1 = geom.strips[side]
        active = scene.turn == owner or scene.winner == owner
        ground = theme.strip_active if active else theme.strip
        if active:
            band = k.cached(("strip", side), partial(_band, k, x1 - x0, y1 - y0))
            put(img, band, (x0, y0))
        h = y1 - y0
        disc_d = int(u * 0.62)
        disc = k.sprite_on_colour(("disc", owner, disc_d), ground, partial(sprites.disc, disc_d, theme.checkers[owner]))
        x = x0 + int(u * 0.35)
        put(img, disc, (x, y0 + (h - disc_d) // 2))
        x += disc_d + int(u * 0.25)
        big, small = max(12, int(u * 0.44)), max(10, int(u * 0.33))
        pips = pips_by_viewer[side]
        off = shown.me_off if owner == perspective else shown.opp_off
        parts = [scene.label("pips", n=pips)] + ([scene.label("off", n=off)] if off else [])
        if scene.match_length > 1:
            parts.append(scene.label("score", a=scene.score[owner], b=scene.match_length))
        info_x = _put_parts(img, k, parts, small, theme.strip_dim, ground, x1 - int(u * 0.35), y0, h)
        tag = _tag(scene, owner)
        tag_w = int(textrun.width("  " + tag, small, bold=True)) + 2 if tag else 0
        room = max(u, info_x - x - tag_w - int(u * 0.3))
        name = textrun.fit(_name(scene, owner), big, room, bold=True)
        x = _put_text(img, k, name, big, theme.strip_text, ground, x, y0, h, bold=True)
        if tag:
            _put_text(img, k, "  " + tag, small, theme.accent, ground, x, y0, h, bold=True)


def _name(scene: BoardScene, seat: int) -> str:
    """A player's name as written, less what no installed font draws (a name with nothing left: "?")."""
    return textrun.drawable(scene.names[seat]).strip() or "?"


def _tag(scene: BoardScene, owner: int) -> str:
    if scene.winner == owner:
        return scene.win_label("wins")
    if scene.turn == owner:
        return scene.label("to_play")
    return ""


def _band(k: Kit, w: int, h: int) -> Image.Image:
    """The highlighted strip of the player to move (or the winner), with an accent edge."""
    img = Image.new("RGB", (w, h), k.theme.strip_active)
    ImageDraw.Draw(img).rectangle((0, 0, max(3, k.geom.unit // 9) - 1, h), fill=k.theme.accent)
    return k.to_p(img)


def _put_parts(
    img: Image.Image, k: Kit, parts: list[str], size: int, fg: RGB, bg: RGB, right: int, y0: int, h: int
) -> int:
    """``parts`` joined by a dot, ending at ``right``, drawn as tiles of each digit and of the words between
    (few, so all stay cached: a new position's pips draw no text), each where the joined line puts it;
    returns where the line begins."""
    tokens = _DIGIT_OR_WORDS.findall(INFO_DOT.join(parts))
    widths = [textrun.width(token, size) for token in tokens]
    left = right - int(sum(widths)) - 2  # as wide as one tile of the whole line
    x = 0.0
    for token, width in zip(tokens, widths, strict=True):
        quarters = round(x * 4)  # the token's start to a quarter pixel, as the whole line would place it
        tile = k.text(token, size, fg, bg, shift=quarters % 4 / 4)
        put(img, tile, (left + quarters // 4, y0 + (h - tile.height) // 2))
        x += width
    return left


def _put_text(
    img: Image.Image, k: Kit, text: str, size: int, fg: RGB, bg: RGB, x: int, y0: int, h: int, bold: bool = False
) -> int:
    tile = k.text(text, size, fg, bg, bold=bold)
    put(img, tile, (x, y0 + (h - tile.height) // 2))
    return x + tile.width


def _middle(img: Image.Image, k: Kit, scene: BoardScene, perspective: int) -> None:
    """Dice on the mover's half (the viewer's right, the opponent's left) or the winner's banner."""
    geom, theme = k.geom, k.theme
    _l, my0, _r, my1 = geom.middle
    if scene.winner is not None or scene.drawn:
        tile = banner(k, scene)
        bx0, _by, bx1, _ = geom.board
        img.paste(tile, ((bx0 + bx1 - tile.width) // 2, (my0 + my1 - tile.height) // 2))
        return
    for box, face, spent in dice_boxes(k.geom, scene, perspective):
        colours = sprites.spent_die_colours(theme) if spent else (theme.die_face, theme.die_pip, theme.frame_edge)
        make = partial(sprites.die, face, box[2] - box[0], *colours)
        tile = k.sprite_on(("die", face, box[2] - box[0], spent), box, make)
        img.paste(tile, box[:2])


def banner(k: Kit, scene: BoardScene) -> Image.Image:
    """The winner's (or the draw's) banner, inside the board whatever the name and the language: the letters are
    made a little smaller first, then the name is shortened to what the words leave, then smaller again."""
    geom, theme = k.geom, k.theme
    u = geom.unit
    bx0, _by, bx1, _ = geom.board
    room = bx1 - bx0 - u // 2
    size = int(u * 0.5)
    while True:
        if scene.winner is None:
            text = scene.label("banner_draw")
        else:
            name_room = int(geom.width * 0.45)
            if size <= int(u * 0.4):  # small enough: the name gives way to the words
                words = textrun.width(scene.win_label("banner", name=""), size, bold=True)
                name_room = max(int(u * 1.5), min(name_room, int(room - words - size * 2)))
            name = textrun.fit(_name(scene, scene.winner), size, name_room, bold=True)
            text = scene.win_label("banner", name=name)
        tile = k.text(f"  {text}  ", size, theme.banner_text, theme.banner, bold=True)
        if tile.width <= room or size <= int(u * 0.28):
            return tile
        size -= max(1, u // 40)


def dice_boxes(geom: Geometry, scene: BoardScene, perspective: int) -> list[tuple[Box, int, bool]]:
    """Where each die is drawn (a double as four), its face, and whether the pending steps used it."""
    if scene.dice is None or scene.turn is None or scene.winner is not None:
        return []
    _l, my0, _r, my1 = geom.middle
    u = geom.unit
    half = geom.right_half if scene.turn == perspective else geom.left_half
    faces = list(scene.dice) * (2 if scene.dice[0] == scene.dice[1] else 1)  # a double is four moves
    used = list(scene.dice_used)
    side = int(u * (0.96 if len(faces) == 2 else 0.8))
    cx, cy = (half[0] + half[2]) // 2, (my0 + my1) // 2
    gap = u // 4
    left = cx - (len(faces) * side + (len(faces) - 1) * gap) // 2
    out: list[tuple[Box, int, bool]] = []
    for i, face in enumerate(faces):
        spent = face in used
        if spent:
            used.remove(face)
        x = left + i * (side + gap)
        out.append(((x, cy - side // 2, x + side, cy - side // 2 + side), face, spent))
    return out
