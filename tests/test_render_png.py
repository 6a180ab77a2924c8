"""The board PNG writer (renderers/png.py): what it writes decodes to exactly the picture it was given."""

from __future__ import annotations

import io

import numpy as np
from PIL import Image

from renderers import render_board_image, replay_scenes, samples, tavli_samples
from renderers.png import encode_png


def _decoded(data: bytes) -> Image.Image:
    img = Image.open(io.BytesIO(data))
    img.load()
    return img


def test_a_board_decodes_to_the_same_indexes_and_colours() -> None:
    plakoto = replay_scenes(tavli_samples.random_tavli_game("plakoto", seed=2), ("Νίκος", "Maria"))
    scenes = [samples.mid_game(), samples.bear_off(), plakoto[9]]
    for scene in scenes:
        img = render_board_image(scene, 1)
        back = _decoded(encode_png(img))
        assert back.format == "PNG" and back.mode == "P" and back.size == img.size
        assert back.tobytes() == img.tobytes()
        assert back.convert("RGB").tobytes() == img.convert("RGB").tobytes()


def test_the_palette_chunk_stops_at_the_highest_index_used() -> None:
    img = Image.new("P", (40, 30), 0)
    img.putpalette([7, 8, 9] + [200, 100, 50] + [1, 2, 3] * 254)
    img.paste(1, (5, 5, 20, 20))
    data = encode_png(img)
    assert data[data.index(b"PLTE") - 4 : data.index(b"PLTE")] == (6).to_bytes(4, "big")  # two entries
    back = _decoded(data).convert("RGB")
    assert back.getpixel((0, 0)) == (7, 8, 9) and back.getpixel((10, 10)) == (200, 100, 50)


def test_other_pictures_go_through_pillow_unchanged() -> None:
    rgb = Image.fromarray(np.arange(60 * 40 * 3, dtype=np.uint8).reshape(40, 60, 3) % 251, mode="RGB")
    assert _decoded(encode_png(rgb)).tobytes() == rgb.tobytes()
    clear = Image.new("P", (10, 10), 3)
    clear.putpalette([0, 0, 0] * 256)
    clear.info["transparency"] = 3
    assert _decoded(encode_png(clear)).info.get("transparency") == 3
