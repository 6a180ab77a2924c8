"""Names are drawn as written: CJK, Arabic, Hebrew and emoji come from the fallback fonts (never "?" or the
missing-glyph box), right-to-left text is shaped and ordered, long names are cut by whole characters."""

from __future__ import annotations

import dataclasses
import io

import numpy as np
import pytest
from PIL import Image, ImageDraw, ImageFont

from renderers import render_board, samples
from renderers import textrun as t
from renderers.fallback import Face, face_for, load, primary
from renderers.fonts import font
from renderers.layout import DEFAULT_SIZE, geometry

SIZE = 32
BG, FG = (40, 34, 31), (246, 240, 230)
NOTDEF = "\uffff"  # a noncharacter: every font draws its missing-glyph box for it
NAMES = {"cjk": "张伟", "arabic": "محمد", "hebrew": "שלום", "emoji": "😀🎲", "flag": "🇬🇷", "family": "👨‍👩‍👧"}


def _canvas(width: int = 400) -> Image.Image:
    return Image.new("RGB", (width, 2 * SIZE), BG)


def _chain(text: str) -> np.ndarray:
    img = _canvas()
    t.draw(img, (4, 4), text, SIZE, FG)
    return np.asarray(img, dtype=np.int16)


def _plain(text: str, face: Face | None = None) -> np.ndarray:
    """``text`` drawn by Pillow with one font (DejaVu unless ``face``), left to right, no fallback."""
    img = _canvas()
    f = load(face, SIZE, False) if face is not None else font(SIZE)
    baseline = 4 + font(SIZE).getmetrics()[0]
    ImageDraw.Draw(img).text((4, baseline), text, font=f, fill=FG, anchor="ls", **_ltr())  # type: ignore[arg-type]
    return np.asarray(img, dtype=np.int16)


def _ltr() -> dict[str, str]:
    return {"direction": "ltr"} if t.RAQM else {}


def _literal(text: str, face: Face) -> np.ndarray:
    """``text`` drawn glyph after glyph, left to right, with no bidi or shaping (Pillow's basic layout)."""
    img = _canvas()
    f = ImageFont.truetype(str(face.regular), SIZE, layout_engine=ImageFont.Layout.BASIC)
    ImageDraw.Draw(img).text((4, 4 + font(SIZE).getmetrics()[0]), text, font=f, fill=FG, anchor="ls")
    return np.asarray(img, dtype=np.int16)


def _ink(a: np.ndarray) -> int:
    return int((np.abs(a - np.array(BG, dtype=np.int16)).max(axis=2) > 60).sum())


@pytest.mark.parametrize("kind", sorted(NAMES))
def test_dejavu_alone_draws_boxes_and_the_chain_draws_glyphs(kind: str) -> None:
    name = NAMES[kind]
    drawn = _chain(name)
    assert _ink(drawn) > 40  # something is drawn ...
    assert not np.array_equal(drawn, _plain(NOTDEF * len(t.clusters(name))))  # ... and it is not boxes
    for cluster in t.clusters(name):
        base = cluster[0]
        if kind in ("cjk", "flag", "family") or base == "🎲":  # DejaVu alone draws its missing-glyph box
            assert ord(base) not in primary().cover and np.array_equal(_plain(base), _plain(NOTDEF))
        face = face_for(ord(base))
        assert face is not None and face is not primary()
        alone = _chain(cluster)
        assert _ink(alone) > 10 and not np.array_equal(alone, _plain(NOTDEF))
        if not face.colour:  # not that font's own missing-glyph box either
            assert not np.array_equal(alone, _plain(NOTDEF, face))
    assert "?" not in t.drawable(name) and t.drawable(name) == name


def test_emoji_are_in_colour_and_a_sequence_is_one_glyph() -> None:
    drawn = _chain(NAMES["emoji"])
    r, g, b = drawn[..., 0], drawn[..., 1], drawn[..., 2]
    colourful = (np.maximum(np.maximum(r, g), b) - np.minimum(np.minimum(r, g), b)) > 80
    assert colourful.sum() > 50  # not the monochrome outline DejaVu has for 😀
    family, man = t.width(NAMES["family"], SIZE), t.width("👨", SIZE)
    assert abs(family - man) < 3  # the ZWJ family is one glyph, not three people side by side
    assert t.width(NAMES["flag"], SIZE) < 1.5 * man  # a flag, not two letters


