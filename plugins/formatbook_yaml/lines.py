"""One pass over YAML lines: what no continuation can fix, and where tabs are mere spacing.

:class:`LineScanner` reads complete lines, keeping a small state (open flow brackets, an
open quoted scalar, a block scalar, the indents of the open block collections, whether a
plain scalar may continue, the documents seen). It is the core of the incremental checker
(:mod:`.stream`) and runs before ruamel in ``is_valid`` too, so whatever it refuses is
refused by both: a prefix the checker refuses can never become valid.

It refuses only what the YAML 1.2 grammar makes certain: a tab used as indentation of a
block collection, a closing bracket with nothing open (or the wrong one), a reserved
indicator starting a node, a second ``: `` in one line of plain scalars, an indentation
that matches no open block, a line of a flow collection or quoted scalar not indented
inside its block, a comment glued to a token, a directive inside a document, a second
document when one is asked for, a bare scalar where a collection is asked for; and, as
two readings, a character YAML 1.1 and ruamel's reader take as a line break
(:data:`BREAKS_1_1`). When a line is not understood, it stays quiet: soundness first.

It also records the tabs that are only spacing (after an indicator, before a comment or
a line end, on blank lines, before a flow node): ruamel's scanner refuses tabs there, the
YAML 1.2 grammar does not, so the loader reads them as spaces (same length, same offsets).
"""

from __future__ import annotations

import re
from typing import Any

#: As ``loading.PARSER_DEPTH`` (kept here: loading imports ruamel lazily, this module never).
FLOW_DEPTH = 250

_WS = " \t"
_CLOSE = {"]": "[", "}": "{"}

#: Line breaks in YAML 1.1, characters in YAML 1.2 (NEL, LINE SEPARATOR, PARAGRAPH
#: SEPARATOR). ruamel's reader still breaks lines at them and folds the white space
#: around them ('x\x85y' reads 'x y', '"x\u2028 y"' reads 'x\u2028y'), the scanner reads
#: YAML 1.2: two readings of the text, so a line holding one is refused. At the end of a
#: reply they are white space that ``check()`` strips (see :mod:`.stream`).
BREAKS_1_1 = "\x85\u2028\u2029"


_HASHED = (
    "a value starting with '#' glued to text ('color: #ff0000'): YAML reads a comment and no value, "
    "the writer a value (quote the value)"
)


class Refusal(Exception):
    """No continuation can make the text valid: ``reason`` at ``position``."""

    def __init__(self, code: str, reason: str, position: int):
        super().__init__(reason)
        self.code = code
        self.reason = reason
        self.position = position


