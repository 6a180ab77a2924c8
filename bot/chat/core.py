"""BotCore: the one object every frontend talks to. Text or a button in; translated replies out.

It parses the command language, runs intents on the game service, translates the results and draws
the board. Frontends (Discord, Telegram, terminal) only map chat events to these calls.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from bot.chat import draw_pool
from bot.chat.audience import is_private, is_shared, noted_key
from bot.chat.buttons import decode
from bot.chat.pingplan import between_people, ping_plan
from bot.chat.presenter import context_words, present, present_safely
from bot.chat.rating_graph import with_stats_graph
from bot.chat.replay import replay_reply
from bot.commands import intents
from bot.commands.executor import execute
from bot.commands.grammar import parse_command
from bot.delivery import BoardSurface, BoardTracker, NoticeSink, OutboxConsumer, Pinger, PingPlan, PingSurface
from bot.delivery.challenges import ChallengeEnds, ChallengeSurface
from bot.delivery.challenges import remember as remember_challenge
from bot.delivery.replies import Handled, Notice, Reply
from bot.i18n import language_of, translate
from bot.service import GameService, Place, PlayerRef, keys
from bot.service.button_kinds import ButtonKind
from bot.service.migrate import migrate_to_homes
from bot.service.models import Msg, Result
from bot.service.settings import PING_AFTER
from bot.storage import ClusterStore, Commit, DamagedKey, LocalRedis, RedisStore, Store, open_store
from bot.storage.outage import OutageLog, briefly, is_outage
from fevga import DEFAULT_RULES, Rules, format_play, legal_plays
from fevga.variants import any_position_from_id

if TYPE_CHECKING:
    from bot.config import Settings

BOARD_REF_TTL = 60 * 60 * 24 * 30
MAX_REF_BYTES = 200  # "channel:message" or a game id: anything longer is damaged
SESSION_CACHE = 12_000  # decoded sessions kept per instance: 10,000 live games on one instance, with room
log = logging.getLogger("fevga.core")


class BotCore:
    """Platform-neutral bot: ``handle_text``, ``press``, ``tick``, ``updates``; see docs/frontends.md."""

    def __init__(
        self, service: GameService, store: Store, local: LocalRedis | None = None, default_lang: str = "en",
        *, draw: bool = True,
    ) -> None:
        self.draw = draw  # False only for tests that run very many commands
        self.service = service
        self.store = store
        self.local = local
        self.default_lang = default_lang
        self.draining = False  # set on SIGTERM: the health endpoint then says not ready
        self.sinks: dict[str, NoticeSink] = {}  # per platform: where follow-ups (a game's analysis) are posted
        self._follow_ups: set[asyncio.Task[None]] = set()
        self.you: PlayerRef | None = None  # the terminal's own player, addressed as "you" ("You start")
        self.text_boards = True  # boards also as text (the terminal); the chats' frontends turn it off
        self.ping_after = PING_AFTER  # seconds a player is idle before his turn ping, where no place says
        self._tick_outage = OutageLog(log, "timers")  # a store outage said once by the tick loop

    # --- construction ------------------------------------------------------------------------
    @classmethod
    async def create(
        cls,
        *,
        redis_url: str | None = None,
        redis_wait_replicas: int | None = None,
        redis_wait_ms: int = 500,
        store: Store | None = None,
        data_dir: str | Path = "data",
        clock: Callable[[], float] = time.time,
        default_lang: str = "en",
        draw: bool = True,
        **service_options: Any,
    ) -> BotCore:
        """A core on ``store``, or on ``redis_url``, or on a local redis-server / memory (see open_store)."""
        local = None
        if store is None:
            store, local = await asyncio.to_thread(open_store, redis_url, Path(data_dir) / "redis",
                                                   wait_replicas=redis_wait_replicas, wait_ms=redis_wait_ms)
            if isinstance(store, ClusterStore):  # unreachable, TLS or certificates wrong: stop start-up now
                try:
                    await store.connect()
                except BaseException:
                    await store.close()
                    raise
        assert store is not None
        if type(store) is RedisStore:  # one Redis: move keys of the layout before homes (once; idempotent)
            await migrate_to_homes(store.client)
        service_options.setdefault("session_cache_size", SESSION_CACHE)  # no decode per move up to that many games
        service = GameService(store, clock=clock, **service_options)
        return cls(service, store, local, default_lang, draw=draw)

    @classmethod
    async def create_from_settings(cls, settings: Settings) -> BotCore:
        """A core configured from the environment (``bot.config.Settings``)."""
        core = await cls.create(
            redis_url=settings.redis_url,
            redis_wait_replicas=settings.redis_wait_replicas,
            redis_wait_ms=settings.redis_wait_ms,
            data_dir=settings.fevga_data_dir,
            default_lang=settings.fevga_language,
            challenge_ttl=settings.fevga_challenge_ttl_minutes * 60,
            turn_deadline=settings.fevga_turn_deadline_hours * 3600,
            analysis_workers=settings.fevga_analysis_workers,
            analysis_ply=settings.fevga_analysis_ply,
            ai_level=settings.fevga_ai_level,
        )
        core.ping_after = settings.fevga_ping_after_seconds
        return core

    async def close(self) -> None:
        """Stop follow-ups and the analysis workers, close the store and stop a private redis-server."""
        for task in list(self._follow_ups):
            task.cancel()
        await asyncio.gather(*self._follow_ups, return_exceptions=True)
        self.service.close()
        draw_pool.shut_down()  # drawing processes, if any (FEVGA_DRAW_PROCESSES)
        await self.store.close()
        if self.local is not None:
            await asyncio.to_thread(self.local.stop)

    async def healthy(self) -> bool:
        try:
            await self.store.read([("get", "fevga:health")])
        except Exception:  # any failure of the store means unhealthy
            return False
        return True

    # --- language ----------------------------------------------------------------------------
    def t(self, key: str, lang: str, **args: Any) -> str:
        return translate(key, lang, **args)

    async def language(self, actor: PlayerRef | None, place: Place, locale: str | None = None) -> str:
        """The language of personal replies to ``actor`` (``locale``: his platform's language code)."""
        return (await self.languages(actor, place, locale))[0]

    async def place_language(self, place: Place) -> str:
        """The language of boards and shared messages in ``place``."""
        return (await self.languages(None, place))[1]

    async def languages(self, actor: PlayerRef | None, place: Place, locale: str | None = None) -> tuple[str, str]:
        """(personal, shared) languages; the default language when the settings cannot be read."""
        try:
            return await self.service.languages(actor, place, language_of(locale), self.default_lang)
        except Exception as exc:  # a broken setting (or a store that is down) must not stop a reply
            if is_outage(exc):  # the command itself says the store is down, once (see _run)
                log.warning("reading the language failed: %s", briefly(exc))
            else:
                log.exception("reading the language failed")
            return self.default_lang, self.default_lang

    # --- commands ----------------------------------------------------------------------------
    async def handle_text(
        self,
        actor: PlayerRef,
        place: Place,
        text: str,
        *,
        idem: str | None = None,
        mentions: Mapping[str, PlayerRef] | None = None,
        is_admin: bool = False,
        reply_to_game: str | None = None,
        locale: str | None = None,
    ) -> Handled:
        """Run one line of the command language; never raises (a failure becomes an error reply).
        ``locale`` is the platform's language code of the actor (Telegram's ``language_code``)."""
        langs = await self.languages(actor, place, locale)
        lang = langs[0]
        parsed = parse_command(text)
        if isinstance(parsed, intents.CommandError):
            words = context_words(place.platform, lang)  # e.g. "/puzzle" where only commands reach the bot
            said = self.t(parsed.key, lang, **{**words, **parsed.args})
            return Handled(None, [Reply(said, private=True, error=True, code=parsed.key)])
        if isinstance(parsed, intents.Move) and reply_to_game is not None:
            parsed = replace(parsed, game_id=reply_to_game)
        ended: list[dict[str, bytes | str]] = []
        replies = await self._run(actor, place, parsed, langs, idem, mentions, is_admin, text[:100], ended)
        return Handled(parsed, replies, tuple(ended))

    async def press(self, actor: PlayerRef, place: Place, token: str, *, idem: str | None = None,
                    locale: str | None = None) -> Handled:
        """A button came back: its token decodes into the intent its text stands for, run the same way.
        Stale, foreign or forged buttons get a private message and change nothing."""
        langs = await self.languages(actor, place, locale)
        intent = decode(token)
        if intent is None:
            return Handled(None, [Reply(self.t("button_unknown", langs[0]), private=True, error=True)])
        ended: list[dict[str, bytes | str]] = []
        replies = await self._run(actor, place, intent, langs, idem, None, False, token, ended)
        return Handled(intent, replies, tuple(ended))

    async def _run(
        self, actor: PlayerRef, place: Place, intent: intents.Intent, langs: tuple[str, str], idem: str | None,
        mentions: Mapping[str, PlayerRef] | None, is_admin: bool, source: str,
        ended: list[dict[str, bytes | str]] | None = None,
    ) -> list[Reply]:
        """Execute one intent and present its result (a board or game event in the place's language, anything
        else in the actor's); any failure becomes a private error reply. ``ended`` gets the outbox entries of
        the challenges it ended (their messages are edited by the frontend at once)."""
        lang = langs[0]
        try:
            if isinstance(intent, intents.Replay):
                return await replay_reply(self.service, actor, place, lang)
            result = await execute(self.service, actor, place, intent, idem=idem, mentions=mentions, is_admin=is_admin)
            if result.error_key == "store_unavailable":  # the one ERROR line of this command (the layers warn)
                log.error("command %s failed: the store is unavailable", type(intent).__name__,
                          extra={"source": source})
                if self.local is not None and self.store_given_up:  # waiting is vain
                    result = Result.error("store_gave_up", log=str(self.local.data_dir / "redis.log"))
        except Exception:  # the service never raises; a failure here is before or around it: nothing known
            log.exception("command failed", extra={"source": source})
            return [Reply(self.t("internal_error", lang), private=True, error=True)]
        if ended is not None:
            ended.extend(result.challenge_ends)
        if isinstance(intent, intents.Lang) and result.ok:
            lang = intent.code
        elif is_shared(intent, result):
            lang = langs[1]
        self._after_game(result)
        if result.ok and result.view is not None and result.view.status != "play" and result.place is not None:
            await self.service.tournaments.nudge(result.place)  # a match ended: its round may close now
        # The result may be saved already: drawing it must never turn it into an error reply.
        you = self._you_name(place, result)
        replies = await present_safely(result, lang, actor, draw=self.draw, you=you,
                                       text_board=self.text_boards)
        if isinstance(intent, intents.Stats) and intent.versus is None and result.ok and self.draw:
            named = mentions or {}
            who = actor if intent.target is None else named.get(intent.target) or named.get(intent.target.lower())
            replies = await with_stats_graph(replies, self.service.store, who, place, lang)
        if isinstance(intent, intents.ResignPrompt) and result.ok:  # the question is for the resigner only
            replies = [Reply(r.text, buttons=r.buttons, private=True) for r in replies]
        elif result.ok and is_private(intent):  # his own settings: for him only
            note = noted_key(intent, place)
            fallback = self.t(note, lang) if note is not None else None
            replies = [replace(r, private=True, mention=(), fallback=fallback) for r in replies]
        return replies

    def _you_name(self, place: Place, result: Result) -> str | None:
        """The name the terminal's own player has in ``result`` (in its game, the one it started with: a game
        begun before ``lang el`` keeps "You"), so messages about him take the second person; None elsewhere."""
        if self.you is None or self.you.platform != place.platform:
            return None
        seated = [p.name for p in result.view.players if p.same(self.you)] if result.view is not None else []
        return seated[0] if seated else self.you.name

    # --- follow-ups: the analysis after a game -----------------------------------------------------
    def follow_up_to(self, platform: str, sink: NoticeSink) -> None:
        """Post ``platform``'s follow-up messages (the analysis after a game) through ``sink``."""
        self.sinks[platform] = sink

    def _after_game(self, result: Result) -> None:
        """A game just ended: analyse it in the background (never delaying this answer) and post it."""
        won = ("game_won", "game_won_mars", "game_won_mother")
        ended = [m.args.get("game_no") for m in result.messages if m.key in won]
        place, gid = result.place, result.game_id
        if not result.ok or not ended or place is None or gid is None or place.platform not in self.sinks:
            return
        task = asyncio.create_task(self._post_analysis(self.sinks[place.platform], gid, int(ended[0] or 1)))
        self._follow_ups.add(task)
        task.add_done_callback(self._follow_ups.discard)

    async def _post_analysis(self, sink: NoticeSink, game_id: str, game_no: int) -> None:
        """The summary and blunders of a finished game, if the place's ``analysis`` setting wants them."""
        try:
            result = await self.service.game_analysis(game_id, game_no)
            if not result.ok or not result.messages or result.place is None:
                return
            lang = await self.place_language(result.place)
            for reply in await present(result, lang, draw=self.draw, text_board=self.text_boards):
                await sink.deliver_notice(Notice(result.place, reply))
        except asyncio.CancelledError:
            raise
        except Exception:  # a follow-up: the game's own answer went already
            log.exception("posting the analysis of %s failed", game_id)

    # --- games in a place --------------------------------------------------------------------
    async def turn_of(self, place: Place, players: Sequence[PlayerRef]) -> PlayerRef | None:
        """The player to move in the running game of one of ``players`` here (terminal hot-seat)."""
        for player in players:
            result = await self.service.board(player, place)
            if result.ok and result.view is not None and result.view.status == "play":
                return result.view.players[result.view.turn]
        return None

    async def has_game(self, place: Place, player: PlayerRef) -> bool:
        result = await self.service.board(player, place)
        return result.ok and result.view is not None and result.view.status == "play"

    async def suggest_plays(self, actor: PlayerRef, place: Place, typed: str = "", limit: int = 25) -> list[str]:
        """The actor's legal plays (as he would type them) in his game here, those starting with ``typed``;
        empty when it is not his turn. For autocomplete."""
        result = await self.service.board(actor, place)
        view = result.view
        if not result.ok or view is None or view.status != "play" or view.dice is None:
            return []
        if not view.players[view.turn].same(actor):
            return []
        position = any_position_from_id(view.position_id)
        if view.turn == 1:
            position = position.flip()
        rules = Rules.from_dict(view.rules) if view.rules else DEFAULT_RULES
        texts = [format_play(p) for p in legal_plays(position, view.dice, rules) if not p.is_pass]
        start = typed.strip().lower()
        return [t for t in texts if t.startswith(start)][:limit]

    async def remember_board_message(self, game_id: str, platform_ref: str) -> None:
        """Where the board of ``game_id`` is shown (``"channel:message"``), for every instance."""
        commit = Commit().put(keys.board_ref(game_id), platform_ref.encode(), BOARD_REF_TTL)
        commit.put(keys.board_game(platform_ref), game_id.encode(), BOARD_REF_TTL)
        await self.store.commit(commit)

    async def game_for_board_message(self, platform_ref: str) -> str | None:
        """The game whose board is the message ``platform_ref`` (replies to a board move in it)."""
        return await self._stored_text(keys.board_game(platform_ref))

    async def board_message(self, game_id: str) -> str | None:
        """Where the board of ``game_id`` is shown (``"channel:message"``), if anywhere."""
        return await self._stored_text(keys.board_ref(game_id))

    async def _stored_text(self, key: str) -> str | None:
        """A short stored text; None when missing or damaged (not UTF-8, too long, wrong type), logged."""
        try:
            raw = (await self.store.read([("get", key)]))[0]
            if raw is None:
                return None
            if len(raw) > MAX_REF_BYTES:
                raise UnicodeError("too long")
            return raw.decode() if isinstance(raw, bytes) else str(raw)
        except (UnicodeError, DamagedKey):
            log.error("damaged board reference %s", key)
            return None

    async def remember_username(self, platform: str, username: str, player: PlayerRef) -> None:
        """Remember who ``@username`` is (Telegram mentions carry no id), for every instance."""
        name = username.lstrip("@").lower()
        if name and len(name) <= 64:
            value = json.dumps([player.user_id, player.name])
            await self.store.commit(Commit().hset(keys.usernames(platform), name, value))

    async def remember_chat_title(self, platform: str, channel_id: str, title: str) -> None:
        """Remember a chat's title for every instance (``mygames`` names chats without message links by it)."""
        await self.store.commit(Commit().hset(keys.chat_titles(platform), channel_id, title[:100]))

    async def player_by_username(self, platform: str, username: str) -> PlayerRef | None:
        raw = (await self.store.read([("hget", keys.usernames(platform), username.lstrip("@").lower())]))[0]
        try:
            user_id, name = json.loads(raw)
        except (TypeError, ValueError):
            return None
        return PlayerRef(platform, str(user_id), str(name))

    # --- timers and events -------------------------------------------------------------------
    async def tick(self, platform: str | None = None, *, notices: bool = True) -> list[Notice]:
        """Act on due timers (exactly once across instances; only ``platform``'s when given) and say what
        happened where. ``notices=False`` for frontends with an outbox consumer: the notices were written
        to the outbox by the timers' own commits and are delivered from there (exactly once)."""
        out: list[Notice] = []
        try:
            results = await self.service.tick(platform)
        except Exception as exc:
            if not is_outage(exc):
                raise
            self._tick_outage.failed(exc)  # said once per outage, not every tick
            return out
        self._tick_outage.worked()
        for result in results:
            self._after_game(result)  # a game a timer ended (the AI's absent opponent) is analysed too
            if notices:
                out.extend(await self.notices_of(result))
        return out

    async def notices_of(self, result: Result) -> list[Notice]:
        """A timer's result as notices for its place (translated in the place's language)."""
        if result.place is None:
            return []
        lang = await self.place_language(result.place)
        return [Notice(result.place, reply, tuple(result.to_notify)) for reply in await present(result, lang)]

    # --- delivery: the outbox and the board tracker (bot/delivery) -------------------------------
    async def board_reply(self, game_id: str, for_version: int | None = None,
                          messages: Sequence[Msg] = ()) -> tuple[Place, Reply] | None:
        """The board of a game at its stored version (with ``messages`` when that is ``for_version``)."""
        result = await self.service.view_of(game_id)
        place = result.place
        if not result.ok or place is None or result.view is None:
            return None
        if messages and for_version is not None and result.view.version == for_version:
            result = replace(result, messages=list(messages))
        lang = await self.place_language(place)
        for reply in await present(result, lang, draw=self.draw, text_board=self.text_boards):
            if reply.game_id == game_id:
                return place, reply
        return None

    async def turn_notice(self, game_id: str) -> Notice | None:
        """"<player>, it is your turn", pinging the player to move (after a board caught up late)."""
        result = await self.service.view_of(game_id)
        view, place = result.view, result.place
        if not result.ok or view is None or place is None or view.status != "play":
            return None
        mover = view.players[view.turn]
        if mover.platform != place.platform or between_people(view, place.platform):
            return None  # the AI (nobody to ping), or two people: the Pinger pings them
        lang = await self.place_language(place)
        return Notice(place, Reply(self.t("delivery_your_turn", lang, player=mover.name), mention=(mover,)))

    async def live_games(self, platform: str, limit: int = 1000) -> list[str]:
        """Ids of running games of ``platform`` (those with a timer), for the start-up repair."""
        members = [m for found in await self.store.due_many(keys.ALL_TIMERS, 1e18, limit) for m in found]
        return [m.split(":")[1] for m in members if m.startswith("g:") and m.endswith(f":{platform}")]

    async def ping_plan(self, game_id: str) -> PingPlan | None:
        """Who to ping and what to say at a game's stored version (see ``bot.delivery.Pinger``)."""
        return await ping_plan(self.service, self.store, self.language, game_id, self.ping_after)

    def pinger(self, surface: PingSurface) -> Pinger:
        """The turn pings of one frontend (shared by its handlers and its outbox consumer)."""
        return Pinger(self.store, self.ping_plan, surface)

    def delivery(self, platform: str, surface: BoardSurface, sink: NoticeSink, *, group: str,
                 consumer: str, pinger: Pinger | None = None) -> OutboxConsumer:
        """The board tracker and outbox consumer of one frontend (``group``: platform + bot identity);
        ``pinger``: its turn pings, sent after each board entry too."""
        tracker = BoardTracker(self.store, self.board_reply, surface)
        self.follow_up_to(platform, sink)
        ends = ChallengeEnds(self.store, surface, self.describe) if isinstance(surface, ChallengeSurface) else None
        return OutboxConsumer(self.store, platform, group, consumer, tracker, sink, self.notices_of,
                              live_games=lambda: self.live_games(platform), turn_notice=self.turn_notice,
                              challenges=ends, pinger=pinger)

    async def describe(self, place: Place, messages: Sequence[Msg]) -> str:
        """Messages translated into the place's language, one per line (a challenge message's new text)."""
        lang = await self.place_language(place)
        words = context_words(place.platform, lang)  # "left this server" / "this group"
        return "\n".join(self.t(m.key, lang, **{**words, **m.args}) for m in messages)

    @property
    def store_given_up(self) -> bool:
        """Whether the bot's own redis-server kept dying and its watchdog no longer restarts it."""
        return self.local is not None and self.local.given_up

    def challenge_ends(self, surface: ChallengeSurface) -> ChallengeEnds:
        """The challenge messages of a frontend, edited at once by the handler of the command that ended them
        (:meth:`ChallengeEnds.now`), the outbox entry repairing a failed edit."""
        return ChallengeEnds(self.store, surface, self.describe)

    async def remember_challenge_message(self, reply: Reply, ref: str) -> None:
        """If ``reply`` is a challenge (it has an accept button), note where it was posted (``channel:message``),
        so its message is edited when the challenge ends however it ends. Best effort: never raises."""
        for button in reply.buttons:
            intent = decode(button.token) if button.kind is ButtonKind.ACCEPT else None
            if isinstance(intent, intents.Accept) and intent.challenge_id:
                try:
                    await remember_challenge(self.store, intent.challenge_id, ref)
                except Exception:  # the message then keeps its buttons; pressing them says the challenge is gone
                    log.exception("noting the message of challenge %s failed", intent.challenge_id)
                return

    async def updates(self, platform: str) -> AsyncIterator[Notice]:
        """Fresh boards of games on ``platform`` that changed, whichever instance changed them."""
        async for event in self.service.platform_events(platform):
            gid = event.get("game_id")
            if not isinstance(gid, str):
                continue
            result = await self.service.view_of(gid)
            if result.ok and result.place is not None:
                lang = await self.place_language(result.place)
                for reply in await present(result, lang):
                    yield Notice(result.place, reply)
