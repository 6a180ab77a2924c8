"""A local chat in the terminal: play the AI (default) or both sides (hot-seat) with the same commands
as on Discord and Telegram; the text board is printed after every move and the PNG written beside it."""

from __future__ import annotations

import asyncio
import contextlib
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from bot.chat.core import BotCore
from bot.commands.intents import Challenge, Rematch
from bot.console.demo import run_demo
from bot.delivery.replies import Handled, Notice, Reply
from bot.service.models import Place, PlayerRef
from bot.service.tournaments.adjudication import adjudicate
from bot.service.tournaments.standings import Entrant
from bot.web.links import WebLinks
from bot.web.server import start_local

if TYPE_CHECKING:
    from bot.config import Settings

PROMPT = "fevga> "
QUIT_WORDS = ("quit", "exit", "q", ":q", "έξοδος")
DEMO_WORDS = ("tournament demo", "τουρνουά demo")  # a local Swiss among AI levels (bot/console/demo.py)
DEMO_JOIN_WORDS = ("tournament demo join", "τουρνουά demo join")  # ... with the terminal's player in it


class ConsoleChat:
    """One terminal session: 'you' and, for hot-seat games, a local 'friend' who plays the other side."""

    def __init__(
        self,
        core: BotCore,
        *,
        board_dir: Path,
        out: TextIO | None = None,
        name: str | None = None,
        ai_level: str = "medium",
        links: WebLinks | None = None,
    ) -> None:
        self.core = core
        self.links = links  # the local board page: its link is printed once per game
        self.linked: set[str] = set()
        self.board_dir = board_dir
        self.out = out or sys.stdout  # the standard output of now (not of import time: a test may capture it)
        self.name = name  # a fixed name for the terminal's player; None: "You" in the terminal's language
        self.place = Place("terminal", "terminal", "main")
        self.ai_level = ai_level
        self.lines = 0
        self.prompting = False  # the prompt is on screen, waiting for a line (see from_page)
        self.demo_task: asyncio.Task[object] | None = None  # a demo the terminal's player is in
        self._demo_game: asyncio.Future[bool] | None = None  # his demo match being played: did he win?
        self._demo_lock = asyncio.Lock()
        self.you, self.friend = self.named(core.default_lang)
        core.follow_up_to("terminal", self)  # the analysis after a game is printed when it is ready

    def named(self, lang: str) -> tuple[PlayerRef, PlayerRef]:
        """The terminal's player and hot-seat friend named in ``lang`` ("You"/"Friend", "Εσύ"/"Φίλος"), made
        the core's ``you`` (messages about him read "You start", not "You starts")."""
        you = PlayerRef("terminal", "you", self.name or self.core.t("console_you", lang))
        self.core.you = you
        return you, PlayerRef("terminal", "friend", self.core.t("console_friend", lang))

    async def rename(self) -> None:
        """Name the players in the terminal's language now (after ``lang el``, Greek): a game started from now
        on shows these names; one already going keeps those it started with (the same accounts)."""
        self.you, self.friend = self.named(await self.core.language(self.you, self.place))

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")
        self.out.flush()

    async def deliver_notice(self, notice: Notice) -> None:
        """Print something the bot says on its own (the analysis after a game)."""
        self.show(notice.reply)

    async def from_page(self, handled: Handled) -> None:
        """Print a play made on the board page (web/actions.py calls it): the bot's answer as if typed here,
        the AI's reply and the board included, under a line saying where it came from; the prompt again when
        it was waiting for a line."""
        lang = await self.core.language(self.you, self.place)
        if self.prompting:
            self.say()
        self.say(f"[{self.core.t('web_console_from_page', lang)}]")
        for reply in handled.replies:
            self.show(reply)
        if self.prompting:
            self.out.write(PROMPT)
            self.out.flush()

    async def actor(self) -> PlayerRef:
        """Whose keyboard this is now: in a hot-seat game, the player to move."""
        turn = await self.core.turn_of(self.place, (self.you, self.friend))
        return turn if turn is not None and turn.platform == "terminal" else self.you

    async def start(self) -> None:
        await self.rename()
        lang = await self.core.language(self.you, self.place)
        self.say(self.core.t("console_welcome", lang))
        if not await self.core.has_game(self.place, self.you):
            await self.command(f"play ai {self.ai_level}")
        else:  # a game left from the last run: shown, so the player sees where it stands
            await self.command("board")

    async def command(self, line: str) -> None:
        """Run one typed line and print what the bot answers."""
        self.lines += 1
        words = " ".join(line.lower().lstrip("/!").split())
        if words in DEMO_WORDS:
            await self.demo()
            return
        if words in DEMO_JOIN_WORDS:
            await self.join_demo()
            return
        await self.rename()
        mentions = {name: self.friend for name in ("friend", "@friend", "φίλος", self.friend.name.lower())}
        mentions.update({name: self.you for name in ("you", "@you", "me", "εσύ", self.you.name.lower())})
        actor = await self.actor()
        handled = await self.core.handle_text(actor, self.place, line, idem=None, mentions=mentions, is_admin=True)
        for reply in handled.replies:
            self.show(reply)
        refused = all(reply.error for reply in handled.replies)  # (or the store is down): nothing to accept
        if not refused and isinstance(handled.intent, Challenge) \
                and mentions.get((handled.intent.target or "").lower()) == self.friend:
            # Hot-seat: the friend sits at the same keyboard and accepts at once.
            for reply in (await self.core.handle_text(self.friend, self.place, "accept", idem=None)).replies:
                self.show(reply)
        elif not refused and isinstance(handled.intent, Rematch):  # a hot-seat match's rematch: the friend again
            accepted = (await self.core.handle_text(self.friend, self.place, "accept", idem=None)).replies
            if not all(reply.error for reply in accepted):  # nothing to accept: a rematch against the AI
                for reply in accepted:
                    self.show(reply)
        await self._demo_game_over()

    async def demo(self, **options: Any) -> None:
        """``tournament demo``: a local Swiss among AI players, each round's pairings, results and table printed."""
        lang = await self.core.language(self.you, self.place)
        service = self.core.service
        await run_demo(service.tournaments, service.ai, lambda msg: self.say(self.core.t(msg.key, lang, **msg.args)),
                       **options)

    async def join_demo(self) -> None:
        """``tournament demo join``: the demo with the terminal's player in the field; it runs alongside the
        chat, and each of his matches is a game against the AI of his opponent's level, played here."""
        lang = await self.core.language(self.you, self.place)
        if (self.demo_task is not None and not self.demo_task.done()) or await self.core.has_game(self.place, self.you):
            self.say("! " + self.core.t("tournament_demo_busy", lang))
            return
        human = Entrant(self.you.user_id, 1500.0, self.you.name)
        self.demo_task = asyncio.create_task(self.demo(human=human, human_play=self._demo_match))

    async def _demo_match(self, level: str) -> bool:
        """Play the terminal player's demo match against the AI at ``level``; whether he won."""
        self._demo_game = asyncio.get_running_loop().create_future()
        await self.command(f"play ai {level} fevga")  # the demo is a Fevga event, whatever the place plays
        await self._demo_game_over()  # a game that could not start (or ended at once) is a loss
        return await self._demo_game

    async def _demo_game_over(self) -> None:
        """After each line: when the player's demo match has ended, hand its result to the demo."""
        async with self._demo_lock:  # the demo's own look and the player's next line may come at once
            waiting = self._demo_game
            if waiting is None or waiting.done():
                return
            view = (await self.core.service.board(self.you, self.place)).view
            if view is None or view.status != "play":
                winner = view.winner if view is not None else None
                if view is not None and view.status == "aborted":  # called off: judged as it stands, as events do
                    winner = await self._judge_called_off(view.game_id)
                waiting.set_result(view is not None and winner is not None and view.players[winner].same(self.you))

    async def _judge_called_off(self, game_id: str) -> int | None:
        """The seat that wins the player's called-off demo match by a tournament's rule for a match stopped
        before its end (bot/service/tournaments/adjudication.py), told to him; None: neither."""
        s = (await self.core.service.sessions.load(game_id, take=False)).session
        if s is None:
            return None
        verdict = adjudicate(s, time.time())
        lang = await self.core.language(self.you, self.place)
        winner = "-" if verdict.winner is None else s.players[verdict.winner].name
        self.say(self.core.t(f"tournament_demo_called_off_{verdict.reason}", lang, winner=winner))
        return verdict.winner

    def show(self, reply: Reply) -> None:
        if reply.text:  # what happened first, then the board with whose turn it is
            self.say(("! " if reply.error else "") + reply.text)
        if reply.board_text:
            self.say(reply.board_text)
        if self.links is not None and reply.game_id and reply.game_id not in self.linked:
            self.linked.add(reply.game_id)
            lang = reply.lang or self.core.default_lang  # the board's language (lang el: Greek)
            self.say(f"[{self.core.t('web_open_board', lang)}: {self.links.page(reply.game_id)}]")
        if reply.image is not None and reply.image_name:
            self.board_dir.mkdir(parents=True, exist_ok=True)
            suffix = Path(reply.image_name).suffix or ".png"
            path = self.board_dir / f"{reply.game_id or 'fevga'}{suffix}"
            path.write_bytes(reply.image)
            self.say(f"[picture: {path}]")
        for n, (png, caption) in enumerate(reply.pictures, 1):  # an analysis's blunders: text already said
            self.board_dir.mkdir(parents=True, exist_ok=True)
            path = self.board_dir / f"blunder-{n}.png"
            path.write_bytes(png)
            self.say(f"[picture: {path}] {caption}")
        if reply.document is not None and reply.document_name:
            self.board_dir.mkdir(parents=True, exist_ok=True)
            path = self.board_dir / reply.document_name
            path.write_bytes(reply.document)
            self.say(f"[file: {path}]")
        if reply.buttons:
            self.say("  " + "  ".join(f"[{b.label}]" for b in reply.buttons))

    async def run(self, read_line: Callable[[], str | None]) -> None:
        """Read lines until end of input or ``quit``."""
        await self.start()
        while True:
            self.out.write(PROMPT)
            self.out.flush()
            self.prompting = True
            try:
                line = await read_in_background(read_line)
            finally:
                self.prompting = False
            if line is None or line.strip().lower() in QUIT_WORDS:
                self.say()
                break
            if line.strip():
                await self.command(line)


