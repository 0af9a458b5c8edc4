"""The sweep over arrays of pairs, compiled with numba.

Why a compiled kernel: the certified filter of :mod:`solver._filter` needs
about two hundred float operations per pair.  Written as whole-array numpy
expressions that becomes over a hundred passes over memory with temporaries;
one fused, vectorized loop reads each input once.  ``benchmarks/bench_solver.py``
compares it with a plain numpy textbook formula (5x faster on a million pairs).  The kernel runs the
*same* compiled filter as the scalar :func:`solver.sweep`, so the two cannot
drift apart; pairs the filter cannot prove go through the same exact integer
path as the scalar query.
"""

from __future__ import annotations

from dataclasses import dataclass, fields

import numpy as np

from ._compile import as_python, batch_loop, exact_stage
from ._exact import classify_exact
from ._filter import finish
from ._kernel import FINITE, LIMITS
from .limits import check_horizon, check_radius, check_vector, check_velocity, not_a_number_type
from .status import Status

#: :func:`solver._filter.finish` as plain Python, for the pairs decided with integers.
_finish = as_python(finish)


@dataclass(frozen=True)
class BatchResult:
    """Results of :func:`sweep_many`, one entry per pair.

    Attributes
    ----------
    hit : (n,) bool
    toi : (n,) float
        NaN where there is no contact in [0, horizon].
    t_enter, t_exit : (n,) float
        Both roots, NaN where there are none.
    status : (n,) int8
        :class:`~solver.status.Status` codes.
    exact : (n,) bool
        Pairs that the float filter could not prove, decided by the exact
        stages (floating-point expansions, then integers).
    accepted : (n,) bool or None
        :func:`sweep_columns` with ``skip_refused``: the pairs within the ranges
        of :mod:`solver.limits`, the only ones decided (every other field is
        meaningless where it is False, and ``exact`` False).  None otherwise:
        every pair was accepted.
    """

    hit: np.ndarray
    toi: np.ndarray
    t_enter: np.ndarray
    t_exit: np.ndarray
    status: np.ndarray
    exact: np.ndarray
    accepted: np.ndarray | None = None

    def __len__(self) -> int:
        return self.hit.shape[0]


def _array(value, field: str) -> np.ndarray:
    """``value`` as a float64 array, refusing what :mod:`solver.limits` refuses by type.

    Bools, strings, bytes, None and other non-numbers are refused, also inside
    lists (where ``numpy.asarray`` would silently turn ``True`` into 1.0).
    """
    if isinstance(value, np.ndarray):
        if value.dtype.kind not in "fiu":
            raise ValueError(f"{field}: expected numbers, got an array of dtype {value.dtype}")
        return value.astype(np.float64, copy=False)
    if not_a_number_type(value) or value is None:
        raise ValueError(f"{field}: expected numbers, got {value!r}")
    try:
        items = np.asarray(value, dtype=object)
    except ValueError:  # ragged
        raise ValueError(f"{field}: expected a rectangular array of numbers") from None
    for item in items.reshape(-1).tolist():
        if not_a_number_type(item) or item is None or isinstance(item, (list, tuple, dict)):
            raise ValueError(f"{field}: expected numbers, got {item!r}")
    try:
        return items.astype(np.float64)
    except (TypeError, ValueError, OverflowError):
        raise ValueError(f"{field}: expected numbers") from None


def _vectors(value, field: str) -> np.ndarray:
    arr = _array(value, field)
    if arr.ndim not in (1, 2) or arr.shape[-1] != 3:
        raise ValueError(f"{field}: expected shape (n, 3) or (3,), got {arr.shape}")
    return np.atleast_2d(arr)


def _scalars(value, field: str) -> np.ndarray:
    arr = _array(value, field)
    if arr.ndim > 1:
        raise ValueError(f"{field}: expected shape (n,) or a scalar, got {arr.shape}")
    return np.atleast_1d(arr)


#: The per-pair check of each field, by the rule of :mod:`solver.limits`.
_CHECKS = {
    "a_center": check_vector,
    "a_velocity": check_velocity,
    "a_radius": check_radius,
    "b_center": check_vector,
    "b_velocity": check_velocity,
    "b_radius": check_radius,
    "horizon": check_horizon,
}


