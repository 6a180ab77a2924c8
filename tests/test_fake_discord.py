"""The fake Discord server drives a real discord.py bot: slash commands, DynamicItem buttons, files,
deferred answers, threads, prefix commands, and a bot restart with buttons from before it."""

from __future__ import annotations

import asyncio
import io
import logging
import re
from collections.abc import AsyncIterator

import discord
import pytest
from discord import app_commands
from discord.ext import commands
from PIL import Image

from tests.fakes.discord import (
    FakeChannel,
    FakeDiscord,
    FakeGuild,
    FakeMember,
    modal_held,
    point_discord_py_at,
    running_bot,
)

pytestmark = pytest.mark.timeout(30)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def png(colour: str) -> bytes:
    buf = io.BytesIO()
    Image.new("RGB", (8, 8), colour).save(buf, format="PNG")
    return buf.getvalue()


class PressButton(discord.ui.DynamicItem[discord.ui.Button], template=r"demo:press:(?P<target>\d+):(?P<points>\d+)"):
    """A persistent button only the challenged user may press; survives bot restarts."""

    def __init__(self, target: int, points: int) -> None:
        super().__init__(discord.ui.Button(label="Press", custom_id=f"demo:press:{target}:{points}"))
        self.target, self.points = target, points

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Item, match: re.Match[str]):
        return cls(int(match["target"]), int(match["points"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        if interaction.user.id != self.target:
            await interaction.response.send_message("this button is not for you", ephemeral=True)
            return
        bot = interaction.client
        await interaction.response.edit_message(
            content=f"pressed by {interaction.user.name} for {self.points} (bot #{bot.generation})",  # type: ignore[attr-defined]
            attachments=[discord.File(io.BytesIO(png("blue")), "after.png")],
        )


class Demo(commands.GroupCog, group_name="demo"):
    """`/demo hello|slow|thread` (the ignores: mypy infers Never for hybrid_command's Union callback type)."""

    @commands.hybrid_command(name="hello", description="greet a user")  # type: ignore[arg-type]
    @app_commands.describe(user="who", points="how many")
    async def hello(self, ctx: commands.Context[commands.Bot], user: discord.Member, points: int) -> None:
        view = discord.ui.View(timeout=None)
        view.add_item(PressButton(user.id, points))
        await ctx.send(
            f"hello {user.mention}: {points} points", file=discord.File(io.BytesIO(png("red")), "b.png"), view=view
        )

    @commands.hybrid_command(name="slow", description="answer after a defer")  # type: ignore[arg-type]
    async def slow(self, ctx: commands.Context[commands.Bot]) -> None:
        await ctx.defer(ephemeral=True)
        await ctx.send("done thinking", ephemeral=True)

    @commands.hybrid_command(name="thread", description="open a thread")  # type: ignore[arg-type]
    async def thread(self, ctx: commands.Context[commands.Bot]) -> None:
        msg = await ctx.send("opening a thread")
        thread = await msg.create_thread(name="game room")
        await thread.send("inside the thread")


class Naming(discord.ui.Modal, title="Name it"):
    name: discord.ui.TextInput[Naming] = discord.ui.TextInput(label="Name", custom_id="demo:name")

    def __init__(self, choice: str) -> None:
        super().__init__(custom_id="demo:modal")
        self.choice = choice

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message(f"{self.choice} named {self.name.value}")


class Picker(discord.ui.View):
    @discord.ui.select(custom_id="demo:select", options=[discord.SelectOption(label=x) for x in "ab"])
    async def chosen(self, interaction: discord.Interaction, select: discord.ui.Select) -> None:
        await interaction.response.send_modal(Naming(select.values[0]))

    @discord.ui.button(label="Refresh", custom_id="demo:refresh")
    async def refresh(self, interaction: discord.Interaction, button: discord.ui.Button[Picker]) -> None:
        await interaction.response.defer()
        await interaction.edit_original_response(content="refreshed")


class Extras(commands.GroupCog, group_name="extra"):
    @app_commands.command(name="pick", description="autocomplete, select menu and modal")
    async def pick(self, interaction: discord.Interaction, colour: str) -> None:
        await interaction.response.send_message(f"picked {colour}", view=Picker())

    @app_commands.command(name="long", description="follow-ups, a refused one, and an edited original")
    async def long(self, interaction: discord.Interaction) -> None:
        await interaction.response.send_message("first")
        try:
            await interaction.followup.send("x" * 2001)
        except discord.HTTPException as exc:
            await interaction.followup.send(f"refused {exc.code}", ephemeral=True)
        original = await interaction.original_response()
        await interaction.edit_original_response(
            content=f"{original.content}, edited", attachments=[discord.File(io.BytesIO(png("green")), "g.png")]
        )

    @app_commands.command(name="board", description="a components v2 message with an image")
    async def board(self, interaction: discord.Interaction) -> None:
        view = discord.ui.LayoutView()
        view.add_item(
            discord.ui.Container(
                discord.ui.TextDisplay("## Board"),
                discord.ui.MediaGallery(discord.MediaGalleryItem("attachment://board.png")),
                discord.ui.ActionRow(discord.ui.Button(label="Roll", custom_id="lv:roll")),
            )
        )
        await interaction.response.send_message(view=view, file=discord.File(io.BytesIO(png("red")), "board.png"))

    @pick.autocomplete("colour")
    async def colours(self, interaction: discord.Interaction, current: str) -> list[app_commands.Choice[str]]:
        return [app_commands.Choice(name=c, value=c) for c in ("red", "green", "rose") if c.startswith(current)]


class Plain(commands.Cog):
    @commands.command(name="ping")
    async def ping(self, ctx: commands.Context[commands.Bot]) -> None:
        await ctx.author.send("pong in private")
        msg = await ctx.reply("sent you a DM", file=discord.File(io.BytesIO(png("red")), "one.png"))
        await msg.edit(attachments=[*msg.attachments, discord.File(io.BytesIO(png("blue")), "two.png")])
        await ctx.message.add_reaction("\N{WHITE HEAVY CHECK MARK}")


class DemoSetup:
    """setup_hook shared by the plain and the sharded test bot."""

    async def setup_hook(self) -> None:
        bot: commands.Bot = self  # type: ignore[assignment]
        await bot.add_cog(Demo())
        await bot.add_cog(Extras())
        await bot.add_cog(Plain())
        bot.add_dynamic_items(PressButton)


def demo_intents() -> discord.Intents:
    intents = discord.Intents.default()
    intents.message_content = True
    intents.members = True
    return intents


class DemoBot(DemoSetup, commands.Bot):
    def __init__(self, generation: int = 1) -> None:
        super().__init__(command_prefix="!", intents=demo_intents(), guild_ready_timeout=0.05)
        self.generation = generation


class ShardedDemoBot(DemoSetup, commands.AutoShardedBot):
    generation = 1

    def __init__(self) -> None:
        super().__init__(command_prefix="!", intents=demo_intents(), guild_ready_timeout=0.05)

    async def before_identify_hook(self, shard_id: int | None, *, initial: bool = False) -> None:
        """No 5 s pause between shards: the fake has no identify rate limit."""


@pytest.fixture
async def fake(caplog: pytest.LogCaptureFixture) -> AsyncIterator[FakeDiscord]:
    """A running fake with discord.py pointed at it; fails the test if discord.py logged an error."""
    async with FakeDiscord() as server:
        restore = point_discord_py_at(server.api_base, server.gateway_url)
        try:
            yield server
        finally:
            restore()
    errors = [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, errors


async def world(fake: FakeDiscord) -> tuple[FakeGuild, FakeMember, FakeMember, FakeMember]:
    guild = await fake.add_guild("Tavli Club")
    await fake.add_channel(guild, "general")
    alice = await fake.add_member(guild, "alice")
    bob = await fake.add_member(guild, "bob")
    carol = await fake.add_member(guild, "carol")
    return guild, alice, bob, carol


async def test_slash_command_buttons_files_and_restart(fake: FakeDiscord) -> None:
    guild, alice, bob, carol = await world(fake)
    general = next(iter(guild.channels.values()))
    async with running_bot(DemoBot(1), fake.token) as bot:
        cached = bot.get_guild(guild.id)
        assert cached is not None and cached.get_member(bob.id) is not None
        await bot.tree.sync()
        assert sorted(c["name"] for c in fake.commands()) == ["demo", "extra"]
        demo = next(c for c in fake.commands() if c["name"] == "demo")
        hello = next(o for o in demo["options"] if o["name"] == "hello")
        assert demo["name"] == "demo" and hello["type"] == 1
        assert [(o["name"], o["type"]) for o in hello["options"]] == [("user", 6), ("points", 4)]

        handle = await fake.slash_command(alice, general, "demo hello", {"user": bob, "points": 5})
        reply = await handle.original()
        resp = await handle.response()
        assert resp.type == 4 and not resp.ephemeral and resp.files[0].data.startswith(PNG_MAGIC)
        assert reply.content == f"hello <@{bob.id}>: 5 points"
        assert [a.filename for a in reply.attachments] == ["b.png"]
        assert reply.attachments[0].data == png("red")
        assert reply.custom_ids() == [f"demo:press:{bob.id}:5"]
        assert fake.messages(general) == [reply]
        assert fake.message_payload(reply)["interaction_metadata"]["user"]["id"] == str(alice.id)
        assert fake.calls("POST", "/callback")[-1].query["with_response"] == "1"

        outsider = await fake.press_button(carol, reply, f"demo:press:{bob.id}:5")
        answer = await outsider.original()
        assert (await outsider.response()).ephemeral and answer.content == "this button is not for you"
        assert answer not in fake.messages(general) and answer in fake.messages(general, include_ephemeral=True)

        press = await fake.press_button(bob, reply, f"demo:press:{bob.id}:5")
        assert (await press.response()).type == 7
        assert reply.content == "pressed by bob for 5 (bot #1)" and reply.edits == 1
        assert [a.filename for a in reply.attachments] == ["after.png"]
        assert reply.attachments[0].data == png("blue")

    assert not fake.bot_sessions()
    async with running_bot(DemoBot(2), fake.token) as bot:
        assert len(fake.calls("GET", "/users/@me")) == 2  # a fresh login and READY
        stale = await fake.press_button(bob, reply, f"demo:press:{bob.id}:5")
        assert (await stale.response()).type == 7
        assert reply.content == "pressed by bob for 5 (bot #2)" and reply.edits == 2
    assert not fake.unknown_routes


async def test_defer_followup_thread_and_prefix_command(fake: FakeDiscord) -> None:
    guild, alice, bob, _ = await world(fake)
    general = next(iter(guild.channels.values()))
    async with running_bot(DemoBot(1), fake.token) as bot:
        bot.tree.copy_global_to(guild=discord.Object(guild.id))
        await bot.tree.sync(guild=discord.Object(guild.id))
        assert {c["guild_id"] for c in fake.commands(guild)} == {str(guild.id)} and not fake.commands()

        slow = await fake.slash_command(alice, general, "demo", subcommand="slow")
        assert slow.payload["data"]["guild_id"] == str(guild.id)
        resp = await slow.response()
        assert resp.type == 5 and resp.ephemeral
        done = await slow.original()
        assert done.content == "done thinking" and done.ephemeral and not fake.messages(general)

        threaded = await fake.slash_command(alice, general, "demo thread")
        opener = await threaded.original()
        thread: FakeChannel = await fake.wait_for(
            lambda: next((c for c in guild.channels.values() if c.is_thread), None)
        )
        assert thread.id == opener.id and thread.name == "game room" and thread.parent_id == general.id
        inside = await fake.wait_for_message(thread)
        assert inside.content == "inside the thread" and inside.author.id == fake.bot_user.id

        user_msg = await fake.send_message(alice, general, f"!hello {bob.mention} 3")
        reply = await fake.wait_for_message(general, lambda m: m.author.bot, after=user_msg.id)
        assert reply.content == f"hello <@{bob.id}>: 3 points" and reply.attachments[0].data == png("red")

        with pytest.raises(ValueError, match="missing"):
            await fake.slash_command(alice, general, "demo hello", {"user": bob})
        with pytest.raises(discord.NotFound):
            await bot.http.request(discord.http.Route("GET", "/no/such/route"))
        assert fake.unknown_routes[-1].path.endswith("/no/such/route")

    (query,) = fake.gateway_queries
    assert query["v"] == "10" and query["encoding"] == "json"
    assert query["compress"] == discord.utils._ActiveDecompressionContext.COMPRESSION_TYPE


async def test_autocomplete_select_modal_and_resume(fake: FakeDiscord) -> None:
    guild, alice, bob, _ = await world(fake)
    general = next(iter(guild.channels.values()))
    async with running_bot(DemoBot(), fake.token) as bot:
        await bot.tree.sync()
        typing = await fake.autocomplete(alice, general, "extra pick", {"colour": "r"}, focused="colour")
        resp = await typing.response()
        assert resp.type == 8 and resp.choices == [{"name": "red", "value": "red"}, {"name": "rose", "value": "rose"}]

        first = fake.bot_sessions()[0]
        await fake.disconnect_bots(4000)
        await fake.wait_for(lambda: any(p.get("t") == "RESUMED" for s in fake.bot_sessions() for p in s.sent))
        assert fake.bot_sessions()[0].session_id == first.session_id

        picked = await (await fake.slash_command(alice, general, "extra pick", {"colour": "red"})).original()
        assert picked.content == "picked red" and picked.custom_ids() == ["demo:select", "demo:refresh"]
        chosen = await fake.select(bob, picked, "demo:select", ["b"])
        modal = await chosen.response()
        assert modal.type == 9 and modal.data["custom_id"] == "demo:modal"
        await modal_held(fake, bot, "demo:modal")
        submitted = await fake.submit_modal(bob, general, "demo:modal", {"demo:name": "Bobby"}, message=picked)
        assert (await submitted.original()).content == "b named Bobby"
        refresh = await fake.press_button(alice, picked, "demo:refresh")
        assert (await refresh.response()).type == 6
        assert (await refresh.answer()) is picked and picked.content == "refreshed"
        with pytest.raises(KeyError):
            await fake.select(bob, picked, "demo:nope", ["a"])


async def test_sharded_bot_gets_each_guild_on_its_shard() -> None:
    async with FakeDiscord(shard_count=2) as fake:
        restore = point_discord_py_at(fake.api_base, fake.gateway_url)
        try:
            guilds: dict[int, FakeGuild] = {}
            while len(guilds) < 2:  # ids are time based: make guilds until both shards have one
                guild = await fake.add_guild()
                guilds.setdefault((guild.id >> 22) % 2, guild)
            for guild in guilds.values():
                await fake.add_channel(guild, "general")
                await fake.add_member(guild, "alice")
            async with running_bot(ShardedDemoBot(), fake.token) as bot:
                sessions = await fake.wait_until_connected(2)
                assert bot.shard_count == 2 and sorted(x.shard for x in sessions) == [(0, 2), (1, 2)]
                assert all(x.heartbeats >= 1 for x in sessions)  # discord.py beats right after HELLO
                await bot.tree.sync()
                for shard_id, guild in guilds.items():
                    cached = bot.get_guild(guild.id)
                    assert cached is not None and cached.shard_id == shard_id
                    general = next(iter(guild.channels.values()))
                    member = next(m for m in guild.members.values() if not m.user.bot)
                    handle = await fake.slash_command(member, general, "extra pick", {"colour": "green"})
                    assert (await handle.original()).content == "picked green"
        finally:
            restore()


async def test_dm_reply_edits_followups_and_discord_limits(fake: FakeDiscord) -> None:
    guild, alice, bob, _ = await world(fake)
    general = next(iter(guild.channels.values()))
    async with running_bot(DemoBot(), fake.token) as bot:
        await bot.tree.sync()
        said = await fake.send_message(alice, general, "!ping")
        reply = await fake.wait_for_message(general, lambda m: m.author.bot and m.edits == 1, after=said.id)
        assert reply.reference_id == said.id and reply.content == "sent you a DM"
        assert [(a.filename, a.data) for a in reply.attachments] == [("one.png", png("red")), ("two.png", png("blue"))]
        dm = next(c for c in fake.channels.values() if c.type == 1)
        assert dm.recipients == [alice.user] and fake.last_message(dm).content == "pong in private"
        assert fake.dm_channel(alice.user) is dm
        in_dm = await fake.slash_command(alice.user, dm, "extra pick", {"colour": "rose"})
        assert (await in_dm.original()).content == "picked rose" and "user" in in_dm.payload
        reacted = await fake.wait_for(lambda: said.reactions or None)
        assert reacted == ["\N{WHITE HEAVY CHECK MARK}"]

        handle = await fake.slash_command(bob, general, "extra long")
        resp = await handle.response()
        assert resp.type == 4 and resp.delay < 3
        refused = await handle.followup(0)
        assert refused.content == "refused 50035" and refused.ephemeral
        original = await fake.wait_for(lambda: resp.message if resp.message and resp.message.edits else None)
        assert original.content == "first, edited" and [a.data for a in original.attachments] == [png("green")]
        assert [(c.method, c.status) for c in fake.failed_calls()] == [("POST", 400)]
        assert fake.failed_calls()[0].json["content"] == "x" * 2001


async def test_intents_are_honoured_and_live_guild_changes_reach_the_bot(fake: FakeDiscord) -> None:
    guild, alice, _, _ = await world(fake)
    general = next(iter(guild.channels.values()))
    bot = commands.Bot(command_prefix="!", intents=discord.Intents.default(), guild_ready_timeout=0.05)
    async with running_bot(bot, fake.token):
        cached = bot.get_guild(guild.id)
        assert cached is not None and cached.get_member(alice.id) is None  # no members intent: only the bot
        heard = asyncio.create_task(bot.wait_for("message", timeout=5))
        await asyncio.sleep(0)
        await fake.send_message(alice, general, "!secret")
        assert (await heard).content == ""  # no message_content intent
        heard = asyncio.create_task(bot.wait_for("message", timeout=5))
        await asyncio.sleep(0)
        await fake.send_message(alice, general, f"{fake.bot_user.mention} hi")
        assert (await heard).content == f"{fake.bot_user.mention} hi"  # mentions are always readable

        second = await fake.add_guild("Second club")
        channel = await fake.add_channel(second, "tavli")
        found = await fake.wait_for(lambda: bot.get_channel(channel.id))
        assert isinstance(found, discord.TextChannel) and found.guild.id == second.id


async def test_wrong_token_fails_login_and_nothing_else_happens(fake: FakeDiscord) -> None:
    await world(fake)
    with pytest.raises(discord.LoginFailure):
        async with running_bot(DemoBot(), "not-the-token"):
            pass
    assert [(c.path.rsplit("/", 1)[-1], c.status) for c in fake.rest_log] == [("@me", 401)]
    assert not fake.sessions


async def test_components_v2_media_resolve_to_the_uploaded_file(fake: FakeDiscord) -> None:
    guild, alice, _, _ = await world(fake)
    general = next(iter(guild.channels.values()))
    async with running_bot(DemoBot(), fake.token) as bot:
        await bot.tree.sync()
        board = await (await fake.slash_command(alice, general, "extra board")).original()
        assert board.flags & (1 << 15) and board.custom_ids() == ["lv:roll"]
        assert board.attachment("board.png").data == png("red")
        (gallery,) = [c for c in fake.message_payload(board)["components"][0]["components"] if c["type"] == 12]
        assert gallery["items"][0]["media"]["attachment_id"] == str(board.attachment("board.png").id)


async def test_answers_after_the_deadline_are_refused_like_discord() -> None:
    async with FakeDiscord(response_deadline=0.0) as fake:
        restore = point_discord_py_at(fake.api_base, fake.gateway_url)
        try:
            guild, alice, _, _ = await world(fake)
            general = next(iter(guild.channels.values()))
            async with running_bot(DemoBot(), fake.token) as bot:
                await bot.tree.sync()
                handle = await fake.slash_command(alice, general, "extra pick", {"colour": "red"})
                late = await fake.wait_for(lambda: fake.failed_calls() or None)
                assert [(c.path.rsplit("/", 1)[-1], c.status) for c in late] == [("callback", 404)]
                assert not handle.responses
        finally:
            restore()
