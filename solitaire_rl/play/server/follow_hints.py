"""A player who follows the page's hints, over the play server's API, and what the page shows meanwhile.

:func:`follow_game` plays one deal as a page would for a player who asks for a hint at every position
and plays it: before each hint it asks the verdict (as the page does after every move) and the chance,
and checks that the three lines a player may see side by side never disagree (:func:`disagreements`,
issue 51's defect 3). When the game ends unwon it opens the analysis, as the page's "Analyse this game"
does, and checks that the analysis never blames the player for a move the hint gave (defect 4). Every
text the page would show on the way is kept (:attr:`FollowedGame.texts`, :func:`shown_texts`), so a
test can read them all (defect 6: no engine words on the main screen).

It speaks to the server through a :class:`PlayApi`: :class:`HttpApi` over HTTP (an ``httpx.Client``
on a running server, or FastAPI's ``TestClient``), or the test's own calls into the server's objects,
which skip only the HTTP layer. Used by ``tests/test_play_follow_daily_hints.py`` (a month of daily
deals on a small budget) and ``benchmarks/follow_daily_hints.py`` (the page's own budget).
"""

from __future__ import annotations

import calendar
import time
from dataclasses import dataclass, field
from typing import Any, Protocol

from solitaire_rl.play.server.hints import LOST_REASON

PAGE_SOURCES = {"pyramid": "planner", "klondike": "commitment"}
"""Each page's default hint source (``common.js`` and ``klondike.js``; a test checks they agree)."""
GAMES_URL = {"pyramid": "/api/games", "klondike": "/api/klondike/games"}
DECIDED = ("winnable", "not_winnable")
"""The verdicts that say something a chance could disagree with (not "checking", "unknown", ...)."""
PLAY_ON = ("To play on: ", "続けるなら：")
"""What a hint says before its move once it has said the position is lost (both games' advisors)."""
BLAME = ("You could have seen it", "判断できた負けの一手")
"""The analysis's words that blame the player for a losing move (never said of the hint's own move)."""
HINT_WORDS = ("This was the hint's move", "これはヒントの手です")
SHOWN_FIELDS = ("en", "ja", "reason_en", "reason_ja", "first_step_en", "first_step_ja")
"""The fields of the server's answers whose words the page shows (hints, verdicts, chances, the
analysis); ``reason``, ``fallback_reason`` and ``agent`` are the engine's, for the API and Advanced."""


class PlayApi(Protocol):
    """The play server's endpoints a following player uses, each answering the endpoint's JSON."""

    def new_game(self, game: str, body: dict[str, Any]) -> dict[str, Any]: ...

    def verdict(self, game: str, session: str) -> dict[str, Any] | None: ...

    def chance(self, game: str, session: str) -> dict[str, Any]: ...

    def hint(self, game: str, session: str, source: str) -> dict[str, Any]: ...

    def move(self, game: str, session: str, move: str, revision: int) -> dict[str, Any]: ...

    def analyse(self, game: str, session: str) -> dict[str, Any]: ...


class HttpApi:
    """:class:`PlayApi` over HTTP: ``client`` is anything with httpx's ``post`` and ``get`` (an
    ``httpx.Client`` on a running server, or FastAPI's ``TestClient``)."""

    def __init__(self, client: Any, verdict_wait: float = 10.0) -> None:
        self.client, self.verdict_wait = client, verdict_wait

    def _json(self, response: Any, status: int = 200) -> Any:
        if response.status_code != status:
            raise ValueError(f"{response.request.method} {response.request.url}: {response.status_code} "
                             f"{response.text}")
        return response.json()

    def new_game(self, game: str, body: dict[str, Any]) -> dict[str, Any]:
        return self._json(self.client.post(GAMES_URL[game], json=body), 201)

    def verdict(self, game: str, session: str) -> dict[str, Any] | None:
        """The verdict the page would show once its check is done (``None`` if it never finishes)."""
        url = f"{GAMES_URL[game]}/{session}/verdict"
        verdict = self._json(self.client.post(url), 202)["verdict"]
        deadline = time.monotonic() + 60.0
        while verdict is not None and verdict.get("status") == "checking" and time.monotonic() < deadline:
            verdict = self._json(self.client.get(url, params={"wait": self.verdict_wait}))["verdict"]
        return verdict

    def chance(self, game: str, session: str) -> dict[str, Any]:
        return self._json(self.client.post(f"{GAMES_URL[game]}/{session}/chance"))

    def hint(self, game: str, session: str, source: str) -> dict[str, Any]:
        return self._json(self.client.post(f"{GAMES_URL[game]}/{session}/hint", params={"source": source}))

    def move(self, game: str, session: str, move: str, revision: int) -> dict[str, Any]:
        return self._json(self.client.post(f"{GAMES_URL[game]}/{session}/actions",
                                           json={"type": "move", "move": move, "revision": revision}))

    def analyse(self, game: str, session: str) -> dict[str, Any]:
        return self._json(self.client.post("/api/analysis", json={"game": game, "session": session}), 201)


