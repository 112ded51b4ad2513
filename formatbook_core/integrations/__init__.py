"""Adapters for the frameworks people already use, each an optional extra.

Every module here imports its framework at its top, so none is imported by
``import formatbook_core``; import the one you use:

=====================================================  ==================  =========================
module                                                 extra               what it gives
=====================================================  ==================  =========================
``formatbook_core.integrations.langchain``             ``langchain``       ``FormatbookOutputParser``
``formatbook_core.integrations.pydantic_ai``           ``pydantic-ai``     ``formatbook_output``, ``formatbook_validator``
``formatbook_core.integrations.instructor``            ``instructor``      ``formatbook_hooks``
``formatbook_core.integrations.litellm``               ``litellm``         ``litellm_chat`` (for ``ask``)
``formatbook_core.integrations.llm_plugin``            ``llm``             the ``llm expect`` command
=====================================================  ==================  =========================

No module names a format: the caller's EXPECT lines (or ``Expectations``) say what a reply must be.
"""
