"""A page's view in its link: read when the link changed (the first run, a shared link, Back and Forward), written
after every run, with a message on the page for each value the view cannot take.

The link holds ids and numbers as on screen (?kind=cross&layer=2). A link written before held a choice's shown
label in either language (?kind=Cross-attention, ?kind=交叉注意力): it still opens that view. The language (?lang=)
is ui.language's; the room and key (?room=, ?key=) are the class's.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Mapping

import streamlit as st

from views import (
    DEFAULT_MODEL,
    VIEWS,
    Choice,
    Common,
    LinkProblem,
    PageView,
    ViewError,
    Whole,
    build,
    fields,
    from_params,
    to_params,
    values,
)
from views import fit as fit_view
from views.base import by_name

from ..i18n import LANG_KEY, LANGUAGES, _, explain, translations
from ..tokens import md_escape
from .session import defaults, read, reassert, write

WRITTEN_KEY = "_link_written"  # {page: {param: text}}: each view's parameters as this session last wrote them
LAST_KEY = "_view_last"  # {page: its view's values when this session last showed it}, for coming back to it
LINK_NOTES_KEY = "_link_notes"  # messages about the link, shown once under the page's title
# (page, {param: text}, {param the view could not take}) the last link read gave, for fit(): a fitted control's
# value is checked there against this model's high (views.Control.fitted)
GIVEN_KEY = "_link_given"
# Called with the page after each sync_url: features that react to a view the user may have just changed, in a
# fragment's run too (ui.classroom.following: a following student's touch), so this module imports none of them.
ON_SYNC: list[Callable[[str], None]] = []
OWN = {LANG_KEY}  # parameters another part of the app keeps
MODEL_PARAM = by_name(Common)["model"].control.url


def _labels(spec: Choice) -> dict[str, str]:
    """{the shown label in every language: id} of a choice with labels (for links written with a label)."""
    return _label_table(tuple(spec.labels.items()))


@functools.cache
def _label_table(labels: tuple[tuple[str, str], ...]) -> dict[str, str]:
    found: dict[str, str] = {}
    for lang in LANGUAGES:
        for option, msgid in labels:
            found.setdefault(translations(lang).gettext(msgid), option)
    return found


def _view_params(cls: type[PageView]) -> list[str]:
    return [f.control.url for f in fields(cls) if f.control.url not in OWN]


def _note(problem: LinkProblem) -> str:
    return _("This link's {param}={value} cannot be shown: {reason} The page opens with its default instead.").format(
        param=md_escape(problem.param), value=md_escape(problem.value), reason=explain(problem.error)
    )


def settle(page: str, models: Mapping[str, str]) -> PageView | None:
    """Before any widget: read the link's parameters of `page`'s view that changed since this session wrote them
    into the session's keys (a model must be one of `models`: {name or label: name}), give unset keys their
    defaults; returns the view."""
    cls = VIEWS.get(page)
    if cls is None:
        return None
    written = _written(page)
    given = {p: st.query_params[p] for p in _view_params(cls) if p in st.query_params}
    changed = {p: text for p, text in given.items() if written.get(p) != text}
    if changed:
        settings, problems = from_params(cls, changed, _labels)
        fitted = {f.control.url for f in fields(cls) if f.control.fitted}
        said_by_fit = {p.param for p in problems if p.param in fitted}  # with the model's range, by fit()
        notes = [
            _unknown_model(changed[p.param]) if p.param == MODEL_PARAM else _note(p)
            for p in problems
            if p.param not in said_by_fit
        ]
        if "model" in settings:
            asked = settings.pop("model")
            if asked in models:
                settings["model"] = models[asked]
            else:
                notes.append(_unknown_model(asked))
        write(build(cls, settings), st.session_state, set(settings))
        given = {by_name(cls)[name].control.url: changed[by_name(cls)[name].control.url] for name in settings}
        given |= {p.param: p.value for p in problems if p.param in said_by_fit}  # the value cut short
        st.session_state[GIVEN_KEY] = (page, given, said_by_fit)
        if notes:
            st.session_state[LINK_NOTES_KEY] = notes
    defaults(cls, st.session_state, st.session_state.get(LAST_KEY, {}).get(page, {}))
    reassert(cls, st.session_state, skip=OWN)
    return read(cls, st.session_state)


def _unknown_model(name: str) -> str:
    """A link's model this session does not have (mistyped, or trained in another session): said on the page,
    rather than showing another model without a word."""
    shown = name if len(name) <= 40 else name[:39] + "…"
    return _(
        "This link asks for the model “{name}”, which is not here (a model trained in the browser stays in "
        "the session that trained it); showing **{default}** instead."
    ).format(name=md_escape(shown), default=DEFAULT_MODEL)


def _written(page: str) -> dict[str, str]:
    """The parameters of `page`'s view as this session last wrote them into the link."""
    return st.session_state.setdefault(WRITTEN_KEY, {}).setdefault(page, {})


def sync_url(page: str) -> None:
    """Write the session's view of `page` into the link: each control that differs from its default; the rest leave.
    Idempotent, so a fragment that moved a control calls it too."""
    cls = VIEWS.get(page)
    if cls is None:
        return
    view = read(cls, st.session_state)
    st.session_state.setdefault(LAST_KEY, {})[page] = values(view)
    params = {p: t for p, t in to_params(view).items() if p not in OWN}
    written = _written(page)
    written.clear()
    for param in _view_params(cls):
        text = params.get(param)
        if text is None:
            if param in st.query_params:
                del st.query_params[param]
            continue
        if st.query_params.get(param) != text:
            st.query_params[param] = text
        written[param] = text
    for react in ON_SYNC:
        react(page)


def fit(page: str, highs: dict[str, int]) -> None:
    """Before a page draws the widgets of these controls (each a fitted one, views.Control.fitted): each above what
    this model or input has (its last layer, head, row: `highs` by control name) goes back to its default; when
    the link gave that value, or one the control could never take (layer=999, head=abc), the page says so, with
    this model's range."""
    cls = VIEWS[page]
    assert all(by_name(cls)[name].control.fitted for name in highs), highs  # settle() leaves their notes to here
    view, reset = fit_view(read(cls, st.session_state), highs)
    if reset:
        write(view, st.session_state, set(reset))
    given_page, given, refused = st.session_state.get(GIVEN_KEY, ("", {}, set()))
    if given_page != page:
        return
    for name in highs:
        control = by_name(cls)[name].control
        if control.url not in given or not (name in reset or control.url in refused):
            continue
        refused.discard(control.url)
        spec = control.spec
        assert isinstance(spec, Whole), name  # every caller's `highs` names whole-number controls
        error = ViewError(ViewError.NOT_WHOLE, field=control.url, low=spec.shown(spec.low),
                          high=spec.shown(highs[name]))  # fmt: skip
        st.warning(_note(LinkProblem(control.url, given.pop(control.url), error)), icon="⚠️")


def link_notes() -> list[str]:
    """The messages about this page's link (each once)."""
    return st.session_state.pop(LINK_NOTES_KEY, [])
