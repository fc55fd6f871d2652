"""views.base.spec_of: a page's slider reads its range from the view that declares the control."""

from __future__ import annotations

import pytest

from views import Number, PositionalView, StepByStepView, Whole
from views.base import spec_of


def test_the_declared_bounds_are_returned():
    length = spec_of(PositionalView, "length", Whole)
    assert isinstance(length, Whole) and length.low < length.high
    temperature = spec_of(StepByStepView, "wt_temperature", Number)
    assert isinstance(temperature, Number) and temperature.low < 1.0 < temperature.high  # 1: plain softmax, inside


def test_a_control_of_another_kind_is_refused_with_its_name():
    with pytest.raises(TypeError, match=r"PositionalView\.length is declared a Whole, not a Number"):
        spec_of(PositionalView, "length", Number)
