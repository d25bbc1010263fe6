"""The play server under many players (issue 39): one bound on planner and solver work across both
games (solitaire_rl/play/server/work.py: a hint beyond it is a 503 ``BUSY`` with ``Retry-After`` and changes
nothing; a verdict waits, ``checking``), and a bounded session store whose evicted games answer
404 ``UNKNOWN_GAME``, which the pages answer by restoring the game from its moves."""

from __future__ import annotations

import threading
import time
from collections import Counter
from collections.abc import Callable, Iterator

import pytest
from fastapi.testclient import TestClient

from solitaire_rl.agents.solver import SearchLimits
from solitaire_rl.play.server import PyramidServer, create_app
from solitaire_rl.play.server.advice import HINT_SOURCES
from solitaire_rl.play.server.klondike_advice import KlondikeHintAdvisor, KlondikeVerdictService
from solitaire_rl.play.server.klondike_api import KlondikeServer, mount_klondike
from solitaire_rl.play.server.pyramid_advice import PyramidHintAdvisor, PyramidVerdictService
from solitaire_rl.play.server.session import SessionStore
from solitaire_rl.play.server.work import WorkLimiter
from tests.play_api_helpers import LOCAL, GameApi, drain, fill, server_fixture, work_of

PYRAMID, KLONDIKE = GameApi("/api/games"), GameApi("/api/klondike/games")
KLONDIKE_DEAL = "klondike-random-v1-1"
SLOTS = 2
QUEUE = 0.2
"""Seconds a hint waits for a place here (the server's default is 1.5)."""

server = server_fixture(lambda: PyramidServer(sessions=SessionStore(capacity=4),
                                              hints=PyramidHintAdvisor(planner_time=0.2, planner_threads=1),
                                              verdicts=PyramidVerdictService(SearchLimits(time_limit=2.0))))
klondike = server_fixture(lambda: KlondikeServer(
    sessions=SessionStore(capacity=4), hints=KlondikeHintAdvisor(planner_time=0.2, planner_threads=1),
    verdicts=KlondikeVerdictService(SearchLimits(time_limit=2.0))))


@pytest.fixture
def client(server: PyramidServer, klondike: KlondikeServer) -> Iterator[TestClient]:
    app = create_app(server, work_slots=SLOTS, work_queue_wait=QUEUE)
    with TestClient(mount_klondike(app, klondike), base_url=LOCAL) as c:
        yield c


def test_both_games_share_one_bound(client: TestClient, server: PyramidServer,
                                    klondike: KlondikeServer) -> None:
    work = work_of(client)
    assert work.slots == SLOTS
    assert server.work is work and klondike.work is work
    assert server.verdicts.work is work and klondike.verdicts.work is work


@pytest.mark.parametrize(("api", "body"), [(PYRAMID, {}), (KLONDIKE, {"deal": KLONDIKE_DEAL})])
def test_a_hint_beyond_the_bound_is_503_with_retry_after_and_changes_nothing(
        client: TestClient, api: GameApi, body: dict) -> None:
    state = api.new_game(client, **body)
    url = f"{api.games}/{state['session']}"
    before = client.get(url).json()
    work = work_of(client)
    fill(work)
    try:
        answers = [client.post(f"{url}/hint?source={source}") for source in HINT_SOURCES]
    finally:
        drain(work)
    for r in answers:
        assert r.status_code == 503, r.text
        assert int(r.headers["retry-after"]) >= 1
        error = r.json()
        assert set(error) == {"error", "message", "message_ja"} and error["error"] == "BUSY"
        assert error["message"] and error["message_ja"]
    assert client.get(url).json() == before, "a refused hint changes nothing"
    assert work.busy == 0 and work.refused == len(HINT_SOURCES)
    r = client.post(f"{url}/hint")  # room again: the hint comes
    assert r.status_code == 200 and r.json()["hint"] is not None and r.json()["hints"] == 1


def test_moves_and_reads_go_on_while_the_bound_is_full(client: TestClient) -> None:
    state = PYRAMID.new_game(client)
    work = work_of(client)
    fill(work)
    try:
        moved = PYRAMID.act(client, state, type="draw")
        assert client.get(f"/api/games/{state['session']}").json() == moved
        assert client.post("/api/klondike/games", json={"deal": KLONDIKE_DEAL}).status_code == 201
    finally:
        drain(work)


