"""detect → repair → enforce: the repair plan and what it reports.

``plan`` the nine steps in order, as data, and :func:`~.plan.run_plan` · ``state`` what
the steps share · one module per step: ``think`` (1), ``glued`` (2), ``container`` (3),
``headings`` (4), ``levels`` (5), ``preamble`` (6), ``missing`` (7), ``kinds`` (8),
``table_fix`` (9) · ``issues`` what the plan cannot repair · ``envelope`` the Issues
Envelope · ``enforce`` :func:`~.enforce.enforce_flex_md`, ``validate_output``,
``extract_output``.
"""
