"""The component tree of an iCalendar text, read from its content lines with the spans
of every line kept (so that a violation or a repair points into the text).

``read_tree`` never raises: a line that is no content line, an ``END`` that closes the
wrong component or nothing, a property outside every component and a component left
open are reported as :class:`Problem` values in the order met.
"""

from __future__ import annotations

import re
from dataclasses import InitVar, dataclass, field

from .contentlines import ContentLine, LineError, LogicalLine, split, unfold


@dataclass
class Prop:
    """A property line: its parts and the span of its logical line."""

    line: ContentLine
    start: int
    end: int

    @property
    def name(self) -> str:
        return self.line.name


#: the levels a component's label names (see ``Component.label``)
LABEL_LEVELS = 6


class Place:
    """Where a component sits: its ``name`` and ``index`` and its ``parent``'s place, a
    chain to the root that holds no component (components linked to their parents and
    children both ways would be cycles, freed only by the collector, not when the tree is
    dropped). The path is built from the chain when first asked for (a violation's
    ``path``): a tuple of the whole path made for each component read took 8 MB for a valid
    calendar of 20 KB nested 998 deep (issue 30); only a component with a violation needs
    one."""

    __slots__ = ("_path", "head", "index", "level", "name", "parent")

    def __init__(self, name: str, index: int, parent: Place | None) -> None:
        self.name = name
        self.index = index
        self.parent = parent
        #: how many components hold it, itself included (1 at the top)
        self.level: int = 1 if parent is None else parent.level + 1
        #: the first two levels of its path, shared with its parent's past them (the label's)
        self.head: tuple[str | int, ...] = (
            (name, index) if parent is None else parent.head if parent.level >= 2 else (*parent.head, name, index)
        )
        self._path: tuple[str | int, ...] | None = None

    @property
    def path(self) -> tuple[str | int, ...]:
        """``("VCALENDAR", 0, "VEVENT", 1)``: the names and indexes from the root to it
        (built once, with its ancestors' on the way: a loop, not a recursion per level)."""
        if self._path is not None:
            return self._path
        chain: list[Place] = []
        place: Place | None = self
        while place is not None and place._path is None:
            chain.append(place)
            place = place.parent
        path = place._path if place is not None and place._path is not None else ()
        for place in reversed(chain):  # the last is this one
            path = place._path = (*path, place.name, place.index)
        return path

    def last(self, levels: int) -> tuple[str | int, ...]:
        """The path's last ``levels`` levels (``levels`` at most the place's)."""
        steps: list[str | int] = []
        place: Place | None = self
        for _ in range(levels):
            assert place is not None
            steps += (place.index, place.name)
            place = place.parent
        return tuple(reversed(steps))


