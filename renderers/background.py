"""The static layer of a board picture: strips, frame, points, point numbers, start and home marks.

It depends only on theme, size and viewer, so it is drawn once (supersampled) and cached.
"""

from __future__ import annotations

from PIL import Image, ImageDraw

from .fonts import font
from .layout import Box, Geometry, label_box, point_box
from .theme import RGB, Theme

SS = 3  # supersampling of the shapes (text is drawn afterwards at 1x; FreeType antialiases it)
POINT_FILL = 0.86  # a triangle's height as a share of the five-checker stack


def point_colour(theme: Theme, point: int) -> RGB:
    """Points alternate colours along a row; facing points differ."""
    column = (12 - point) if point <= 12 else (point - 13)
    top = point <= 12
    return theme.point_a if (column % 2 == 0) == top else theme.point_b


def start_points(game: str) -> tuple[int, int]:
    """The viewer's points where the viewer and the opponent start: Fevga (1, 13); Portes and Plakoto,
    where the players move in opposite directions, (1, 24) (in Plakoto the mothers)."""
    return (1, 13) if game == "fevga" else (1, 24)


def home_quarters(game: str) -> tuple[tuple[int, int], tuple[int, int]]:
    """The viewer's home (19-24) and the opponent's home in the viewer's numbering (Fevga 7-12, else 1-6)."""
    return (19, 24), ((7, 12) if game == "fevga" else (1, 6))


def draw_background(theme: Theme, geom: Geometry, perspective: int, game: str = "fevga") -> Image.Image:
    """The static layer as an RGB image; ``game`` places the start marks and home bands."""
    big = Image.new("RGB", (geom.width * SS, geom.height * SS), theme.frame)
    draw = ImageDraw.Draw(big)

    def s(box: Box) -> Box:
        return box[0] * SS, box[1] * SS, box[2] * SS - 1, box[3] * SS - 1

    for strip in geom.strips:
        draw.rectangle(s(strip), fill=theme.strip)
    edge = max(1, geom.unit // 24) * SS
    draw.rectangle(
        (0, geom.strip * SS, geom.width * SS - 1, (geom.height - geom.strip) * SS - 1),
        outline=theme.frame_edge,
        width=edge,
    )
    for half in (geom.left_half, geom.right_half):
        draw.rectangle(s(half), fill=theme.felt)
        x0, y0, x1, y1 = s(half)
        draw.rectangle((x0 - edge, y0 - edge, x1 + edge, y1 + edge), outline=theme.frame_edge, width=edge)
    for tray in geom.trays:
        x0, y0, x1, y1 = s(tray)
        draw.rounded_rectangle((x0, y0, x1, y1), radius=geom.unit * SS // 6, fill=theme.tray)
    h = POINT_FILL * 5 * geom.unit * SS
    for point in range(1, 25):
        x0, y0, x1, y1 = s(point_box(geom, point))
        tip_x = (x0 + x1 + 1) / 2
        inset = SS * max(1, geom.unit // 20)
        if point <= 12:
            poly = [(x0 + inset, y0), (x1 + 1 - inset, y0), (tip_x, y0 + h)]
        else:
            poly = [(x0 + inset, y1 + 1), (x1 + 1 - inset, y1 + 1), (tip_x, y1 + 1 - h)]
        draw.polygon(poly, fill=point_colour(theme, point))
    _home_bars(draw, theme, geom, perspective, game)
    if game != "fevga":
        _directions(draw, theme, geom, perspective)
    img = big.resize((geom.width, geom.height), Image.Resampling.BOX)
    _labels(img, theme, geom, perspective, game)
    return img


def _home_bars(draw: ImageDraw.ImageDraw, theme: Theme, geom: Geometry, perspective: int, game: str) -> None:
    """A band in the owner's checker colour along each home quarter (viewer 19-24, opponent 7-12 or 1-6)."""
    thick = max(3, geom.unit // 8) * SS
    (mine_first, mine_last), (his_first, his_last) = home_quarters(game)
    for owner, first, last in ((perspective, mine_first, mine_last), (1 - perspective, his_first, his_last)):
        colours = theme.checkers[owner]
        a, b = label_box(geom, first), label_box(geom, last)
        x0, x1 = min(a[0], b[0]) * SS, max(a[2], b[2]) * SS - 1
        # on the label band's edge next to the playing field
        y0 = a[1] * SS if first == 19 else a[3] * SS - thick
        draw.rectangle((x0, y0, x1, y0 + thick - 1), fill=colours.body)
        draw.rectangle((x0, y0, x1, y0 + thick - 1), outline=theme.label_dim, width=SS)


def _directions(draw: ImageDraw.ImageDraw, theme: Theme, geom: Geometry, perspective: int) -> None:
    """Portes and Plakoto: which way each player moves, as two small triangles in his colour on the
    label bands over the bar. The viewer runs right to left along the top and left to right along the
    bottom; the opponent the other way round."""
    x0, x1 = geom.left_half[2] * SS, geom.right_half[0] * SS
    mid = (x0 + x1) / 2
    size = min((x1 - x0) / 2.4, geom.label * SS * 0.6)
    bands = ((geom.board[1] - geom.label, geom.board[1]), (geom.board[3], geom.board[3] + geom.label))
    for row, (top, bottom) in enumerate(bands):
        cy = (top + bottom) * SS / 2
        for owner, leftward in ((perspective, row == 0), (1 - perspective, row == 1)):
            colours = theme.checkers[owner]
            cx = mid - size * 0.6 if leftward else mid + size * 0.6
            tip, back = (cx - size / 2, cx + size / 2) if leftward else (cx + size / 2, cx - size / 2)
            poly = [(tip, cy), (back, cy - size / 2), (back, cy + size / 2)]
            draw.polygon(poly, fill=colours.body, outline=colours.rim, width=SS)


def _labels(img: Image.Image, theme: Theme, geom: Geometry, perspective: int, game: str) -> None:
    """Point numbers in the viewer's numbering; the two start points get a disc in their owner's colour."""
    draw = ImageDraw.Draw(img)
    f = font(max(9, int(geom.label * 0.62)), bold=True)
    starts = start_points(game)
    for point in range(1, 25):
        box = label_box(geom, point)
        cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
        if point in starts:
            draw_start_mark(img, theme, geom, point, perspective, game)
            owner = perspective if point == 1 else 1 - perspective
            draw.text((cx, cy), str(point), font=f, fill=theme.checkers[owner].text, anchor="mm")
        else:
            draw.text((cx, cy), str(point), font=f, fill=theme.label, anchor="mm")


def draw_start_mark(
    img: Image.Image, theme: Theme, geom: Geometry, point: int, perspective: int, game: str = "fevga"
) -> None:
    """A pill in the colour of the player whose start (point 1) this is."""
    owner = perspective if point == start_points(game)[0] else 1 - perspective
    colours = theme.checkers[owner]
    box = label_box(geom, point)
    w, h = box[2] - box[0], box[3] - box[1]
    pill = Image.new("RGBA", (w * SS, h * SS), (0, 0, 0, 0))
    d = ImageDraw.Draw(pill)
    m = SS * max(1, h // 9)
    d.rounded_rectangle((m, m, w * SS - m - 1, h * SS - m - 1), radius=h * SS // 2, fill=(*colours.rim, 255))
    m2 = m + SS * max(1, h // 12)
    d.rounded_rectangle((m2, m2, w * SS - m2 - 1, h * SS - m2 - 1), radius=h * SS // 2, fill=(*colours.body, 255))
    pill = pill.resize((w, h), Image.Resampling.BOX)
    img.paste(pill, box[:2], pill)
