"""The setter's studio API (/api/studio/) through FastAPI's TestClient, on a temporary database.

A small puzzle composed clue by clue, every answer checked against the brute-force oracle
(status, forced cells, open cells, both witness boards solutions), exports read back by the
library, bad drafts answered 4xx in the envelope, drafts kept per player, "play this".
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
warnings.filterwarnings("ignore", message=".*httpx2.*")

from fastapi.testclient import TestClient  # noqa: E402

from nurikabe import Board, Puzzle  # noqa: E402
from nurikabe.formats import read  # noqa: E402
from nurikabe.players import SCHEMA_VERSION, open_players  # noqa: E402
from nurikabe.rules import check  # noqa: E402
from nurikabe.solver import Status  # noqa: E402
from nurikabe.web import create_app  # noqa: E402
from nurikabe.web.analysts import run_analysis  # noqa: E402
from tests.bruteforce import black_masks  # noqa: E402

# A 5x5 draft composed clue by clue: no solution, then several, then one.
STEPS = [(0, 5), (8, 5), (20, 1), (23, 4)]


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(tmp_path / "players.sqlite")) as c:
        yield c


def body(clues: list[tuple[int, int | None]], rows: int = 5, cols: int = 5) -> dict[str, Any]:
    return {"rows": rows, "cols": cols, "clues": [list(c) for c in clues]}


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    out = response.json()
    assert out["ok"] is False and out["error"]["code"] == code, out
    assert out["error"]["message"] and "\n" not in out["error"]["message"]


def test_composing_clue_by_clue_matches_the_oracle(client: TestClient) -> None:
    statuses, forced_counts = [], []
    for k in range(1, len(STEPS) + 1):
        clues = STEPS[:k]
        puzzle = Puzzle(5, 5, dict(clues))
        out = client.post("/api/studio/analyze", json=body(clues)).json()
        solutions = black_masks(puzzle)
        expected = {0: "none", 1: "unique"}.get(len(solutions), "multiple")
        assert out["status"] == expected
        assert out["unresolved"] == []
        full = (1 << 25) - 1
        always_black = full if solutions else 0
        always_white = full if solutions else 0
        for mask in solutions:
            always_black &= mask
            always_white &= ~mask
        assert sorted(out["forced"]["black"]) == [i for i in range(25) if always_black >> i & 1]
        assert sorted(out["forced"]["white"]) == [i for i in range(25) if always_white >> i & 1]
        varying = full & ~always_black & ~always_white if solutions else 0
        assert sorted(out["open"]) == [i for i in range(25) if varying >> i & 1]
        if expected == "multiple":
            a, b = out["witness"]
            assert a != b
            for text in (a, b):
                board = Board.from_rows(puzzle, [text[r * 5 : r * 5 + 5] for r in range(5)])
                assert board.black_mask in solutions
                assert not check(puzzle, board)
        else:
            assert out["witness"] == []
        if expected == "unique":
            assert out["level"] in ("easy", "medium", "hard", "expert", "extreme")
            assert out["techniques"] and all(t["steps"] > 0 for t in out["techniques"])
            page = client.get(out["walkthrough"])
            assert page.status_code == 200 and "<svg" in page.text
        else:
            assert out["level"] is None and out["walkthrough"] is None
        assert Puzzle.from_url(out["url"]) == puzzle
        statuses.append(out["status"])
        forced_counts.append(len(out["forced"]["black"]) + len(out["forced"]["white"]))
    assert statuses == ["none", "multiple", "multiple", "unique"]
    assert forced_counts[1] < forced_counts[2] < forced_counts[3] == 25


def test_analysis_without_the_grade(client: TestClient) -> None:
    out = client.post("/api/studio/analyze", json={**body(STEPS), "grade": False}).json()
    assert (
        out["status"] == "unique"
        and len(out["forced"]["black"]) + len(out["forced"]["white"]) == 25
    )
    assert out["level"] is None and out["techniques"] == [] and out["walkthrough"] is None


def test_unknown_clues(client: TestClient) -> None:
    out = client.post("/api/studio/analyze", json=body([(0, None), (15, 3)], 4, 4)).json()
    puzzle = Puzzle(4, 4, {0: -1, 15: 3})
    assert out["status"] == ("multiple" if len(black_masks(puzzle)) > 1 else "unique")
    assert Puzzle.from_url(out["url"]) == puzzle


@pytest.mark.parametrize("format", ["url", "janko", "text"])
def test_export_round_trips(client: TestClient, format: str) -> None:
    clues = [*STEPS[:3], (24, None)]
    out = client.post("/api/studio/export", json={**body(clues), "format": format}).json()
    assert out["format"] == format
    assert read(out["text"]) == Puzzle(5, 5, {c: -1 if v is None else v for c, v in clues})
    back = client.post("/api/studio/read", json={"text": out["text"]}).json()
    assert back == {**body(clues), "clues": [list(c) for c in sorted(clues)]}
    assert_error(client.post("/api/studio/read", json={"text": "junk"}), 400, "bad-puzzle")


def test_export_svg(client: TestClient) -> None:
    out = client.post("/api/studio/export", json={**body(STEPS), "format": "svg"}).json()
    assert out["text"].startswith("<svg") and out["text"].count("<text") == len(STEPS)


@pytest.mark.parametrize(
    ("payload", "status", "code"),
    [
        (body([(0, 0)]), 400, "bad-puzzle"),
        (body([(0, 26)]), 400, "bad-puzzle"),
        (body([(25, 2)]), 400, "bad-puzzle"),
        (body([(3, 2), (3, 4)]), 400, "bad-puzzle"),
        (body([], rows=41, cols=41), 422, "bad-request"),
        (body([], rows=0), 422, "bad-request"),
        ({"rows": 5, "cols": 5, "clues": "junk"}, 422, "bad-request"),
        ({"rows": 5, "cols": 5, "clues": [[0, "x"]]}, 422, "bad-request"),
        ("junk", 422, "bad-request"),
    ],
)
def test_bad_drafts(client: TestClient, payload: Any, status: int, code: str) -> None:
    for path in ("/api/studio/analyze", "/api/studio/play"):
        assert_error(client.post(path, json=payload), status, code)
    assert_error(client.post("/api/studio/export", content=b"{not json"), 422, "bad-request")


def test_forty_by_forty_is_taken(client: TestClient) -> None:
    response = client.post("/api/studio/analyze", json=body([(0, 3)], rows=40, cols=40))
    assert response.status_code == 200
    assert response.json()["status"] in ("multiple", "unknown", "none")


def test_drafts_are_kept_per_player(tmp_path: Path) -> None:
    app = create_app(tmp_path / "players.sqlite")
    with TestClient(app) as alice, TestClient(app) as bob:
        saved = alice.post("/api/studio/drafts", json={**body(STEPS), "name": "first"}).json()
        assert saved["name"] == "first" and [tuple(c) for c in saved["clues"]] == STEPS
        number = saved["id"]
        assert [d["id"] for d in alice.get("/api/studio/drafts").json()["drafts"]] == [number]
        assert bob.get("/api/studio/drafts").json()["drafts"] == []
        assert_error(bob.get(f"/api/studio/drafts/{number}"), 404, "not-found")
        assert_error(bob.delete(f"/api/studio/drafts/{number}"), 404, "not-found")
        changed = alice.put(
            f"/api/studio/drafts/{number}", json={**body([(0, None)]), "name": "second"}
        ).json()
        assert changed["clues"] == [[0, None]] and changed["name"] == "second"
        assert alice.get(f"/api/studio/drafts/{number}").json()["name"] == "second"
        assert alice.delete(f"/api/studio/drafts/{number}").json() == {"ok": True}
        assert alice.get("/api/studio/drafts").json()["drafts"] == []
        assert_error(alice.post("/api/studio/drafts", json=body(STEPS)), 422, "bad-request")


def test_drafts_migration_from_version_1(tmp_path: Path) -> None:
    path = tmp_path / "players.sqlite"
    open_players(path).close()
    import sqlite3

    conn = sqlite3.connect(path)
    conn.execute("DROP TABLE drafts")
    conn.execute("PRAGMA user_version = 1")
    conn.commit()
    conn.close()
    players = open_players(path)
    assert players.save_draft("p", "x", "https://puzz.link/p?nurikabe/3/3/1n") is not None
    assert [d.name for d in players.drafts("p")] == ["x"]
    conn = sqlite3.connect(path)
    assert conn.execute("PRAGMA user_version").fetchone()[0] == SCHEMA_VERSION
    conn.close()


def test_play_imports_a_unique_draft(client: TestClient) -> None:
    out = client.post("/api/studio/play", json=body(STEPS)).json()
    assert out["key"].startswith("imported/") and out["url"] == f"/#{out['key']}"
    collection, number = out["key"].split("/")
    puzzle = client.get(f"/api/puzzles/{collection}/{number}").json()
    assert Puzzle.from_url(puzzle["url"]) == Puzzle(5, 5, dict(STEPS))
    assert_error(client.post("/api/studio/play", json=body(STEPS[:3])), 400, "bad-puzzle")


def test_a_stale_analysis_is_stopped_at_once() -> None:
    from nurikabe import collection as bundled

    conn = bundled.open_db(None, readonly=True)
    puzzle = next(bundled.entries(conn, collection="20x20")).puzzle
    conn.close()
    # Half the clues made ?: a draft whose forced cells take the whole time limit.
    vague = {c: -1 if i % 2 else v for i, (c, v) in enumerate(puzzle.clues.items())}
    draft = Puzzle(puzzle.rows, puzzle.cols, vague)
    began = time.monotonic()
    assert run_analysis(draft, lambda: time.monotonic() > began + 0.3) is None
    assert time.monotonic() - began < 2.0
    found = run_analysis(puzzle, lambda: False)  # a fresh worker answers the next one
    assert found is not None and found.status is Status.UNIQUE and found.level is not None
