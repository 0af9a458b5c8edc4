"""The precision lab: the textbook formula is fooled on the trap scenes, right elsewhere,
and the push-towards-failure helpers are exact."""

from __future__ import annotations

import math
from dataclasses import asdict
from fractions import Fraction

import numpy as np
import pytest

from explorer.model.derived.precision import (
    VARIANTS,
    ExactAnswer,
    exact,
    graze_direction,
    lab,
    nudge_graze,
    textbook,
    translate,
    translation_is_exact,
)
from explorer.model.formats import scene_io
from explorer.model.formats.gallery import SCENES_DIR, gallery
from explorer.model.state.scene import Scene, SceneBody, SceneError

R32, R64 = ("relative", "float32"), ("relative", "float64")
E32, E64 = ("expanded", "float32"), ("expanded", "float64")

#: The gallery's precision traps and the combinations each one fools (all others must be right).
TRAPS = {
    # distances ~100 and a graze of 2e-5: float32 rounds the discriminant to 0 (a touch)
    "seed003_precision_trap": {R32, E32},
    # a 500000-unit shot passing 5e-6 outside: float64 cancels to 0; float32 happens to land negative
    "seed003_long_shot": {R64, E64},
    # a plain hit 1e7 from the origin: only seed 004's expansion in float32 loses it
    "seed004_far_from_origin": {E32},
    # a 0.005 graze 1e7 from the origin: only subtracting first in float64 survives
    "precision_far_graze": {R32, E32, E64},
}


def _load(stem: str) -> Scene:
    return scene_io.load(SCENES_DIR / f"{stem}.json")


def _pairs(scene: Scene):
    return range(1, 2 if scene.mode == "inside" else len(scene.bodies))


def _ordinary():
    stems = [p.stem for p in gallery() if p.stem not in TRAPS]
    return stems


def test_the_traps_are_in_the_gallery_and_the_rest_is_not_empty():
    stems = {p.stem for p in gallery()}
    assert set(TRAPS) <= stems
    ordinary = set(_ordinary())
    assert {"default", "seed001_container", "billiards", "seed003_later", "tangent_graze"} <= ordinary
    assert len(ordinary) >= 12


@pytest.mark.parametrize("stem", sorted(TRAPS))
def test_trap_scenes_fool_exactly_the_expected_combinations(stem):
    report = lab(_load(stem))
    assert set(report.fooled) == TRAPS[stem]
    for row in report.rows:
        assert row.wrong == (row.hit != report.exact.hit)
        if row.wrong:
            assert row.hit != report.exact.hit


def test_each_dtype_and_variant_is_fooled_somewhere_in_the_gallery():
    fooled = set().union(*TRAPS.values())
    assert fooled == {R32, R64, E32, E64}
    # the far graze is the scene where the expansion, not the dtype, makes the difference
    far = lab(_load("precision_far_graze"))
    assert not far.row("relative", np.float64).wrong and far.row("expanded", np.float64).wrong


def test_trap_verdicts_are_the_certified_ones():
    assert lab(_load("seed003_precision_trap")).exact.status == "MISS"
    assert lab(_load("seed003_long_shot")).exact.status == "MISS"
    assert lab(_load("seed004_far_from_origin")).exact.status == "HIT"
    far = lab(_load("precision_far_graze"))
    assert far.exact.status == "MISS"
    # expanded in float64: c rounded to a multiple of 1/16 by the huge terms, the discriminant to 0
    row = far.row("expanded", "float64")
    assert row.hit and row.discriminant == 0.0
    assert far.row("relative", "float64").discriminant < 0


@pytest.mark.parametrize("stem", _ordinary())
def test_ordinary_scenes_agree_in_every_combination(stem):
    scene = _load(stem)
    for other in _pairs(scene):
        report = lab(scene, other)
        assert report.fooled == (), (stem, other, report.fooled)
        for row in report.rows:
            assert row.hit == report.exact.hit
            if row.hit:
                assert row.toi is not None and row.toi_error is not None
                tol = 1e-9 if row.dtype == "float64" else 1e-4
                assert row.toi_error <= tol * max(1.0, abs(report.exact.toi)), (stem, row)


