"""The precision lab's float32 without numpy: every operation rounds as numpy's float32 does, bit for bit."""

from __future__ import annotations

import math
import random
import struct

import numpy as np
import pytest

from explorer.model.derived.float32 import Float32, round_to_float32, square_root

OPERATIONS = {
    "+": (lambda x, y: x + y),
    "-": (lambda x, y: x - y),
    "*": (lambda x, y: x * y),
    "/": (lambda x, y: x / y),
}


def _bits(x) -> int:
    return struct.unpack("<I", struct.pack("<f", np.float32(x)))[0]


def _values(seed: int, count: int) -> list[float]:
    """float32 values over the whole range: normal, subnormal, near overflow, zeros of both signs, infinities."""
    rng = random.Random(seed)
    special = [0.0, -0.0, math.inf, -math.inf, 3.4028234663852886e38, 1.401298464324817e-45, 1.1754943508222875e-38]
    drawn = [rng.choice((-1.0, 1.0)) * 2.0 ** rng.uniform(-149, 128) for _ in range(count)]
    return [float(np.float32(x)) for x in special + drawn]


def test_rounding_a_float64_to_float32_is_numpys_cast():
    rng = random.Random(1)
    inputs = [rng.choice((-1.0, 1.0)) * 2.0 ** rng.uniform(-160, 140) for _ in range(20_000)]
    inputs += [3.4028235677973366e38, 3.4028235677973362e38, 7.006492321624085e-46, 7.006492321624087e-46, math.nan]
    with np.errstate(over="ignore"):
        expected = [float(np.float32(x)) for x in inputs]
    got = [round_to_float32(x) for x in inputs]
    assert [struct.pack("<d", g) for g in got] == [struct.pack("<d", e) for e in expected]


@pytest.mark.parametrize("name", sorted(OPERATIONS))
def test_each_operation_equals_numpys_float32_bit_for_bit(name):
    operation = OPERATIONS[name]
    xs, ys = _values(2, 3000), _values(3, 3000)
    with np.errstate(all="ignore"):
        expected = [operation(np.float32(x), np.float32(y)) for x, y in zip(xs, ys)]
    got = [operation(Float32(x), Float32(y)) for x, y in zip(xs, ys) if not (name == "/" and y == 0.0)]
    expected = [e for e, y in zip(expected, ys) if not (name == "/" and y == 0.0)]
    assert all(isinstance(g, Float32) for g in got)
    mismatch = [(g, e) for g, e in zip(got, expected) if _bits(g) != _bits(e)]
    assert not mismatch, mismatch[:3]


def test_mixed_with_plain_numbers_and_the_square_root_stay_float32():
    x = Float32(0.1)
    assert x == float(np.float32(0.1)) and isinstance(2 * x, Float32) and isinstance(1 - x, Float32)
    assert _bits(1 / Float32(3.0)) == _bits(np.float32(1) / np.float32(3))
    assert _bits(1 - x) == _bits(np.float32(1) - np.float32(0.1)) and _bits(3 * x) == _bits(
        np.float32(3) * np.float32(0.1)
    )
    roots = [square_root(Float32(v)) for v in _values(4, 3000) if v >= 0]
    with np.errstate(all="ignore"):
        expected = [np.sqrt(np.float32(v)) for v in _values(4, 3000) if v >= 0]
    assert [_bits(r) for r in roots] == [_bits(e) for e in expected]
    assert all(isinstance(r, Float32) for r in roots)
    assert math.isnan(square_root(Float32(-1.0))) and math.isnan(square_root(-1.0))
    assert square_root(2.0) == math.sqrt(2.0) and type(square_root(2.0)) is float