@dataclass
class FollowedGame:
    """One deal followed hint by hint: how it ended and what disagreed on the way."""

    deal: str
    won: bool
    end: str
    """The game's outcome (``win``, ``dead_end``, ``no_progress``), ``no_hint``, or ``going`` (out of
    moves)."""
    moves: int
    hinted: int
    """Moves the server counts as the hint's (every move, when the hints were followed)."""
    disagreements: list[str] = field(default_factory=list)
    """Positions where two lines on screen disagreed, each said with its move number."""
    blamed: list[str] = field(default_factory=list)
    """Analysis lines that blamed the player for the hint's move, or did not say it was the hint's."""
    losing_move: int | None = None
    seconds: float = 0.0
    hint_seconds: list[float] = field(default_factory=list)
    texts: set[str] = field(default_factory=set)
    """Every text the page would show on the way, in both languages: hints with their reasons, verdicts,
    chances and the analysis (:func:`shown_texts`)."""

    def as_row(self) -> dict[str, Any]:
        """The game as a JSON row (latencies summed up, not listed; the texts left out)."""
        row = {k: v for k, v in self.__dict__.items() if k not in ("hint_seconds", "texts")}
        row["hint_seconds_total"] = sum(self.hint_seconds)
        return row


def month_deals(game: str, year: int, month: int) -> list[str]:
    """The daily deal IDs of every day of a month (``klondike-daily-v1-20261101``, ...)."""
    days = calendar.monthrange(year, month)[1]
    return [f"{game}-daily-v1-{year:04d}{month:02d}{day:02d}" for day in range(1, days + 1)]


def shown_texts(answer: Any) -> set[str]:
    """The words a player may read in one of the server's answers (a hint, a verdict, a chance, an
    analysis): every string under a field of :data:`SHOWN_FIELDS`, at any depth."""
    found: set[str] = set()
    if isinstance(answer, dict):
        for key, value in answer.items():
            if key in SHOWN_FIELDS and isinstance(value, str):
                found.add(value)
            else:
                found |= shown_texts(value)
    elif isinstance(answer, list):
        for item in answer:
            found |= shown_texts(item)
    return found


def disagreements(verdict: dict[str, Any] | None, chance: dict[str, Any] | None,
                  hint: dict[str, Any] | None) -> list[str]:
    """What disagrees among the verdict, the chance and the hint of one position (empty: nothing).

    A proved loss (verdict ``not_winnable``) allows no chance above 0 and no move hint that does not
    say the loss before its move (:data:`PLAY_ON`, with :data:`LOST_REASON` as its reason); a winning
    line allows no chance of 0 and no hint that says the position lost; and a hint that says "no
    progress" needs a verdict that is not a winning line.
    """
    status = (verdict or {}).get("status")
    lost, winnable = status == "not_winnable", status == "winnable"
    shown = verdict and verdict["en"]
    out = []
    if chance is not None and lost and chance["share"] > 0:
        out.append(f"chance {chance['en']!r} beside the verdict {shown!r}")
    if chance is not None and winnable and chance["basis"] != "none" and chance["share"] == 0:
        out.append(f"chance {chance['en']!r} beside the verdict {shown!r}")
    if hint is None:
        return out
    if hint.get("kind") == "move":
        says_lost = hint.get("reason_en") == LOST_REASON[0]
        if lost and not (says_lost and PLAY_ON[0] in hint["en"] and PLAY_ON[1] in hint["ja"]):
            out.append(f"hint {hint['en']!r} ({hint.get('reason_en')}) after the proved loss {shown!r}")
        if not lost and says_lost:
            out.append(f"hint {hint['en']!r} says lost beside the verdict {shown!r}")
    elif hint.get("kind") == "no_progress" and winnable:
        out.append(f"no-progress hint beside the verdict {shown!r}")
    return out


