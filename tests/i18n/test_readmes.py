"""README.md and README.zh-CN.md say the same thing: each links to the other, both give the exact same commands,
every image they show exists, and they have the same sections. Checked from their structure, not their prose."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
EN = ROOT / "README.md"
ZH = ROOT / "README.zh-CN.md"
PAGES = sorted(path.stem for path in (ROOT / "pages").glob("*.py"))

BASH_BLOCK = re.compile(r"^```bash\n(.*?)^```$", re.DOTALL | re.MULTILINE)
IMAGE = re.compile(r"!\[[^\]]*\]\(([^)\s]+)\)")
SECTION = re.compile(r"^## \S", re.MULTILINE)
FENCE = re.compile(r"^```.*?^```$", re.DOTALL | re.MULTILINE)


def text(path: Path) -> str:
    return path.read_text(encoding="utf-8")


def bash_blocks(path: Path) -> set[str]:
    return set(BASH_BLOCK.findall(text(path)))


def prose(path: Path) -> str:
    """The file without its fenced blocks (a `## ` inside a code block is not a section)."""
    return FENCE.sub("", text(path))


def first_lines(path: Path, n: int = 5) -> str:
    return "\n".join(text(path).splitlines()[:n])


def test_each_readme_links_to_the_other_at_the_top():
    assert "[简体中文](README.zh-CN.md)" in first_lines(EN)
    assert "[English](README.md)" in first_lines(ZH)


def test_both_readmes_give_the_same_two_commands_and_every_other_bash_block():
    en, zh = bash_blocks(EN), bash_blocks(ZH)
    assert "bash scripts/app.sh\n" in en and "bash scripts/test.sh\n" in en
    assert len(en) >= 3  # the two commands and the benchmarks
    assert zh == en, f"only in README.md: {sorted(en - zh)}; only in README.zh-CN.md: {sorted(zh - en)}"


@pytest.mark.parametrize("readme", [EN, ZH], ids=["en", "zh"])
def test_every_image_a_readme_shows_exists(readme):
    images = IMAGE.findall(text(readme))
    assert len(images) >= len(PAGES), f"{readme.name} shows {len(images)} images for {len(PAGES)} pages"
    missing = [image for image in images if not (ROOT / image).is_file()]
    assert not missing, f"{readme.name} shows images that do not exist: {missing}"


def test_the_chinese_readme_shows_the_chinese_screenshots_of_the_same_pages():
    en = IMAGE.findall(text(EN))
    zh = IMAGE.findall(text(ZH))
    assert all(image.startswith("docs/zh/") for image in zh), zh
    assert [image.replace("docs/", "docs/zh/", 1) for image in en] == zh


@pytest.mark.parametrize("readme", [EN, ZH], ids=["en", "zh"])
def test_every_page_has_a_screenshot_and_a_line_in_each_readme(readme):
    """Each page script in pages/ has its screenshot (docs/<page>.png or docs/zh/<page>.png) and its URL path."""
    body = text(readme)
    folder = "docs/" if readme is EN else "docs/zh/"
    shown = {Path(image).stem for image in IMAGE.findall(body) if image.startswith(folder)}
    assert shown >= set(PAGES), f"{readme.name} has no screenshot of {sorted(set(PAGES) - shown)}"
    unlisted = [page for page in PAGES if ("`/`" if page == "home" else f"`/{page}`") not in body]
    assert not unlisted, f"{readme.name} does not list {unlisted}"


def test_both_readmes_have_the_same_number_of_sections():
    en = SECTION.findall(prose(EN))
    zh = SECTION.findall(prose(ZH))
    assert len(en) >= 5
    assert len(zh) == len(en)


def test_the_docs_count_the_shipped_lessons_slides():
    """The READMEs and docs/lessons.md say how many slides the shipped lesson has: read from its file, so a lesson that
    grows fails here until they say so too."""
    n = len(json.loads((ROOT / "lessons" / "attention-basics.json").read_text(encoding="utf-8"))["slides"])
    said = {
        EN: [f"a ready lesson in {n} slides", f"`?slide=1…{n}`"],
        ZH: [f"一套现成的 {n} 张幻灯片的课", f"`?slide=1…{n}`"],
        ROOT / "docs" / "lessons.md": [f"`lessons/attention-basics.json` ({n} slides)"],
    }
    for path, phrases in said.items():
        for phrase in phrases:
            assert phrase in text(path), (path.name, phrase)