def test_a_verdict_waits_for_room_as_checking_then_is_given(client: TestClient) -> None:
    state = KLONDIKE.new_game(client, deal=KLONDIKE_DEAL)
    url = f"/api/klondike/games/{state['session']}/verdict"
    work = work_of(client)
    fill(work)
    try:
        assert client.post(url).status_code == 202
        for _ in range(3):
            assert client.get(url, params={"wait": 0.1}).json()["verdict"]["status"] == "checking"
        assert work.verdicts == 0, "no search started while the bound was full"
    finally:
        drain(work)
    verdict = client.get(url, params={"wait": 10}).json()["verdict"]
    assert verdict["status"] in ("winnable", "not_winnable", "unknown")
    assert (work.busy, work.verdicts) == (0, 0)


def test_a_waiting_verdict_whose_position_changed_gives_up_without_taking_room(client: TestClient) -> None:
    state = KLONDIKE.new_game(client, deal=KLONDIKE_DEAL)
    work = work_of(client)
    fill(work)
    try:
        client.post(f"/api/klondike/games/{state['session']}/verdict")
        KLONDIKE.act(client, state, type="stock")  # the position changed: the waiting job is cancelled
        time.sleep(0.2)
        assert work.verdicts == 0
    finally:
        drain(work)
    time.sleep(0.1)
    assert (work.busy, work.verdicts) == (0, 0)


def test_verdicts_leave_room_for_hints() -> None:
    work = WorkLimiter(2)
    assert work.wait_verdict_slot(lambda: False)
    assert not work.wait_verdict_slot(lambda: True), "a second verdict waits: one place stays for hints"
    assert work.try_acquire() and not work.try_acquire()
    work.release()
    work.release(verdict=True)
    assert (work.busy, work.verdicts, work.refused) == (0, 0, 1)
    with pytest.raises(ValueError):
        WorkLimiter(0)


def _waiter(work: WorkLimiter, name: str, order: list[str], start: threading.Event) -> threading.Thread:
    def wait() -> None:
        start.wait()
        if work.acquire_hint():
            order.append(name)
        else:
            order.append(f"{name} refused")

    thread = threading.Thread(target=wait)
    thread.start()
    return thread


def test_hints_that_find_no_place_wait_first_come_first_served() -> None:
    work = WorkLimiter(1, queue_wait=5.0)
    assert work.acquire_hint()  # the one place is taken
    order: list[str] = []
    go = threading.Event()
    go.set()
    first = _waiter(work, "first", order, go)
    while work.waiting < 1:
        time.sleep(0.01)
    second = _waiter(work, "second", order, go)
    while work.waiting < 2:
        time.sleep(0.01)
    assert order == [] and work.busy == 1
    work.release()  # the first waiter gets it, not the second
    first.join(2)
    assert order == ["first"] and work.waiting == 1
    work.release()
    second.join(2)
    assert order == ["first", "second"] and work.waiting == 0 and work.refused == 0
    work.release()
    assert work.busy == 0


def test_a_hint_is_refused_at_once_when_the_queue_is_full_and_after_its_wait_otherwise() -> None:
    work = WorkLimiter(1, queue_wait=0.3, max_waiting=1)
    assert work.acquire_hint()
    order: list[str] = []
    go = threading.Event()
    go.set()
    waiting = _waiter(work, "waiting", order, go)
    while work.waiting < 1:
        time.sleep(0.01)
    start = time.monotonic()
    assert not work.acquire_hint(), "the queue is full"
    assert time.monotonic() - start < 0.1
    waiting.join(2)
    assert order == ["waiting refused"] and work.refused == 2 and work.waiting == 0
    assert WorkLimiter(1, queue_wait=0).acquire_hint()
    with pytest.raises(ValueError):
        WorkLimiter(1, queue_wait=-1)


