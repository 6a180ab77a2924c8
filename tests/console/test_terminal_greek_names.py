"""A Greek terminal names its players in Greek ("Εσύ", and "Φίλος" at the hot seat) in the messages and on the
boards of games started in Greek, and still speaks to its player in the second person; a game begun in English
keeps its names after ``lang el``."""

from __future__ import annotations

import io
import random
import re
from pathlib import Path

from bot.chat.core import BotCore
from bot.console import ConsoleChat
from bot.storage import LocalRedis, RedisStore
from tests.botkit import a_legal_play_text


async def greek_core(redis_server: LocalRedis, lang: str) -> BotCore:
    """A core on the real redis-server (emptied) whose default language is ``lang`` (FEVGA_LANGUAGE)."""
    store = RedisStore.from_url(redis_server.url)
    await store.client.flushall()
    return await BotCore.create(store=store, default_lang=lang, draw=False)


async def play_some(chat: ConsoleChat, moves: int, seed: int) -> None:
    """``moves`` legal plays typed by whoever is to move at the terminal."""
    rng = random.Random(seed)
    for _ in range(moves):
        view = (await chat.core.service.board(await chat.actor(), chat.place)).view
        assert view is not None and view.status == "play"
        await chat.command(a_legal_play_text(view, rng))


async def test_a_greek_terminal_names_its_players_in_greek(redis_server: LocalRedis, tmp_path: Path) -> None:
    core = await greek_core(redis_server, "el")
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.start()
        await play_some(chat, 2, seed=3)
        await chat.command("resign yes")
        await chat.command("challenge friend")
        await play_some(chat, 3, seed=4)
        text = out.getvalue()
        assert (chat.you.name, chat.friend.name) == ("Εσύ", "Φίλος")
        assert "Εσύ εναντίον του Υπολογιστή" in text and "Εσύ εναντίον του Φίλου" in text, text[:800]
        assert "Έφερες" in text and "Παίζεις εσύ" in text and "· παίζεις" in text  # the second person, boards too
        assert "Ο Φίλος έφερε" in text and "Τελευταία: Φίλος έπαιξε" in text  # the bot's own names: "ο", not "ο/η"
        assert "Προκαλείς τον Φίλο" in text and "/η Φίλος" not in text and "/η Υπολογιστής" not in text
        assert not re.search(r"\b(You|Friend)\b", text), text[-1500:]
        assert "ο/η Εσύ" not in text.lower() and "Εσύ έπαιξε" not in text  # never "Εσύ" in the third person
    finally:
        await core.close()


async def test_lang_el_names_the_next_game_in_greek_and_the_running_one_keeps_its_names(
        redis_server: LocalRedis, tmp_path: Path) -> None:
    core = await greek_core(redis_server, "en")
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.start()
        assert "You against AI" in out.getvalue() and chat.you.name == "You"
        await chat.command("lang el")
        mark = len(out.getvalue())
        await play_some(chat, 1, seed=5)
        view = (await core.service.board(chat.you, chat.place)).view
        assert view is not None and "You" in view.names  # the game begun in English keeps its names
        assert "Έφερες" in out.getvalue()[mark:]  # ... and its player is still spoken to as "you"
        await chat.command("resign yes")
        mark = len(out.getvalue())
        await chat.command("play ai easy")
        assert "Εσύ εναντίον του Υπολογιστή" in out.getvalue()[mark:] and chat.you.name == "Εσύ"
        view = (await core.service.board(chat.you, chat.place)).view
        assert view is not None and "Εσύ" in view.names and "You" not in view.names
    finally:
        await core.close()


async def test_resigning_at_once_in_greek_is_said_to_the_player(redis_server: LocalRedis, tmp_path: Path) -> None:
    """Resigning before both have moved calls the game off: said in the second person ("Παραιτήθηκες"), never
    "Ο/Η Εσύ παραιτήθηκε"."""
    core = await greek_core(redis_server, "el")
    try:
        out = io.StringIO()
        chat = ConsoleChat(core, board_dir=tmp_path, out=out)
        await chat.start()
        await chat.command("resign yes")
        text = out.getvalue()
        assert "Παραιτήθηκες πριν κινήσουν και οι δύο παίκτες" in text, text[-800:]
        assert "ο/η εσύ" not in text.lower()
    finally:
        await core.close()
