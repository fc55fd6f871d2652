"""The Home page's words count what they name from the thing itself: the Lesson card says how many slides the
shipped lesson has, so a lesson that grows (or shrinks) is said right without touching the page (AppTest)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from services.lessons import DEFAULT_LESSON, shipped, shipped_file, shipped_lessons

APP = str(Path(__file__).resolve().parents[2] / "app.py")
# The card's words for n slides, written out here (not read from the app): English singular and plural, Chinese
CARD = {
    "en": lambda n: f"A ready lesson in {n} slide{'' if n == 1 else 's'}, from why attention through the encoder",
    "zh": lambda n: f"一套现成的 {n} 张幻灯片课程",
}


def home_captions(lang: str) -> str:
    at = AppTest.from_file(APP, default_timeout=180)
    at.query_params["lang"] = lang
    at.run()
    at.switch_page("pages/home.py").run()
    assert not at.exception, [e.value for e in at.exception]
    return " ".join(c.value for c in at.caption)


@pytest.fixture
def lesson_of(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator:
    """Ship, for this test, a default lesson of the first n slides of the real one (or the real one n times over)."""

    def ship(n: int) -> None:
        document = json.loads(shipped_file(DEFAULT_LESSON))
        slides = document["slides"]
        document["slides"] = (slides * (n // len(slides) + 1))[:n]
        (tmp_path / f"{DEFAULT_LESSON}.json").write_text(json.dumps(document, ensure_ascii=False), encoding="utf-8")
        monkeypatch.setattr(shipped, "LESSONS_DIR", tmp_path)
        shipped_lessons.cache_clear()

    yield ship
    monkeypatch.undo()
    shipped_lessons.cache_clear()


@pytest.mark.parametrize("lang", ["en", "zh"])
def test_the_lesson_card_says_how_many_slides_the_shipped_lesson_has(lang):
    n = len(json.loads(shipped_file(DEFAULT_LESSON))["slides"])  # the file itself, not the app's reading of it
    assert CARD[lang](n) in home_captions(lang)


@pytest.mark.parametrize("lang", ["en", "zh"])
@pytest.mark.parametrize("n", [1, 20])
def test_the_lesson_card_follows_a_lesson_of_another_size(lesson_of, lang, n):
    lesson_of(n)
    assert len(shipped_lessons()[DEFAULT_LESSON].slides) == n
    captions = home_captions(lang)
    assert CARD[lang](n) in captions, captions
