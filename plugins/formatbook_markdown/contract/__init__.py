"""The Output Format Spec (OFS): the Markdown contract a reply is checked against.

``model`` the contract's data and ``SpecError`` · ``names`` how section names match ·
``parse`` reading a contract (its docstring holds the grammar) · ``write`` writing one
back · ``coerce`` what a caller may give as a schema · ``level`` the strictness option ·
``guidance`` prompt instructions for a contract.
"""
