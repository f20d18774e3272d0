"""The API's error envelope and the handlers that map every error to it.

Every 4xx and 5xx body is ``{"ok": false, "error": {"code": ..., "message": ...}}`` with a
stable kebab-case code (docs/web-api.md): ``bad-request``, ``not-found``, ``bad-board``,
``bad-puzzle``, ``too-large``, ``timeout``, ``superseded``; 429 ``rate-limited`` and
503 ``busy`` (both with ``Retry-After``: the server is not refusing the input, only
asking the client to come back); and 500 ``database`` (the server's
database file cannot be used) or ``internal`` (a bug). FastAPI's own
errors (validation, unknown routes, wrong methods) are mapped to the same envelope.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

from ..errors import DatabaseError, NurikabeError

if TYPE_CHECKING:  # FastAPI is imported when used: the lanes' workers import ApiError
    from fastapi import FastAPI
    from fastapi.exceptions import RequestValidationError
    from fastapi.responses import JSONResponse

__all__ = ["ApiError", "error_body", "error_response", "install_handlers"]

log = logging.getLogger("nurikabe.web")

_STATUS_CODES = {404: "not-found", 413: "too-large"}


class ApiError(Exception):
    """An error the API answers with: HTTP status, code and one line for people."""

    def __init__(
        self, status: int, code: str, message: str, *, headers: dict[str, str] | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.code = code
        self.message = message
        self.headers = headers or {}
        """Headers the answer carries (``Retry-After`` of a 429 or 503)."""


def error_body(code: str, message: str) -> dict[str, object]:
    """The envelope of one error."""
    return {"ok": False, "error": {"code": code, "message": message}}


def error_response(status: int, code: str, message: str) -> JSONResponse:
    """A JSON response carrying the envelope."""
    from fastapi.responses import JSONResponse

    return JSONResponse(error_body(code, message), status_code=status)


def _validation_message(exc: RequestValidationError) -> str:
    errors = exc.errors()
    if not errors:
        return "invalid request"
    first = errors[0]
    where = ".".join(str(part) for part in first.get("loc", ()) if part != "body")
    message = str(first.get("msg", "invalid value"))
    return f"{where}: {message}" if where else message


def install_handlers(app: FastAPI) -> None:
    """Map every error the app can meet to the envelope."""
    from fastapi import Request
    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(ApiError)
    async def _api_error(request: Request, exc: ApiError) -> JSONResponse:
        response = error_response(exc.status, exc.code, exc.message)
        response.headers.update(exc.headers)
        return response

    @app.exception_handler(DatabaseError)
    async def _database_error(request: Request, exc: DatabaseError) -> JSONResponse:
        log.error("database error on %s %s: %s", request.method, request.url.path, exc)
        return error_response(500, "database", "the server cannot use its database")

    @app.exception_handler(NurikabeError)
    async def _library_error(request: Request, exc: NurikabeError) -> JSONResponse:
        return error_response(400, "bad-request", str(exc).splitlines()[0])

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, exc: RequestValidationError) -> JSONResponse:
        return error_response(422, "bad-request", _validation_message(exc))

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, exc: StarletteHTTPException) -> JSONResponse:
        code = _STATUS_CODES.get(exc.status_code, "bad-request")
        response = error_response(exc.status_code, code, str(exc.detail))
        for name, value in (exc.headers or {}).items():
            response.headers[name] = value
        return response

    @app.exception_handler(Exception)
    async def _internal_error(request: Request, exc: Exception) -> JSONResponse:
        log.exception("internal error on %s %s", request.method, request.url.path)
        return error_response(500, "internal", "internal error")
