"""The ASGI middleware of the game: the anonymous player cookie and the request body limit.

`PlayerCookie` gives every browser an anonymous player id, kept in the cookie
``nk_player`` (random, HttpOnly, SameSite=Lax, one year), and puts it in
``request.state.player``. `BodyLimit` refuses a request body over its limit with a
413 ``too-large`` error before any handler reads it, whether or not the client sent a
Content-Length. `ServerTiming` says in a ``Server-Timing: app;dur=<ms>`` header how long
the app took to start its answer (what the benchmark reads as the server-side time).
"""

from __future__ import annotations

import json
import re
import secrets
import time
from http.cookies import CookieError, SimpleCookie

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from .errors import error_body

__all__ = ["COOKIE", "BodyLimit", "PlayerCookie", "ServerTiming", "new_player_id"]

COOKIE = "nk_player"
"""The cookie that holds the player id."""

_ID = re.compile(r"^[0-9a-f]{32}$")
_MAX_AGE = 365 * 24 * 3600


def new_player_id() -> str:
    """A fresh random player id (32 hex digits)."""
    return secrets.token_hex(16)


def _player_of(scope: Scope) -> str | None:
    for name, value in scope.get("headers", ()):
        if name != b"cookie":
            continue
        try:
            cookie = SimpleCookie(value.decode("latin-1"))
        except CookieError:
            continue
        morsel = cookie.get(COOKIE)
        if morsel is not None and _ID.match(morsel.value):
            return morsel.value
    return None


class PlayerCookie:
    """Put the player id in ``scope["state"]["player"]``; set the cookie when it is new."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        player = _player_of(scope)
        new = player is None
        if player is None:
            player = new_player_id()
        scope.setdefault("state", {})["player"] = player

        async def send_with_cookie(message: Message) -> None:
            if new and message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.append(
                    "set-cookie",
                    f"{COOKIE}={player}; Max-Age={_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax",
                )
            await send(message)

        await self.app(scope, receive, send_with_cookie)


class BodyLimit:
    """Answer 413 ``too-large`` to a request whose body is over `max_bytes`."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    async def _refuse(self, send: Send) -> None:
        body = json.dumps(
            error_body("too-large", f"the request body is over {self.max_bytes} bytes")
        ).encode()
        await send(
            {
                "type": "http.response.start",
                "status": 413,
                "headers": [
                    (b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode()),
                    (b"connection", b"close"),
                ],
            }
        )
        await send({"type": "http.response.body", "body": body})

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope.get("headers", ()):
            if name == b"content-length":
                try:
                    declared = int(value)
                except ValueError:
                    declared = 0
                if declared > self.max_bytes:
                    await self._refuse(send)
                    return
        # Read the whole body (up to the limit) before the app sees it, then replay it.
        chunks: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] != "http.request":
                return  # the client went away
            chunk = message.get("body", b"")
            size += len(chunk)
            if size > self.max_bytes:
                await self._refuse(send)
                return
            chunks.append(chunk)
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        replayed = False

        async def replay() -> Message:
            nonlocal replayed
            if not replayed:
                replayed = True
                return {"type": "http.request", "body": body, "more_body": False}
            return await receive()

        await self.app(scope, replay, send)


class ServerTiming:
    """Add ``Server-Timing: app;dur=<ms>``: from the request's arrival to the answer's start."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        began = time.perf_counter()

        async def send_timed(message: Message) -> None:
            if message["type"] == "http.response.start":
                took = 1000 * (time.perf_counter() - began)
                MutableHeaders(scope=message).append("server-timing", f"app;dur={took:.2f}")
            await send(message)

        await self.app(scope, receive, send_timed)