def _check_pair(views: dict[str, np.ndarray], i: int, inside: bool, limits: bool) -> None:
    """Raise ValueError naming the first bad field of pair ``i``, if any.

    ``views`` maps each field name to its array broadcast to length n.  With
    ``limits`` the ranges of :mod:`solver.limits` apply; without (the
    unchecked core, for tests over the whole float range) only finiteness and
    positive sizes.
    """
    try:
        _check_values({name: arr[i].tolist() for name, arr in views.items()}, inside, limits)
    except ValueError as err:
        raise ValueError(f"{err} at index {i}") from None


def _check_values(values: dict[str, float | list[float]], inside: bool, limits: bool) -> None:
    """Raise ValueError naming the first bad field of one pair's ``values`` (field name to a float or a
    vector as a list), if any; see :func:`_check_pair`."""
    for name, value in values.items():
        if limits:
            _CHECKS[name](value, name)
        elif not np.isfinite(value).all():
            raise ValueError(f"{name}: non-finite value {value!r}")
        elif not isinstance(value, list) and not value > 0.0:
            raise ValueError(f"{name}: must be positive, got {value!r}")
    if inside and not values["b_radius"] > values["a_radius"]:
        raise ValueError("b_radius: the container must be larger than the ball")


def sweep_many(
    a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon=1.0, *, inside: bool = False
) -> BatchResult:
    """:func:`solver.sweep` (or :func:`solver.sweep_inside`) over many pairs at once.

    Parameters
    ----------
    a_center, b_center : (n, 3) or (3,) float
        Components within ±1e12.
    a_velocity, b_velocity : (n, 3) or (3,) float
        Components 0 or of magnitude in [1e-100, 1e12].
    a_radius, b_radius : (n,) float or float
        In [1e-12, 1e12].
    horizon : (n,) float or float
        In (0, 1e6].
    inside : bool
        Treat B as a container holding A (``b_radius > a_radius``).

    The ranges are those of :class:`solver.Body` (:mod:`solver.limits`): the
    batch accepts exactly what the scalar query accepts.

    Returns
    -------
    BatchResult
        Arrays broadcast to the common length ``n``.  Verdicts are exact and
        equal to the scalar query's on every pair.

    Raises
    ------
    ValueError
        Naming the field (and the index of the first bad pair), for bad
        shapes, bools, strings, non-finite numbers or values out of range.
    """
    return _sweep_arrays(a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon, bool(inside), True)


def _sweep_arrays(
    a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon, inside: bool, limits: bool
) -> BatchResult:
    """:func:`sweep_many`; ``limits=False`` skips the ranges (finite, positive sizes only).

    The unchecked form exists for tests of the certified core over the whole
    float range; verdicts are exact there too.
    """
    fields = {
        "a_center": _vectors(a_center, "a_center"),
        "a_velocity": _vectors(a_velocity, "a_velocity"),
        "a_radius": _scalars(a_radius, "a_radius"),
        "b_center": _vectors(b_center, "b_center"),
        "b_velocity": _vectors(b_velocity, "b_velocity"),
        "b_radius": _scalars(b_radius, "b_radius"),
        "horizon": _scalars(horizon, "horizon"),
    }
    try:
        n = np.broadcast_shapes(*(arr.shape[:1] for arr in fields.values()))[0]
    except ValueError:
        shapes = ", ".join(f"{k} {v.shape}" for k, v in fields.items())
        raise ValueError(f"shapes do not broadcast to one length n: {shapes}") from None
    views = {name: np.broadcast_to(arr, (n, 3) if arr.ndim == 2 else (n,)) for name, arr in fields.items()}
    # Vectors C-contiguous and flat (copies only what was broadcast); shared scalars stay floats.
    ca, va, cb, vb = (
        np.ascontiguousarray(views[k]).reshape(-1) for k in ("a_center", "a_velocity", "b_center", "b_velocity")
    )
    ra, rb, h = (
        float(fields[k][0]) if fields[k].shape[0] == 1 else np.ascontiguousarray(fields[k])
        for k in ("a_radius", "b_radius", "horizon")
    )

    hit, toi, t_lo, t_hi, status, exact = _outputs(n)
    ranges = LIMITS if limits else FINITE
    kernel = batch_loop(n)
    # As plain Python the loop computes with numpy's scalars: IEEE results (inf, NaN) as compiled, without warnings.
    with np.errstate(all="ignore"):
        first_refused, n_exact = kernel(ca, va, ra, cb, vb, rb, h, inside, ranges, hit, toi, t_lo, t_hi, status, exact)
    if first_refused < n:
        _check_pair(views, first_refused, inside, limits)
        raise AssertionError(f"pair {first_refused} flagged invalid but passes the checks")  # pragma: no cover
    if n_exact:
        per_pair = [np.atleast_1d(x) for x in (ra, rb, h)]
        _decide_exactly(ca, va, per_pair[0], cb, vb, per_pair[1], per_pair[2], inside, np.flatnonzero(exact),
                        hit, toi, t_lo, t_hi, status)  # fmt: skip
    return BatchResult(hit, toi, t_lo, t_hi, status, exact)


