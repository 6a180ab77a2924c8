"""100,000 generated inputs through the parser and the service: no exception escapes and every reply
is a known message of the catalogue."""

from __future__ import annotations

import asyncio
import random
import string

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.chat.buttons import decode
from bot.chat.core import BotCore
from bot.commands import intents
from bot.commands.executor import execute
from bot.commands.grammar import ALIASES, parse_command
from bot.i18n import has
from bot.service import Place, PlayerRef
from bot.service.ai import RandomAI
from bot.storage import MemoryStore

ME = PlayerRef("discord", "1", "me")
BOB = PlayerRef("discord", "2", "bob")
HERE = Place("discord", "g", "c")
MENTIONS = {"@bob": BOB, "@me": ME}
WORDS = [*ALIASES, "ai", "hard", "easy", "open", "match", "global", "el", "en", "strict", "unlock14", "@bob", "@me",
         "deadline", "autoplay", "on", "off", "1/7", "7/12", "1/6(2)", "19/off", "α/ζ", "0", "25", "26", "-1", "∞"]


class Fuzzer:
    def __init__(self) -> None:
        self.core = asyncio.run(BotCore.create(store=MemoryStore(), ai=RandomAI(seed=1), draw=False))
        self.count = 0

    async def one(self, text: str) -> None:
        self.count += 1
        intent = parse_command(text)
        if isinstance(intent, intents.CommandError):
            assert has(intent.key), intent.key
            return
        actor = ME if self.count % 3 else BOB
        result = await execute(self.core.service, actor, HERE, intent, idem=str(self.count % 50),
                               mentions=MENTIONS, is_admin=self.count % 2 == 0)
        for message in result.messages:
            assert has(message.key), message.key
        if not await self.core.has_game(HERE, ME):
            await execute(self.core.service, ME, HERE, intents.PlayAI("easy"))

    async def press(self, token: str) -> None:
        self.count += 1
        for reply in (await self.core.press(ME, HERE, token)).replies:
            assert reply.text and "internal" not in reply.text.lower()
        decode(token)


FUZZ = Fuzzer()


def random_line(rng: random.Random) -> str:
    kind = rng.random()
    if kind < 0.4:
        return " ".join(rng.choice(WORDS) for _ in range(rng.randint(1, 5)))
    if kind < 0.6:
        return bytes(rng.randrange(256) for _ in range(rng.randint(0, 60))).decode("utf-8", errors="replace")
    if kind < 0.8:
        return "".join(chr(rng.randrange(0x20, 0x2FFFF)) for _ in range(rng.randint(0, 40)))
    if kind < 0.9:
        return "".join(rng.choice(string.digits + "/ ,()αβγoff") for _ in range(rng.randint(1, 30)))
    return rng.choice(["/", "!", "/fevga ", "!fevga ", ""]) + rng.choice(WORDS) + " " * rng.randint(0, 400)


@settings(max_examples=3000, deadline=None)
@given(st.text(max_size=300))
def test_hypothesis_text(text: str) -> None:
    asyncio.run(FUZZ.one(text))


@settings(max_examples=1500, deadline=None)
@given(st.binary(max_size=100))
def test_hypothesis_bytes_as_button_tokens(data: bytes) -> None:
    asyncio.run(FUZZ.press(data.decode("latin-1")))


def test_one_hundred_thousand_inputs_in_all() -> None:
    rng = random.Random(2026)

    async def run(n: int) -> None:
        for _ in range(n):
            await FUZZ.one(random_line(rng))

    asyncio.run(run(100_000 - FUZZ.count))
    assert FUZZ.count >= 100_000
