"""The ASGI middleware of the game: the player cookie, limits, and the security headers.

`PlayerCookie` gives every browser an anonymous player id, kept in the cookie
``nk_player`` (random, HttpOnly, SameSite=Lax, one year; Secure when the request came
over https, or always with `secure`), and puts it in ``request.state.player``
(``request.state.player_new`` says the request carried none). `PlayerRateLimit` gives
each player a token bucket for the API's requests, and each network address one of
`ADDRESS_PLAYERS` players' worth, and answers 429 ``rate-limited`` with ``Retry-After``
past either. `SecurityHeaders` puts a Content-Security-Policy
(`CSP`: no inline script), ``X-Content-Type-Options: nosniff``, a Referrer-Policy and a
frame policy on every answer. `BodyLimit` refuses a request body over its limit with a
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
from .lanes import RateLimits, fair_of

__all__ = [
    "ADDRESS_PLAYERS",
    "API_BURST",
    "API_DOCS",
    "API_RATE",
    "COOKIE",
    "CSP",
    "BodyLimit",
    "PlayerCookie",
    "PlayerRateLimit",
    "SecurityHeaders",
    "ServerTiming",
    "new_player_id",
]

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
    """Put the player id in ``scope["state"]["player"]``; set the cookie when it is new
    (Secure when the request came over https, as a proxy says with `--proxy-headers`,
    or always when `secure`)."""

    def __init__(self, app: ASGIApp, secure: bool = False) -> None:
        self.app = app
        self.secure = secure

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        player = _player_of(scope)
        new = player is None
        if player is None:
            player = new_player_id()
        state = scope.setdefault("state", {})
        state["player"] = player
        state["player_new"] = new
        secure = "; Secure" if self.secure or scope.get("scheme") == "https" else ""

        async def send_with_cookie(message: Message) -> None:
            if new and message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                headers.append(
                    "set-cookie",
                    f"{COOKIE}={player}; Max-Age={_MAX_AGE}; Path=/; HttpOnly; SameSite=Lax"
                    + secure,
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


API_RATE = 20.0
"""API requests a player may make per second, on average (a person playing fast makes
a save and a check per move, a few moves a second)."""
API_BURST = 100.0
"""API requests a player may make at once (a page load makes about ten)."""
ADDRESS_PLAYERS = 8.0
"""An address's share of the API's requests, in players' shares: what the players
behind one address (a household, a classroom behind NAT) share, and all that a client
making up player ids gets."""


async def _send_error(
    send: Send, status: int, code: str, message: str, headers: dict[str, str]
) -> None:
    body = json.dumps(error_body(code, message)).encode()
    raw = [
        (b"content-type", b"application/json"),
        (b"content-length", str(len(body)).encode()),
    ] + [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers.items()]
    await send({"type": "http.response.start", "status": status, "headers": raw})
    await send({"type": "http.response.body", "body": body})


class PlayerRateLimit:
    """Answer 429 ``rate-limited`` (with ``Retry-After``) to a player over its share of
    the API's requests (`limits`: a token bucket per player; see `lanes.fair_key`), or
    to a request whose network address is over its share (`address_limits`: a bucket
    per address, `ADDRESS_PLAYERS` players' worth, for the players behind one address
    together and for a client that makes up player ids). A request takes a token from
    both or from neither. Sits inside `PlayerCookie`, which names the player."""

    def __init__(
        self, app: ASGIApp, limits: RateLimits, address_limits: RateLimits | None = None
    ) -> None:
        self.app = app
        self.limits = limits
        self.address_limits = address_limits

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or not scope.get("path", "").startswith("/api/"):
            await self.app(scope, receive, send)
            return
        player, address = fair_of(scope)
        wait, who = 0.0, "this player"
        if self.address_limits is not None:
            wait, who = self.address_limits.peek(address), "this network address"
        if wait <= 0:
            wait, who = self.limits.take(player), "this player"
            if wait <= 0 and self.address_limits is not None:
                self.address_limits.take(address)
        if wait > 0:
            seconds = max(1, int(wait + 0.999))
            await _send_error(
                send,
                429,
                "rate-limited",
                f"too many requests from {who}; try again in {seconds} s",
                {"retry-after": str(seconds)},
            )
            return
        await self.app(scope, receive, send)


CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:;"
    " connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self';"
    " frame-ancestors 'none'"
)
"""The Content-Security-Policy of every answer: the page's own files only, no inline
script or style, no framing."""
CSP_INLINE_STYLE = CSP.replace("style-src 'self'", "style-src 'self' 'unsafe-inline'")
"""The policy of an HTML answer that carries its own ``<style>`` (the walkthrough page,
`render.walkthrough`, made for saving as one file): inline style, still no script."""

_SECURITY = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"same-origin"),
    (b"x-frame-options", b"DENY"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


API_DOCS = ("/docs", "/redoc")
"""FastAPI's pages of the API's documentation: they load Swagger UI or ReDoc from a CDN
with an inline script, so they get no Content-Security-Policy (the other headers, yes)."""


class SecurityHeaders:
    """Add the security headers to every answer; an answer that set its own
    Content-Security-Policy keeps it, and the `API_DOCS` pages get none."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        docs = scope.get("path", "").startswith(API_DOCS)

        async def send_secured(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                if "content-security-policy" not in headers and not docs:
                    headers.append("content-security-policy", CSP)
                for name, value in _SECURITY:
                    headers.append(name.decode(), value.decode())
            await send(message)

        await self.app(scope, receive, send_secured)