def _outputs(n: int) -> tuple[np.ndarray, ...]:
    """Uninitialised ``hit, toi, t_lo, t_hi, status, exact`` for ``n`` pairs (bool, float64 x 3, int8, bool)."""
    return (np.empty(n, dtype=np.bool_), np.empty(n), np.empty(n), np.empty(n), np.empty(n, dtype=np.int8),
            np.empty(n, dtype=np.bool_))  # fmt: skip


def _decide_exactly(ca, va, ra, cb, vb, rb, h, inside: bool, idx, hit, toi, t_lo, t_hi, status) -> None:
    """Decide the pairs ``idx`` the float filter could not prove: the exact stage, then integers for what it leaves.

    ``ca, va, cb, vb`` are ``(3 n,)`` (x, y, z interleaved); ``ra, rb, h`` ``(n,)`` or ``(1,)`` (shared);
    the outputs ``(n,)``, written at ``idx``.
    """
    stage = exact_stage(idx.size)
    if stage is not None:  # the expansion stage decides nearly all of them
        left = np.empty(idx.size, dtype=np.bool_)
        stage.refine_sweeps(ca, va, ra, cb, vb, rb, h, inside, idx, hit, toi, t_lo, t_hi, status, left)
        idx = idx[left]
    for i in idx.tolist():
        pair = [float(x[i] if x.shape[0] > 1 else x[0]) for x in (ra, rb, h)]
        k = 3 * i
        args = (*ca[k : k + 3].tolist(), *va[k : k + 3].tolist(), pair[0])
        args += (*cb[k : k + 3].tolist(), *vb[k : k + 3].tolist(), pair[1], pair[2], bool(inside))
        out = classify_exact(*args)
        toi[i], t_lo[i], t_hi[i] = _finish(out[0], out[1], out[2], pair[2], bool(inside))
        status[i] = out[0]
        hit[i] = Status(out[0]).is_hit


#: The fields of :func:`sweep_many` in the order of its arguments, with the number of columns each is held in.
_FIELDS = (("a_center", 3), ("a_velocity", 3), ("a_radius", 1), ("b_center", 3), ("b_velocity", 3),
           ("b_radius", 1), ("horizon", 1))  # fmt: skip


def sweep_columns(
    a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon=1.0, *, inside: bool = False,
    skip_refused: bool = False, out: BatchResult | None = None,
) -> BatchResult:  # fmt: skip
    """:func:`sweep_many` over pairs held as columns, as a log stores them: each column read where it is.

    The same verdicts and times as :func:`sweep_many`, bit for bit, with no interleaved copy of the inputs
    made: a million pairs of a Parquet row group go to the compiled loop as the reader decoded them.

    Parameters
    ----------
    a_center, a_velocity, b_center, b_velocity : sequence of 3 (n,) float
        The x, y and z columns.
    a_radius, b_radius, horizon : (n,) float, or float
        A float is shared by every pair.
    inside : bool
        Treat B as a container holding A.
    skip_refused : bool
        False: a pair outside the ranges of :mod:`solver.limits` raises, as in
        :func:`sweep_many`.  True: every such pair is left undecided and marked
        in the result's ``accepted``, and the others are decided.
    out : BatchResult, optional
        Arrays to write the answers into, of length ``n`` (``accepted`` included), as
        :func:`batch_arrays` makes them: a caller deciding batch after batch reuses one
        set instead of the memory of fresh ones (each new page is a fault to the system).

    Returns
    -------
    BatchResult
        ``(n,)`` arrays (``out``'s, when given); ``accepted`` with ``skip_refused``.

    Raises
    ------
    ValueError
        Naming the field: columns that are not one-dimensional numbers of one
        length, the wrong number of columns, ``out`` of another length or type;
        without ``skip_refused``, also the first pair out of range (and its index).
    """
    given = (a_center, a_velocity, a_radius, b_center, b_velocity, b_radius, horizon)
    return _sweep_columns(given, bool(inside), True, bool(skip_refused), out)


def batch_arrays(n: int) -> BatchResult:
    """Uninitialised arrays for the answers of ``n`` pairs, ``accepted`` included (see :func:`sweep_columns`'s
    ``out``)."""
    return BatchResult(*_outputs(n), np.empty(n, dtype=np.bool_))