@pytest.mark.parametrize("stem", _ordinary())
def test_float64_relative_discriminant_matches_the_solver(stem):
    scene = _load(stem)
    for other in _pairs(scene):
        report = lab(scene, other)
        ours = report.row("relative", "float64").discriminant
        theirs = report.exact.discriminant
        if theirs is None:  # no relative motion: the solver has no quadratic, the textbook computes 0
            assert report.exact.status == "NO_RELATIVE_MOTION" and ours == 0.0
            continue
        assert ours is not None
        assert math.isclose(ours, theirs, rel_tol=1e-9, abs_tol=1e-12), (stem, ours, theirs)


def test_the_discriminant_comparison_can_tell_a_wrong_value():
    # the expanded float64 discriminant of the far-from-origin scene is visibly off
    report = lab(_load("seed004_far_from_origin"))
    ours = report.row("expanded", "float64").discriminant
    assert not math.isclose(ours, report.exact.discriminant, rel_tol=1e-6)


def test_textbook_keeps_its_old_signature_and_default_variant():
    scene = _load("seed003_precision_trap")
    old = textbook(scene, np.float32, 1)
    assert old.variant == "relative" and old.dtype == "float32" and old.hit
    assert textbook(scene, np.float64).hit is False
    with pytest.raises(ValueError, match="variant"):
        textbook(scene, np.float64, 1, "clever")
    with pytest.raises(ValueError, match="other"):
        textbook(scene, np.float64, 2)


def test_expanded_variant_really_expands_from_absolute_coordinates():
    # near the origin both variants give the same coefficients; far away they differ in c
    near = _load("default")
    assert textbook(near, np.float64, variant="expanded").coefficients == textbook(near, np.float64).coefficients
    far = _load("seed004_far_from_origin")
    rel = textbook(far, np.float64).coefficients
    exp = textbook(far, np.float64, variant="expanded").coefficients
    assert rel[0] == exp[0] and rel[2] != exp[2]


