"""The game's JSON API (docs/web-api.md) through FastAPI's TestClient, on a temporary database.

Every endpoint, bad input answered with 4xx errors in the envelope, whole puzzles played
by following the hints (each step checked against the unique solution), players kept
apart, progress kept across app instances, and a schemathesis run over /openapi.json.
"""

from __future__ import annotations

import io
import time
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("fastapi")
warnings.filterwarnings("ignore", message=".*httpx2.*")  # starlette's TestClient on httpx

import schemathesis  # noqa: E402
from fastapi import FastAPI  # noqa: E402
from fastapi.testclient import TestClient  # noqa: E402
from hypothesis import HealthCheck, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from schemathesis import GenerationMode  # noqa: E402

from nurikabe import Puzzle  # noqa: E402
from nurikabe.rules import check  # noqa: E402
from nurikabe.web import create_app  # noqa: E402
from nurikabe.web.games import parse_board  # noqa: E402

URL = "https://puzz.link/p?nurikabe/5/5/g5k2o1k3g"

CLASSIC_15_0 = (
    "https://puzz.link/p?nurikabe/15/15/g3g2g3j2s4i2h3h2g2zg2n2g1g2l2g3j6g3i2w1m1x4h1h3g1g2g2"
    "g1k1i1l1g2j2h3r3l1h4m2g3h2p1"
)
CLASSIC_20_49 = (
    "https://puzz.link/p?nurikabe/20/20/k2m2i6h2l4l2l3o5j3n4g3h2m3j3h4k2zo4p3l2l2h3k4h5g3q3g4"
    "o3h4g6l5n1k3u1t2n1r4g1m3k4u1n3i2h3j3h2g7j1z3h4i4j5g4m4zj2g6g"
)
"""The first classic 15x15 and the last classic 20x20 puzzle (generator 7), pinned."""


@pytest.fixture
def db(tmp_path: Path) -> Path:
    return tmp_path / "players.sqlite"


FAST = {"rate": 1e6, "burst": 1e6}
"""The tests play faster than any person: no rate limit (tests/web/test_lanes.py has it)."""


@pytest.fixture
def app(db: Path) -> FastAPI:
    return create_app(db, **FAST)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as c:
        yield c


def assert_error(response: Any, status: int, code: str) -> None:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["ok"] is False and body["error"]["code"] == code, body
    assert body["error"]["message"] and "\n" not in body["error"]["message"]


def apply(board: str, cells: list[list[Any]]) -> str:
    out = list(board)
    for cell, color in cells:
        out[cell] = "#" if color == "black" else "."
    return "".join(out)


# -- puzzles ---------------------------------------------------------------------------------


def test_collections_list_the_bundled_sets(client: TestClient) -> None:
    body = client.get("/api/collections").json()
    by_name = {c["name"]: c for c in body["collections"]}
    assert body["ok"] and {"10x10", "15x15", "20x20"} <= set(by_name)
    ten = by_name["10x10"]
    assert (ten["rows"], ten["cols"]) == (10, 10)
    assert sum(ten["levels"].values()) == ten["count"] == 500


def test_classic_numbers_keep_their_puzzles_and_new_ones_follow(client: TestClient) -> None:
    """The rebuild (issue 36) appended generator 8's puzzles after the classic ones:
    every key a player may have stays the puzzle it was, and 30x30 comes after 20x20."""
    names = [c["name"] for c in client.get("/api/collections").json()["collections"]]
    assert names[:4] == ["10x10", "15x15", "20x20", "30x30"]
    # the first and last classic 15x15 and 20x20 puzzles, as generator 7 made them
    classic = {
        "15x15/0": CLASSIC_15_0,
        "20x20/49": CLASSIC_20_49,
    }
    for key, url in classic.items():
        assert client.get(f"/api/puzzles/{key}").json()["url"] == url
    for key, size in (("15x15/100", 15), ("20x20/50", 20), ("30x30/0", 30)):
        body = client.get(f"/api/puzzles/{key}").json()
        assert body["ok"] and (body["rows"], body["cols"]) == (size, size)
        assert body["url"] not in classic.values()
    # generator 11's 20x20 extreme run, made from expert puzzles by taking clues away
    levels = {client.get(f"/api/puzzles/20x20/{n}").json()["level"] for n in range(90, 95)}
    assert levels == {"extreme"}
    # generator 14's easy and medium runs follow the last runs of 15x15 and 20x20, then
    # come generator 17's hard and expert runs and generator 18's expert and extreme runs
    # of 20x20, and generator 18's easy and medium runs end 20x20 (and 15x15 but for
    # generator 19's extreme run); generator 15's hard run and generator 17's expert and
    # extreme runs end 30x30
    runs = {
        "15x15/165": "easy",
        "20x20/95": "easy",
        "20x20/104": "medium",
        "20x20/105": "hard",
        "20x20/124": "expert",
        "20x20/125": "expert",
        "20x20/134": "extreme",
        "15x15/170": "easy",
        "15x15/189": "medium",
        "15x15/190": "extreme",
        "15x15/194": "extreme",
        "20x20/135": "easy",
        "20x20/154": "medium",
        "30x30/44": "hard",
        "30x30/45": "expert",
        "30x30/54": "extreme",
    }
    for key, level in runs.items():
        body = client.get(f"/api/puzzles/{key}").json()
        assert body["ok"] and body["level"] == level


