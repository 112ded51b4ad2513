"""The strict XML scanner: a small tokenizer with a stack of open tags, fed chunk by chunk.

It is what ``can_be_valid`` and the strict ``stream()`` checker run, and part of
``is_valid``: a text is valid only when the scanner accepts it whole (it reads first a
text holding a DOCTYPE, and after lxml one that lxml refuses: see :mod:`.syntax`). Because
``is_valid`` needs the scanner to accept the whole text, the scanner can never refuse a prefix of a valid
document: any text it refuses, it refuses in every continuation (soundness by
construction), and it answers the same for every way of cutting the text into chunks.

It refuses, at the first character that shows it (``position``):

* a character XML 1.0 never allows (control characters, lone surrogates, U+FFFE/U+FFFF);
* text before the root element or after it, a second root element, a closing tag after
  the root or before any element;
* a closing tag whose name differs from the open element's (at its first differing
  character), or that closes nothing;
* ``<`` that starts no markup, ``<`` inside an attribute value, an attribute without
  quotes or ``=``, two attributes without space between them, an attribute repeated;
* ``&`` that starts no reference, an entity other than the five XML predefines (a reply
  has no DTD: see below), a character reference to a character XML does not allow;
* ``]]>`` in text, ``--`` inside a comment, CDATA outside the root element;
* an XML declaration anywhere but at the very start (a byte order mark aside), a
  processing instruction named ``xml`` in another case, or with a colon in its name;
* a DOCTYPE after the root, a second one, or one with an internal subset or an external
  identifier (``SYSTEM``/``PUBLIC``): entity declarations and external DTDs are where XXE
  and billion-laughs attacks live, so a reply may only say ``<!DOCTYPE name>``;
* nesting deeper than ``max_depth``.

What it leaves to lxml (checked at the end): the XML declaration's content, namespace
rules (prefixes bound, QNames), attributes repeated through namespace prefixes.

Every run of ordinary characters is taken by one compiled regular expression (each is a
single character class, linear); only markup characters take a Python step.
"""

from __future__ import annotations

import re

from formatbook_core.limits import MAX_DEPTH
from formatbook_core.runs import run

__all__ = [
    "Scanner",
    "is_xml_char",
    "BAD_CHARS",
    "BAD_CHAR",
    "NAME_START_CHARS",
    "NAME_CHARS",
    "NAME_START",
    "NAME_RUN",
    "PLAIN_TEXT",
    "CONTENT",
    "OUT",
]

#: The characters XML 1.0 never allows, anywhere, as the inside of a character class.
BAD_CHARS = "\x00-\x08\x0b\x0c\x0e-\x1f\ud800-\udfff\ufffe\uffff"
#: A character XML 1.0 never allows, anywhere.
BAD_CHAR = re.compile(f"[{BAD_CHARS}]")
#: The characters that may start an XML name (XML 1.0 fifth edition), as a class's inside.
NAME_START_CHARS = (
    "A-Z_a-z:\xc0-\xd6\xd8-\xf6\xf8-\u02ff\u0370-\u037d\u037f-\u1fff\u200c\u200d\u2070-\u218f"
    "\u2c00-\u2fef\u3001-\ud7ff\uf900-\ufdcf\ufdf0-\ufffd\U00010000-\U000effff"
)
#: The characters of an XML name past its first, as a class's inside.
NAME_CHARS = NAME_START_CHARS + "\\-.0-9\xb7\u0300-\u036f\u203f\u2040"
#: One character that may start an XML name (XML 1.0 fifth edition).
NAME_START = re.compile(f"[{NAME_START_CHARS}]")
#: A run of name characters (possibly empty).
NAME_RUN = run(f"[{NAME_CHARS}]*")
PLAIN_TEXT = re.compile(f"[^<&\\]>\r{BAD_CHARS}]*").fullmatch
_WS_RUN = run("[ \t\r\n]*")
_TEXT_RUN = run(r"[^<&\]>]*")
_ATTR_RUN = {'"': run('[^"<&]*'), "'": run("[^'<&]*")}
_COMMENT_RUN = run("[^-]*")
_CDATA_RUN = run(r"[^\]>]*")
_PI_RUN = run(r"[^?]*")
_WSC = "[ \t\r\n]"
# Whole tags taken in one match when a chunk holds them (a long chunk: is_valid's one
# pass). Each is linear: no two quantifiers can take the same characters. A tag they do
# not take (a reference in a value, a repeated attribute, a mismatch) goes the slow way,
# which reports the exact position.
_FAST_START = re.compile(
    f"<([{NAME_START_CHARS}][{NAME_CHARS}]*)((?:{_WSC}+[{NAME_START_CHARS}][{NAME_CHARS}]*{_WSC}*={_WSC}*(?:\"[^\"<&]*\"|'[^'<&]*'))*){_WSC}*(/?)>"
)
_FAST_END = re.compile(f"</([{NAME_START_CHARS}][{NAME_CHARS}]*){_WSC}*>")
_ATTR_NAMES = re.compile(f"([{NAME_START_CHARS}][{NAME_CHARS}]*){_WSC}*=")
_FAST_REF = re.compile("&(?:lt|gt|amp|apos|quot);")
_ATTR_PAIRS = re.compile(f"([{NAME_START_CHARS}][{NAME_CHARS}]*){_WSC}*={_WSC}*(\"[^\"]*\"|'[^']*')")
_ATTR_WS = str.maketrans("\t\n", "  ")
_PREDEFINED_CHAR = {"lt": "<", "gt": ">", "amp": "&", "apos": "'", "quot": '"'}
_FAST_MIN = 24  # the chunk left must be this long for a whole-tag match to be tried
_DIGITS = run("[0-9]*")
_HEX = run("[0-9a-fA-F]*")
_WS = " \t\r\n"
_PREDEFINED = ("lt", "gt", "amp", "apos", "quot")