def test_a_verdict_waits_behind_the_queued_hints() -> None:
    work = WorkLimiter(2, queue_wait=5.0)
    assert work.acquire_hint() and work.acquire_hint()
    order: list[str] = []
    go = threading.Event()
    go.set()
    hint = _waiter(work, "hint", order, go)
    while work.waiting < 1:
        time.sleep(0.01)
    verdict = threading.Thread(target=lambda: order.append("verdict" if work.wait_verdict_slot(lambda: False)
                                                                else "verdict cancelled"))
    verdict.start()
    time.sleep(0.1)
    work.release()  # one place: the queued hint's, though the verdict asked too
    hint.join(2)
    assert order == ["hint"]
    work.release()
    verdict.join(2)
    assert order == ["hint", "verdict"]
    work.release()
    work.release(verdict=True)
    assert (work.busy, work.verdicts) == (0, 0)


def test_concurrent_hints_from_many_players_are_a_hint_or_a_503_never_a_500(
        client: TestClient, server: PyramidServer, klondike: KlondikeServer,
        monkeypatch: pytest.MonkeyPatch) -> None:
    for advisor in (server.hints, klondike.hints):  # each hint holds its place a while: they overlap
        real = advisor.hint

        def slow(game: object, source: str = "planner", real: Callable[..., object] = real,
                 **options: object) -> object:  # options: Klondike's owner of the commitment bot
            time.sleep(0.3)
            return real(game, source, **options)

        monkeypatch.setattr(advisor, "hint", slow)
    games = [(PYRAMID, PYRAMID.new_game(client)) for _ in range(3)]
    games += [(KLONDIKE, KLONDIKE.new_game(client, deal=KLONDIKE_DEAL)) for _ in range(3)]
    before = {s["session"]: client.get(f"{api.games}/{s['session']}").json() for api, s in games}
    statuses: Counter[int] = Counter()
    lock, start = threading.Lock(), threading.Barrier(len(games))
    wrong: list[str] = []

    def player(api: GameApi, state: dict) -> None:
        start.wait(timeout=30)  # every player asks at once: more than the bound's 2 places
        for _ in range(3):
            r = client.post(f"{api.games}/{state['session']}/hint")
            with lock:
                statuses[r.status_code] += 1
                if r.status_code == 200 and r.json()["hint"] is None:
                    wrong.append(r.text)
                if r.status_code == 503 and (r.json()["error"] != "BUSY" or "retry-after" not in r.headers):
                    wrong.append(r.text)

    threads = [threading.Thread(target=player, args=game) for game in games]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=60)
    assert set(statuses) <= {200, 503} and sum(statuses.values()) == 18, statuses
    assert not wrong, wrong
    assert statuses[503] > 0 and statuses[200] > 0, statuses  # 6 players, room for 2
    assert work_of(client).busy == 0
    for api, s in games:  # a hint changes only the hint and its count, never the board
        after = client.get(f"{api.games}/{s['session']}").json()
        assert after["history"] == before[s["session"]]["history"]


@pytest.mark.parametrize(("api", "body"), [(PYRAMID, {}), (KLONDIKE, {"deal": KLONDIKE_DEAL})])
def test_an_evicted_game_answers_unknown_game_and_is_restored_from_its_moves(
        client: TestClient, api: GameApi, body: dict) -> None:
    first = api.new_game(client, **body)
    played = api.act(client, first, type="draw" if api is PYRAMID else "stock")
    client.post(f"{api.games}/{first['session']}/verdict")
    for _ in range(4):  # a flood of new games: the store holds 4
        api.new_game(client, **body)
    url = f"{api.games}/{first['session']}"
    for method, path in [("get", ""), ("post", "/hint"), ("post", "/verdict"), ("get", "/verdict")]:
        r = getattr(client, method)(url + path)
        assert r.status_code == 404 and r.json()["error"] == "UNKNOWN_GAME", (method, path)
        assert r.json()["message"] and r.json()["message_ja"]
    r = client.post(f"{url}/actions", json={"type": "undo"})
    assert r.status_code == 404 and r.json()["error"] == "UNKNOWN_GAME"
    deal = played["deal"]
    name = deal.get("id") or deal.get("label") or deal.get("code")
    save = {"deal": name, "history": played["history"], "redo": played["redo"], "seen": played["seen"],
            "operations": played["operations"], "hints": played["hints"]}
    if api is PYRAMID:
        save["variant"] = played["variant"]
    restored = api.new_game(client, **save)  # what the pages do on a 404 (recoverLostGame)
    assert restored["history"] == played["history"] and restored["operations"] == played["operations"]