def test_a_puzzle_by_collection_and_number(client: TestClient) -> None:
    body = client.get("/api/puzzles/15x15/3").json()
    assert body["key"] == "15x15/3" and (body["rows"], body["cols"]) == (15, 15)
    puzzle = Puzzle.from_url(body["url"])
    assert {cell: value for cell, value in body["clues"]} == dict(puzzle.clues)
    assert body["level"] in ("easy", "medium", "hard", "expert") and body["progress"] is None


def test_unknown_puzzles_and_routes_are_404_in_the_envelope(client: TestClient) -> None:
    assert_error(client.get("/api/puzzles/10x10/500"), 404, "not-found")
    assert_error(client.get("/api/puzzles/nosuch/1"), 404, "not-found")
    assert_error(client.get("/api/puzzles/imported/1"), 404, "not-found")
    assert_error(client.get("/api/nothing"), 404, "not-found")
    assert_error(client.get("/static/nothing.js"), 404, "not-found")
    assert_error(client.post("/api/solve", json={"key": "10x10/999999"}), 404, "not-found")
    assert_error(client.get("/api/puzzles/10x10/abc"), 422, "bad-request")
    assert_error(client.get("/api/puzzles/10x10/-1"), 422, "bad-request")
    assert_error(client.delete("/api/settings"), 405, "bad-request")


def test_next_wraps_and_filters_by_level(client: TestClient) -> None:
    assert client.get("/api/puzzles/next", params={"key": "10x10/7"}).json()["key"] == "10x10/8"
    assert client.get("/api/puzzles/next", params={"key": "10x10/499"}).json()["key"] == "10x10/0"
    hard = client.get("/api/puzzles/next", params={"key": "10x10/0", "level": "hard"}).json()
    assert hard["level"] == "hard" and hard["number"] > 0
    assert_error(client.get("/api/puzzles/next", params={"key": "x"}), 422, "bad-request")
    assert_error(
        client.get("/api/puzzles/next", params={"key": "10x10/1", "level": "weird"}),
        422,
        "bad-request",
    )
    assert_error(client.get("/api/puzzles/next", params={"key": "nosuch/1"}), 404, "not-found")


def test_random_prefers_unsolved_puzzles(client: TestClient) -> None:
    params = {"collection": "10x10", "level": "extreme"}
    first = client.get("/api/puzzles/random", params=params).json()
    assert first["level"] == "extreme" and first["collection"] == "10x10"
    # Solve all extreme puzzles but one: random must then give that one.
    listed = client.get("/api/collections").json()["collections"]
    count = next(c for c in listed if c["name"] == "10x10")["levels"]["extreme"]
    assert count == 9  # 10 made; #492 regraded expert (docs/grading.md, "Regrades")
    extremes = []
    key = "10x10/0"
    for _ in range(count):
        nxt = client.get("/api/puzzles/next", params={"key": key, "level": "extreme"}).json()
        extremes.append(nxt["key"])
        key = nxt["key"]
    assert len(set(extremes)) == count
    for key in extremes[:-1]:
        solution = client.post("/api/solve", json={"key": key}).json()["solution"]
        saved = client.put(f"/api/progress/{key}", json={"board": solution, "seconds": 9})
        assert saved.json()["solved"] is True
    for _ in range(3):
        assert client.get("/api/puzzles/random", params=params).json()["key"] == extremes[-1]
    assert_error(
        client.get("/api/puzzles/random", params={"collection": "30x30", "level": "easy"}),
        404,
        "not-found",
    )


# -- import ----------------------------------------------------------------------------------


def test_import_stores_a_puzzle_once_whatever_the_format(client: TestClient) -> None:
    first = client.post("/api/import", json={"text": URL}).json()
    assert first["collection"] == "imported" and first["url"] == URL
    again = client.post("/api/import", json={"text": URL}).json()
    as_text = client.post("/api/import", json={"text": Puzzle.from_url(URL).to_text()}).json()
    assert first["key"] == again["key"] == as_text["key"]
    other = client.post("/api/import", json={"text": "https://puzz.link/p?nurikabe/3/2/1j2"})
    assert other.status_code == 200 and other.json()["key"] != first["key"]
    got = client.get(f"/api/puzzles/{first['key']}").json()
    assert got["clues"] == first["clues"]
    solution = client.post("/api/solve", json={"key": first["key"]}).json()["solution"]
    puzzle = Puzzle.from_url(URL)
    assert check(puzzle, parse_board(puzzle, solution), mode="all") == []