class LineScanner:
    """Feed complete lines with :meth:`line` (without the line break); ``error`` is the
    first :class:`Refusal` (then nothing more is read). ``spacing_tabs`` (when asked for)
    lists offsets of tabs the loader may read as spaces."""

    def __init__(
        self,
        *,
        one_document: bool = True,
        collection_root: bool = True,
        max_depth: int = 1000,
        collect_tabs: bool = False,
        collect_hashes: bool = False,
    ):
        self.one_document = one_document
        self.collection_root = collection_root
        self.max_depth = max_depth
        self.spacing_tabs: list[int] | None = [] if collect_tabs else None
        # with collect_hashes, the '#' of each "color: #ff0000" (healing quotes them)
        # instead of a refusal
        self.hashes: list[int] | None = [] if collect_hashes else None
        self.error: Refusal | None = None
        self.flow: list[str] = []
        self.flow_indent = -1  # the indent of the block holding the open flow collection
        self.prev = "["  # the last significant character in flow context
        self.quote = ""
        self.quote_indent = -1
        self.block_scalar: list[int | None] | None = None  # [parent indent, content indent]
        self.levels: list[list[Any]] = []  # [indent, "map" | "seq"]
        self.pending = False  # the last node line left a node to be given on later lines
        self.cont: int | None = None  # a plain scalar continues on lines indented more
        # "color: #ff0000": a node with no value but a comment glued to its '#' —
        # (offset of the '#', column a nested value must pass, a key: '- ' may follow at it)
        self.hashed: tuple[int, int, bool] | None = None
        self.docs = 0
        self.in_doc = False
        self.has_content = False
        self.root_done = False  # the current document's root node has started
        self.start = 0

    def copy(self) -> LineScanner:
        clone = LineScanner.__new__(LineScanner)
        clone.__dict__.update(self.__dict__)
        clone.flow = list(self.flow)
        clone.levels = [list(x) for x in self.levels]
        clone.block_scalar = list(self.block_scalar) if self.block_scalar is not None else None
        clone.spacing_tabs = list(self.spacing_tabs) if self.spacing_tabs is not None else None
        return clone

    # -- helpers ----------------------------------------------------------------
    def _fail(self, code: str, reason: str, where: int) -> None:
        raise Refusal(code, reason, self.start + where)

    def _tabs(self, s: str, a: int, b: int) -> None:
        if self.spacing_tabs is not None:
            for k in range(a, b):
                if s[k] == "\t":
                    self.spacing_tabs.append(self.start + k)

    def _skip_ws(self, s: str, i: int) -> int:
        j = i
        n = len(s)
        while j < n and s[j] in _WS:
            j += 1
        self._tabs(s, i, j)
        return j

    def _content(self) -> None:
        if not self.in_doc:
            self.in_doc = True
            self.docs += 1
            self._check_docs(0)
        self.has_content = True

    def _check_docs(self, where: int) -> None:
        if self.one_document and self.docs > 1:
            self._fail("yaml.documents", "a second document where one is asked for", where)

    def _depth(self, where: int) -> None:
        if len(self.levels) + len(self.flow) > self.max_depth:
            self._fail("yaml.too_deep", f"the YAML is nested deeper than {self.max_depth} levels", where)
        elif len(self.flow) > FLOW_DEPTH:
            # each flow collection is a node inside the one around it, so the loader
            # (loading.PARSER_DEPTH) refuses this anyway, but only after a scan that costs
            # the flow depth per token (ruamel checks every open level for a simple key):
            # 500 levels took seconds; refused here in one pass
            self._fail("yaml.too_deep", f"the YAML nests more than {FLOW_DEPTH} flow collections", where)

    # -- lines ------------------------------------------------------------------
    def line(self, s: str, start: int) -> None:
        """Read one complete line starting at offset ``start``."""
        if self.error is not None:
            return
        self.start = start
        try:
            self._line(s)
        except Refusal as err:
            self.error = err

    def _line(self, s: str) -> None:
        if s.endswith("\r"):
            s = s[:-1]
        self._breaks_1_1(s)
        marker = s[:3] in ("---", "...") and (len(s) == 3 or s[3] in _WS)
        if self.block_scalar is not None:
            if not marker and self._in_block_scalar(s):
                return
            self.block_scalar = None
        ind = len(s) - len(s.lstrip(" "))
        blank = s.strip(_WS) == ""
        if self.hashed is not None and not blank and not s.lstrip(_WS).startswith("#"):
            self._hashed_value(s, ind, marker)
        if self.quote:
            if not blank and ind <= self.quote_indent:
                self._fail("yaml.indentation", "a line of a quoted scalar is not indented inside its block", ind)
            if blank:
                self._tabs(s, 0, len(s))
                return
            lead = len(s) - len(s.lstrip(_WS))
            self._tabs(s, 0, lead)
            if self.flow:  # a quoted scalar inside a flow collection: the collection goes on after it
                self._flow(s, lead)
                return
            j = self._close_quote(s, 0)
            if j < 0:
                return
            self._after_node(s, j)
            return
        if self.flow:
            if blank:
                self._tabs(s, 0, len(s))
                return
            lead = len(s) - len(s.lstrip(_WS))
            if ind <= self.flow_indent and s[lead] != "#":
                self._fail("yaml.indentation", "a line of a flow collection is not indented inside its block", ind)
            self._tabs(s, 0, lead)
            self._flow(s, lead)
            return
        if marker:
            self._marker(s)
            return
        if blank:
            self._tabs(s, 0, len(s))
            return
        lead = len(s) - len(s.lstrip(_WS))
        if s[lead] == "#":
            self._tabs(s, 0, lead)
            self.cont = None if lead == 0 and self.cont is not None and self.cont >= 0 else self.cont
            return
        if s[0] == "%" and not (self.cont is not None and self.cont < 0):
            if self.in_doc:
                self._fail("yaml.directive", "a directive (%...) inside a document", 0)
            self._tabs(s, 0, len(s))
            return
        if self.cont is not None and ind > self.cont:
            self._tabs(s, 0, lead)
            self._continuation(s, lead)
            return
        self.cont = None
        tabbed = lead > ind
        if tabbed:
            self._tabs(s, ind, lead)
        self._node_line(s, ind, lead, tabbed)

    def _breaks_1_1(self, s: str) -> None:
        """Refuse a line holding a character of :data:`BREAKS_1_1`."""
        found = [k for k in (s.find(c) for c in BREAKS_1_1) if k >= 0]
        if found:
            k = min(found)
            self._fail(
                "yaml.ambiguous",
                f"U+{ord(s[k]):04X} reads two ways: a line break (YAML 1.1, and the parser) or a character "
                "(YAML 1.2); write a line break, or escape it in a double-quoted string",
                k,
            )

    def _hashed_value(self, s: str, ind: int, marker: bool) -> None:
        """The line after ``key: #ff0000``: a value nested under the key makes the hash
        a comment; anything else leaves the key with no value (see :meth:`end`)."""
        assert self.hashed is not None
        where, col, key = self.hashed
        self.hashed = None
        item = s[ind : ind + 1] == "-" and (len(s) == ind + 1 or s[ind + 1] in _WS)
        if not marker and (ind > col or (key and ind == col and item)):
            return
        if self.hashes is not None:
            self.hashes.append(where)
            return
        raise Refusal("yaml.ambiguous", _HASHED, where)

    def _glued_hash(self, s: str, k: int, col: int, *, key: bool) -> None:
        """Note ``s[k]``, a ``#`` right after an indicator, when text is glued to it."""
        if k + 1 < len(s) and s[k + 1].isalnum():
            self.hashed = (self.start + k, col, key)

    def end(self) -> None:
        """The text ends here (``scan`` calls it; a prefix being streamed does not)."""
        if self.error is None and self.hashed is not None:
            if self.hashes is not None:
                self.hashes.append(self.hashed[0])
            else:
                self.error = Refusal("yaml.ambiguous", _HASHED, self.hashed[0])
            self.hashed = None

    def _in_block_scalar(self, s: str) -> bool:
        assert self.block_scalar is not None
        parent, content = self.block_scalar
        if s.strip(" ") == "" or (s.strip(_WS) == "" and content is None):
            return True
        ind = len(s) - len(s.lstrip(" "))
        if content is None:
            if ind > parent:  # type: ignore[operator]
                self.block_scalar[1] = ind
                return True
            return False
        return ind >= content or s.strip(_WS) == ""

    def _marker(self, s: str) -> None:
        self.levels = []
        self.pending = False
        self.cont = None
        if s[0] == "-":
            self.docs += 1
            self.in_doc = True
            self.has_content = False
            self.root_done = False
            self._check_docs(0)
            j = self._skip_ws(s, 3)
            if j < len(s) and s[j] != "#":
                self._node(s, j, j, parent=-1, tabbed=False, first=True)
        else:
            self.in_doc = False
            self.root_done = False
            j = self._skip_ws(s, 3)
            if j < len(s) and s[j] != "#":
                self._fail("yaml.syntax", "text after a document end marker (...)", j)

    def _continuation(self, s: str, i: int) -> None:
        """A line of a multi-line plain scalar: no ``: `` in it. A line that starts
        like a list item ("- two" under "- one") is read by YAML as more text of the
        scalar, by the writer as an item out of line: two readings, a violation."""
        n = len(s)
        if s[i] == "-" and (i + 1 == n or s[i + 1] in _WS) and self.levels and self.levels[-1][1] == "seq":
            self._fail("yaml.ambiguous", "a list item out of line with its siblings (YAML reads it as text)", i)
        j = i
        while j < n:
            c = s[j]
            if c == ":" and (j + 1 == n or s[j + 1] in _WS):
                self._fail("yaml.plain_colon", "a plain scalar running over lines holds ': '", j)
            if c == "#" and s[j - 1] in _WS:
                self._tabs(s, i, j)
                self.cont = None  # a comment ends the scalar
                return
            j += 1
        self._trailing(s)

    def _trailing(self, s: str) -> None:
        end = len(s.rstrip(_WS))
        self._tabs(s, end, len(s))

    # -- block nodes --------------------------------------------------------------
    def _level(self, col: int, kind: str, where: int) -> None:
        """A block collection entry of ``kind`` at column ``col``."""
        levels = self.levels
        popped = False
        while levels and levels[-1][0] > col:
            levels.pop()
            popped = True
        if levels and levels[-1][0] == col:
            top = levels[-1]
            if top[1] == kind:
                if popped or not self.pending:
                    self.pending = False
                    return
                if kind == "seq" or self.pending:
                    # "a:\n- x" keeps the same indent; "- \n- " is the next item
                    self.pending = False
                    return
                return
            if kind == "seq" and self.pending:
                levels.append([col, kind])
                self.pending = False
                return
            if kind == "map" and len(levels) > 1 and levels[-2][0] == col and levels[-2][1] == "map":
                levels.pop()
                self.pending = False
                return
            self._fail(
                "yaml.indentation", f"a {'list item' if kind == 'seq' else 'key'} out of line with its siblings", where
            )
        if levels and (popped or not self.pending):
            self._fail("yaml.indentation", "an indentation that matches no open block", where)
        if not levels and self.root_done and not self.pending:
            self._fail("yaml.indentation", "an indentation that matches no open block", where)
        levels.append([col, kind])
        self.pending = False
        self._depth(where)

    def _node_line(self, s: str, ind: int, lead: int, tabbed: bool) -> None:
        levels = self.levels
        if not self.pending and levels:
            popped = False
            while levels and levels[-1][0] > ind:
                levels.pop()
                popped = True
            if not levels or levels[-1][0] < ind:
                if popped or not levels:
                    self._fail("yaml.indentation", "an indentation that matches no open block", ind)
        parent = levels[-1][0] if levels else -1
        self._node(s, lead, ind, parent=parent, tabbed=tabbed, first=True)

    def _node(self, s: str, i: int, col: int, *, parent: int, tabbed: bool, first: bool) -> None:
        """A node starting at ``s[i]`` (column ``col``) in block context."""
        n = len(s)
        key_seen = False
        start = -1  # where the node's properties (anchor, tag) began
        while True:
            c = s[i]
            nxt = s[i + 1] if i + 1 < n else " "
            at = i if start < 0 else start
            if c in "-?:" and nxt in _WS and start < 0:
                if tabbed and first:
                    self._fail("yaml.tab_indent", "a tab used as indentation", i)
                self._content()
                self._level(i, "seq" if c == "-" else "map", i)
                self.root_done = True
                j = self._skip_ws(s, i + 1)
                if j >= n or s[j] == "#":
                    if j < n:
                        self._glued_hash(s, j, i, key=c == ":")
                    self.pending = True
                    return
                self.pending = True  # its node follows on this line
                # a tab may separate a scalar from its indicator, never a block collection
                tabbed = first = "\t" in s[i + 1 : j]
                i = j
                parent = self.levels[-1][0]
                key_seen = False
                continue
            if c in "&!":
                j = i
                while j < n and s[j] not in _WS:
                    j += 1
                k = self._skip_ws(s, j)
                self._content()
                if start < 0:
                    start = i
                if k >= n or s[k] == "#":
                    self.pending = True
                    self.root_done = True
                    return
                i = k
                continue
            if c == "#":
                return
            self._content()
            if c in "]}":
                self._fail("yaml.bracket", f"a closing {c!r} with nothing open", i)
            if c in "@`%,":
                self._fail("yaml.indicator", f"a node cannot start with the reserved indicator {c!r}", i)
            if c in "[{\"'*|>":
                key_col = at if not key_seen else -1
                self._opening(s, i, parent=parent, key_col=key_col, first=first and not key_seen, tabbed=tabbed)
                return
            # a plain scalar: a key when ': ' follows on this line (an empty key with
            # properties: "&a : b")
            j = i if c == ":" and start >= 0 else i + 1
            while j < n:
                d = s[j]
                if d == ":" and (j + 1 == n or s[j + 1] in _WS):
                    break
                if d == "#" and s[j - 1] in _WS:
                    break
                j += 1
            if j < n and s[j] == ":":
                if key_seen:
                    self._fail("yaml.plain_colon", "a plain scalar holds ': ' (quote it)", j)
                if tabbed and first:
                    self._fail("yaml.tab_indent", "a tab used as indentation", i)
                self._level(at, "map", at)
                self.root_done = True
                k = self._skip_ws(s, j + 1)
                if k >= n or s[k] == "#":
                    if k < n:
                        self._glued_hash(s, k, at, key=True)
                    self.pending = True
                    return
                self.pending = True
                i = k
                parent = self.levels[-1][0]
                key_seen = True
                first = False
                start = -1
                continue
            self._plain_value(s, i, j, col=col, parent=parent, key_line=key_seen, bare=first and start < 0)
            return

    def _opening(self, s: str, i: int, *, parent: int, key_col: int, first: bool, tabbed: bool) -> None:
        """A node opened by a flow bracket, a quote, an alias or a block scalar header at
        ``s[i]``; ``key_col`` is the column of a key it may turn out to be (-1: none)."""
        c = s[i]
        n = len(s)
        if c in "[{":
            self.flow = [c]
            self.flow_indent = parent
            self.prev = c
            self._depth(i)
            self._flow(s, i + 1, key_col=key_col, first=first, tabbed=tabbed)
            return
        if c in "\"'":
            self.quote = c
            self.quote_indent = parent
            j = self._close_quote(s, i + 1)
            if j < 0:
                self.root_done = True
                return
            self._after_node(s, j, col=key_col, first=first, tabbed=tabbed)
            return
        if c == "*":
            j = i
            while j < n and s[j] not in _WS:
                j += 1
            self._after_node(s, j, col=key_col, first=first, tabbed=tabbed)
            return
        self.root_done = True  # a block scalar: | or >
        if self.collection_root and not self.levels:
            self._fail("yaml.root", "the document is a block scalar, not a mapping or a list", i)
        self.block_scalar = [parent, None]
        self.pending = False
        self._block_header(s, i + 1)

    def _plain_value(self, s: str, i: int, j: int, *, col: int, parent: int, key_line: bool, bare: bool) -> None:
        """A plain value from ``s[i]`` to the line end or a comment at ``s[j]``; ``key_line``:
        after a key on this line; ``bare``: the first node of the line, without properties."""
        n = len(s)
        if not key_line and bare and self.levels and not self.pending and self.levels[-1][0] == col:
            self._fail("yaml.syntax", "a line with no key or list item inside a block collection", i)
        if not self.root_done:
            self.root_done = True
            if self.collection_root and not self.levels:
                self._fail("yaml.root", "the document is a bare scalar, not a mapping or a list", i)
        self.pending = False
        if j < n:  # a comment ends the scalar
            if key_line and j + 1 < n and s[j + 1].isalnum() and s[j - 1] == " ":
                # "title: Issue #42: crash": YAML reads a comment, the writer a value
                self._fail("yaml.ambiguous", "' #' glued to text inside a value (quote the value)", j)
            self._tabs(s, i, j)
            self.cont = None
        else:
            self._trailing(s)
            self.cont = parent

    def _block_header(self, s: str, i: int) -> None:
        n = len(s)
        j = i
        while j < n and s[j] in "+-123456789":
            if s[j].isdigit() and self.block_scalar is not None:
                base = self.block_scalar[0]
                self.block_scalar[1] = max(base, 0) + int(s[j]) if base is not None and base >= 0 else int(s[j])
            j += 1
        k = self._skip_ws(s, j)
        if k < n and not (s[k] == "#" and k > j):
            self._fail("yaml.syntax", "text after a block scalar indicator (| or >)", k)

    def _close_quote(self, s: str, i: int) -> int:
        """The offset after the closing quote of the open quoted scalar, or -1."""
        j = quote_end(s, i, self.quote)
        if j >= 0:
            self.quote = ""
        return j

    def _after_node(
        self, s: str, j: int, *, col: int = -1, first: bool = False, tabbed: bool = False, flow: bool = False
    ) -> None:
        """After a quoted scalar or a flow collection closed on this line."""
        n = len(s)
        if j < n and s[j] == "#":
            self._fail("yaml.comment", "a comment must be separated from the text before it by a space", j)
        k = self._skip_ws(s, j)
        if k >= n or s[k] == "#":
            if first and not self.root_done:
                self.root_done = True
                if self.collection_root and not self.levels and not flow:
                    self._fail("yaml.root", "the document is a bare scalar, not a mapping or a list", col)
            self.root_done = True
            self.pending = False
            return
        if s[k] == ":" and (k + 1 == n or s[k + 1] in _WS) and col >= 0:
            if tabbed and first:
                self._fail("yaml.tab_indent", "a tab used as indentation", col)
            if col >= 0:
                self._level(col, "map", col)
                self.root_done = True
                m = self._skip_ws(s, k + 1)
                self.pending = True
                if m >= n or s[m] == "#":
                    return
                self._node(s, m, m, parent=self.levels[-1][0], tabbed=False, first=False)
                return
        self.root_done = True
        self.pending = False

    # -- flow context ---------------------------------------------------------------
    def _flow(self, s: str, i: int, *, key_col: int = -1, first: bool = False, tabbed: bool = False) -> None:
        n = len(s)
        j = i
        flow = self.flow
        while j < n:
            if self.quote:
                k = self._close_quote(s, j)
                if k < 0:
                    return
                j = k
                self.prev = '"'  # a closed quoted scalar: a ':' right after it is an indicator
                if j < n and s[j] == "#":
                    self._fail("yaml.comment", "a comment must be separated from the text before it by a space", j)
                continue
            c = s[j]
            if c in _WS:
                j += 1
                continue
            before = s[j - 1] if j > 0 else " "
            if c == "#":
                if before in _WS:
                    return
                if self.prev in "[{,":
                    self._fail("yaml.comment", "a comment must be separated from the text before it by a space", j)
            elif c in "[{":
                flow.append(c)
                self._depth(j)
            elif c in "]}":
                if not flow or flow[-1] != _CLOSE[c]:
                    self._fail("yaml.bracket", f"a closing {c!r} that matches no open bracket", j)
                flow.pop()
                if not flow:
                    self.prev = "x"
                    if key_col >= 0:
                        self._after_node(s, j + 1, col=key_col, first=first, tabbed=tabbed, flow=True)
                    else:
                        self._after_flow(s, j + 1)
                    return
            elif c in "\"'" and (self.prev in "[{,:?" or before in _WS):
                self.quote = c
                self.quote_indent = self.flow_indent
                self.prev = "x"
                j += 1
                continue
            elif c == "-" and self.prev in "[{,:?" and (j + 1 >= n or s[j + 1] in " \t,]}"):
                self._fail("yaml.indicator", "a lone '-' in a flow collection", j)
            elif c == "?" and self.prev in "[{," and j + 1 < n and s[j + 1] not in _WS:
                # YAML 1.2 reads "?x" here as a plain scalar, ruamel's parser as an explicit
                # key: two readings, so a violation rather than a value that may be wrong
                self._fail("yaml.ambiguous", "'?' glued to a scalar in a flow collection (quote it)", j)
            if c == ":" and self.prev != '"' and j + 1 < n and s[j + 1] not in " \t,[]{}":
                self.prev = "x"  # "a:b" is one plain scalar in flow, not a key and a value
            elif c == "?" and j + 1 < n and s[j + 1] not in _WS:
                self.prev = "x"
            elif c not in _WS:
                self.prev = c
            j += 1

    def _after_flow(self, s: str, j: int) -> None:
        n = len(s)
        if j < n and s[j] == "#":
            self._fail("yaml.comment", "a comment must be separated from the text before it by a space", j)
        self.root_done = True
        self.pending = False
        self.cont = None
        k = self._skip_ws(s, j)
        if k < n and s[k] == ":" and (k + 1 == n or s[k + 1] in _WS):
            m = self._skip_ws(s, k + 1)
            if m >= n or s[m] == "#":
                self.pending = True
                return
            parent = self.levels[-1][0] if self.levels else -1
            self._node(s, m, m, parent=parent, tabbed=False, first=False)


