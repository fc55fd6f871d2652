"""The view a class follows, as room state: the teacher's page plus the values of a list of session-state keys.

Every page keeps its view in widget keys (most of them also in the URL). This is the one list of the keys a
class follows: each is a widget key a page uses, holding an option id, a number, a flag or typed text (never
a translated label, so a teacher in Chinese and a student in English see the same view). Named settings go
in the room's fields (services/rooms/schema.STATE_FIELDS); the rest travel in its `extra` mapping.
Applying takes only keys from this list, so a room can never set anything else in a student's session.
"""

from __future__ import annotations

import math
from collections.abc import Collection, Mapping, MutableMapping

from model.naming import AttentionKind
from services.rooms.schema import STATE_FIELDS, BoolField, IntField, TextField

# room field → session-state key (the Lesson page's slide and the presenter view are plain session keys)
FIELDS = {
    "model": "model",  # ui/sidebar.py: the model picker
    "input": "text",  # ui/inputs.py: the shared input box
    "target": "target",  # pages/attention.py
    "kind": "kind",  # ui/attention/view.py: an AttentionKind (encoder / decoder / cross)
    "step": "step",  # ui/walkthrough/state.py
    "layer": "layer",  # ui/attention/view.py
    "head": "head",  # ui/attention/view.py
    "query": "query",  # ui/walkthrough/state.py: the query row (1-based)
    "lesson": "lesson",  # the Lesson page
    "slide": "lesson_slide",  # the Lesson page
    "present": "present",  # the presenter view
}
# session-state keys that travel in `extra` under their own name
EXTRAS = (
    "source",  # ui/walkthrough/state.py: worked example or model
    "wt_kind", "wt_layer", "wt_head",  # ui/walkthrough: the model block (an AttentionKind) and head the steps follow
    "wt_temperature", "wt_scale_off", "wt_mask_off",  # ui/walkthrough/state.py: ablations
    "wt_mask_kind", "mask",  # ui/walkthrough/example.py: the worked example's mask (the key is "mask" since i18n)
    "token", "summaries",  # ui/attention/view.py: isolated query token, summaries open
    "heads_off_code",  # ui/attention/knockout.py: the heads switched off, as the link code "e1.3,c2.1"
    "layer_stack", "layer_ln", "layer_ffn",  # ui/layers/view.py
    "d_model", "length", "no_pe",  # ui/positional/view.py
    "rnn_part", "rnn_step",  # ui/rnn/parts.py, ui/rnn/decoder.py: the RNN page's part and decoder step
    "rnn_layer", "rnn_mean", "rnn_head",  # ui/rnn/align.py: the Transformer block and head beside the RNN
    "bottleneck_task", "bottleneck_n", "grad_length", "grad_bias",  # ui/rnn/bottleneck.py, ui/rnn/gradients.py
)  # fmt: skip
PAGE = "page"
EXTRA = "extra"


def _attention_kind(value: object) -> object:
    """An attention kind as its id: a room published before model/naming.py says "encoder self" for the
    walkthrough's "encoder". Anything else is left as it is (the page's widget drops what it does not offer)."""
    try:
        return AttentionKind.parse(value).value
    except ValueError:
        return value


READ = {FIELDS["kind"]: _attention_kind, "wt_kind": _attention_kind}  # session key → how a room's value is read


def _plain(value: object) -> object:
    """NumPy scalars as Python ones, str subclasses (an AttentionKind) as str; anything else unchanged."""
    if isinstance(value, str):
        return str(value)
    item = getattr(value, "item", None)
    return item() if callable(item) and not isinstance(value, str | bytes) else value


def _fits(spec: TextField | IntField | BoolField, value: object) -> bool:
    if isinstance(spec, TextField):
        return isinstance(value, str)
    if isinstance(spec, IntField):
        return isinstance(value, int) and not isinstance(value, bool) and spec.low <= value <= spec.high
    return isinstance(value, bool)


def _extra_value(value: object) -> bool:
    if isinstance(value, float):
        return math.isfinite(value)
    return value is None or isinstance(value, str | int | bool)


def collect(session: Mapping, page: str) -> dict:
    """The room state of this session's view: its page's URL path and every listed key it holds."""
    state: dict = {PAGE: page}
    for name, key in FIELDS.items():
        if key in session and _fits(STATE_FIELDS[name], value := _plain(session[key])):
            state[name] = value
    extra = {key: value for key in EXTRAS if key in session and _extra_value(value := _plain(session[key]))}
    if extra:
        state[EXTRA] = extra
    return state


def apply(state: Mapping, session: MutableMapping, models: Collection[str]) -> list[str]:
    """Write a room state's values into session state (before any widget is drawn); returns the keys set.

    Only listed keys are written. A model this session cannot use is skipped, so the picker keeps its choice."""
    changed = []
    values = [(key, state[name]) for name, key in FIELDS.items() if name in state]
    extra = state.get(EXTRA)
    if isinstance(extra, Mapping):
        values += [(key, extra[key]) for key in EXTRAS if key in extra]
    for key, value in values:
        value = READ[key](value) if key in READ else value
        if key == FIELDS["model"] and value not in models:
            continue
        if key not in session or session[key] != value:
            session[key] = value
            changed.append(key)
    return changed


def _flat(state: Mapping) -> dict:
    flat = {name: value for name, value in state.items() if name != EXTRA}
    extra = state.get(EXTRA)
    if isinstance(extra, Mapping):
        flat |= {f"{EXTRA}.{key}": value for key, value in extra.items()}
    return flat


def _nested(flat: Mapping) -> dict:
    state = {name: value for name, value in flat.items() if not name.startswith(f"{EXTRA}.")}
    extra = {name.split(".", 1)[1]: value for name, value in flat.items() if name.startswith(f"{EXTRA}.")}
    if extra:
        state[EXTRA] = extra
    return state


def moved(earlier: list[Mapping], after: Mapping) -> dict:
    """{setting: (its earlier values, its value now)} for each setting a full run set to a value other than one it
    had in the `earlier` views (the last full run's, the last fragment run's); None stands for absent."""
    new = _flat(after)
    olds = [_flat(view) for view in earlier]
    changed = {}
    for name in set(new).union(*olds):
        was = tuple({old.get(name) for old in olds} - {new.get(name)})
        if was:
            changed[name] = (was, new.get(name))
    return changed


def undo_stale(state: Mapping, pending: dict) -> dict:
    """`state` with each setting still pending (moved by a full run, not yet seen back from the browser) that reads
    an earlier value put back to its new one; `pending` loses the settings the browser has caught up on (or moved
    on from).

    Why: a run_every fragment's timer in the browser sends every widget's value with each rerun it asks for.
    After a full run changed a value in code (the Next button's callback moving the step), the browser keeps
    sending the old value until it has drawn that run, which takes seconds on a busy machine; each of those
    fragment runs sees the old value. Publishing it would pull the class back (step 2, 1, 2)."""
    now = _flat(state)
    for name, (was, became) in list(pending.items()):
        value = now.get(name)
        if value in was:
            if became is None:
                now.pop(name, None)
            else:
                now[name] = became
        else:
            del pending[name]  # the browser shows the new value (or a newer one the teacher chose)
    return _nested(now)
