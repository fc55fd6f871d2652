"""The Train page's GPT family in a real browser (the shared server, one training worker): a short English run whose
samples list and loss curve draw, whose download is the GPT it trained, and whose model then writes on /next-token;
a short Chinese poem run and a short induction run with the head-score curves, read in Chinese; a bad step count
told in words."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from attention_lab.chart import CHARTS
from devtools.harness import exceptions_on, open_page, runs, wait_settled
from model.gpt import LoadedGPT
from model.io.archive import load_any_archive

from .test_train import choose, go, picker_options

pytestmark = pytest.mark.browser
IDLE = "document.querySelector('[data-testid=\"stApp\"]').getAttribute('data-test-script-state') === 'notRunning'"


def start_gpt(page, family: str, task: str | None, steps: int, start: str, task_label: str) -> None:
    """Choose the GPT family (and a task), a step count, and press Start."""
    before = runs(page)
    page.get_by_text(family, exact=True).click()
    wait_settled(page, before)
    if task is not None:
        before = runs(page)
        choose(page, task_label, task)
        wait_settled(page, before)
    page.get_by_label(re.compile(r"^(Steps \(most\)|最多步数)$")).fill(str(steps))
    page.get_by_role("button", name=start).click()


def test_an_english_gpt_trains_writes_samples_and_then_writes_on_next_token(page, app_url):
    open_page(page, app_url)
    go(page, "Train")
    start_gpt(page, "GPT (decoder-only)", None, 60, "▶ Start training", "Task")
    page.get_by_text("is now in the sidebar").wait_for(timeout=120_000)
    page.wait_for_function(IDLE)
    expect(page.get_by_text(re.compile(r"^Done after 60 steps"))).to_be_visible(timeout=30_000)
    expect(page.get_by_text("Written by the model so far")).to_be_visible()
    samples = page.locator('[class*="st-key-train_gpt_samples"] code')
    assert samples.count() == 2  # step 60 (the last), then step 1: newest first
    assert samples.first.inner_text().startswith("To be, or not to be▌")
    assert page.locator(CHARTS).count() >= 3  # the loss, the timeline, before/after
    with page.expect_download() as download:
        page.get_by_role("button", name="⬇ Download .zip").click()
    assert download.value.suggested_filename == "my-shakespeare.zip"
    lm = load_any_archive(download.value.path().read_bytes())
    assert isinstance(lm, LoadedGPT) and lm.task.name == "shakespeare" and lm.meta["steps"] == 60
    assert "my-shakespeare (yours)" in picker_options(page)
    page.get_by_role("link", name="Open it on Next token").click()
    page.wait_for_function(IDLE)
    page.get_by_role("heading", name=re.compile("Next token")).first.wait_for(timeout=60_000)
    sidebar = page.locator('[data-testid="stSidebar"]').inner_text()
    assert "d_model 64" in sidebar and "context 64" in sidebar, sidebar  # the model trained here, picked
    page.screenshot(path="/tmp/indtrain/next_token.png")
    assert exceptions_on(page) == []


def test_chinese_poems_and_an_induction_run_read_in_chinese(page, app_url):
    open_page(page, f"{app_url}/train?lang=zh")
    start_gpt(page, "GPT（仅解码器）", "中文诗（唐诗）", 30, "▶ 开始训练", "任务")
    page.get_by_text("已加入侧边栏的模型列表").wait_for(timeout=120_000)
    page.wait_for_function(IDLE)
    expect(page.get_by_text("模型目前写出的文字")).to_be_visible()
    sample = page.locator('[class*="st-key-train_gpt_samples"] code').first.inner_text()
    assert sample.startswith("床前明月光，▌") and len(sample) == len("床前明月光，▌") + 42
    # the induction task, a short run to its end: every head's scores drawn over the steps
    before = runs(page)
    choose(page, "任务", "归纳（一段随机词元重复一次）")
    wait_settled(page, before)
    page.get_by_text("到达步数或分钟数后").click()
    page.get_by_label("最多步数").fill("150")
    page.get_by_role("button", name="▶ 开始训练").click()
    page.get_by_text("已加入侧边栏的模型列表").wait_for(timeout=120_000)
    page.wait_for_function(IDLE)
    scores = page.locator(CHARTS).filter(has_text="每个头的归纳分数")
    expect(scores).to_have_count(1, timeout=30_000)
    assert scores.get_by_text("每个头的前一词元分数").count() == 1
    assert scores.get_by_text("第 2 层 第 1 头").count() >= 1  # the legend names heads in Chinese
    expect(page.get_by_text("目前的复制结果")).to_be_visible()
    assert exceptions_on(page) == []


def test_steps_zero_is_told_and_nothing_starts(page, app_url):
    open_page(page, f"{app_url}/train?lang=zh")
    start_gpt(page, "GPT（仅解码器）", None, 0, "▶ 开始训练", "任务")
    expect(page.get_by_text("步数必须在 1 到 20,000 之间；收到的是 0。")).to_be_visible(timeout=30_000)
    assert page.get_by_text(re.compile(r"^第 \d+ 步（最多")).count() == 0  # no progress bar: nothing queued
    assert exceptions_on(page) == []