def test_an_imported_puzzle_is_played_like_the_others(client: TestClient) -> None:
    first = client.post("/api/import", json={"text": URL}).json()
    second = client.post("/api/import", json={"text": "https://puzz.link/p?nurikabe/3/2/1j2"})
    key, other = first["key"], second.json()["key"]
    after = client.get("/api/puzzles/next", params={"key": key}).json()
    assert after["key"] == other
    assert client.get("/api/puzzles/next", params={"key": other}).json()["key"] == key
    board = apply("?" * 25, [[c, "white"] for c, _ in first["clues"]])
    hint = client.post("/api/hint", json={"key": key, "board": board}).json()
    assert hint["kind"] == "step" and hint["cells"]
    solution = client.post("/api/solve", json={"key": key}).json()["solution"]
    assert all(solution[c] == ("#" if color == "black" else ".") for c, color in hint["cells"])
    saved = client.put(f"/api/progress/{key}", json={"board": solution, "seconds": 4})
    assert saved.json() == {"ok": True, "best_seconds": 4.0, "solved": True}
    picked = client.get("/api/puzzles/random", params={"collection": "imported"}).json()
    assert picked["key"] == other  # the unsolved one


def test_bad_imports_are_4xx(client: TestClient) -> None:
    assert_error(
        client.post("/api/import", json={"text": "https://puzz.link/p?nurikabe/5/5/"}),
        400,
        "bad-puzzle",
    )
    assert_error(client.post("/api/import", json={"text": "hello world"}), 400, "bad-puzzle")
    assert_error(client.post("/api/import", json={"text": ""}), 422, "bad-request")
    big = Puzzle.from_clues(41, 41, [(0, 0, 1)]).to_url()
    assert_error(client.post("/api/import", json={"text": big}), 413, "too-large")
    # Two solutions, and none.
    assert_error(client.post("/api/import", json={"text": "2 2\n1 0\n0 1"}), 400, "bad-puzzle")
    assert_error(client.post("/api/import", json={"text": "2 2\n4 0\n0 1"}), 400, "bad-puzzle")


# -- check, hint, solve ----------------------------------------------------------------------


def test_check_reports_rules_and_wrong_cells(client: TestClient) -> None:
    key = "10x10/0"
    p = client.get(f"/api/puzzles/{key}").json()
    n = p["rows"] * p["cols"]
    solution = client.post("/api/solve", json={"key": key}).json()["solution"]
    empty = client.post("/api/check", json={"key": key, "board": "?" * n}).json()
    assert empty == {"ok": True, "violations": [], "wrong": [], "solved": False, "complete": False}
    black = solution.replace(".", "?")  # the black cells alone solve it (dots are optional)
    assert client.post("/api/check", json={"key": key, "board": black}).json()["solved"] is True
    done = client.post("/api/check", json={"key": key, "board": solution}).json()
    assert done["solved"] and done["complete"] and not done["wrong"] and not done["violations"]
    flipped = next(i for i, ch in enumerate(solution) if ch == "." and i not in dict(p["clues"]))
    wrong = solution[:flipped] + "#" + solution[flipped + 1 :]
    body = client.post("/api/check", json={"key": key, "board": wrong}).json()
    assert body["wrong"] == [flipped] and not body["solved"]
    allblack = client.post("/api/check", json={"key": key, "board": "#" * n}).json()
    assert "pool" in {v["code"] for v in allblack["violations"]}
    assert all(isinstance(c, int) for v in allblack["violations"] for c in v["cells"])


def test_bad_boards_and_bodies_are_4xx(client: TestClient) -> None:
    key = "10x10/0"
    assert_error(client.post("/api/check", json={"key": key, "board": "?" * 99}), 400, "bad-board")
    assert_error(client.post("/api/hint", json={"key": key, "board": "?" * 101}), 400, "bad-board")
    assert_error(
        client.post("/api/check", json={"key": key, "board": "?" * 99 + "x"}), 400, "bad-board"
    )
    assert_error(
        client.put("/api/progress/10x10/0", json={"board": "?" * 99 + "1"}), 400, "bad-board"
    )
    assert_error(client.post("/api/check", json={"key": key}), 422, "bad-request")
    assert_error(client.post("/api/check", json={"key": "10x10", "board": ""}), 422, "bad-request")
    headers = {"content-type": "application/json"}
    for junk in (b"junk{", b"[" * 20000, b"\xff\xfe", b"null", b'{"key": 1e999}'):
        response = client.post("/api/check", content=junk, headers=headers)
        assert 400 <= response.status_code < 500 and response.json()["ok"] is False, junk
    huge = b'{"text": "' + b"x" * 70_000 + b'"}'
    assert_error(client.post("/api/import", content=huge, headers=headers), 413, "too-large")

    def chunks() -> Iterator[bytes]:  # no Content-Length: the limit counts the bytes read
        for _ in range(100):
            yield b"x" * 1000

    assert_error(client.post("/api/import", content=chunks(), headers=headers), 413, "too-large")
    bad_seconds = {"board": "?" * 100, "seconds": -1}
    assert_error(client.put("/api/progress/10x10/0", json=bad_seconds), 422, "bad-request")