def follow_game(api: PlayApi, game: str, deal: str, *, variant: str | None = None,
                source: str | None = None, max_moves: int = 600, check: bool = True,
                analyse: bool = True, chance_every: int = 0, analyse_won: bool = False) -> FollowedGame:
    """Follow the hints of ``source`` (default: the page's, :data:`PAGE_SOURCES`) through ``deal`` (see
    the module). ``check``: ask the verdict at every position, and the chance where the verdict says
    something (:data:`DECIDED`), and compare them with the hint; ``chance_every``: ask the chance at every
    ``chance_every``-th position too (0: only there); ``analyse``: open the analysis of a game that ends
    unwon and read it for blame (``analyse_won``: of a won game too, for its words)."""
    source = source or PAGE_SOURCES[game]
    body: dict[str, Any] = {"deal": deal} if variant is None else {"deal": deal, "variant": variant}
    state = api.new_game(game, body)
    session = state["session"]
    started = time.perf_counter()
    followed = FollowedGame(deal, False, "going", 0, 0)
    while followed.moves < max_moves:
        if state.get("outcome") is not None:
            followed.end = str(state["outcome"])
            break
        verdict = api.verdict(game, session) if check else None
        decided = verdict is not None and verdict.get("status") in DECIDED
        every = chance_every > 0 and followed.moves % chance_every == 0
        chance = api.chance(game, session) if decided or every else None  # else nothing to disagree with
        asked = time.perf_counter()
        hint = api.hint(game, session, source)["hint"]
        followed.hint_seconds.append(time.perf_counter() - asked)
        for answer in (verdict, chance, hint):
            followed.texts |= shown_texts(answer)
        followed.disagreements += [f"move {followed.moves + 1}: {d}"
                                   for d in disagreements(verdict, chance, hint)]
        if hint is None or hint.get("kind") != "move":
            followed.end = "no_hint" if hint is None else str(hint.get("kind"))
            break
        state = api.move(game, session, hint["move"], state["revision"])
        followed.moves += 1
    followed.won = state.get("outcome") == "win"
    followed.hinted = len(state.get("hinted", []))
    followed.seconds = time.perf_counter() - started
    if analyse and (analyse_won or not followed.won) and state.get("outcome") is not None:
        analysis = api.analyse(game, session)
        followed.texts |= shown_texts(analysis)
        if not followed.won:
            followed.blamed, followed.losing_move = analysis_blame(analysis)
    return followed


def analysis_blame(analysis: dict[str, Any]) -> tuple[list[str], int | None]:
    """Read the analysis of a finished game whose every move was the hint's: the lines that blame the
    player (or fail to say the hint's move was the hint's), and the losing move's index."""
    out = [f"move {m['index'] + 1} is not marked as the hint's" for m in analysis["moves"] if not m["hint"]]
    losing = analysis["losing"]
    if losing is None:
        return out, None
    text = losing["judgement_text"] or {"en": "", "ja": ""}
    if not losing["hint"]:
        out.append(f"the losing move {losing['index'] + 1} is not said to be the hint's")
    for lang, blame, words in (("en", BLAME[0], HINT_WORDS[0]), ("ja", BLAME[1], HINT_WORDS[1])):
        if blame in text[lang]:
            out.append(f"the analysis blames the player ({lang}): {text[lang]!r}")
        if losing["judgement_text"] is not None and not text[lang].startswith(words):
            out.append(f"the analysis does not say the hint's move ({lang}): {text[lang]!r}")
    return out, losing["index"]


__all__ = ["BLAME", "GAMES_URL", "PAGE_SOURCES", "PLAY_ON", "SHOWN_FIELDS", "FollowedGame", "HttpApi",
           "PlayApi", "analysis_blame", "disagreements", "follow_game", "month_deals", "shown_texts"]
