"""The Train page when a run has ended: the bar completes (a run that reached its accuracy goal at step 1,300 of at
most 2,000 used to leave it at 65 % beside a greyed Stop, and looked stuck), the line under it says how it ended,
and the result sits at the top, above the curves, with a link that opens the new model on the Attention page."""

from __future__ import annotations

import pytest

from services.training.handle import JobView
from ui.training.panels import ended_text, progress_share, progress_text

from .training import open_train, set_run, start, texts


def view(status: str, step: int, total: int = 2000, accuracy: float = 0.992) -> JobView:
    return JobView(status, "", "", step, total, 61.7, [(step, 0.01)], [(step, accuracy)], 3)


def test_the_bar_completes_when_the_goal_is_reached_early_and_says_so():
    done = view("done", 1300)
    assert progress_share(done) == 1.0 and progress_share(view("running", 1300)) == 0.65
    assert (
        progress_text(done)
        == ended_text(done)
        == ("Done: the accuracy goal was reached at step 1,300 (of at most 2,000) · 61.7 s · held-out accuracy 99.2%")
    )
    assert ended_text(view("done", 2000)) == "Done: all 2,000 steps · 61.7 s · held-out accuracy 99.2%"
    stopped = view("stopped", 1300)  # stopped by hand: the bar shows how far it got
    assert progress_share(stopped) == 0.65
    assert ended_text(stopped) == "Stopped at step 1,300 of at most 2,000 · 61.7 s · held-out accuracy 99.2%"
    assert progress_text(view("running", 1300)).startswith("Step 1,300 of at most 2,000")


def kinds_in_order(at) -> list[str]:
    """The main area's elements in the order they are drawn, by kind (progress, success, bidi_component: a chart, …)."""
    found: list[str] = []

    def walk(node):
        kind = getattr(node, "type", None)
        if kind and not getattr(node, "children", None):
            found.append(kind)
        for child in getattr(node, "children", {}).values():
            walk(child)

    walk(at.main)
    return found


@pytest.mark.parametrize(("lang", "done", "link"), [
    ("en", "Done: all 10 steps", "Open it on Attention"), ("zh", "完成：共 10 步", "在“注意力”页面打开它"),
])  # fmt: skip
def test_the_result_sits_at_the_top_with_a_link_to_attention(train_pool, lang, done, link):
    at = open_train(lang)
    set_run(at, "translate", 10)
    start(at)
    assert at.session_state["train_job"].join(120)
    at.run()  # the progress fragment sees the finished job, registers the model and reruns the app
    assert not at.exception
    bar = at.get("progress")[0].proto
    assert bar.value == 100 and bar.text.startswith(done)
    assert "train_stop" not in [b.key for b in at.button]  # no greyed Stop beside a finished run
    order = kinds_in_order(at)
    assert order.index("progress") < order.index("success") < order.index("bidi_component")  # the curves, in place
    links = [e.proto for e in at.get("page_link") if e.proto.label == link]
    assert len(links) == 1 and links[0].page == "attention"
    assert "model=my-translate" in links[0].query_string
    assert any("my-translate" in s for s in texts(at.success))