# --- states ---------------------------------------------------------------------------
OUT = 0  # outside the root element (before it, or after it when ``done``)
CONTENT = 1  # text inside the root element
_LT = 2  # after '<'
_BANG = 3  # after '<!': matching '--', '[CDATA[' or 'DOCTYPE'
_COMMENT = 4
_COMMENT_DD = 5  # after '--' inside a comment: only '>' may follow
_CDATA = 6
_PI_TARGET = 7
_PI_BODY = 8
_PI_Q = 9  # after '?' in a processing instruction
_STAG_NAME = 10
_TAG_SPACE = 11  # inside a start tag, between attributes
_ATTR_NAME = 12
_ATTR_EQ = 13
_ATTR_Q = 14
_ATTR_VAL = 15
_EMPTY = 16  # after '/' in a start tag
_ETAG_NAME = 17
_ETAG_END = 18
_REF = 19  # after '&'
_ENAME = 20
_CREF = 21  # after '&#'
_DEC = 22
_HEXREF = 23
_DT_SP = 24  # after '<!DOCTYPE'
_DT_NAME = 25
_DT_AFTER = 26
FAILED = 99

#: What the scanner reports, by failure code (the violation codes of the format).
SYNTAX = "xml.syntax"


def is_xml_char(cp: int) -> bool:
    """Whether the code point ``cp`` is a character XML 1.0 allows."""
    return cp in (0x9, 0xA, 0xD) or 0x20 <= cp <= 0xD7FF or 0xE000 <= cp <= 0xFFFD or 0x10000 <= cp <= 0x10FFFF


