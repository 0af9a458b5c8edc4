"""The report: what an audit writes into its output folder.

The summary (:mod:`~explorer.audit.report.summary`), the plot
(:mod:`~explorer.audit.report.plot`) and the worst cases as scene files
(:mod:`~explorer.audit.report.cases`), all in a folder that appears only when
complete (:mod:`~explorer.audit.report.staging`).
"""