def test_right_to_left_names_are_ordered_and_joined() -> None:
    assert t.RAQM, "Pillow should have raqm (libraqm) here; without it names are only reversed, not joined"
    hebrew = NAMES["hebrew"]
    face = face_for(ord(hebrew[0]))
    assert face is not None
    shown = _chain(hebrew)
    reversed_diff = np.abs(shown - _literal(hebrew[::-1], face)).mean()  # the first letter at the right
    forward_diff = np.abs(shown - _literal(hebrew, face)).mean()  # (up to a pixel of glyph placement)
    assert reversed_diff < 0.4 * forward_diff
    arabic = NAMES["arabic"]
    apart = "\u200c".join(arabic)  # zero-width non-joiners: the letters in their isolated forms
    assert not np.array_equal(_chain(arabic), _chain(apart))


def test_without_raqm_a_right_to_left_run_is_reversed_by_clusters() -> None:
    run = t.Run("שָׁלוֹם", face_for(ord("ש")) or primary(), True)
    assert t._basic(run) == "".join(reversed(t.clusters("שָׁלוֹם")))
    assert t.clusters("שָׁלוֹם") == ["שָׁ", "ל", "וֹ", "ם"]  # marks stay with their letter


def test_clusters_keep_sequences_whole_and_controls_are_dropped() -> None:
    assert t.clusters("a👍🏽🇬🇷👨‍👩‍👧❤️") == ["a", "👍🏽", "🇬🇷", "👨‍👩‍👧", "❤️"]
    assert t.drawable("Ana\u0007\u202e\ue000 ok") == "Ana ok"


def test_long_names_are_cut_by_whole_characters_with_an_ellipsis() -> None:
    for name in ("张伟" * 40, "محمد " * 30, "👨‍👩‍👧" * 30, "Νίκος" * 40):
        cut = t.fit(name, SIZE, 200)
        assert cut.endswith("…") and t.width(cut, SIZE) <= 200
        assert name.startswith(cut[:-1].rstrip())
        assert t.clusters(cut[:-1]) == t.clusters(name)[: len(t.clusters(cut[:-1]))]
    assert t.fit("Ana", SIZE, 200) == "Ana"


def test_the_board_draws_such_names_and_not_question_marks() -> None:
    scene = samples.mid_game()
    geom = geometry(DEFAULT_SIZE)

    def strip(names: tuple[str, str], side: int) -> np.ndarray:
        img = Image.open(io.BytesIO(render_board(dataclasses.replace(scene, names=names), 0))).convert("RGB")
        return np.asarray(img.crop(geom.strips[side]), dtype=np.int16)

    for name in ("张伟 😀", "محمد علي", "🇬🇷 Νίκος"):
        drawn = strip(("Nikos", name), 1)  # player 1's strip is at the top for viewer 0
        assert not np.array_equal(drawn, strip(("Nikos", "?" * len(name)), 1))
        assert not np.array_equal(drawn, strip(("Nikos", NOTDEF * len(name)), 1))
    winner = dataclasses.replace(samples.finished_mars(), names=("张伟", "محمد"))
    assert render_board(winner, 0) != render_board(dataclasses.replace(winner, names=("??", "??")), 0)


def test_runs_are_put_in_visual_order_like_the_bidi_algorithm() -> None:
    def texts(name: str) -> list[str]:
        return [run.text.strip() for run in t.runs(name)]

    assert texts("سارا Ana 张伟") == ["Ana", "张伟", "سارا"]  # left-to-right words keep their order
    assert texts("Ana محمد 😀 علي") == ["Ana", "علي", "", "😀", "محمد"]  # the emoji between Arabic words
    assert texts("שלום 123") == ["123", "שלום"]
    assert texts("Ana 😀🎲") == ["Ana", "😀🎲"]