def quote_end(s: str, i: int, q: str) -> int:
    """The offset after the quote ``q`` (``'`` or ``"``) that closes a scalar whose text
    goes on at ``s[i]`` (``''`` and backslash escapes skipped), or -1: not on this line."""
    n = len(s)
    j = i
    if q == '"':
        while j < n:
            c = s[j]
            if c == "\\":
                j += 2
                continue
            if c == '"':
                return j + 1
            j += 1
        return -1
    while j < n:
        if s[j] == "'":
            if j + 1 < n and s[j + 1] == "'":
                j += 2
                continue
            return j + 1
        j += 1
    return -1


_BLOCK_LINES: dict[int, re.Pattern[str]] = {}


def _block_lines(indent: int) -> re.Pattern[str]:
    """Whole lines a block scalar of content ``indent`` (> 0) holds, as
    :meth:`LineScanner._in_block_scalar` reads them one by one: lines of white space, lines
    indented by ``indent`` spaces or more (none holding a character of :data:`BREAKS_1_1`,
    which the scanner refuses). Linear: each line ends at its line feed."""
    pattern = _BLOCK_LINES.get(indent)
    if pattern is None:
        pattern = _BLOCK_LINES[indent] = re.compile(f"(?:(?: {{{indent}}}[^\n{BREAKS_1_1}]*|[ \t]*\r?)\n)*")
    return pattern


def scan(text: str, **options: Any) -> LineScanner:
    """``text`` read whole (its last line too) by a new :class:`LineScanner`."""
    scanner = LineScanner(**options)
    pos = 0
    n = len(text)
    while pos <= n:
        block = scanner.block_scalar
        if block is not None and block[1] is not None and block[1] > 0:
            pos = _block_lines(block[1]).match(text, pos).end()  # type: ignore[union-attr]
        end = text.find("\n", pos)
        if end < 0:
            end = n
        scanner.line(text[pos:end], pos)
        if scanner.error is not None:
            break
        pos = end + 1
    scanner.end()
    return scanner