@dataclass
class Component:
    """``BEGIN:NAME`` … ``END:NAME``: ``index`` counts the components of that name under
    the same parent (0 for the first), ``path`` leads to it from the root (see
    :class:`Place`; ``parent``: the component it is in, ``None`` at the top)."""

    name: str
    index: int
    start: int
    end: int = -1  # the end of its END line; -1 while open
    props: list[Prop] = field(default_factory=list)
    children: list[Component] = field(default_factory=list)
    parent: InitVar[Component | None] = None
    place: Place = field(init=False, repr=False, compare=False)

    def __post_init__(self, parent: Component | None) -> None:
        self.place = Place(self.name, self.index, None if parent is None else parent.place)

    @property
    def level(self) -> int:
        """How many components hold it, itself included (1 at the top)."""
        return self.place.level

    @property
    def top(self) -> str:
        """The name of the top-level component it is in (its own at the top)."""
        return str(self.place.head[0])

    @property
    def parent_name(self) -> str | None:
        """The name of the component it is in (``None`` at the top)."""
        parent = self.place.parent
        return None if parent is None else parent.name

    @property
    def path(self) -> tuple[str | int, ...]:
        """``("VCALENDAR", 0, "VEVENT", 1)``: the names and indexes from the root to it."""
        return self.place.path

    @property
    def label(self) -> str:
        """``VEVENT[1]`` (in ``VCALENDAR[0]``). Past ``LABEL_LEVELS`` levels the middle
        ones are counted, not named (``… 994 levels``): every open component of a reply
        nested 1,000 deep is reported, and full labels made 7 MB of messages of 32 KB.
        Built from at most ``LABEL_LEVELS`` levels, whatever the depth."""
        place = self.place
        levels = place.level
        cut = levels > LABEL_LEVELS
        path = (*place.head, *place.last(LABEL_LEVELS - 2)) if cut else place.path
        parts = [f"{path[2 * i]}[{path[2 * i + 1]}]" for i in range(len(path) // 2)]
        own = parts.pop()
        if not parts:
            return own
        if cut:
            hidden = levels - LABEL_LEVELS
            parts.insert(2, f"… {hidden} level{'s' if hidden > 1 else ''}")
        return f"{own} in {' > '.join(parts)}"

    def get(self, name: str) -> list[Prop]:
        return [p for p in self.props if p.line.name == name]

    def walk(self):
        stack = [self]
        while stack:
            comp = stack.pop()
            yield comp
            stack.extend(reversed(comp.children))


@dataclass(frozen=True)
class Problem:
    """Something that makes the text no iCalendar stream: ``kind`` is ``"syntax"``,
    ``"structure"`` or ``"too_deep"`` (then the only problem: the text was read no
    further)."""

    kind: str
    message: str
    start: int
    end: int


@dataclass
class Tree:
    roots: list[Component]
    lines: list[LogicalLine]
    problems: list[Problem]


def component_name(line: ContentLine) -> str:
    """The component a ``BEGIN``/``END`` line names (upper case, blanks around it ignored
    only for reporting: a name must be a token)."""
    return line.value.upper()


_TOKEN = re.compile("[A-Za-z0-9-]+")


def is_token(text: str) -> bool:
    """``text`` is a name (of a component or property): ASCII letters, digits and ``-``."""
    return _TOKEN.fullmatch(text) is not None


def read_tree(text: str, max_depth: int = 1000) -> Tree:
    """The components of ``text`` and the problems met while reading it; a ``BEGIN``
    nesting past ``max_depth`` levels ends the reading with that one problem."""
    lines = unfold(text)
    roots: list[Component] = []
    problems: list[Problem] = []
    stack: list[Component] = []
    # how many components of each name each open component (and the top level) holds so
    # far: a BEGIN's index is one look-up, not a count of its earlier siblings (linear)
    root_counts: dict[str, int] = {}
    counts: list[dict[str, int]] = []
    for ll in lines:
        parsed = split(ll.text)
        if isinstance(parsed, LineError):
            problems.append(
                Problem("syntax", f"line {ll.text[:40]!r} is no content line: {parsed.message}", ll.start, ll.end)
            )
            continue
        if parsed.name == "BEGIN":
            name = component_name(parsed)
            if not is_token(name):
                problems.append(Problem("syntax", f"BEGIN names no component: {parsed.value!r}", ll.start, ll.end))
                continue
            if len(stack) >= max_depth:
                # refused here, the rest unread: the one problem (issue 30: each BEGIN past
                # the limit was a problem of its own, and the 1,000 open components each one
                # more, megabytes of violations for the same verdict)
                deep = Problem("too_deep", f"components nested deeper than {max_depth} levels", ll.start, ll.end)
                return Tree(roots, lines, [deep])
            siblings = stack[-1].children if stack else roots
            held = counts[-1] if counts else root_counts
            index = held.get(name, 0)
            held[name] = index + 1
            comp = Component(name, index, ll.start, parent=stack[-1] if stack else None)
            siblings.append(comp)
            stack.append(comp)
            counts.append({})
        elif parsed.name == "END":
            name = component_name(parsed)
            if not stack:
                problems.append(Problem("structure", f"END:{parsed.value} closes no open component", ll.start, ll.end))
            elif stack[-1].name != name:
                problems.append(
                    Problem(
                        "structure",
                        f"END:{parsed.value} where END:{stack[-1].name} was expected ({stack[-1].label} is open)",
                        ll.start,
                        ll.end,
                    )
                )
            else:
                stack.pop().end = ll.end
                counts.pop()
        elif not stack:
            problems.append(Problem("structure", f"property {parsed.name} outside every component", ll.start, ll.end))
        else:
            stack[-1].props.append(Prop(parsed, ll.start, ll.end))
    for comp in reversed(stack):
        problems.append(
            Problem("structure", f"{comp.label} is never closed (no END:{comp.name})", comp.start, len(text))
        )
    return Tree(roots, lines, problems)
