"""A deal number out of range and a winnable deal typed in while playing variant 000 (issue 37), on the
Pyramid page in English and Japanese: the refusal names the range and keeps the game and the typed
text; the winnable deal opens in variant 001, and the menu shows it."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tests.browser.conftest import settle
from tests.browser.test_pyramid_page import open_menu, state

Page = Any
RANGE = {"en": "is out of range: pyramid random deals are numbered 0..2147483647",
         "ja": "は範囲外です。番号は 0 から 2147483647 までです"}


def type_deal(page: Page, text: str) -> None:
    open_menu(page)
    page.fill("#deal-input", text)
    page.press("#deal-input", "Enter")
    settle(page)


@pytest.mark.parametrize("lang", ["en", "ja"])
def test_an_absurd_number_is_refused_plainly_and_a_winnable_deal_opens_in_001(
    new_page: Callable[..., Page], lang: str,
) -> None:
    page = new_page(storage={"solitaire-rl.lang": lang})
    before = state(page)
    huge = "pyramid-random-v1-" + "9" * 23
    type_deal(page, huge)
    assert RANGE[lang] in page.inner_text("#message")
    assert state(page)["session"] == before["session"] and page.input_value("#deal-input") == huge
    assert page.inner_text("#copy-deal") == before["deal"]["label"], "the chip still names the game played"
    assert before["variant"] == "000"
    type_deal(page, "pyramid-winnable-v1-7")
    after = state(page)
    assert (after["variant"], after["deal"]["type"]) == ("001", "winnable")
    assert page.input_value("#variant") == "001" and page.input_value("#deal-type") == "winnable"
    assert not page.errors
