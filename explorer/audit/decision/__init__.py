"""The decision: every row of a chunk decided exactly and the engine's answers judged.

The rows the solver accepts (:mod:`~explorer.audit.decision.rows`), a chunk
decided (:mod:`~explorer.audit.decision.deciding`), the textbook formula
(:mod:`~explorer.audit.decision.textbook`), each answer judged
(:mod:`~explorer.audit.decision.judging`), the worst cases
(:mod:`~explorer.audit.decision.worst`) and the chunks' totals folded
(:mod:`~explorer.audit.decision.tally`).  It reads no file and writes none.
"""
