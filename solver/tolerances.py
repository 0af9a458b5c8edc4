"""Every numerical constant the solver relies on, defined once.

The float filter in :mod:`solver._filter` proves each sign it reports with an
a-priori rounding-error bound built from these constants; anything it cannot
prove is handed to the exact integer arithmetic in :mod:`solver._exact`.
"""

#: Unit roundoff of IEEE-754 binary64 (half an ulp of 1.0).
UNIT_ROUNDOFF = 2.0**-53

#: Safe range for the float filter.  Every non-zero first-level quantity
#: (relative position and velocity components, radius sum, horizon) must lie in
#: ``[FILTER_MIN, FILTER_MAX]``; then no product of up to four of them, nor any
#: error bound built from them, can overflow or underflow, so the relative-error
#: model behind every bound holds.  Outside the range the exact path decides.
FILTER_MIN = 2.0**-200
FILTER_MAX = 2.0**200

#: Relative accuracy the float path must *prove* for a root before returning
#: it; otherwise the root is recomputed from exact integers.  The public promise
#: is 1e-10; the margin covers the final rounding to float.
TIME_RTOL = 1e-11

#: Bits kept after the binary point when the exact path takes an integer square
#: root; far more than the 53 a float can hold.
EXACT_SQRT_BITS = 128

#: Longest one-ball bounce path (:func:`solver.bounce_path`), in events, before
#: it is cut short (a small container with a fast ball can bounce millions of
#: times per frame); it ends there, with the reason in ``stopped``.
MAX_BOUNCES = 256

#: Default limit on the events of one :func:`solver.simulate` call; the motion
#: ends at the last certified event when it is reached.
MAX_EVENTS = 10_000

#: Sequential impulses allowed at one instant, per body, before the contacts of
#: that instant count as jammed (see :mod:`solver.motion`, the simultaneous-event rule).
MAX_IMPULSES_PER_INSTANT = 16

#: A ball on a container wall whose speed along the wall normal, after the
#: impulse, is below this fraction of its speed relative to the wall (the sine
#: of its angle to the wall) is sliding along the wall, not bouncing: straight
#: segments cannot follow a curved wall, so the motion ends there instead of
#: taking ever smaller steps.
SLIDING_COSINE = 1e-9
