"""An item or key out of line with its siblings: moved onto their column, its children
with it. Driven by the line scanner of :mod:`formatbook_yaml.lines`: each round fixes the
line it stops at, at most :data:`MAX_ROUNDS` rounds (each one linear)."""

from __future__ import annotations

from ..lines import scan
from ..syntax import scanner_options
from .state import AFTER_INDENTATION, SNAPPED, Healing

MAX_ROUNDS = 64


def repair_indentation(h: Healing) -> None:
    for _ in range(MAX_ROUNDS):
        scanner = scan(h.text, **scanner_options(h.options, h.max_depth))
        err = scanner.error
        if err is None or err.code not in SNAPPED:
            break
        tail = h.text[err.position :]
        if "\n" not in tail.rstrip("\n"):
            last = h.text.rstrip("\n").rsplit("\n", 1)[-1].strip()
            if ":" not in last and not last.startswith("-"):
                break  # a last line with no key: a cut-off key, the truncation step's business
        if not _snap(h, err.position):
            break
    h.reread()


def _snap(h: Healing, position: int) -> bool:
    text = h.text
    lines = text.split("\n")
    starts = []
    pos = 0
    for line in lines:
        starts.append(pos)
        pos += len(line) + 1
    row = max(0, text.count("\n", 0, min(position, len(text))))
    line = lines[row]
    ind = len(line) - len(line.lstrip(" "))
    if not line.strip():
        return False
    previous = [
        (len(x) - len(x.lstrip(" ")), x.lstrip(" ").startswith("- "))
        for x in lines[:row]
        if x.strip() and not x.lstrip().startswith("#")
    ]
    if not previous:
        return False
    item = line.lstrip(" ").startswith("- ")
    indents = sorted({p for p, _ in previous})
    last_ind, last_item = previous[-1]
    # the sibling column: the previous line's when it is the same kind of entry,
    # else the nearest column an earlier line used
    target = (
        last_ind if last_item == item and abs(last_ind - ind) <= 2 else min(indents, key=lambda c: (abs(c - ind), -c))
    )
    if target == ind:
        return False
    delta = target - ind
    edits = [(starts[row], starts[row] + ind, " " * target)]
    for k in range(row + 1, len(lines)):
        child = lines[k]
        if child.strip() and len(child) - len(child.lstrip(" ")) <= ind:
            break
        if child.strip():
            c_ind = len(child) - len(child.lstrip(" "))
            edits.append((starts[k], starts[k] + c_ind, " " * max(0, c_ind + delta)))
    h.repair(
        "indentation", f"moved a line indented {ind} onto its siblings' column {target}", starts[row], starts[row] + ind
    )
    h.edit(edits, ahead=AFTER_INDENTATION)
    return True