class Scanner:
    """The strict incremental XML scanner (see the module doc).

    ``feed(chunk)`` returns True while some continuation can still be well-formed XML;
    once not, ``error`` is ``(code, message, position)`` and every later feed returns
    False. ``end()`` says whether the text fed is a complete document as far as the
    scanner can tell (lxml decides the rest). ``copy()`` clones the state.
    """

    __slots__ = (
        "st",
        "pos",
        "stack",
        "done",
        "root_seen",
        "doctype_seen",
        "bom",
        "error",
        "max_depth",
        "_parts",
        "_ename",
        "_eidx",
        "_attrs",
        "_quote",
        "_ret",
        "_count",
        "_value",
        "_markup",
        "_space",
        "_lit",
        "collect",
        "vals",
        "_text",
        "_aval",
        "_aname",
        "_cr",
    )

    def __init__(self, max_depth: int = MAX_DEPTH, *, collect: bool = False) -> None:
        self.st = OUT
        self.pos = 0  # absolute offset of the next character
        self.stack: list[str] = []
        self.done = False  # the root element has been closed
        self.root_seen = False
        self.doctype_seen = False
        self.bom = False
        self.error: tuple[str, str, int] | None = None
        self.max_depth = max_depth
        self._parts: list[str] = []  # the name being read
        self._ename = ""  # the name a closing tag must have
        self._eidx = 0  # how much of it has been read
        self._attrs: set[str] = set()
        self._quote = '"'
        self._ret = CONTENT  # state after a reference
        self._count = 0  # consecutive ']' (text, CDATA) or '-' (comment); digits of a reference
        self._value = 0  # value of a character reference
        self._markup = 0  # offset of the '<' that opened the markup being read
        self._space = False  # white space seen since the last attribute
        self._lit = ""  # what '<!' has been followed by so far
        # values (collect=True): text nodes and attribute values as lxml gives them,
        # appended to ``vals`` as each one settles (see XmlChecker)
        self.collect = collect
        self.vals: list[str] = []
        self._text: list[str] = []  # the text node being read (decoded, line ends normalised)
        self._aval: list[str] = []  # the attribute value being read
        self._aname = ""  # its attribute's name
        self._cr = False  # the last raw piece ended with '\r' (a '\n' after it is the same line end)

    def copy(self) -> Scanner:
        clone = Scanner.__new__(Scanner)
        for name in Scanner.__slots__:
            setattr(clone, name, getattr(self, name))
        clone.stack = list(self.stack)
        clone._parts = list(self._parts)
        clone._attrs = set(self._attrs)
        clone.vals = list(self.vals)
        clone._text = list(self._text)
        clone._aval = list(self._aval)
        return clone

    # --- values -----------------------------------------------------------------------
    def raw(self, piece: str, into: list[str], attribute: bool = False) -> None:
        """Append raw text to a value as XML reads it: line ends (``\r\n``, ``\r``) are
        ``\n``, and in an attribute value every white-space character is a space."""
        if self._cr:
            self._cr = False
            if piece[:1] == "\n":
                piece = piece[1:]
        if not piece:
            return
        if "\r" in piece:
            self._cr = piece[-1] == "\r"
            piece = piece.replace("\r\n", "\n").replace("\r", "\n")
        if attribute:
            piece = piece.translate(_ATTR_WS)
        into.append(piece)

    def _decoded(self, char: str) -> None:
        self._cr = False
        (self._text if self._ret == CONTENT else self._aval).append(char)

    def settle(self) -> None:
        """The text node being read ends here (markup other than CDATA follows)."""
        self._cr = False
        text = self._text
        if text:
            value = text[0] if len(text) == 1 else "".join(text)
            self._text = []
            if not value.isspace():
                self.vals.append(value)

    def _attribute(self, name: str, value: str) -> None:
        if value.strip() and name != "xmlns" and not name.startswith("xmlns:"):
            self.vals.append(value)

    @property
    def ok(self) -> bool:
        return self.error is None

    def fail(self, position: int, message: str, code: str = SYNTAX) -> bool:
        if self.error is None:
            self.error = (code, message, position)
            self.st = FAILED
        return False

    def end_problem(self) -> tuple[str, str, int] | None:
        """Why the text fed is not a complete document (``None`` when it may be)."""
        if self.error is not None:
            return self.error
        if self.done and self.st == OUT:
            return None
        st = self.st
        if st not in (OUT, CONTENT):
            what = (
                "a comment"
                if st in (_COMMENT, _COMMENT_DD)
                else "a CDATA section"
                if st == _CDATA
                else "a processing instruction"
                if st in (_PI_TARGET, _PI_BODY, _PI_Q)
                else "a DOCTYPE"
                if st in (_DT_SP, _DT_NAME, _DT_AFTER)
                else "a reference"
                if st in (_REF, _ENAME, _CREF, _DEC, _HEXREF)
                else "a tag"
            )
            return ("xml.unclosed" if self.stack else "xml.syntax", f"the text ends inside {what}", self.pos)
        if not self.root_seen:
            return ("xml.empty", "no root element: the text holds no XML element", self.pos)
        if self.stack:
            return (
                "xml.unclosed",
                f"the text ends with {len(self.stack)} element(s) still open (innermost <{self.stack[-1]}>)",
                self.pos,
            )
        return ("xml.syntax", "the text ends inside markup", self.pos)

    # --- feeding ------------------------------------------------------------------------
    def feed(self, chunk: str) -> bool:
        if self.error is not None:
            return False
        if self.st == CONTENT and PLAIN_TEXT(chunk) is not None:
            # the commonest chunk while streaming: plain text inside an element
            if chunk:
                self._count = 0
                self.pos += len(chunk)
                if self.collect:
                    self.raw(chunk, self._text)  # (a plain chunk holds no '\r')
            return True
        return self.feed_other(chunk)

    def feed_other(self, chunk: str) -> bool:
        """``feed`` for a chunk that is not plain text inside an element (or may not be)."""
        if self.error is not None:
            return False
        bad = BAD_CHAR.search(chunk)
        if bad is not None:
            if not self._run(chunk[: bad.start()]):
                return False
            code = ord(chunk[bad.start()])
            return self.fail(self.pos, f"U+{code:04X} is not a character XML allows", "xml.invalid_char")
        return self._run(chunk)

    def _ctx(self) -> int:
        return CONTENT if self.stack else OUT

    def _run(self, chunk: str) -> bool:  # noqa: C901 - one loop, one branch per state
        i = 0
        n = len(chunk)
        base = self.pos - 0
        st = self.st
        while i < n:
            if st == CONTENT:
                j = _TEXT_RUN.match(chunk, i).end()
                if j > i:
                    self._count = 0
                    if self.collect:
                        if self._cr or "\r" in chunk:
                            self.raw(chunk[i:j], self._text)
                        else:
                            self._text.append(chunk[i:j])
                    i = j
                    if i >= n:
                        break
                c = chunk[i]
                if c == "<":
                    if n - i >= _FAST_MIN:
                        if chunk[i + 1] == "/":
                            m = _FAST_END.match(chunk, i)
                            if m is not None and m.group(1) == self.stack[-1]:
                                if self.collect and self._text:
                                    self.settle()
                                self.stack.pop()
                                self._count = 0
                                i = m.end()
                                if not self.stack:
                                    self.done = True
                                    st = OUT
                                continue
                        else:
                            m = _FAST_START.match(chunk, i)
                            if m is not None and len(self.stack) < self.max_depth:
                                attrs = m.group(2)
                                names = _ATTR_NAMES.findall(attrs) if attrs.count("=") > 1 else ()
                                if len(set(names)) == len(names):
                                    if self.collect:
                                        if self._text:
                                            self.settle()
                                        for aname, quoted in _ATTR_PAIRS.findall(attrs):
                                            into: list[str] = []
                                            self.raw(quoted[1:-1], into, True)
                                            self._cr = False
                                            self._attribute(aname, "".join(into))
                                    if not m.group(3):
                                        self.stack.append(m.group(1))
                                    self._count = 0
                                    i = m.end()
                                    continue
                    self._markup = base + i
                    st = _LT
                elif c == "&":
                    if n - i >= 6:
                        m = _FAST_REF.match(chunk, i)
                        if m is not None:
                            self._count = 0
                            if self.collect:
                                self._cr = False
                                self._text.append(_PREDEFINED_CHAR[m.group()[1:-1]])
                            i = m.end()
                            continue
                    self._ret = CONTENT
                    st = _REF
                elif c == "]":
                    self._count += 1
                    if self.collect:
                        self.raw(c, self._text)
                else:  # '>'
                    if self._count >= 2:
                        self.pos = base + i
                        return self.fail(base + i, "']]>' is not allowed in text (write ]]&gt;)")
                    self._count = 0
                    if self.collect:
                        self.raw(c, self._text)
                i += 1
                continue
            if st == _ETAG_NAME:
                m = NAME_RUN.match(chunk, i)
                j = m.end()
                ename = self._ename
                eidx = self._eidx
                if j > i:
                    run = chunk[i:j]
                    if not ename.startswith(run, eidx):
                        k = 0
                        while eidx + k < len(ename) and run[k] == ename[eidx + k]:
                            k += 1
                        self.pos = base + i + k
                        return self.fail(
                            base + i + k,
                            f"the closing tag does not match the open element <{ename}>",
                            "xml.mismatched_tag",
                        )
                    self._eidx = eidx = eidx + len(run)
                    i = j
                    if i >= n:
                        break
                if eidx != len(ename):
                    self.pos = base + i
                    return self.fail(
                        base + i, f"the closing tag does not match the open element <{ename}>", "xml.mismatched_tag"
                    )
                st = _ETAG_END
                continue
            if st == _STAG_NAME or st == _ATTR_NAME or st == _PI_TARGET or st == _DT_NAME:
                if st == _PI_TARGET and not self._parts:
                    if not NAME_START.match(chunk[i]):
                        self.pos = base + i
                        return self.fail(base + i, "a processing instruction needs a name after '<?'")
                    self._parts.append(chunk[i])
                    i += 1
                    continue
                m = NAME_RUN.match(chunk, i)
                j = m.end()
                if j > i:
                    self._parts.append(chunk[i:j])
                    i = j
                    if i >= n:
                        break
                name = "".join(self._parts)
                c = chunk[i]
                self.pos = base + i
                if st == _STAG_NAME:
                    if len(self.stack) >= self.max_depth:
                        return self.fail(base + i, f"elements nested deeper than {self.max_depth}", "xml.too_deep")
                    self.stack.append(name)
                    self.root_seen = True
                    if c in _WS:
                        self._space = True
                        st = _TAG_SPACE
                    elif c == ">":
                        st = CONTENT
                        self._count = 0
                    elif c == "/":
                        st = _EMPTY
                    else:
                        return self.fail(base + i, f"unexpected {c!r} in the start tag <{name}>")
                elif st == _ATTR_NAME:
                    if name in self._attrs:
                        return self.fail(base + i, f"attribute {name!r} repeated in <{self.stack[-1]}>")
                    self._attrs.add(name)
                    self._aname = name
                    st = _ATTR_EQ
                    continue  # the character is looked at in _ATTR_EQ
                elif st == _PI_TARGET:
                    if name.lower() == "xml":
                        at_start = self._markup == 0 or (self._markup == 1 and self.bom)
                        if name != "xml" or not at_start:
                            where = "is allowed only at the very start" if name == "xml" else "must be lower case"
                            return self.fail(self._markup, f"an XML declaration {where}", "xml.declaration")
                    if ":" in name:
                        return self.fail(base + i, f"a processing instruction's name cannot hold ':' ({name!r})")
                    if c in _WS:
                        st = _PI_BODY
                    elif c == "?":
                        st = _PI_Q
                    else:
                        return self.fail(base + i, f"unexpected {c!r} after the processing instruction's name")
                else:  # _DT_NAME
                    st = _DT_AFTER
                    continue
                i += 1
                continue
            if st == _ATTR_VAL:
                j = _ATTR_RUN[self._quote].match(chunk, i).end()
                if self.collect and j > i:
                    self.raw(chunk[i:j], self._aval, True)
                i = j
                if i >= n:
                    break
                c = chunk[i]
                if c == "<":
                    self.pos = base + i
                    return self.fail(base + i, "'<' is not allowed in an attribute value (write &lt;)")
                if c == "&":
                    self._ret = _ATTR_VAL
                    st = _REF
                else:
                    if self.collect:
                        self._attribute(self._aname, "".join(self._aval))
                        self._aval = []
                        self._cr = False
                    self._space = False
                    st = _TAG_SPACE
                i += 1
                continue
            if st == _LT:
                c = chunk[i]
                if c == "/":
                    if not self.stack:
                        self.pos = base + i
                        if self.done:
                            return self.fail(
                                base + i, "a closing tag after the root element's end", "xml.text_after_root"
                            )
                        return self.fail(base + i, "a closing tag before any element", "xml.mismatched_tag")
                    if self.collect and self._text:
                        self.settle()
                    self._ename = self.stack[-1]
                    self._eidx = 0
                    st = _ETAG_NAME
                elif c == "!":
                    self._lit = ""
                    st = _BANG
                elif c == "?":
                    if self.collect and self._text:
                        self.settle()
                    self._parts = []
                    st = _PI_TARGET
                elif NAME_START.match(c):
                    if self.done:
                        self.pos = base + i
                        return self.fail(
                            base + i - 1, "a second root element after the first one's end", "xml.second_root"
                        )
                    if self.collect and self._text:
                        self.settle()
                    self._parts = [c]
                    self._attrs = set()
                    st = _STAG_NAME
                else:
                    self.pos = base + i
                    return self.fail(base + i - 1, "'<' starts no tag (a literal '<' is written &lt;)")
                i += 1
                continue
            if st == _TAG_SPACE:
                m = _WS_RUN.match(chunk, i)
                j = m.end()
                if j > i:
                    self._space = True
                    i = j
                    if i >= n:
                        break
                c = chunk[i]
                if c == ">":
                    st = CONTENT
                    self._count = 0
                elif c == "/":
                    st = _EMPTY
                elif NAME_START.match(c):
                    if not self._space:
                        self.pos = base + i
                        return self.fail(base + i, "attributes must be separated by white space")
                    self._parts = [c]
                    st = _ATTR_NAME
                else:
                    self.pos = base + i
                    return self.fail(base + i, f"unexpected {c!r} in the start tag <{self.stack[-1]}>")
                i += 1
                continue
            if st == _EMPTY or st == _ETAG_END:
                if st == _ETAG_END:
                    i = _WS_RUN.match(chunk, i).end()
                    if i >= n:
                        break
                if chunk[i] != ">":
                    self.pos = base + i
                    return self.fail(base + i, "'>' expected to end the tag")
                self.stack.pop()
                if self.stack:
                    st = CONTENT
                    self._count = 0
                else:
                    self.done = True
                    st = OUT
                i += 1
                continue
            if st == _ATTR_EQ or st == _ATTR_Q:
                i = _WS_RUN.match(chunk, i).end()
                if i >= n:
                    break
                c = chunk[i]
                if st == _ATTR_EQ:
                    if c != "=":
                        self.pos = base + i
                        return self.fail(base + i, "'=' expected after the attribute name")
                    st = _ATTR_Q
                else:
                    if c != '"' and c != "'":
                        self.pos = base + i
                        return self.fail(base + i, "an attribute value must be in quotes")
                    self._quote = c
                    self._aval = []
                    self._cr = False
                    st = _ATTR_VAL
                i += 1
                continue
            if st == _ENAME:
                m = NAME_RUN.match(chunk, i)
                j = m.end()
                if j > i:
                    self._parts.append(chunk[i:j])
                    sofar = "".join(self._parts)
                    self._parts = [sofar]
                    if not any(p.startswith(sofar) for p in _PREDEFINED):
                        self.pos = base + i
                        return self.fail(
                            base + i,
                            "an entity XML does not predefine (only &lt; &gt; &amp; &apos; &quot;)",
                            "xml.entity",
                        )
                    i = j
                    if i >= n:
                        break
                if chunk[i] != ";" or "".join(self._parts) not in _PREDEFINED:
                    self.pos = base + i
                    return self.fail(base + i, "an entity reference must end with ';'", "xml.entity")
                if self.collect:
                    self._decoded(_PREDEFINED_CHAR["".join(self._parts)])
                st = self._ret
                self._count = 0
                i += 1
                continue
            if st == _REF:
                c = chunk[i]
                if c == "#":
                    st = _CREF
                elif NAME_START.match(c) and any(p.startswith(c) for p in _PREDEFINED):
                    self._parts = [c]
                    st = _ENAME
                else:
                    self.pos = base + i
                    if NAME_START.match(c):
                        return self.fail(
                            base + i - 1,
                            "an entity XML does not predefine (only &lt; &gt; &amp; &apos; &quot;)",
                            "xml.entity",
                        )
                    return self.fail(
                        base + i - 1, "'&' starts no reference (a literal '&' is written &amp;)", "xml.entity"
                    )
                i += 1
                continue
            if st == OUT:
                m = _WS_RUN.match(chunk, i)
                i = m.end()
                if i >= n:
                    break
                c = chunk[i]
                if c == "<":
                    self._markup = base + i
                    st = _LT
                    i += 1
                    continue
                if c == "\ufeff" and base + i == 0:
                    self.bom = True
                    i += 1
                    continue
                self.pos = base + i
                if self.done:
                    return self.fail(base + i, "text after the root element's end", "xml.text_after_root")
                return self.fail(base + i, "text before the root element", "xml.text_before_root")
            if st == _CREF:
                c = chunk[i]
                self._value = 0
                self._count = 0
                if c == "x":
                    st = _HEXREF
                elif "0" <= c <= "9":
                    self._value = ord(c) - 48
                    self._count = 1
                    st = _DEC
                else:
                    self.pos = base + i
                    return self.fail(base + i, "a character reference needs digits after '&#'", "xml.entity")
                i += 1
                continue
            if st == _DEC or st == _HEXREF:
                m = (_DIGITS if st == _DEC else _HEX).match(chunk, i)
                j = m.end()
                if j > i:
                    run = chunk[i:j] if self._value else chunk[i:j].lstrip("0")
                    radix = 10 if st == _DEC else 16
                    if len(run) > 8 or (run and self._value * radix ** len(run) + int(run, radix) > 0x10FFFF):
                        self.pos = base + i
                        return self.fail(base + i, "a character reference beyond U+10FFFF", "xml.entity")
                    if run:
                        self._value = self._value * radix ** len(run) + int(run, radix)
                    self._count += j - i
                    i = j
                    if i >= n:
                        break
                if chunk[i] != ";" or not self._count or not is_xml_char(self._value):
                    self.pos = base + i
                    return self.fail(
                        base + i,
                        "a character reference to a character XML does not allow, or without ';'",
                        "xml.entity",
                    )
                if self.collect:
                    self._decoded(chr(self._value))
                st = self._ret
                self._count = 0
                i += 1
                continue
            if st == _COMMENT:
                j = _COMMENT_RUN.match(chunk, i).end()
                if j > i:
                    self._count = 0
                    i = j
                    if i >= n:
                        break
                self._count += 1  # chunk[i] is '-'
                if self._count == 2:
                    st = _COMMENT_DD
                i += 1
                continue
            if st == _COMMENT_DD:
                if chunk[i] != ">":
                    self.pos = base + i
                    return self.fail(base + i - 2, "'--' is not allowed inside a comment")
                st = self._ctx()
                self._count = 0
                i += 1
                continue
            if st == _CDATA:
                # (the ']' run is held back until what follows tells whether it ends the section)
                j = _CDATA_RUN.match(chunk, i).end()
                if j > i:
                    if self.collect:
                        self.raw("]" * self._count + chunk[i:j], self._text)
                    self._count = 0
                    i = j
                    if i >= n:
                        break
                c = chunk[i]
                if c == "]":
                    self._count += 1
                elif c == ">" and self._count >= 2:
                    if self.collect and self._count > 2:
                        self.raw("]" * (self._count - 2), self._text)
                    st = CONTENT
                    self._count = 0
                else:
                    if self.collect:
                        self.raw("]" * self._count + c, self._text)
                    self._count = 0
                i += 1
                continue
            if st == _PI_BODY:
                i = _PI_RUN.match(chunk, i).end()
                if i >= n:
                    break
                st = _PI_Q
                i += 1
                continue
            if st == _PI_Q:
                c = chunk[i]
                if c == ">":
                    st = self._ctx()
                    self._count = 0
                elif c != "?":
                    st = _PI_BODY
                i += 1
                continue
            if st == _BANG:
                self._lit += chunk[i]
                lit = self._lit
                options = []
                if self.stack:
                    options = ["--", "[CDATA["]
                else:
                    options = ["--"]
                    if not self.root_seen and not self.doctype_seen:
                        options.append("DOCTYPE")
                if lit in options:
                    if lit == "--":
                        if self.collect and self._text:
                            self.settle()
                        st = _COMMENT
                        self._count = 0
                    elif lit == "[CDATA[":
                        st = _CDATA
                        self._count = 0
                    else:
                        st = _DT_SP
                        self._space = False
                        self.doctype_seen = True
                elif not any(o.startswith(lit) for o in options):
                    self.pos = base + i
                    if "DOCTYPE".startswith(lit):
                        return self.fail(
                            self._markup, "a DOCTYPE is allowed only once, before the root element", "xml.doctype"
                        )
                    if "[CDATA[".startswith(lit):
                        return self.fail(self._markup, "CDATA is allowed only inside the root element")
                    return self.fail(base + i, "'<!' starts no comment, CDATA section or DOCTYPE")
                i += 1
                continue
            if st == _DT_SP:
                j = _WS_RUN.match(chunk, i).end()
                if j > i:
                    self._space = True
                    i = j
                    if i >= n:
                        break
                if not self._space or not NAME_START.match(chunk[i]):
                    self.pos = base + i
                    return self.fail(base + i, "a DOCTYPE needs a name after white space", "xml.doctype")
                self._parts = [chunk[i]]
                st = _DT_NAME
                i += 1
                continue
            if st == _DT_AFTER:
                i = _WS_RUN.match(chunk, i).end()
                if i >= n:
                    break
                if chunk[i] != ">":
                    self.pos = base + i
                    return self.fail(
                        base + i,
                        "a DOCTYPE with an internal subset or an external DTD is refused "
                        "(entity declarations and external loads are not allowed in a reply)",
                        "xml.doctype",
                    )
                st = OUT
                i += 1
                continue
            raise AssertionError(f"unknown scanner state {st}")  # pragma: no cover
        self.st = st
        self.pos = base + n
        return True
