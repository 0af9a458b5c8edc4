"""Every number the audit relies on, defined once.

The TOI tolerance is relative above 1 frame and absolute below: the engine's
time of impact ``t_e`` counts as wrong when both it and the exact solver say
hit and ``|t_e - t| > tol * max(1, |t|)``.
"""

from __future__ import annotations

#: Default ``--toi-tol``: TOI errors beyond ``TOI_TOL * max(1, |toi|)`` are reported.
TOI_TOL = 1e-6

#: Default rows per chunk read and decided at once (about 0.3 GB of working memory).
CHUNK_ROWS = 1 << 20
#: Accepted range of ``--chunk-rows``.
MIN_CHUNK_ROWS = 1_000
MAX_CHUNK_ROWS = 1 << 24

#: Default and largest ``--worst`` (scene files written under ``OUTDIR/cases/``).
WORST = 20
MAX_WORST = 1000

#: Skipped rows listed by row number in the summary (the rest are only counted).
SKIPPED_EXAMPLES = 20

#: Histogram of relative TOI errors ``|t_e - t| / max(1, |t|)``: bin ``k`` holds
#: errors in ``[2**(HIST_MIN_EXP + k - 1), 2**(HIST_MIN_EXP + k))``; the first bin
#: also takes every smaller non-zero error and the last every larger (and infinite) one.
#: Exact agreement (error 0) is counted apart.
HIST_MIN_EXP = -60
HIST_MAX_EXP = 8
HIST_BINS = HIST_MAX_EXP - HIST_MIN_EXP + 1

#: A log whose every moving pair moves more than this many contact distances (rA + rB) within its
#: horizon is warned about: its velocities are most likely in another time unit than the horizon.
UNIT_WARNING_MOTION = 1e6
