"""Hugging Face ``transformers`` adapters: a ``LogitsProcessor`` that keeps a reply within its
expectations, and a candidate model for :func:`~formatbook_core.generation.generate`.

``ExpectationsLogitsProcessor(tokenizer, expectations, top_k=...)`` goes in
``model.generate(..., logits_processor=LogitsProcessorList([processor]))``. At each step it
looks at the ``top_k`` most likely tokens, best first, and keeps those after which the reply
can still pass (the strict checker and every MAX limit, through a copy of a
:class:`~formatbook_core.streaming.StreamGuard` per token); every other token's score
becomes ``-inf``. The end-of-sequence token is kept only when the reply then passes
``check()`` (MIN counts, a complete document, the schema). When none of the top-k fits, the
rest of the vocabulary is tried in order of score until one does; when no token at all
fits, only the end-of-sequence token is left and ``errors[row]`` says why: ``generate``
cannot undo a token, so a token that leads only to a dead end a few steps later (a comma
when the word limit leaves no room for another value) is the processor's weak spot.
``lookahead=True`` keeps a token only when some token of the vocabulary can follow it (or
the reply may end after it): a dead end one step away is avoided, at a cost of up to the
vocabulary's size in checks per refused token (for small vocabularies and tests). For
deeper dead ends use :class:`HFCandidates` with :func:`generate`, which backtracks.

``max_new_tokens`` (give it the value ``generate`` gets) keeps the reply able to close
before the budget ends: a token is kept only when the format checker's shortest closing
after it (``StreamGuard.closing``: for JSON with a schema, the open token completed, the
required members still missing, the brackets) has no more characters than tokens are left
(a vocabulary spells each character alone), and, with a MAX count, when the guard takes
that closing. So a reply is never cut off with a required member missing, and a word limit
never leaves only more digits to write. Where the guard cannot tell (a held think tag), the
last closing it told and a margin of 16 must fit.

Each token is decoded *against the token before it*, as vLLM's incremental detokenizer
does: the difference between decoding with and without it is the token's text, so
byte-level pieces, merged tokens and a leading-space marker come out as the text they add.
As every text kept ends on a whole character, that text is decoded once per token (after
a one-character anchor token) and kept; the first 32 lookups are compared with decoding in
context, and a decoder that disagrees is decoded in context from then on. A token that ends inside a UTF-8 character (its text would end with
U+FFFD) is masked: its character cannot be checked yet; a vocabulary with merged tokens for
the characters it writes (byte-level BPE merges the frequent ones) writes them whole.
Special tokens other than the end of sequence decode to nothing and are masked.

torch and transformers are the optional extra ``hf`` (``pip install 'formatbook[hf]'``,
``torch==2.13.0``); they are imported on first use only.
"""

from __future__ import annotations

from typing import Any

from ..expectations import Expectations, as_expectations
from ..pipeline import check
from ..results import CheckResult
from ..streaming import StreamGuard
from .model import END, Candidate

_NEG_INF = float("-inf")
_UNSEEN = object()


def _decode(tokenizer: Any, ids: list[int]) -> str:
    if not ids:
        return ""
    return str(tokenizer.decode(ids, skip_special_tokens=True, clean_up_tokenization_spaces=False))


def _added(tokenizer: Any, before: list[int], token: int) -> str | None:
    """The text ``token`` adds after the tokens ``before``; ``None`` when it ends inside a
    character or adds nothing."""
    head = _decode(tokenizer, before)
    new = _decode(tokenizer, [*before, token])
    if not new or new.endswith("\ufffd") or not new.startswith(head):
        return None
    return new[len(head) :] or None


