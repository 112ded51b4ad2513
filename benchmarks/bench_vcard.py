"""vCard: formatbook's check, heal and strict stream against one ``vobject.readComponents``.

An address book of generated cards (3.0 and 4.0, names, ORG, TITLE, EMAIL, TEL, ADR,
BDAY, a folded NOTE) at about 100 KB and 1 MB, valid (CRLF) and as a model writes it (LF
line breaks, no VERSION, no N, unescaped commas, ISO dates in 4.0, bare ``TEL;CELL``).
Prints the best of several runs (CPU time) and the ratio to one vobject read of the valid
book (the work vobject alone does, without any check).

    python benchmarks/bench_vcard.py [--runs 5] [--sizes 100KB,1MB]
"""

from __future__ import annotations

import argparse
import random

import vobject
from timing import Row, best, fresh, interleaved

from formatbook_core import check, get_format
from formatbook_vcard.contentlines import fold

VCARD = get_format("vcard")
GIVEN = ["Ada", "Grace", "Alan", "Marie", "Zoë", "Li", "Søren", "Amélie", "John", "Chiara"]
FAMILY = ["Lovelace", "Hopper", "Turing", "Curie", "Müller", "Wei", "Kierkegaard", "Poulain", "Smith", "Rossi"]


def card(rng: random.Random, i: int, model_style: bool) -> str:
    given, family = rng.choice(GIVEN), rng.choice(FAMILY)
    four = i % 2 == 0
    note = f"Met at conference {i}, talked about engines, compilers and notes; follow up in spring. " * 2
    lines = ["BEGIN:VCARD"]
    if not model_style:
        lines.append("VERSION:4.0" if four else "VERSION:3.0")
    lines += [f"FN:{given} {family}"]
    if not model_style or four:
        lines.append(f"N:{family};{given};;;")
    org = f"Analytical Engines {i}, Ltd."
    lines.append("ORG:" + (org if model_style else org.replace(",", "\\,")) + ";Research")
    lines.append("TITLE:Chief Mathematician")
    lines.append(f"EMAIL;TYPE=work:{given.lower()}.{i}@example.org".encode("ascii", "ignore").decode())
    lines.append(("TEL;CELL:" if model_style else "TEL;TYPE=CELL:") + f"+44 20 7946 {i % 10000:04d}")
    lines.append(f"ADR;TYPE=work:;;{i} St James's Square;London;;SW1Y 4JH;United Kingdom")
    bday = f"19{i % 90 + 10:02d}-0{i % 9 + 1}-1{i % 9}"
    lines.append("BDAY:" + (bday.replace("-", "") if four and not model_style else bday))
    if four:
        lines.append("KIND:individual")
    text = note if model_style else note.replace(",", "\\,").replace(";", "\\;" if not four else ";")
    lines.append("NOTE:" + text.strip())
    lines.append("END:VCARD")
    if model_style:
        return "\n".join(lines) + "\n"
    return "".join(fold(line) + "\r\n" for line in lines)


def book(size: int, model_style: bool) -> str:
    rng = random.Random(7)
    parts: list[str] = []
    total = i = 0
    while total < size:
        parts.append(card(rng, i, model_style))
        total += len(parts[-1])
        i += 1
    return "".join(parts)


def best_fresh(fn, text: str, runs: int) -> float:
    """The least CPU time of ``runs`` calls of ``fn`` on a fresh copy of ``text`` (a new
    string object each time: the plugin keeps the last analysis of a string once)."""
    return best(lambda: fn(fresh(text)), runs)


def stream(text: str, chunk: int) -> None:
    checker = VCARD.stream(strict=True)
    for i in range(0, len(text), chunk):
        if not checker.feed(text[i : i + chunk]):
            raise AssertionError("the strict checker rejected a valid book")
    if not checker.finish():
        raise AssertionError("the strict checker's finish rejected a valid book")


def bench_rows(quick: bool = True, sizes: tuple[int, ...] | None = None) -> list[Row]:
    """The table's rows: ``check`` of a valid book (goal ≤ 2× one vobject read) and
    ``heal`` of the model-style book (goal ≤ 4×), interleaved with vobject."""
    out = []
    for size in sizes or ((100_000,) if quick else (100_000, 1_000_000)):
        valid, broken = book(size, model_style=False), book(size, model_style=True)
        t = interleaved(
            {
                "is_valid": lambda valid=valid: VCARD.is_valid(fresh(valid)),
                "valid": lambda valid=valid: check(fresh(valid), "EXPECT VCARD"),
                "heal": lambda broken=broken: VCARD.heal(fresh(broken)),
                "peer": lambda valid=valid: list(vobject.readComponents(valid)),
            },
            3 if quick else 5 if size > 10_000 else 50,
        )
        out.append(Row("vCard is_valid", len(valid), t["is_valid"], "vobject", t["peer"], goal=2))
        out.append(Row("vCard check()", len(valid), t["valid"], "vobject", t["peer"], goal=2))
        out.append(Row("vCard heal", len(broken), t["heal"], "vobject", t["peer"], goal=4))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--runs", type=int, default=5)
    parser.add_argument("--sizes", default="100KB,1MB")
    args = parser.parse_args()
    sizes = {"10KB": 10_000, "100KB": 100_000, "1MB": 1_000_000}
    print(f"vCard, best of {args.runs} runs (CPU time); ratio = time / one vobject.readComponents of the valid book\n")
    print(
        f"{'size':>10} {'cards':>6}  {'vobject':>9}  {'check':>9} {'ratio':>6}  {'heal':>9} {'ratio':>6}  "
        f"{'stream64':>9} {'ratio':>6}  {'stream4':>9} {'ratio':>6}"
    )
    for name in args.sizes.split(","):
        valid = book(sizes[name], model_style=False)
        broken = book(sizes[name], model_style=True)
        assert VCARD.is_valid(valid), VCARD.validate(valid)[:3]
        healed = VCARD.heal(broken)
        assert VCARD.is_valid(healed.text)
        cards = valid.count("BEGIN:VCARD")
        base = best_fresh(lambda t: list(vobject.readComponents(t)), valid, args.runs)
        checked = best_fresh(lambda t: check(t, "EXPECT VCARD"), valid, args.runs)
        heal = best_fresh(lambda t: VCARD.heal(t), broken, args.runs)
        s64 = best_fresh(lambda t: stream(t, 64), valid, args.runs)
        s4 = best_fresh(lambda t: stream(t, 4), valid, max(1, args.runs // 2))
        print(
            f"{len(valid):>10,} {cards:>6}  {base * 1e3:>7.1f}ms  {checked * 1e3:>7.1f}ms {checked / base:>5.2f}x  "
            f"{heal * 1e3:>7.1f}ms {heal / base:>5.2f}x  {s64 * 1e3:>7.1f}ms {s64 / base:>5.2f}x  "
            f"{s4 * 1e3:>7.1f}ms {s4 / base:>5.2f}x"
        )
    print("\ncheck and stream finish include one vobject read (the parsed value); heal reads the repaired text once.")


if __name__ == "__main__":
    main()
