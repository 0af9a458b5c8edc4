"""Arc tangent and arc sine from IEEE arithmetic alone: within an ulp or a few of the exact angle."""

from __future__ import annotations

import math
import random
from decimal import Decimal, getcontext

import pytest

from solver.angles import asin, atan

getcontext().prec = 60


def _exact_atan(x: float) -> Decimal:
    """atan(x) to 50 digits: atan of the exact float by the series after halving the argument three times."""
    t = Decimal(x)
    for _ in range(3):  # atan(t) = 2 atan(t / (1 + sqrt(1 + t^2)))
        t = t / (1 + (1 + t * t).sqrt())
    total, power, k = Decimal(0), t, 0
    while abs(power) > abs(t) * Decimal(10) ** -55:
        total += power / (2 * k + 1) * (-1) ** k
        power *= t * t
        k += 1
    return total * 8


def _ulps(got: float, exact: Decimal) -> float:
    return float(abs(Decimal(got) - exact)) / math.ulp(float(exact))


@pytest.mark.parametrize("seed", range(3))
def test_atan_is_within_one_ulp_everywhere(seed):
    rng = random.Random(seed)
    xs = [rng.choice((-1, 1)) * 2.0 ** rng.uniform(-30, 70) for _ in range(400)]
    xs += [0.4375, 0.6875, 1.1875, 2.4375, 0.5, 1.0, 1.5, 2.0**-27, 2.0**66]
    xs += [math.nextafter(x, 0.0) for x in (0.4375, 0.6875, 1.1875, 2.4375)]
    for x in xs:
        exact = _exact_atan(x) if abs(x) < 1e15 else Decimal(math.pi / 2).copy_sign(Decimal(x)) - 1 / Decimal(x)
        assert _ulps(atan(x), exact) <= 1.0, x


def test_asin_is_within_a_few_ulps_and_exact_at_the_ends():
    rng = random.Random(7)
    for x in [rng.uniform(-1.0, 1.0) for _ in range(500)] + [0.5, -0.5, 0.999999, 1e-300, 0.0]:
        if x == 0.0:
            assert asin(x) == 0.0
            continue
        exact = _exact_atan(x / math.sqrt((1 - x) * (1 + x)))  # the angle of the exact x, to ~1e-16 relative
        assert abs(asin(x) - float(exact)) <= 4 * math.ulp(float(exact)) + abs(float(exact)) * 2e-16, x
    assert asin(1.0) == math.pi / 2 and asin(-1.0) == -math.pi / 2
    assert math.isnan(atan(math.nan))
    with pytest.raises(ValueError, match=r"^x: must be in \[-1, 1\], got 1.5$"):
        asin(1.5)
