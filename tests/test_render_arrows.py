"""Arrows painted from their distance field (renderers/arrows.py): body and outline where the shape is,
nothing elsewhere, the same pixels for the same vector wherever it starts, clipped at the picture's edge."""

from __future__ import annotations

import numpy as np
from PIL import Image

from renderers.arrows import paint_arrows
from renderers.layers import Kit, kit
from renderers.theme import RGB

SIZE = (720, 665)


def _flat(k: Kit) -> Image.Image:
    """A picture all in the felt colour, on the kit's palette."""
    palette = np.array(k.palette.getpalette()[: 256 * 3]).reshape(-1, 3)
    felt = int(np.abs(palette - np.array(k.theme.felt)).sum(axis=1).argmin())
    img = Image.new("P", SIZE, felt)
    img.putpalette(k.palette.getpalette())
    return img


def _near(a: tuple[int, ...], b: RGB, tolerance: int = 24) -> bool:
    return all(abs(x - y) <= tolerance for x, y in zip(a, b, strict=True))


def test_the_shaft_is_the_highlight_outlined_and_nothing_past_it_changes() -> None:
    k = kit("classic", SIZE[0], 0)
    img = _flat(k)
    before = np.asarray(img).copy()
    paint_arrows(img, k, [((200.5, 300.5), (400.5, 300.5))])
    rgb = img.convert("RGB")
    assert _near(rgb.getpixel((300, 300)), k.theme.highlight)
    column = [rgb.getpixel((300, y)) for y in range(290, 311)]
    assert any(_near(p, k.theme.frame_edge, 40) for p in column[:10])  # the outline above the body
    assert any(_near(p, k.theme.frame_edge, 40) for p in column[11:])  # and below it
    changed = np.argwhere(np.asarray(img) != before)
    assert changed[:, 1].min() >= 190 and changed[:, 1].max() <= 402  # the round start to the tip
    assert changed[:, 0].min() >= 300 - k.geom.unit // 2 and changed[:, 0].max() <= 300 + k.geom.unit // 2


def test_the_same_vector_paints_the_same_pixels_wherever_it_starts() -> None:
    k = kit("classic", SIZE[0], 1)
    first, second = _flat(k), _flat(k)
    base = np.asarray(first).copy()
    paint_arrows(first, k, [((100.5, 120.5), (260.2, 301.7))])
    paint_arrows(second, k, [((350.5, 250.5), (510.2, 431.7))])
    a, b = np.argwhere(np.asarray(first) != base), np.argwhere(np.asarray(second) != base)
    assert len(a) > 500
    assert np.array_equal(a + np.array([130, 250]), b)
    assert np.array_equal(np.asarray(first)[tuple(a.T)], np.asarray(second)[tuple(b.T)])


def test_an_arrow_running_off_the_picture_is_cut_at_its_edge() -> None:
    k = kit("classic", SIZE[0], 0)
    img = _flat(k)
    before = np.asarray(img).copy()
    paint_arrows(img, k, [((690.5, 20.5), (760.0, -30.0)), ((5.5, 650.5), (5.5, 640.5))])
    changed = np.argwhere(np.asarray(img) != before)
    assert len(changed) > 50
    assert ((changed[:, 1] >= 680) | (changed[:, 1] <= 20)).all()
