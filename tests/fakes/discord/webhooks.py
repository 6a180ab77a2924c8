"""Interaction callbacks and the interaction webhook (follow-ups, @original), as Discord answers them."""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

from aiohttp import web

from .edits import delete_message, edit_message
from .models import EPHEMERAL, LOADING, InteractionResponse, RestCall
from .responses import error, invalid, jresp
from .validation import callback_problems, message_problems

if TYPE_CHECKING:
    from .server import FakeDiscord
    from .state import InteractionRecord


class InteractionRoutes:
    """Handlers for /interactions/{id}/{token}/callback and /webhooks/{app_id}/{token}[/messages/...]."""

    fake: FakeDiscord
    _calls: dict[int, RestCall]

    def _call(self, request: web.Request) -> RestCall:
        return self._calls[id(request)]

    async def callback(self, request: web.Request) -> web.Response:
        rec = self.fake.interactions.get(int(request.match_info["interaction_id"]))
        if rec is None or rec.token != request.match_info["token"]:
            return error(404, 10062, "Unknown interaction")
        if rec.responses:
            return error(400, 40060, "Interaction has already been acknowledged.")
        deadline = self.fake.response_deadline
        if deadline is not None and time.monotonic() - rec.created > deadline:
            return error(404, 10062, "Unknown interaction")  # what Discord answers after 3 s
        call = self._call(request)
        body = call.json or {}
        kind, data = int(body.get("type", 0)), dict(body.get("data") or {})
        if bad := invalid(callback_problems(kind, data, call.files)):
            return bad
        msg = None
        if kind in (4, 5):
            flags = int(data.get("flags") or 0) & EPHEMERAL
            if kind == 5:
                data = {"flags": flags | LOADING}
            else:
                data["flags"] = int(data.get("flags") or 0)
            msg = self.fake.create_message(
                rec.channel_id,
                self.fake.bot_user,
                data,
                call.files,
                webhook_id=self.fake.application_id,
                interaction_id=rec.id,
                interaction_type=rec.type,
                interaction_user=rec.user,
                type=20 if rec.type == 2 else 0,
            )
            rec.original_message_id = msg.id
            await self.fake.announce("MESSAGE_CREATE", msg)
        elif kind in (6, 7) and rec.source_message_id is not None:
            msg = self.fake.stored_messages[rec.source_message_id]
            rec.original_message_id = msg.id
            if kind == 7:
                self.fake.apply_edit(msg, data, call.files)
                await self.fake.announce("MESSAGE_UPDATE", msg)
        elif kind not in (8, 9):
            return error(400, 50035, f"Invalid interaction response type {kind} for interaction type {rec.type}")
        delay = time.monotonic() - rec.created
        rec.responses.append(InteractionResponse(kind, dict(body.get("data") or {}), call.files, msg, delay))
        if request.query.get("with_response") not in ("1", "true", "True"):
            return web.Response(status=204)
        answer: dict[str, Any] = {"interaction": {"id": str(rec.id), "type": rec.type}}
        if msg is not None:
            answer["interaction"].update(
                response_message_id=str(msg.id),
                response_message_loading=kind == 5,
                response_message_ephemeral=msg.ephemeral,
            )
            answer["resource"] = {"type": kind, "message": self.fake.message_payload(msg)}
        else:
            answer["resource"] = {"type": kind}
        return jresp(answer)

    def _record(self, request: web.Request) -> InteractionRecord | None:
        if int(request.match_info["app_id"]) != self.fake.application_id:
            return None
        token = request.match_info["token"]
        return next((r for r in self.fake.interactions.values() if r.token == token and r.responses), None)

    async def followup(self, request: web.Request) -> web.Response:
        rec = self._record(request)
        if rec is None:
            return error(404, 10015, "Unknown Webhook")
        call = self._call(request)
        body = call.json or {}
        if bad := invalid(message_problems(body, call.files, creating=True)):
            return bad
        original = self.fake.stored_messages.get(rec.original_message_id or 0)
        if original is not None and original.loading and not original.deleted and not rec.followup_ids:
            self.fake.apply_edit(original, body, call.files)  # first follow-up replaces "thinking..."
            msg = original
            await self.fake.announce("MESSAGE_UPDATE", msg)
        else:
            msg = self.fake.create_message(
                rec.channel_id,
                self.fake.bot_user,
                body,
                call.files,
                webhook_id=self.fake.application_id,
                interaction_id=rec.id,
                interaction_type=rec.type,
                interaction_user=rec.user,
            )
            await self.fake.announce("MESSAGE_CREATE", msg)
        rec.followup_ids.append(msg.id)
        return jresp(self.fake.message_payload(msg))

    def _webhook_message(self, request: web.Request) -> Any:
        rec = self._record(request)
        if rec is None:
            return None
        mid = request.match_info["message_id"]
        msg_id = rec.original_message_id if mid == "@original" else int(mid)
        allowed = {rec.original_message_id, *rec.followup_ids}
        msg = self.fake.stored_messages.get(msg_id or 0)
        return msg if msg is not None and msg.id in allowed and not msg.deleted else None

    async def get_webhook_message(self, request: web.Request) -> web.Response:
        msg = self._webhook_message(request)
        return jresp(self.fake.message_payload(msg)) if msg else error(404, 10008, "Unknown Message")

    async def patch_webhook_message(self, request: web.Request) -> web.Response:
        msg = self._webhook_message(request)
        if msg is None:
            return error(404, 10008, "Unknown Message")
        return await edit_message(self.fake, msg, self._call(request))

    async def delete_webhook_message(self, request: web.Request) -> web.Response:
        msg = self._webhook_message(request)
        if msg is None:
            return error(404, 10008, "Unknown Message")
        return await delete_message(self.fake, msg)
