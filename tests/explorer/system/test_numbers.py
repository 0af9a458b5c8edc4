"""Numbers typed in options (``explorer.system.numbers``): what Python reads as a number but a person did not
write as one is refused."""

from __future__ import annotations

import pytest

from explorer.system.numbers import real, whole


@pytest.mark.parametrize("text, value", [("0", 0), ("-7", -7), ("0012", 12), ("9007199254740993", 2**53 + 1)])
def test_whole_numbers_in_ascii_digits(text, value):
    assert whole(text) == value and type(whole(text)) is int


@pytest.mark.parametrize("text", ["1_0", "+5", " 5", "5 ", "5\n", "\u0663", "\uff15", "1.0", "1e3", "", "-", "0x10"])
def test_anything_else_is_not_a_whole_number(text):  # int() takes the first six
    with pytest.raises(ValueError):
        whole(text)


@pytest.mark.parametrize(
    "text, value", [("1e-9", 1e-9), ("+5", 5.0), ("-0.5", -0.5), ("inf", float("inf")), ("3", 3.0)]
)
def test_reals_written_plainly(text, value):
    assert real(text) == value


@pytest.mark.parametrize("text", ["1_0", " 5", "5 ", "\u0663", "\uff15.5", "1e-9\t", ""])
def test_underscores_spaces_and_other_digits_are_not_reals(text):
    with pytest.raises(ValueError):
        real(text)