class _Pieces:
    """The text each token adds to a reply, decoded once per token.

    A token's text is decoded against the token before it, as vLLM's incremental
    detokenizer does (merges, byte-level pieces and a leading-space marker come out as the
    text they add). Every text the processor keeps ends on a whole character, so what a
    token adds does not depend on which whole token precedes it: it is decoded once, after
    a plain one-character token (the anchor), and kept. The first ``CHECKS`` lookups are
    compared with the decoding against the real token before; a tokenizer whose decoder
    looks further back (none of transformers' do) is then decoded in context every time.
    """

    CHECKS = 32

    def __init__(self, tokenizer: Any):
        self.tokenizer = tokenizer
        self.texts: dict[int, str | None] = {}
        self.anchor = self._find_anchor(tokenizer)
        self.checks = self.CHECKS

    @staticmethod
    def _find_anchor(tokenizer: Any) -> int | None:
        for probe in ("a", "x", "0", "."):
            ids = tokenizer(probe, add_special_tokens=False).input_ids
            if len(ids) == 1 and _decode(tokenizer, ids) == probe:
                return int(ids[0])
        return None

    def after(self, prev: int | None, token: int) -> str | None:
        """The text ``token`` adds after ``prev`` (``None``: at the reply's start, where
        the token is decoded alone)."""
        if prev is None or self.anchor is None:
            return _added(self.tokenizer, [] if prev is None else [prev], token)
        text = self.texts.get(token, _UNSEEN)
        if text is _UNSEEN:
            text = self.texts[token] = _added(self.tokenizer, [self.anchor], token)
        if self.checks > 0:
            self.checks -= 1
            real = _added(self.tokenizer, [prev], token)
            if real != text:
                self.anchor = None  # context matters to this decoder: decode in context from now on
                return real
        return text  # type: ignore[return-value]


class _Row:
    """One row's reply so far: the guard fed with it, its last token and length."""

    __slots__ = ("guard", "last", "length", "end_after", "need")

    def __init__(self, guard: StreamGuard, last: int | None, length: int, end_after: int, need: int = 1):
        self.guard = guard
        self.last = last  # the last token taken (None before the first)
        self.length = length  # characters written
        self.need = need  # the length of the last closing the guard could tell
        # a check() that refused the end is not run again until the reply has grown by an
        # eighth: a model that offers the end at every step costs O(n log n) checks
        self.end_after = end_after