async def read_in_background(read_line: Callable[[], str | None]) -> str | None:
    """One line read in a daemon thread: a Ctrl-C at the prompt ends the program at once (a line read in the
    loop's executor kept it waiting for Enter, since the executor's threads are joined at exit)."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[str | None] = loop.create_future()

    def settle(value: str | None, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(value)

    def work() -> None:
        try:
            value, error = read_line(), None
        except Exception as exc:  # handed to the waiting coroutine
            value, error = None, exc
        with contextlib.suppress(RuntimeError):  # the loop is closed: nobody waits any more
            loop.call_soon_threadsafe(settle, value, error)

    threading.Thread(target=work, name="terminal-input", daemon=True).start()
    return await done


def _read_stdin() -> str | None:
    line = sys.stdin.readline()
    return line if line else None


async def run_console(core: BotCore, *, board_dir: Path, ai_level: str = "medium",
                      settings: Settings | None = None) -> None:
    """Run the terminal chat on standard input and output, with the board page on a local port (printed),
    where the terminal's players can also play from this machine."""
    chat = ConsoleChat(core, board_dir=board_dir, ai_level=ai_level)
    local = (await start_local(core, settings, (chat.you, chat.friend), on_play=chat.from_page)
             if settings is not None else None)
    chat.links = local[1] if local else None
    if settings is not None and local is None:  # said here, not only in the log file
        chat.say(f"[{core.t('web_console_no_page', await core.language(chat.you, chat.place))}]")
    try:
        await chat.run(_read_stdin)
    finally:
        if local is not None:
            await local[0].cleanup()