def _sweep_columns(given: tuple, inside: bool, limits: bool, skip_refused: bool, out=None) -> BatchResult:
    """:func:`sweep_columns` on the seven fields ``given``; ``limits=False``: the unchecked core (see
    :func:`_sweep_arrays`)."""
    columns, names = [], []
    for (field, count), value in zip(_FIELDS, given):
        if count == 1:
            columns.append(_column(value, field))
            names.append(field)
            continue
        try:
            parts = None if not_a_number_type(value) or isinstance(value, dict) else list(value)
        except TypeError:  # a number, None
            parts = None
        if parts is None or len(parts) != 3:
            raise ValueError(f"{field}: expected 3 columns (x, y, z)")
        columns += [_column(x, f"{field}[{k}]") for k, x in enumerate(parts)]
        names += [f"{field}[{k}]" for k in range(3)]
    try:
        n = np.broadcast_shapes(*(x.shape for x in columns))[0]
    except ValueError:
        first = {}
        for name, x in zip(names, columns):
            first.setdefault(x.shape[0], name)
        lengths = ", ".join(f"{name} {length}" for length, name in first.items())
        raise ValueError(f"columns of different lengths ({lengths}, ...)") from None
    # One type of array for the compiled loop whatever the caller holds: C-contiguous and read-only (a file's
    # columns often are); a shared value made a column.
    columns = [_read_only(np.full(n, x[0]) if x.shape[0] != n else np.ascontiguousarray(x)) for x in columns]
    if out is None:
        out = batch_arrays(n)
    _check_out(out, n)
    hit, toi, t_lo, t_hi, status, exact, accepted = (getattr(out, f.name) for f in fields(BatchResult))
    kernel = batch_loop(n, "columns_kernel")
    with np.errstate(all="ignore"):  # as in _sweep_arrays
        first_refused, refused, n_exact = kernel(*columns, inside, LIMITS if limits else FINITE,
                                                 hit, toi, t_lo, t_hi, status, exact, accepted)  # fmt: skip
    if refused and not skip_refused:
        try:
            _check_values(_pair_values(columns, first_refused), inside, limits)
        except ValueError as err:
            raise ValueError(f"{err} at index {first_refused}") from None
        raise AssertionError(f"pair {first_refused} flagged invalid but passes the checks")  # pragma: no cover
    if n_exact:
        idx = np.flatnonzero(exact)
        vectors = [np.stack([columns[k + j][idx] for j in range(3)], axis=1).reshape(-1) for k in (0, 3, 7, 10)]
        scalars = [columns[k][idx] for k in (6, 13, 14)]
        few = _outputs(idx.size)[:5]
        _decide_exactly(vectors[0], vectors[1], scalars[0], vectors[2], vectors[3], scalars[1], scalars[2], inside,
                        np.arange(idx.size), *few)  # fmt: skip
        for out, values in zip((hit, toi, t_lo, t_hi, status), few):
            out[idx] = values
    return BatchResult(hit, toi, t_lo, t_hi, status, exact, accepted if skip_refused else None)


def _check_out(out: BatchResult, n: int) -> None:
    """Refuse ``out`` unless it holds writable arrays of ``n`` values of the types :func:`batch_arrays` makes."""
    for f, want in zip(fields(BatchResult), batch_arrays(0).__dict__.values()):
        got = getattr(out, f.name, None)
        if not (isinstance(got, np.ndarray) and got.shape == (n,) and got.dtype == want.dtype and got.flags.writeable):
            raise ValueError(f"out: {f.name} must be a writable ({n},) array of {want.dtype}")


def _column(value, field: str) -> np.ndarray:
    """One column: a one-dimensional float64 array (no copy when it is one), or a float as an array of one."""
    arr = _array(value, field)
    if arr.ndim > 1:
        raise ValueError(f"{field}: expected a column of shape (n,), got {arr.shape}")
    return np.atleast_1d(arr)


def _read_only(column: np.ndarray) -> np.ndarray:
    view = column.view()
    view.flags.writeable = False
    return view


def _pair_values(columns: list[np.ndarray], i: int) -> dict[str, float | list[float]]:
    """Pair ``i`` of the 15 columns by field, as :func:`_check_values` takes them."""
    values, k = {}, 0
    for field, count in _FIELDS:
        values[field] = columns[k].item(i) if count == 1 else [columns[k + j].item(i) for j in range(3)]
        k += count
    return values