class ExpectationsLogitsProcessor:
    """A ``transformers`` logits processor that masks the top-k tokens the expectations
    refuse (see the module docstring). ``eos_token_id`` defaults to the tokenizer's.
    ``max_new_tokens`` (the value given to ``generate``) lets it close the reply in time.
    ``texts[row]`` is what each row has written; ``errors[row]`` is ``None`` or why the row
    was stopped; :meth:`finish` takes the last token ``generate`` chose and gives each
    row's ``check()``. One processor serves one ``generate`` call (it reads the prompt's
    length from its first call, and one new token per row at each call after it)."""

    def __init__(
        self,
        tokenizer: Any,
        expectations: Expectations | str | None = None,
        *,
        top_k: int = 16,
        eos_token_id: int | None = None,
        lookahead: bool = False,
        max_new_tokens: int | None = None,
    ):
        if top_k < 1:
            raise ValueError("top_k is 1 or more tokens")
        if max_new_tokens is not None and max_new_tokens < 1:
            raise ValueError("max_new_tokens is 1 or more tokens")
        self.tokenizer = tokenizer
        self.expectations = as_expectations(expectations)
        self.top_k = top_k
        self.eos_token_id = tokenizer.eos_token_id if eos_token_id is None else eos_token_id
        self.lookahead = lookahead
        self.max_new_tokens = max_new_tokens
        # a MAX count the shortest closing may break: each closing is fed to a copy
        self._counted = any(count.upper is not None for count in self.expectations.counts)
        self._pieces = _Pieces(tokenizer)
        self._order: list[int] = []  # this step's tokens by score: the lookahead tries them in order
        self._prompt_length: int | None = None
        self._seen = 0  # the length of the sequences at the last call
        self._rows: list[_Row] = []
        self._allowed: list[dict[int, _Row]] = []
        self._ended: list[bool] = []
        self.errors: list[str | None] = []
        self.rejected = 0  # tokens masked among those looked at

    @property
    def texts(self) -> list[str]:
        return [row.guard.text for row in self._rows]

    def result(self, row: int = 0) -> CheckResult:
        """``check()`` of what row ``row`` has written (call :meth:`finish` first)."""
        return check(self._rows[row].guard.text, self.expectations)

    def finish(self, sequences: Any) -> list[CheckResult]:
        """Take the last token of each row of ``sequences`` (what ``generate`` returned: the
        processor never sees the token chosen at the last step) and ``check()`` each reply."""
        if self._prompt_length is not None and sequences.shape[1] > self._seen:
            for i in range(len(self._rows)):
                if not self._ended[i]:
                    self._take(i, int(sequences[i, self._seen]))
            self._seen += 1
        return [self.result(i) for i in range(len(self._rows))]

    def __call__(self, input_ids: Any, scores: Any) -> Any:
        import torch  # noqa: PLC0415 - the optional extra, imported on first use

        batch, length = input_ids.shape
        if self._prompt_length is None:
            self._prompt_length = length
            self._rows = [_Row(StreamGuard(self.expectations, strict=True), None, 0, 0) for _ in range(batch)]
            self._allowed = [{} for _ in range(batch)]
            self._ended = [False] * batch
            self.errors = [None] * batch
        self._seen = length
        # the tokens left after this one: a reply must be able to close within them
        room = None if self.max_new_tokens is None else self.max_new_tokens - (length - self._prompt_length) - 1
        masked = torch.full_like(scores, _NEG_INF)
        for i in range(batch):
            if length > self._prompt_length and not self._ended[i]:
                self._take(i, int(input_ids[i, -1]))
            if self._ended[i]:
                masked[i] = scores[i]  # a finished row: generate pads it
                continue
            keep = self._choose(i, scores[i], room)
            if keep:
                index = torch.tensor(keep, dtype=torch.long, device=scores.device)
                masked[i, index] = scores[i, index]
        return masked

    def _take(self, i: int, token: int) -> None:
        """Row ``i`` took ``token`` (one this processor allowed, unless another forced it)."""
        if token == self.eos_token_id:
            self._ended[i] = True
            return
        state = self._allowed[i].get(token)
        if state is None:
            state = self._after(self._rows[i], token)
            if state is None:
                self.errors[i] = f"token {token} was taken though the expectations refuse it"
                self._ended[i] = True
                return
        self._rows[i] = state

    def _after(self, row: _Row, token: int, dead: dict[str, bool] | None = None) -> _Row | None:
        """The state after ``token``, ``None`` when the guard refuses its text. ``dead``
        (first characters known to be refused or not, this step) skips a token whose first
        character alone is refused: no text that begins with it can pass either."""
        piece = self._pieces.after(row.last, token)
        if piece is None:
            return None
        if dead is not None and dead.get(piece[0]):
            return None
        guard = row.guard.copy()
        if guard.feed(piece):
            return _Row(guard, token, row.length + len(piece), row.end_after, row.need)
        if dead is not None and piece[0] not in dead:
            dead[piece[0]] = len(piece) == 1 or not row.guard.copy().feed(piece[0])
        return None

    def _ends(self, row: _Row) -> bool:
        """Whether the reply may end now (``check()`` passes)."""
        guard = row.guard
        if guard.closing() or row.length < row.end_after or not guard.can_end():
            return False  # a closing still to write: the checker says no at O(depth)
        if check(guard.text, self.expectations).ok:
            return True
        row.end_after = row.length + max(1, row.length // 8)
        return False

    def _choose(self, i: int, row_scores: Any, room: int | None) -> list[int]:
        """The tokens row ``i`` may take next, among the best ones."""
        import torch  # noqa: PLC0415

        row = self._rows[i]
        allowed: dict[int, _Row] = {}
        keep: list[int] = []
        k = min(self.top_k, row_scores.shape[-1])
        if self.lookahead:
            self._order = torch.argsort(row_scores, descending=True).tolist()
        order = torch.topk(row_scores, k).indices.tolist()
        self._look(row, order, allowed, keep, room, None)
        if not keep:  # none of the top-k fits: the rest, best first, until one does
            rest = self._order[k:] if self.lookahead else torch.argsort(row_scores, descending=True).tolist()[k:]
            dead: dict[str, bool] = {}
            for start in range(0, len(rest), 64):
                if self._look(row, rest[start : start + 64], allowed, keep, room, dead):
                    break
        if not keep:
            within = "" if room is None else f" and close within the {room + 1} tokens left"
            self.errors[i] = f"no token can continue the reply within its expectations{within}"
            if self.eos_token_id is not None:
                keep = [self.eos_token_id]
        self._allowed[i] = allowed
        return keep

    def _look(
        self,
        row: _Row,
        tokens: list[int],
        allowed: dict[int, _Row],
        keep: list[int],
        room: int | None,
        dead: dict[str, bool] | None,
    ) -> bool:
        for token in tokens:
            if token == self.eos_token_id:
                if self._ends(row):
                    keep.append(token)
                else:
                    self.rejected += 1
                continue
            state = self._after(row, token, dead)
            if (
                state is None
                or not _closes_within(state, room, self._counted)
                or (self.lookahead and not self._viable(state))
            ):
                self.rejected += 1
                continue
            allowed[token] = state
            keep.append(token)
        return bool(keep)

    def _viable(self, state: _Row) -> bool:
        """Lookahead: some token continues ``state``, or the reply may end there."""
        if self._ends(state):
            return True
        return any(t != self.eos_token_id and self._after(state, t) is not None for t in self._order)


#: tokens kept in hand for text the guard holds back (the start of a think tag, white
#: space), whose closing it cannot tell until the text resolves: at most THINK_OPEN_MAX
_UNKNOWN_MARGIN = 16
#: tokens beyond twice the last closing told at which the closing is not asked again
#: (a token that lengthens the closing by more is one whose value needs that much)
_FAR = 64


def _closes_within(state: _Row, room: int | None, counted: bool) -> bool:
    """Whether the reply can still close in ``room`` tokens: as many as the characters of
    the checker's shortest closing (a vocabulary spells each character alone), and the
    guard takes that closing (a MAX count the closing would break: no ending fits, as a
    number that settles as one word too many). Where the guard cannot tell, the last
    closing it told plus a margin must fit."""
    if room is None or (not counted and room > 2 * state.need + _FAR):
        return True  # far from the budget and no count to break: the closing can wait
    closing = state.guard.closing()
    if closing is None:
        return state.need + _UNKNOWN_MARGIN <= room
    state.need = len(closing)
    if state.need > room:
        return False
    if not counted or not closing:
        return True
    # every unit counted takes a character, and the value being written may settle one
    # more than its lower bound says: a closing well within the headroom breaks no count
    headroom = state.guard.headroom()
    return (headroom is not None and len(closing) + 2 < headroom) or bool(state.guard.copy().feed(closing))


class HFCandidates:
    """A :class:`~formatbook_core.generation.model.CandidateModel` from a causal LM: the
    ``top_k`` most likely next tokens after ``prompt + reply`` (re-encoded each step),
    each decoded against the reply's text; the end-of-sequence token is :data:`END`.
    With :func:`~formatbook_core.generation.generate` it backtracks where the processor
    cannot."""

    def __init__(self, model: Any, tokenizer: Any, *, top_k: int = 16):
        self.model = model
        self.tokenizer = tokenizer
        self.top_k = top_k

    def candidates(self, prompt: str, reply: str) -> list[Candidate]:
        import torch  # noqa: PLC0415

        ids = self.tokenizer(prompt + reply, return_tensors="pt").input_ids
        with torch.no_grad():
            logits = self.model(ids).logits[0, -1]
        logprobs = torch.log_softmax(logits.float(), dim=-1)
        top = torch.topk(logprobs, min(self.top_k, logprobs.shape[-1]))
        tail = ids[0].tolist()[-8:]  # decode against the last few tokens: merges resolve
        before = _decode(self.tokenizer, tail)
        cands: list[Candidate] = []
        for lp, token in zip(top.values.tolist(), top.indices.tolist(), strict=True):
            if token == self.tokenizer.eos_token_id:
                cands.append(END._replace(logprob=lp))
                continue
            new = _decode(self.tokenizer, [*tail, token])
            if new.endswith("\ufffd") or not new.startswith(before) or len(new) == len(before):
                continue
            cands.append(Candidate(new[len(before) :], lp))
        return cands