def _all_numbers(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _all_numbers(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from _all_numbers(v)
    elif isinstance(value, float):
        yield value


def _scene(ca, va, ra, cb, vb, rb, horizon=1.0, mode="pair"):
    return Scene(mode, horizon, 1.0, (SceneBody("A", ca, va, ra, 1.0), SceneBody("B", cb, vb, rb, 1.0)))


def test_no_nan_is_ever_reported_but_overflow_shows_as_inf_or_none():
    for path in gallery():
        scene = scene_io.load(path)
        for other in _pairs(scene):
            assert not any(math.isnan(x) for x in _all_numbers(asdict(lab(scene, other)))), path.stem
    # float32: b^2 and 4ac both overflow, b^2 - 4ac = inf - inf
    both = _scene((0, 0, 0), (1e12, 1e12, 1e12), 1.0, (1e12, 1e12, 1e12), (0, 0, 0), 1.0)
    with np.errstate(all="raise"):  # the lab must not let numpy warn or raise
        report = lab(both)
    assert not any(math.isnan(x) for x in _all_numbers(asdict(report)))
    row = report.row("relative", "float32")
    assert row.discriminant is None and "overflow" in row.answer.reason and row.answer.overflow
    assert report.exact.hit and row.wrong  # the overflow made float32 miss a real hit
    assert not report.row("relative", "float64").wrong
    # float32: only b^2 overflows, the discriminant is +inf
    inf_disc = _scene((0, 0, 0), (0, 0, 0), 7e11, (1e12, 0, 0), (-1e7, 0, 0), 1.0)
    row = lab(inf_disc).row("relative", "float32")
    assert row.discriminant == math.inf and row.answer.overflow
    assert lab(inf_disc).row("relative", "float64").discriminant < math.inf


def test_lab_rows_cover_every_variant_and_dtype():
    report = lab(_load("default"))
    assert [(r.variant, r.dtype) for r in report.rows] == [(v, d) for v in VARIANTS for d in ("float32", "float64")]
    assert report.row("relative", np.float32) is report.row("relative", "float32")  # numpy's type names it too
    with pytest.raises(ValueError, match=r"^dtype: expected float32 or float64, got <class 'numpy.float16'>$"):
        report.row("relative", np.float16)


# -- translate -----------------------------------------------------------------------

OFFSETS = [(2.0**20, 2.0**20, 2.0**20), (2.0**20, -(2.0**21), 1024.0), (1024.0, 0.0, 0.0), (-3.0 * 2**30, 0.0, 2.0**33)]


@pytest.mark.parametrize("stem", _ordinary())
def test_exact_translations_keep_the_exact_verdict(stem):
    scene = _load(stem)
    tried = 0
    for offset in OFFSETS:
        if not translation_is_exact(scene, offset):
            continue
        moved = translate(scene, offset)
        assert moved.bodies[0].center != scene.bodies[0].center
        for other in _pairs(scene):
            assert exact(moved, other) == exact(scene, other), (stem, offset, other)
        tried += 1
    assert tried >= 1


def test_most_ordinary_scenes_translate_exactly_by_two_to_the_twenty():
    exact_ones = [s for s in _ordinary() if translation_is_exact(_load(s), OFFSETS[0])]
    assert len(exact_ones) >= len(_ordinary()) // 2


def test_a_rounded_translation_can_change_the_exact_verdict():
    scene = _load("tangent_graze")
    assert exact(scene).status == "HIT"
    assert not translation_is_exact(scene, (0.0, 0.1, 0.0))
    assert exact(translate(scene, (0.0, 0.1, 0.0))).status == "MISS"


def test_translating_a_graze_far_away_breaks_float32_but_not_float64_relative():
    # misses by 2**-7 ~ 0.0078 with dyadic coordinates, so every 2**k translation below is exact
    graze = _scene((0, 0, 0), (10, 0, 0), 1.0, (5, 3 + 2**-7, 0), (0, 0, 0), 2.0)
    start = lab(graze)
    assert start.exact.status == "MISS" and start.fooled == ()
    broke_at = None
    for k in range(1, 40):
        offset = (2.0**k,) * 3
        assert translation_is_exact(graze, offset)
        report = lab(translate(graze, offset))
        assert report.exact == start.exact
        assert not report.row("relative", "float64").wrong  # p = cB - cA stays exact
        if broke_at is None and report.row("relative", "float32").wrong:
            broke_at = k
    assert broke_at is not None and broke_at > 8
    far = lab(translate(graze, (2.0**39,) * 3))
    assert {R32, E32, E64} <= set(far.fooled)


def test_translate_refuses_to_leave_the_scene_limits():
    with pytest.raises(SceneError, match="center"):
        translate(_load("default"), (2e12, 0, 0))
    with pytest.raises(ValueError, match="offset"):
        translate(_load("default"), (1.0, 2.0))


# -- nudge_graze --------------------------------------------------------------------


def _distance_squared(scene: Scene, other: int = 1) -> Fraction:
    """Exact squared distance from B's centre to A's relative path (the closest approach line)."""
    a, b = scene.bodies[0], scene.bodies[other]
    p = [Fraction(b.center[i]) - Fraction(a.center[i]) for i in range(3)]
    v = [Fraction(b.velocity[i]) - Fraction(a.velocity[i]) for i in range(3)]
    cross = (p[1] * v[2] - p[2] * v[1], p[2] * v[0] - p[0] * v[2], p[0] * v[1] - p[1] * v[0])
    return sum(x * x for x in cross) / sum(x * x for x in v)


def test_nudging_the_tangent_graze_by_one_ulp_flips_the_exact_verdict():
    scene = _load("tangent_graze")
    assert exact(scene).status == "HIT"
    assert _distance_squared(scene) == 9  # exactly rA + rB = 3
    assert graze_direction(scene) == (1, -1)  # B's y, downwards, moves it away from A's path at y = 3
    away, towards = nudge_graze(scene, 1), nudge_graze(scene, -1)
    assert exact(away).status == "MISS" and exact(towards).status == "HIT"
    assert away.bodies[1].center == (0.0, -math.ulp(0.0), 0.0)
    assert towards.bodies[1].center == (0.0, math.ulp(0.0), 0.0)
    assert _distance_squared(away) > 9 > _distance_squared(towards)
    # float64 cannot see a 5e-324 move: every textbook combination still says hit
    assert set(lab(away).fooled) == {R32, R64, E32, E64}


@pytest.mark.parametrize(
    "stem", ["tangent_graze", "seed003_precision_trap", "seed003_long_shot", "precision_far_graze", "default"]
)
@pytest.mark.parametrize("k", [1, 2, 17, 1000])
def test_nudge_round_trips_exactly(stem, k):
    scene = _load(stem)
    for step in (k, -k):
        moved = nudge_graze(scene, step)
        assert moved != scene
        back = nudge_graze(moved, -step)
        assert back == scene
        assert back.bodies[1].center == scene.bodies[1].center
        # exactly one coordinate of B moved, by exactly k nextafter steps
        changed = [i for i in range(3) if moved.bodies[1].center[i] != scene.bodies[1].center[i]]
        assert len(changed) == 1
        i = changed[0]
        x = scene.bodies[1].center[i]
        target = math.copysign(math.inf, moved.bodies[1].center[i] - x)
        for _ in range(k):
            x = math.nextafter(x, target)
        assert x == moved.bodies[1].center[i]


@pytest.mark.parametrize(
    "stem", ["seed003_precision_trap", "seed003_long_shot", "precision_far_graze", "default", "billiards"]
)
def test_positive_nudges_move_away_and_negative_towards(stem):
    scene = _load(stem)
    d0 = _distance_squared(scene)
    assert _distance_squared(nudge_graze(scene, 50)) > d0 > _distance_squared(nudge_graze(scene, -50))


def test_nudge_zero_is_the_identity_and_bad_arguments_are_refused():
    scene = _load("tangent_graze")
    assert nudge_graze(scene, 0) == scene
    with pytest.raises(ValueError, match="ulps"):
        nudge_graze(scene, 1.5)
    with pytest.raises(ValueError, match="other"):
        nudge_graze(scene, 1, other=2)
    with pytest.raises(SceneError, match="inside"):
        nudge_graze(_load("seed001_container"), 1)


def test_nudge_keeps_its_axis_on_a_diagonal_tie():
    # B's centre is off A's path equally in y and z: the axis must not switch between +k and -k
    scene = _scene((0, 0, 0), (10, 0, 0), 1.0, (5, 2, 2), (0, 0, 0), 2.0)
    axis, _ = graze_direction(scene)
    for k in (1, 1000):
        assert graze_direction(nudge_graze(scene, -k))[0] == axis
        assert nudge_graze(nudge_graze(scene, -k), k) == scene
        assert nudge_graze(nudge_graze(scene, k), -k) == scene


def test_textbook_values_match_a_hand_computation():
    # p = (2, y, 0), v = (-1, 0, 0), R = 1: a = 1, b = -4, c = 3 + y^2, disc = 4 (1 - y^2)
    y = 1.0 + 2.0**-30  # float32 rounds y to 1 (a tangent); float64 keeps it (a miss by 2**-30)
    scene = _scene((0, 0, 0), (1, 0, 0), 0.5, (2, y, 0), (0, 0, 0), 0.5, horizon=3.0)
    for variant in VARIANTS:
        f64 = textbook(scene, np.float64, variant=variant)
        # y^2 = 1 + 2**-29 + 2**-60 rounds to 1 + 2**-29, so c = 4 + 2**-29 and disc = -2**-27 exactly
        assert f64.coefficients == (1.0, -4.0, 4.0 + 2.0**-29)
        assert f64.discriminant == -(2.0**-27) and not f64.hit and f64.toi is None
        f32 = textbook(scene, np.float32, variant=variant)
        assert f32.coefficients == (1.0, -4.0, 4.0) and f32.discriminant == 0.0
        assert f32.hit and f32.toi == 2.0
    report = lab(scene)
    assert report.exact.status == "MISS" and set(report.fooled) == {R32, E32}


def _closest_approach_squared(p, v):
    """|p_perp|^2, the squared distance from B's centre to A's relative path, exactly (``v`` may be zero)."""
    vv = sum(x * x for x in v)
    pp = sum(x * x for x in p)
    return pp if vv == 0 else pp - sum(a * b for a, b in zip(p, v)) ** 2 / vv


def _steepest_away(scene):
    """(axis, sign) whose small move of B's centre increases the closest approach most: an exact finite difference."""
    a, b = scene.bodies
    p = [Fraction(b.center[i]) - Fraction(a.center[i]) for i in range(3)]
    v = [Fraction(b.velocity[i]) - Fraction(a.velocity[i]) for i in range(3)]
    step = Fraction(1, 10**9)
    gains = {}
    for axis in range(3):
        for sign in (1, -1):
            moved = [p[i] + (sign * step if i == axis else 0) for i in range(3)]
            gains[axis, sign] = _closest_approach_squared(moved, v) - _closest_approach_squared(p, v)
    return max(gains, key=gains.get)


@pytest.mark.parametrize(
    "ca, va, cb, vb",
    [
        ((0, 0, 0), (4, 1, 0), (6, -3, 2), (1, 2, 0)),  # both move: the relative velocity is vB - vA
        ((1, 2, 3), (0, 0, -5), (-2, 6, 1), (0, 3, 2)),
        ((0, 0, 0), (2, 2, 2), (1, 5, -7), (2, 2, 2)),  # no relative motion: away is along p itself
        ((3, -1, 0), (0, 0, 0), (-4, -2, 9), (0, 0, 0)),
        ((0, 0, 0), (0, 7, 0), (0.5, 3, -0.25), (0, -1, 0)),
    ],
)
def test_the_graze_direction_is_the_steepest_way_away_from_the_path(ca, va, cb, vb):
    scene = _scene(ca, va, 1.0, cb, vb, 1.0)
    assert graze_direction(scene) == _steepest_away(scene)


@pytest.mark.parametrize(
    "ca, va, cb, vb, expected",
    [
        # the path runs through B's centre: every way is away; the axis least aligned with v, then +1
        ((0, 0, 0), (3, 0, 1), (6, 0, 2), (0, 0, 0), (1, 1)),
        ((0, 0, 0), (0, 2, 5), (0, 4, 10), (0, 0, 0), (0, 1)),
        ((0, 0, 0), (1, 2, 0), (2, 4, 0), (0, 0, 0), (2, 1)),
        ((1, 1, 1), (0, 0, 0), (1, 1, 1), (0, 0, 0), (0, 1)),  # same centre, no motion
    ],
)
def test_a_path_through_the_centre_takes_the_axis_least_along_the_motion(ca, va, cb, vb, expected):
    assert graze_direction(_scene(ca, va, 1.0, cb, vb, 1.0)) == expected


# Each branch of the textbook's verdict, with the (hit, time, reason) worked out by hand.  Pair mode: A of
# radius 1 moves along x towards B of radius 1 (R = 2); f(t) = a t^2 + b t + c with p = cB - cA, v = vB - vA.
_BRANCHES = [
    # |p| = 2 = R: c = 0, touching now
    (
        _scene((0, 0, 0), (1, 0, 0), 1.0, (2, 0, 0), (0, 0, 0), 1.0),
        np.float64,
        (True, 0.0, "c <= 0: touching at t = 0"),
    ),
    # nothing moves: a = 0
    (
        _scene((0, 0, 0), (0, 0, 0), 1.0, (5, 0, 0), (0, 0, 0), 1.0),
        np.float64,
        (False, None, "a = 0: no relative motion"),
    ),
    # p = (5, 3, 0), v = (-1, 0, 0): a = 1, b = -10, c = 30, b^2 - 4ac = -20
    (
        _scene((0, 0, 0), (1, 0, 0), 1.0, (5, 3, 0), (0, 0, 0), 1.0),
        np.float64,
        (False, None, "b^2 - 4ac < 0: no real root"),
    ),
    # p = (5, 0, 0): b = -10, c = 21, disc = 16, t0 = (10 - 4) / 2 = 3 <= 10
    (
        _scene((0, 0, 0), (1, 0, 0), 1.0, (5, 0, 0), (0, 0, 0), 1.0, horizon=10.0),
        np.float64,
        (True, 3.0, "0 <= t0 <= h: first contact within the horizon"),
    ),  # fmt: skip
    # B behind A: p = (-5, 0, 0), b = 10, t0 = (-10 - 4) / 2 = -7
    (
        _scene((0, 0, 0), (1, 0, 0), 1.0, (-5, 0, 0), (0, 0, 0), 1.0),
        np.float64,
        (False, None, "t0 < 0: the contact lies in the past"),
    ),  # fmt: skip
    # p = (2.75, 0, 0): b = -5.5, c = 3.5625, disc = 16, t0 = 0.75 > h = 0.5 (and below 1)
    (
        _scene((0, 0, 0), (1, 0, 0), 1.0, (2.75, 0, 0), (0, 0, 0), 1.0, horizon=0.5),
        np.float64,
        (False, None, "t0 > h: contact after the horizon"),
    ),  # fmt: skip
    # float32: a = 3e24, b = -6e24, c ~ 3e24; b^2 and 4ac both overflow, disc = inf - inf = NaN, so is t0
    (
        _scene((0, 0, 0), (1e12, 1e12, 1e12), 1.0, (1e12, 1e12, 1e12), (0, 0, 0), 1.0),
        np.float32,
        (False, None, "t0 is not a number: overflow"),
    ),  # fmt: skip
    # float32: a = 1e14, b = -2e19, b^2 = 4e38 overflows, 4ac ~ 2e38 does not: disc = inf, t0 = -inf
    (
        _scene((0, 0, 0), (0, 0, 0), 7e11, (1e12, 0, 0), (-1e7, 0, 0), 1.0),
        np.float32,
        (False, None, "t0 < 0: the contact lies in the past (b^2 - 4ac overflowed to inf)"),
    ),  # fmt: skip
    # float32, v = (-2^-74, 0, 0), p = (2, 1/16, 0): a = 2^-148, b = -2^-72, c = 2^-8 > 0, 4ac = 2^-154 underflows
    # to 0, so sqrt(disc) = -b exactly and t0 = 0 although the pair does not touch yet: a hit at 0
    (
        _scene((0, 0, 0), (2**-74, 0, 0), 1.0, (2, 2**-4, 0), (0, 0, 0), 1.0),
        "float32",
        (True, 0.0, "0 <= t0 <= h: first contact within the horizon"),
    ),  # fmt: skip
    # Inside mode: A of radius 1 in a container of radius 5 (R = 4).  |p| = 4: c = 0, at the wall now
    (
        _scene((4, 0, 0), (1, 0, 0), 1.0, (0, 0, 0), (0, 0, 0), 5.0, mode="inside"),
        np.float64,
        (True, 0.0, "c >= 0: at or beyond the wall at t = 0"),
    ),  # fmt: skip
    (
        _scene((1, 0, 0), (0, 0, 0), 1.0, (0, 0, 0), (0, 0, 0), 5.0, mode="inside"),
        np.float64,
        (False, None, "a = 0: no relative motion"),
    ),  # fmt: skip
    # from the centre at speed 2: a = 4, b = 0, c = -16, t1 = 16 / 8 = 2, exactly the horizon
    (
        _scene((0, 0, 0), (2, 0, 0), 1.0, (0, 0, 0), (0, 0, 0), 5.0, horizon=2.0, mode="inside"),
        np.float64,
        (True, 2.0, "t1 <= h: reaches the wall within the horizon"),
    ),  # fmt: skip
    (
        _scene((0, 0, 0), (2, 0, 0), 1.0, (0, 0, 0), (0, 0, 0), 5.0, horizon=1.0, mode="inside"),
        np.float64,
        (False, None, "t1 > h: reaches the wall after the horizon"),
    ),  # fmt: skip
    # float32: beyond the wall (c = 3e24 >= 0), moving out at 1e12 a component: b^2 and 4ac both overflow to
    # inf, the discriminant is inf - inf
    (
        _scene((0, 0, 0), (-1e12, -1e12, -1e12), 1.0, (1e12, 1e12, 1e12), (0, 0, 0), 5.0, mode="inside"),
        "float32",
        (True, 0.0, "c >= 0: at or beyond the wall at t = 0 (b^2 - 4ac overflowed to inf - inf)"),
    ),  # fmt: skip
]


@pytest.mark.parametrize("scene, dtype, expected", _BRANCHES, ids=range(len(_BRANCHES)))
def test_each_textbook_branch_gives_its_verdict_time_and_reason(scene, dtype, expected):
    answer = textbook(scene, dtype)
    assert (answer.hit, answer.toi, answer.reason) == expected


def test_a_textbook_first_contact_solves_the_quadratic():
    # p = (2, 0.5, 0), v = (-1, 0, 0): c = 0.25 > 0 (not touching), first contact at t0 = (4 - sqrt(15)) / 2
    answer = textbook(_scene((0, 0, 0), (1, 0, 0), 1.0, (2, 0.5, 0), (0, 0, 0), 1.0))
    assert answer.hit and answer.reason.startswith("0 <= t0 <= h")
    t = Fraction(answer.toi)
    assert abs((2 - t) ** 2 + Fraction(1, 4) - 4) < Fraction(1, 10**12)  # |p + v t|^2 = R^2 there


def test_textbook_refuses_an_unknown_variant_or_dtype_naming_it():
    scene = _scene((0, 0, 0), (1, 0, 0), 1.0, (5, 0, 0), (0, 0, 0), 1.0)
    with pytest.raises(ValueError, match=r"^variant: expected one of relative, expanded, got 'sideways'$"):
        textbook(scene, variant="sideways")
    with pytest.raises(ValueError, match=r"^dtype: expected float32 or float64, got <class 'numpy.int32'>$"):
        textbook(scene, np.int32)
    with pytest.raises(ValueError, match=r"^dtype: expected float32 or float64, got 'float16'$"):
        textbook(scene, "float16")


def _three_bodies(ca, cb, cc, va=(0, 0, 0), vb=(0, 0, 0), vc=(0, 0, 0), radius=0.1):
    bodies = (
        SceneBody("A", ca, va, radius, 1.0),
        SceneBody("B", cb, vb, radius, 1.0),
        SceneBody("C", cc, vc, radius, 1.0),
    )
    return Scene("pair", 1.0, 1.0, bodies)


def test_a_bad_other_body_or_offset_is_refused_word_for_word():
    scene = _three_bodies((0, 0, 0), (5, 0, 0), (0, 5, 0))  # bodies 1 and 2 can be the other
    for call in (lab, exact, textbook, graze_direction):
        for other, shown in ((3, "3"), (0, "0"), (True, "True"), ("1", "'1'")):
            with pytest.raises(ValueError) as refused:
                call(scene, other=other)
            assert str(refused.value) == f"other: expected a body index from 1 to 2, got {shown}"
    assert lab(scene, other=np.int64(2)).other == 2
    with pytest.raises(ValueError) as refused:
        translate(scene, None)
    assert str(refused.value) == "offset: expected 3 numbers, got None"
    with pytest.raises(ValueError) as refused:
        translate(scene, (1.0, "x", 0.0))
    assert str(refused.value) == "offset: expected 3 numbers, got (1.0, 'x', 0.0)"


def test_translate_moves_every_centre_by_each_component():
    scene = _three_bodies((0, 0, 0), (5, 0, 0), (0, 5, 0))
    moved = translate(scene, (1.0, 2.0, 3.0))
    assert [b.center for b in moved.bodies] == [(1.0, 2.0, 3.0), (6.0, 2.0, 3.0), (1.0, 7.0, 3.0)]


def test_the_exact_answer_uses_the_scene_horizon_in_both_modes():
    # A at speed 1 towards B 4.5 away (R = 2): contact at t = 2.5, inside a horizon of 3, after 1
    far = _scene((0, 0, 0), (1, 0, 0), 1.0, (4.5, 0, 0), (0, 0, 0), 1.0, horizon=3.0)
    assert exact(far) == ExactAnswer("HIT", True, 2.5, exact(far).discriminant, False)
    assert exact(far).discriminant == 4 * (1 * 2**2 - 0)  # 4 (|v|^2 R^2 - |p x v|^2)
    # from the centre of a container (R = 4) at speed 1: the wall at t = 4, inside a horizon of 5
    inside = _scene((0, 0, 0), (1, 0, 0), 1.0, (0, 0, 0), (0, 0, 0), 5.0, horizon=5.0, mode="inside")
    answer = exact(inside)
    assert (answer.status, answer.hit, answer.toi) == ("HIT", True, 4.0)
    # the tangent graze needs the exact stage; the plain hit above did not
    assert exact(_load("tangent_graze")).exact is True
    assert exact(far).exact is False


def test_the_lab_report_keeps_its_scene_and_pair_and_has_no_error_without_two_hits():
    scene = _three_bodies((0, 0, 0), (5, 0, 0), (0, 5, 0), va=(10, 0, 0))  # A hits B, never C
    report = lab(scene, other=2)
    assert report.scene is scene and report.other == 2
    assert not report.exact.hit
    assert [row.toi_error for row in report.rows] == [None] * 4
    with pytest.raises(KeyError) as missing:
        report.row("sideways", np.float32)
    assert missing.value.args == ("no lab row for 'sideways' in 'float32'",)


def test_the_graze_direction_inside_mode_and_tie_rules_word_for_word():
    with pytest.raises(SceneError) as refused:
        graze_direction(_load("seed001_container"))
    assert str(refused.value) == "nudge: inside mode has no graze (the ball always reaches the wall)"
    # nothing moves: p_perp = p.  Sizes 999 and 1000 tie exactly (999 * 1000 = 1000 * 999): the lower axis
    assert graze_direction(_scene((0, 0, 0), (0, 0, 0), 0.1, (999, -1000, 0), (0, 0, 0), 0.1)) == (0, 1)
    # 998.5 is below 0.1 % of 1000: no tie, the larger (negative y) wins
    assert graze_direction(_scene((0, 0, 0), (0, 0, 0), 0.1, (998.5, -1000, 0), (0, 0, 0), 0.1)) == (1, -1)
    # a component below 1 still gives its sign
    assert graze_direction(_scene((0, 0, 0), (0, 0, 0), 0.1, (0.5, 0, 0), (0, 0, 0), 0.1)) == (0, 1)
    # the path runs through B's centre at unit speed: the axis least along v = (-1, 0, 0) is y
    assert graze_direction(_scene((0, 0, 0), (1, 0, 0), 1.0, (5, 0, 0), (0, 0, 0), 1.0)) == (1, 1)


def test_nudging_the_third_body_follows_its_own_graze_direction():
    # A still at the origin: B's direction is +x (its centre is on x), C's is +y
    scene = _three_bodies((0, 0, 0), (5, 0, 0), (0, 5, 0))
    moved = nudge_graze(scene, 1, other=2)
    assert moved.bodies[2].center == (0.0, math.nextafter(5.0, math.inf), 0.0)
    assert moved.bodies[:2] == scene.bodies[:2]


def test_nudge_allows_ten_million_steps_and_no_more_and_never_leaves_a_negative_zero():
    scene = _three_bodies((0, 0, 0), (1, 0, 0), (0, 5, 0))
    moved = nudge_graze(scene, 10_000_000)  # 1 + 1e7 ulps of 2^-52, all in [1, 2)
    assert Fraction(moved.bodies[1].center[0]) == 1 + Fraction(10_000_000, 2**52)
    with pytest.raises(ValueError) as refused:
        nudge_graze(scene, -10_000_001)
    assert str(refused.value) == "ulps: at most 10000000 steps, got -10000001"
    # B just below zero on A's far side: one step away (+x) lands on -0.0, shown as 0.0
    near = _scene((-3, 0, 0), (0, 0, 0), 0.1, (-5e-324, 0, 0), (0, 0, 0), 0.1)
    x = nudge_graze(near, 1).bodies[1].center[0]
    assert x == 0.0 and math.copysign(1.0, x) == 1.0
