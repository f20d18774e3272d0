"""The server's security basics: headers on every answer, the page without inline script
or style, the Secure cookie, and a bound on the size of every input the API takes."""

from __future__ import annotations

import re
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402

from nurikabe.web import create_app  # noqa: E402
from nurikabe.web.app import STATIC  # noqa: E402
from nurikabe.web.middleware import CSP  # noqa: E402


@pytest.fixture
def app(tmp_path: Path) -> FastAPI:
    return create_app(tmp_path / "players.sqlite")


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def assert_secured(response: Any, csp: str | None = CSP) -> None:
    headers = response.headers
    assert headers.get("content-security-policy") == csp
    assert headers["x-content-type-options"] == "nosniff"
    assert headers["referrer-policy"] == "same-origin"
    assert headers["x-frame-options"] == "DENY"


def test_every_kind_of_answer_carries_the_security_headers(client: TestClient) -> None:
    assert_secured(client.get("/api/collections"))
    assert_secured(client.get("/api/puzzles/10x10/999999"))  # an error
    assert_secured(client.get("/no/such/page"))
    assert_secured(client.post("/api/check", content=b"{junk"))  # a validation error
    assert_secured(client.get("/static/style.css"))
    assert_secured(client.get("/docs"), csp=None)  # Swagger UI: a CDN and inline script
    page = client.get("/")
    if page.status_code == 200:
        assert_secured(page)


def test_the_csp_allows_no_inline_script_or_style() -> None:
    directives = dict(d.strip().split(" ", 1) for d in CSP.split(";"))
    assert directives["script-src"] == "'self'" and directives["style-src"] == "'self'"
    assert "unsafe" not in CSP and directives["frame-ancestors"] == "'none'"


def test_the_pages_have_no_inline_script_style_or_handlers() -> None:
    """What the CSP would block: an inline <script>, a <style> block, a style attribute,
    an on...= handler, a javascript: link (in the pages and the markup the scripts make)."""
    files = [*STATIC.glob("*.html"), *STATIC.rglob("*.js")]
    assert files
    for path in files:
        text = path.read_text()
        for bad in (
            r"<script(?![^>]*\bsrc=)[^>]*>",
            r"<style\b",
            r"\sstyle=",
            r"\son[a-z]+=",
            r"javascript:",
        ):
            assert not re.search(bad, text), f"{path.name}: {bad}"


def test_the_walkthrough_page_gets_inline_style_but_no_script(client: TestClient) -> None:
    url = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"
    page = client.get("/studio/walkthrough", params={"url": url})
    assert page.status_code == 200 and "<style>" in page.text
    policy = page.headers["content-security-policy"]
    assert "style-src 'self' 'unsafe-inline'" in policy and "script-src 'self';" in policy


def cookie_of(response: Any) -> str:
    return str(response.headers["set-cookie"])


def test_the_cookie_is_secure_over_https_or_when_asked(tmp_path: Path) -> None:
    plain = TestClient(create_app(tmp_path / "a.sqlite"))
    assert "Secure" not in cookie_of(plain.get("/api/settings"))
    over_https = TestClient(create_app(tmp_path / "b.sqlite"), base_url="https://testserver")
    assert "; Secure" in cookie_of(over_https.get("/api/settings"))
    forced = TestClient(create_app(tmp_path / "c.sqlite", https_only=True))
    set_cookie = cookie_of(forced.get("/api/settings"))
    assert "; Secure" in set_cookie and "HttpOnly" in set_cookie and "SameSite=Lax" in set_cookie


# -- every input bounded -------------------------------------------------------------------------

_UNBOUNDED_BY_SCHEMA = {"SettingsRequest.settings"}
"""Inputs the schema cannot bound, bounded by the handler (4 KiB of JSON) and the body
limit (64 KiB); `test_settings_over_their_bound_are_refused` checks it."""


def _bounded_pattern(pattern: str) -> bool:
    """Whether a regular expression, anchored at both ends, bounds the string's length."""
    return pattern.startswith("^") and pattern.endswith("$") and not re.search(r"[*+]", pattern)


def _unbounded(schema: dict[str, Any], where: str, spec: dict[str, Any]) -> list[str]:
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[-1]
        return _unbounded(spec["components"]["schemas"][name], name, spec)
    out: list[str] = []
    for key in ("anyOf", "oneOf", "allOf"):
        for option in schema.get(key, []):
            out += _unbounded(option, where, spec)
    kind = schema.get("type")
    if "enum" in schema or "const" in schema:
        return out
    if kind == "string":
        if "maxLength" not in schema and not _bounded_pattern(schema.get("pattern", "")):
            out.append(where)
    elif kind == "array":
        if "maxItems" not in schema:
            out.append(where)
        for item in [schema.get("items", {}), *schema.get("prefixItems", [])]:
            out += _unbounded(item, f"{where}[]", spec)
    elif kind == "object":
        for name, prop in schema.get("properties", {}).items():
            out += _unbounded(prop, f"{where}.{name}", spec)
        extra = schema.get("additionalProperties")
        if extra not in (None, False) and where not in _UNBOUNDED_BY_SCHEMA:
            out.append(f"{where}.*")
    elif kind in ("integer", "number") and not {"maximum", "exclusiveMaximum"} & set(schema):
        out.append(where)
    return out


def test_every_input_of_the_api_is_bounded(app: FastAPI) -> None:
    """Every string has a maximum length (or a bounded pattern or a set of values),
    every list a maximum count and every number a maximum, in every request body,
    path and query parameter of /openapi.json."""
    spec = app.openapi()
    unbounded: list[str] = []
    for path, operations in spec["paths"].items():
        for method, op in operations.items():
            for param in op.get("parameters", []):
                where = f"{method.upper()} {path} {param['name']}"
                unbounded += _unbounded(param["schema"], where, spec)
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None:
                unbounded += _unbounded(body["schema"], f"{method.upper()} {path}", spec)
    assert not unbounded, sorted(set(unbounded))


def test_settings_over_their_bound_are_refused(client: TestClient) -> None:
    big = {"notes": "x" * 5000}
    answer = client.put("/api/settings", json={"settings": big})
    assert answer.status_code == 413 and answer.json()["error"]["code"] == "too-large"
    deep = '{"settings": {"deep": ' + "[" * 5000 + "1" + "]" * 5000 + "}}"
    answer = client.put(
        "/api/settings", content=deep.encode(), headers={"content-type": "application/json"}
    )
    assert 400 <= answer.status_code < 500  # nesting, not size: the body is 10 KB