def test_a_hint_shows_mistakes_first(client: TestClient) -> None:
    key = "10x10/0"
    solution = client.post("/api/solve", json={"key": key}).json()["solution"]
    cell = solution.index("#")
    board = "?" * cell + "." + "?" * (len(solution) - cell - 1)
    body = client.post("/api/hint", json={"key": key, "board": board}).json()
    assert body == {"ok": True, "kind": "mistakes", "wrong": [cell]}
    assert client.post("/api/hint", json={"key": key, "board": solution}).json() == {
        "ok": True,
        "kind": "solved",
    }


@pytest.mark.parametrize("key", ["10x10/0", "10x10/300", "10x10/450"])
def test_following_the_hints_solves_the_puzzle_and_every_step_is_right(
    client: TestClient, key: str
) -> None:
    puzzle = client.get(f"/api/puzzles/{key}").json()
    solution = client.post("/api/solve", json={"key": key}).json()["solution"]
    board = apply(
        "?" * (puzzle["rows"] * puzzle["cols"]), [[c, "white"] for c, _ in puzzle["clues"]]
    )
    moves: list[str] = []
    seconds = 0.0
    first_solved = None
    for _ in range(len(board)):
        hint = client.post("/api/hint", json={"key": key, "board": board}).json()
        if hint["kind"] == "solved":
            break
        assert hint["kind"] == "step", hint
        assert hint["cells"] and hint["message"] and hint["name"]
        for cell, color in hint["cells"]:
            assert board[cell] == "?", (hint, cell)
            assert solution[cell] == ("#" if color == "black" else "."), (hint, cell)
        board = apply(board, hint["cells"])
        moves.append(hint["technique"][:16])
        seconds += 1
        checked = client.post("/api/check", json={"key": key, "board": board}).json()
        assert checked["wrong"] == [] and checked["violations"] == []
        saved = client.put(
            f"/api/progress/{key}", json={"board": board, "seconds": seconds, "moves": moves}
        ).json()
        assert saved["solved"] == checked["solved"]
        if checked["solved"] and first_solved is None:
            first_solved = seconds  # every black cell found: solved, though dots remain
    assert board == solution
    progress = client.get("/api/progress").json()
    assert [s["key"] for s in progress["solved"]] == [key]
    assert progress["solved"][0]["best_seconds"] == first_solved
    assert progress["in_progress"] == []
    again = client.get(f"/api/puzzles/{key}").json()["progress"]
    assert again["board"] == solution and again["solved"] and again["moves"] == moves


