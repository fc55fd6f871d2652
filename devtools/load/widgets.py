"""Widgets as the browser holds them: read from the elements' protos, written back as WidgetStates.

A widget's value goes over the wire as its shown label (selectbox, radio, segmented control, select slider),
its text, number or flag, or a one-shot trigger (buttons). The browser takes a widget's value from its element
when it first sees it, or when the server sets it (`set_value`); after that the value is the user's. This module
does the same, for the widget kinds the app draws; other kinds are left to the server's own state.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal, TypeAlias

from ui.streamlit_private import user_key_of_element
from ui.streamlit_private.wire import (
    Button,
    ButtonGroup,
    Checkbox,
    DownloadButton,
    Element,
    NumberInput,
    Radio,
    Selectbox,
    Slider,
    TextArea,
    TextInput,
    WidgetState,
)

# Element kinds whose value this client keeps; buttons are triggers, sent only in the run they are clicked.
VALUE_KINDS = {"text_input", "text_area", "selectbox", "radio", "button_group", "number_input", "slider", "checkbox"}
TRIGGER_KINDS = {"button", "download_button"}

# The element's own message of each kind above (Element.text_input is a TextInput, …).
WidgetProto: TypeAlias = (
    TextInput | TextArea | Selectbox | Radio | ButtonGroup | NumberInput | Slider | Checkbox | Button | DownloadButton
)
# A value a user gives a widget: a label, text, number or flag (an int picks a choice widget's option), or several.
Choice: TypeAlias = str | int | float
UserValue: TypeAlias = Choice | list[Choice] | tuple[Choice, ...]


@dataclass
class Widget:
    """One widget of the page as last drawn: its id, user key, kind, fragment and form, and its element proto."""

    id: str
    key: str | None
    kind: str
    fragment_id: str
    proto: WidgetProto  # the element's own message (TextInput, Selectbox, …)

    @property
    def form_id(self) -> str:
        return getattr(self.proto, "form_id", "")

    @property
    def options(self) -> list[str]:
        """Shown labels of a choice widget (empty for others)."""
        if self.kind == "button_group":
            assert isinstance(self.proto, ButtonGroup)
            return [option.content for option in self.proto.options]
        return list(getattr(self.proto, "options", []))


def widget_of(element: Element) -> Widget | None:
    """The Widget an element draws, or None for an element that is not a widget this client understands."""
    kind = element.WhichOneof("type")
    if kind not in VALUE_KINDS | TRIGGER_KINDS:
        return None
    proto = getattr(element, kind)
    if not proto.id:
        return None
    return Widget(proto.id, user_key_of_element(proto.id), kind, "", proto)


def initial_state(widget: Widget) -> WidgetState | None:
    """The value the browser takes from the element: the server's (`set_value`) or the default; None when the
    widget starts empty or is a trigger."""
    p, kind = widget.proto, widget.kind
    state = WidgetState(id=widget.id)
    if kind in ("text_input", "text_area", "number_input"):
        assert isinstance(p, TextInput | TextArea | NumberInput)
        field: Literal["value", "default"] = "value" if p.set_value and p.HasField("value") else "default"
        if not p.HasField(field):
            return None
        if kind == "number_input":
            return number_state(widget, getattr(p, field))
        state.string_value = getattr(p, field)
    elif kind in ("selectbox", "radio"):
        assert isinstance(p, Selectbox | Radio)
        if p.set_value and p.HasField("raw_value"):
            state.string_value = p.raw_value
        elif p.HasField("default"):
            state.string_value = p.options[p.default]
        else:
            return None
    elif kind == "button_group":
        assert isinstance(p, ButtonGroup)
        labels = list(p.raw_values) if p.set_value else [widget.options[i] for i in p.default]
        state.string_array_value.data[:] = labels
    elif kind == "slider":
        assert isinstance(p, Slider)
        if p.options:  # a select slider: labels
            labels = list(p.raw_value) if p.set_value else [p.options[int(i)] for i in p.default]
            state.string_array_value.data[:] = labels
        else:
            state.double_array_value.data[:] = list(p.value if p.set_value else p.default)
    elif kind == "checkbox":
        assert isinstance(p, Checkbox)
        state.bool_value = p.value if p.set_value else p.default
    else:
        return None
    return state


def number_state(widget: Widget, value: float | str) -> WidgetState:
    proto = widget.proto
    assert isinstance(proto, NumberInput)  # called for number_input widgets only
    state = WidgetState(id=widget.id)
    if proto.data_type == proto.DataType.INT:
        state.int_value = int(value)
    else:
        state.double_value = float(value)
    return state


def user_state(widget: Widget, value: UserValue) -> WidgetState:
    """The WidgetState a user's choice sends. Choices are given as shown labels (or, for a choice widget, as an
    option's position, an int); a button takes True (clicked)."""
    state = WidgetState(id=widget.id)
    kind = widget.kind
    if kind in TRIGGER_KINDS:
        state.trigger_value = bool(value)
    elif kind in ("text_input", "text_area"):
        state.string_value = str(value)
    elif kind in ("selectbox", "radio"):
        state.string_value = _label(widget, value)
    elif kind == "button_group" or (kind == "slider" and widget.options):  # a select slider: labels
        values = value if isinstance(value, list | tuple) else [value]
        state.string_array_value.data[:] = [_label(widget, v) for v in values]
    elif kind == "slider":
        values = value if isinstance(value, list | tuple) else [value]
        state.double_array_value.data[:] = [float(v) for v in values]
    elif kind == "number_input":
        if isinstance(value, list | tuple):  # as int([…]) and float([…]) refused it before
            raise TypeError(f"a number input takes one number, not {value!r}")
        return number_state(widget, value)
    elif kind == "checkbox":
        state.bool_value = bool(value)
    else:  # pragma: no cover - widget_of admits only the kinds above
        raise ValueError(f"cannot set a {kind}")
    return state


def _label(widget: Widget, value: object) -> str:
    options = widget.options
    if isinstance(value, int) and not isinstance(value, bool):
        return options[value]
    if str(value) not in options:
        raise ValueError(f"{value!r} is not one of {widget.key or widget.id}'s options {options}")
    return str(value)


def shown_value(state: WidgetState | None) -> object:
    """A WidgetState's value as Python (label, text, number, flag or list)."""
    if state is None:
        return None
    kind = state.WhichOneof("value")
    if kind is None:  # initial_state and user_state never make an empty state (getattr(state, None) failed before)
        raise TypeError(f"the widget state of {state.id} holds no value")
    value = getattr(state, kind)
    return list(value.data) if kind.endswith("_array_value") else value
