"""IEEE single precision without numpy: the precision lab's float32, rounded exactly as a float32 unit rounds.

Every operation of :class:`Float32` is done in float64 and the result rounded
to the nearest float32 (ties to even, overflow to infinity, gradual
underflow), which gives the correctly rounded float32 result of ``+``, ``-``,
``*``, ``/`` and the square root: float64 carries more than twice float32's 24
bits plus two, so rounding twice cannot differ from rounding once.  So the lab
answers the same as numpy's ``float32`` bit for bit, where numpy cannot be
installed (a browser's Python).  Standard library only.
"""

from __future__ import annotations

import math
import struct

_SINGLE = struct.Struct("<f")


def round_to_float32(x: float) -> float:
    """``x`` rounded to the nearest float32 (as a Python float): ties to even, too large to ±inf, NaN kept."""
    try:
        return _SINGLE.unpack(_SINGLE.pack(x))[0]
    except OverflowError:  # rounds beyond the largest float32
        return math.copysign(math.inf, x)


class Float32(float):
    """A float32 value; arithmetic with another number rounds its result to float32.

    Comparisons are those of the value (a float32 is a float64 exactly).
    """

    __slots__ = ()

    def __new__(cls, value: object = 0.0) -> Float32:
        return super().__new__(cls, round_to_float32(float(value)))  # type: ignore[arg-type]

    def __add__(self, other: object) -> Float32:
        return Float32(float(self) + float(other))  # type: ignore[arg-type]

    __radd__ = __add__

    def __sub__(self, other: object) -> Float32:
        return Float32(float(self) - float(other))  # type: ignore[arg-type]

    def __rsub__(self, other: object) -> Float32:
        return Float32(float(other) - float(self))  # type: ignore[arg-type]

    def __mul__(self, other: object) -> Float32:
        return Float32(float(self) * float(other))  # type: ignore[arg-type]

    __rmul__ = __mul__

    def __truediv__(self, other: object) -> Float32:
        return Float32(float(self) / float(other))  # type: ignore[arg-type]

    def __rtruediv__(self, other: object) -> Float32:
        return Float32(float(other) / float(self))  # type: ignore[arg-type]

    def __neg__(self) -> Float32:
        return Float32(-float(self))

    def __repr__(self) -> str:
        return f"Float32({float(self)!r})"


def square_root(x: float) -> float:
    """The square root in ``x``'s own type (:class:`Float32` or float); NaN for a negative or NaN ``x``."""
    root = math.sqrt(x) if x >= 0 else math.nan
    return Float32(root) if isinstance(x, Float32) else root