def test_a_hint_the_engine_cannot_find_in_time_reveals_a_cell(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    import nurikabe.web.app as web_app

    monkeypatch.setattr(web_app, "find_step", lambda state, seconds: None)
    key = "10x10/499"
    solution = client.post("/api/solve", json={"key": key}).json()["solution"]
    board = "?" * 100
    for _ in range(3):
        hint = client.post("/api/hint", json={"key": key, "board": board}).json()
        assert hint["kind"] == "step" and hint["technique"] == "from-solution"
        [[cell, color]] = hint["cells"]
        assert solution[cell] == ("#" if color == "black" else ".")
        board = apply(board, hint["cells"])


def test_a_hint_out_of_time_says_so_and_how_long_it_searched(
    client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game asks again while it shows the offer (game.js, THINK_ROUNDS): the answer
    says the search ran out of time, and for how long it searched."""
    import nurikabe.web.app as web_app

    def slow(state: object, seconds: float) -> None:
        began = time.thread_time()
        while time.thread_time() - began < 0.05:
            pass

    monkeypatch.setattr(web_app, "find_step", slow)
    monkeypatch.setattr(web_app, "HINT_SECONDS", 0.05)
    hint = client.post("/api/hint", json={"key": "10x10/499", "board": "?" * 100}).json()
    assert hint["reveal"] == "time" and hint["technique"] == "from-solution"
    assert 0.05 <= hint["searched"] < 5
    assert "ran out of time" in hint["message"]


def test_a_full_cheap_lane_answers_503_with_retry_after(
    app: FastAPI, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    """No 422 for a busy server: a hint that finds the cheap lane full is told to come
    back (503 busy, Retry-After), and is answered once there is room again."""
    cheap = app.state.lanes.cheap
    monkeypatch.setattr(cheap, "_inflight", cheap.capacity)
    busy = client.post("/api/hint", json={"key": "10x10/0", "board": "?" * 100})
    assert_error(busy, 503, "busy")
    assert int(busy.headers["retry-after"]) >= 1
    monkeypatch.setattr(cheap, "_inflight", 0)
    free = client.post("/api/hint", json={"key": "10x10/0", "board": "?" * 100})
    assert free.json()["kind"] == "step"


def test_solve_answers_the_unique_solution(client: TestClient) -> None:
    body = client.post("/api/solve", json={"key": "20x20/0"}).json()
    assert body["status"] == "unique" and len(body["solution"]) == 400
    puzzle = Puzzle.from_url(client.get("/api/puzzles/20x20/0").json()["url"])
    assert check(puzzle, parse_board(puzzle, body["solution"]), mode="all") == []


# -- players ---------------------------------------------------------------------------------


def test_two_players_never_mix(app: FastAPI) -> None:
    with TestClient(app) as alice, TestClient(app) as bob:
        alice.get("/api/collections")
        bob.get("/api/collections")
        assert alice.cookies["nk_player"] != bob.cookies["nk_player"]
        clues = dict(alice.get("/api/puzzles/10x10/5").json()["clues"])
        cell = min(set(range(100)) - set(clues))
        board = "".join("." if i in clues else "#" if i == cell else "?" for i in range(100))
        alice.put("/api/progress/10x10/5", json={"board": board, "seconds": 3, "moves": ["x"]})
        alice.put("/api/settings", json={"settings": {"mouse": "cycle"}})
        assert alice.get("/api/puzzles/10x10/5").json()["progress"]["board"] == board
        assert bob.get("/api/puzzles/10x10/5").json()["progress"] is None
        assert bob.get("/api/settings").json()["settings"] == {}
        assert bob.get("/api/progress").json() == {"ok": True, "solved": [], "in_progress": []}
        assert alice.get("/api/progress").json()["in_progress"] == [
            {"key": "10x10/5", "seconds": 3.0}
        ]


def test_a_forged_cookie_gets_a_new_id(client: TestClient) -> None:
    client.cookies.set("nk_player", "../../etc")
    response = client.get("/api/settings")
    assert response.status_code == 200
    assert "nk_player=" in response.headers["set-cookie"]
    assert "HttpOnly" in response.headers["set-cookie"]
    assert "SameSite=Lax" in response.headers["set-cookie"]


def test_progress_and_settings_survive_a_new_app(db: Path) -> None:
    with TestClient(create_app(db)) as first:
        clues = dict(first.get("/api/puzzles/10x10/9").json()["clues"])
        # Clue cells are stored as dots whatever the page sends.
        board = "".join("." if i in clues else "#" if i == 1 else "?" for i in range(100))
        assert 1 not in clues
        first.put(
            "/api/progress/10x10/9", json={"board": board, "seconds": 7.5, "moves": ["r1c1=#"]}
        )
        first.put("/api/settings", json={"settings": {"autoDots": True}})
        imported = first.post("/api/import", json={"text": URL}).json()["key"]
        cookie = first.cookies["nk_player"]
    with TestClient(create_app(db)) as second:
        second.cookies.set("nk_player", cookie)
        progress = second.get("/api/puzzles/10x10/9").json()["progress"]
        assert progress == {
            "board": board,
            "seconds": 7.5,
            "solved": False,
            "best_seconds": None,
            "moves": ["r1c1=#"],
        }
        assert second.get("/api/settings").json()["settings"] == {"autoDots": True}
        assert second.get(f"/api/puzzles/{imported}").json()["url"] == URL


def test_settings_are_limited_to_4_kib(client: TestClient) -> None:
    assert_error(
        client.put("/api/settings", json={"settings": {"x": "y" * 5000}}), 413, "too-large"
    )
    assert_error(client.put("/api/settings", json={"settings": [1]}), 422, "bad-request")
    assert client.put("/api/settings", json={"settings": {"a": [1, {"b": None}]}}).json() == {
        "ok": True,
        "settings": {"a": [1, {"b": None}]},
    }


# -- printing ----------------------------------------------------------------------------------


def read_pdf(response: Any) -> Any:
    from pypdf import PdfReader

    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/pdf"
    assert response.content.startswith(b"%PDF-")
    return PdfReader(io.BytesIO(response.content))


def test_print_a_run_of_the_collection(client: TestClient) -> None:
    params = {"collection": "10x10", "level": "hard", "start": 100, "count": 6, "per_page": 2}
    params |= {"title": "Hard ones", "author": "Puzzles by the team"}
    response = client.get("/api/print", params=params)
    pdf = read_pdf(response)
    hard = [
        g
        for g in client.app.state.games.collections["10x10"]  # type: ignore[attr-defined]
        if g.level == "hard" and g.number >= 100
    ][:6]
    name = f"nurikabe-10x10-hard-{hard[0].number}-{hard[-1].number}.pdf"
    assert response.headers["content-disposition"] == f'attachment; filename="{name}"'
    assert pdf.metadata.title == "Hard ones" and pdf.metadata.author == "Puzzles by the team"
    # 6 puzzles two to a page, then one page of solutions.
    assert len(pdf.pages) == 4
    texts = [page.extract_text() for page in pdf.pages]
    for k, text in enumerate(texts[:3]):
        assert "Hard ones" in text and "Puzzles by the team" in text
        assert f"Puzzles {2 * k + 1}–{2 * k + 2}" in text and text.count("hard") == 2
    assert "Solutions 1–6" in texts[3]
    # The first puzzle's clues, in reading order, are the first numbers under its label.
    first = hard[0].puzzle
    clues = [str(first.clues[i]) for i in sorted(first.clues)]
    assert "".join(clues) in "".join(texts[0].split())


def test_print_options_change_the_booklet(client: TestClient) -> None:
    base = {"collection": "15x15", "count": 5}
    four = read_pdf(client.get("/api/print", params=base))
    assert len(four.pages) == 2 + 1 and four.metadata.title == "Nurikabe"
    bare = read_pdf(client.get("/api/print", params=base | {"per_page": 1, "solutions": "false"}))
    assert len(bare.pages) == 5
    assert all("Solutions" not in page.extract_text() for page in bare.pages)
    letter = read_pdf(client.get("/api/print", params=base | {"paper": "letter"}))
    assert round(float(letter.pages[0].mediabox.width)) == 612
    assert round(float(four.pages[0].mediabox.width)) == 595


def test_print_a_selection(client: TestClient) -> None:
    imported = client.post("/api/import", json={"text": URL}).json()["key"]
    keys = ["15x15/3", imported, "10x10/42"]
    response = client.post("/api/print", json={"keys": keys, "per_page": 1, "title": "Mine"})
    pdf = read_pdf(response)
    assert (
        response.headers["content-disposition"] == 'attachment; filename="nurikabe-3-puzzles.pdf"'
    )
    assert len(pdf.pages) == 3 + 1
    texts = [page.extract_text() for page in pdf.pages]
    assert all(text.startswith("Mine") for text in texts)
    sizes = ["15×15", "5×5", "10×10"]
    for k, (text, size) in enumerate(zip(texts, sizes, strict=False)):
        assert f"Puzzles {k + 1}" in text and size in text
    assert "Solutions 1–3" in texts[3]


def test_print_refuses_bad_input(client: TestClient) -> None:
    for params in (
        {"collection": "10x10", "count": 201},
        {"collection": "10x10", "count": 0},
        {"collection": "10x10", "per_page": 3},
        {"collection": "10x10", "paper": "a3"},
        {"collection": "10x10", "level": "weird"},
        {"collection": "10x10", "title": "x" * 201},
        {"collection": "10x10", "author": "x" * 201},
        {"collection": "10x10", "start": -1},
        {"count": 4},
    ):
        assert_error(client.get("/api/print", params=params), 422, "bad-request")
    assert_error(client.get("/api/print", params={"collection": "nosuch"}), 404, "not-found")
    assert_error(
        client.get("/api/print", params={"collection": "10x10", "start": 10_000}), 404, "not-found"
    )
    assert_error(client.post("/api/print", json={"keys": []}), 422, "bad-request")
    assert_error(client.post("/api/print", json={"keys": ["10x10/1"] * 201}), 422, "bad-request")
    assert_error(client.post("/api/print", json={"keys": ["10x10"]}), 422, "bad-request")
    assert_error(client.post("/api/print", json={"keys": ["10x10/999999"]}), 404, "not-found")
    assert_error(client.post("/api/print", json={"keys": ["imported/5"]}), 404, "not-found")


def test_print_gives_up_after_its_time_limit(monkeypatch: Any) -> None:
    """The booklet's job (run here as a worker process runs it) stops at its time limit,
    and the handler answers that with 422 timeout (the booklet asked for is too big)."""
    from nurikabe.solver import solve
    from nurikabe.web import printing

    found = solve(Puzzle.from_url(URL)).solution
    assert found is not None
    items = [(URL, "".join(found.to_rows()), None, None, "imported/1")]
    options = {"per_page": 4, "paper": "a4", "title": "t", "author": None, "solutions": True}
    monkeypatch.setattr(printing, "PRINT_SECONDS", -1.0)
    assert printing.booklet_job(items, options) is None
    monkeypatch.setattr(printing, "PRINT_SECONDS", 60.0)
    pdf = printing.booklet_job(items, options)
    assert pdf is not None and pdf.startswith(b"%PDF")


def test_the_page_is_served(client: TestClient) -> None:
    response = client.get("/")
    if response.status_code == 404:
        pytest.skip("the page is not built in this tree")
    assert response.status_code == 200 and "text/html" in response.headers["content-type"]


def test_openapi_describes_every_endpoint(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    assert set(paths) == {
        "/api/collections",
        "/api/puzzles/next",
        "/api/puzzles/random",
        "/api/puzzles/{collection}/{number}",
        "/api/import",
        "/api/check",
        "/api/hint",
        "/api/solve",
        "/api/progress/{collection}/{number}",
        "/api/progress",
        "/api/settings",
        "/api/print",
        "/api/studio/analyze",
        "/api/studio/export",
        "/api/studio/read",
        "/api/studio/play",
        "/api/studio/drafts",
        "/api/studio/drafts/{number}",
        "/api/fresh",
        "/api/fresh/daily",
        "/api/fresh/id/{ident}",
        "/api/fresh/key/{number}",
    }


# -- property-based: no request makes a 5xx --------------------------------------------------
# Valid requests (positive) and requests that break the schema (negative), per operation.


OPERATIONS = [
    "GET /api/collections",
    "GET /api/puzzles/next",
    "GET /api/puzzles/random",
    "GET /api/puzzles/{collection}/{number}",
    "POST /api/import",
    "POST /api/check",
    "POST /api/hint",
    "POST /api/solve",
    "PUT /api/progress/{collection}/{number}",
    "GET /api/progress",
    "GET /api/settings",
    "PUT /api/settings",
    "GET /api/print",
    "POST /api/print",
    "POST /api/studio/analyze",
    "POST /api/studio/export",
    "POST /api/studio/read",
    "POST /api/studio/play",
    "GET /api/studio/drafts",
    "POST /api/studio/drafts",
    "GET /api/studio/drafts/{number}",
    "PUT /api/studio/drafts/{number}",
    "DELETE /api/studio/drafts/{number}",
    "GET /api/fresh",
    "POST /api/fresh",
    "GET /api/fresh/daily",
    "GET /api/fresh/id/{ident}",
    "GET /api/fresh/key/{number}",
]


def test_the_fuzzed_operations_are_all_of_them(app: FastAPI) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    assert [r.ok().label for r in schema.get_all_operations()] == OPERATIONS


@pytest.mark.long
@pytest.mark.parametrize("label", OPERATIONS)
def test_no_request_makes_a_server_error(app: FastAPI, label: str) -> None:
    schema = schemathesis.openapi.from_asgi("/openapi.json", app)
    operation = next(r.ok() for r in schema.get_all_operations() if r.ok().label == label)

    strategy = st.one_of(
        operation.as_strategy(GenerationMode.POSITIVE),
        operation.as_strategy(GenerationMode.NEGATIVE),
    )

    @given(case=strategy)
    @settings(
        max_examples=30,
        deadline=None,
        suppress_health_check=list(HealthCheck),
        derandomize=True,
        database=None,
    )
    def fuzz(case: Any) -> None:
        response = case.call()
        assert response.status_code < 500, (case.method, case.formatted_path, response.text)
        if response.status_code >= 400:
            body = response.json()
            assert body["ok"] is False and body["error"]["code"], body

    fuzz()


# -- a rebuilt collection (a key that holds another puzzle now) ------------------------------


def _puzzle_record(seed: int) -> dict[str, Any]:
    from nurikabe.generator import generate

    return generate(5, 5, difficulty="easy", rng=seed).to_json()


def _solved_board(record: dict[str, Any]) -> str:
    return "".join(record["solution"])


def test_a_rebuilt_key_starts_fresh_and_keeps_the_old_progress(db: Path, tmp_path: Path) -> None:
    """Progress saved on the puzzle a key held before a rebuild is not shown on the new
    puzzle, nor counted as solving it; it is kept, and an unchanged key keeps its own."""
    import shutil
    import sqlite3

    from nurikabe import collection
    from nurikabe.players import open_players

    old, new = tmp_path / "old.sqlite", tmp_path / "new.sqlite"
    a, b, c = _puzzle_record(1), _puzzle_record(2), _puzzle_record(3)
    assert len({a["url"], b["url"], c["url"]}) == 3
    conn = collection.create(old)
    collection.store(conn, "10x10", 0, a)
    collection.store(conn, "10x10", 1, c)
    collection.close_db(conn)
    shutil.copy(old, new)
    conn = collection.open_db(new)
    collection.store(conn, "10x10", 0, b)  # the rebuild puts another puzzle under 10x10/0
    assert collection.former_keys(conn) == {("10x10", 0)}
    collection.close_db(conn)

    with TestClient(create_app(db, old)) as first:
        for key, record, moves in (("10x10/0", a, ["r1c1=#"]), ("10x10/1", c, [])):
            saved = first.put(
                f"/api/progress/{key}",
                json={"board": _solved_board(record), "seconds": 9, "moves": moves},
            ).json()
            assert saved["solved"] is True
        cookie = first.cookies["nk_player"]
        assert {s["key"] for s in first.get("/api/progress").json()["solved"]} == {
            "10x10/0",
            "10x10/1",
        }

    with TestClient(create_app(db, new)) as second:
        second.cookies.set("nk_player", cookie)
        fresh = second.get("/api/puzzles/10x10/0").json()
        assert fresh["url"] == b["url"] and fresh["progress"] is None
        kept = second.get("/api/puzzles/10x10/1").json()["progress"]
        assert kept is not None and kept["board"] == _solved_board(c) and kept["solved"]
        listed = second.get("/api/progress").json()
        assert [s["key"] for s in listed["solved"]] == ["10x10/1"]
        assert listed["in_progress"] == []
        # The unsolved puzzle now under 10x10/0 is the one a random pick prefers.
        picks = {second.get("/api/puzzles/random?collection=10x10").json()["key"] for _ in range(8)}
        assert picks == {"10x10/0"}
        # Playing the new puzzle saves its own row; the old one stays as it was.
        half = "?" * 25
        second.put("/api/progress/10x10/0", json={"board": half, "seconds": 3, "moves": []})
        now = second.get("/api/puzzles/10x10/0").json()["progress"]
        assert "#" not in now["board"] and now["seconds"] == 3 and now["best_seconds"] is None
        listed = second.get("/api/progress").json()
        assert [s["key"] for s in listed["solved"]] == ["10x10/1"]
        assert [p["key"] for p in listed["in_progress"]] == ["10x10/0"]

    players = open_players(db)
    rows = {(p.puzzle, p.url): p for p in players.all_progress(cookie)}
    assert set(rows) == {("10x10/0", a["url"]), ("10x10/0", b["url"]), ("10x10/1", c["url"])}
    assert rows["10x10/0", a["url"]].solved and rows["10x10/0", a["url"]].moves == ["r1c1=#"]
    players.close()

    # The old collection again (a downgrade): the old puzzle's progress is back.
    with TestClient(create_app(db, old)) as third:
        third.cookies.set("nk_player", cookie)
        back = third.get("/api/puzzles/10x10/0").json()["progress"]
        assert back is not None and back["board"] == _solved_board(a)

    # Rows saved before urls were kept (schema 2): NULL on the changed key is the
    # former puzzle's (not shown, kept); NULL on an unchanged key is taken as its own.
    raw = sqlite3.connect(db)
    raw.execute("DELETE FROM progress WHERE url = ?", (b["url"],))
    raw.execute("UPDATE progress SET url = NULL")
    raw.commit()
    raw.close()
    with TestClient(create_app(db, new)) as fourth:
        fourth.cookies.set("nk_player", cookie)
        assert fourth.get("/api/puzzles/10x10/0").json()["progress"] is None
        assert fourth.get("/api/puzzles/10x10/1").json()["progress"]["solved"] is True
        listed = fourth.get("/api/progress").json()
        assert [s["key"] for s in listed["solved"]] == ["10x10/1"]
        fourth.put("/api/progress/10x10/0", json={"board": "?" * 25, "seconds": 1, "moves": []})
        fourth.put(
            "/api/progress/10x10/1",
            json={"board": _solved_board(c), "seconds": 4, "moves": []},
        )
        assert fourth.get("/api/puzzles/10x10/1").json()["progress"]["best_seconds"] == 4
    players = open_players(db)
    rows = {(p.puzzle, p.url): p for p in players.all_progress(cookie)}
    assert set(rows) == {("10x10/0", None), ("10x10/0", b["url"]), ("10x10/1", c["url"])}
    assert rows["10x10/0", None].board == _solved_board(a)  # kept, never filled in
    assert rows["10x10/1", c["url"]].solved_at is not None
    players.close()


def test_a_save_from_a_page_of_another_puzzle_is_refused(client: TestClient) -> None:
    puzzle = client.get("/api/puzzles/10x10/4").json()
    other = client.get("/api/puzzles/10x10/5").json()["url"]
    body = {"board": "?" * 100, "seconds": 2, "moves": []}
    stale = client.put("/api/progress/10x10/4", json={**body, "url": other})
    assert_error(stale, 409, "stale-puzzle")
    assert client.get("/api/puzzles/10x10/4").json()["progress"] is None
    fresh = client.put("/api/progress/10x10/4", json={**body, "url": puzzle["url"]})
    assert fresh.status_code == 200, fresh.text
    assert client.get("/api/puzzles/10x10/4").json()["progress"]["seconds"] == 2
