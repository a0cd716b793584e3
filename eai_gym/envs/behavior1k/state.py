"""The BEHAVIOR-1K world state: a closed-world set of ground atoms (check_goal's format) and the held object."""

from __future__ import annotations

from dataclasses import dataclass, field

from ...logic.bddl_eval import Fact

#: relations that say where an object is (the held object has none of them as first argument)
PLACEMENT = ("ontop", "inside", "under", "nextto", "touching", "draped", "overlaid")
SYMMETRIC = ("nextto", "touching")


@dataclass(frozen=True, slots=True)
class B1KState:
    """``facts``: every true atom (``("ontop", "a", "b")``); ``held``: the object in the agent's one hand;
    ``activity``: whose instances these are."""

    facts: frozenset[Fact]
    held: str | None = None
    activity: str = ""
    #: binary atoms by (pred, first) and by (pred, second, None), built on first use (not part of the value)
    links: dict | None = field(default=None, compare=False, hash=False, repr=False)
    #: a probe only checks preconditions: :func:`begin` stops a handler where its effects would start
    probe: bool = field(default=False, compare=False, hash=False, repr=False)

    #: derived answers about this state (e.g. which closed container an object is in), not part of the value
    cache: dict | None = field(default=None, compare=False, hash=False, repr=False)
    #: the state this one was edited from, until ``links`` is built (then patched from its links when it has them)
    base: "B1KState | None" = field(default=None, compare=False, hash=False, repr=False)

    @property
    def scene(self) -> str:
        """What states of one episode share (the activity): kept mask answers carry over between them."""
        return self.activity

    def as_probe(self) -> "B1KState":
        """This state as a probe (same value, the same lookup index and derived answers)."""
        return B1KState(self.facts, self.held, self.activity, self._links(), True, self.memo())

    def memo(self) -> dict:
        if self.cache is None:
            object.__setattr__(self, "cache", {})
        return self.cache  # type: ignore[return-value]

    def has(self, *atom: str) -> bool:
        return atom in self.facts

    def _links(self) -> dict:
        if self.links is None:
            base = self.base
            if base is not None and base.links is not None:
                index = patched_links(base.links, base.facts, self.facts)
            else:
                index = {}
                for f in self.facts:
                    if len(f) == 3:
                        index.setdefault((f[0], f[1]), []).append(f[2])
                        index.setdefault((f[0], f[2], None), []).append(f[1])
                for v in index.values():
                    v.sort()
            object.__setattr__(self, "links", index)
            object.__setattr__(self, "base", None)
        return self.links  # type: ignore[return-value]

    def real(self, inst: str) -> bool:
        return ("real", inst) in self.facts

    def index(self) -> dict:
        """The lookup index of the binary facts: ``(pred, a)`` -> sorted ``b``, ``(pred, b, None)`` -> sorted ``a``
        (built on first use; read it, never change it)."""
        return self.links if self.links is not None else self._links()

    def targets(self, pred: str, inst: str) -> list[str]:
        """Sorted ``b`` with ``(pred, inst, b)`` true."""
        return list((self.links if self.links is not None else self._links()).get((pred, inst), ()))

    def sources(self, pred: str, inst: str) -> list[str]:
        """Sorted ``a`` with ``(pred, a, inst)`` true."""
        return list((self.links if self.links is not None else self._links()).get((pred, inst, None), ()))

    def to_list(self) -> list[list[str]]:
        """The facts in check_goal's format, sorted."""
        return [list(f) for f in sorted(self.facts)]


def patched_links(links: dict, old: frozenset[Fact], new: frozenset[Fact]) -> dict:
    """The lookup index of the facts ``new`` from that of ``old`` (``links``, left as it is): the lists of the
    keys the difference touches are replaced, the others shared (they are never changed in place); with no binary
    fact changed, the index itself is shared."""
    gone = [f for f in old - new if len(f) == 3]
    came = [f for f in new - old if len(f) == 3]
    if not gone and not came:
        return links
    out = dict(links)
    for f in gone:
        for key, x in (((f[0], f[1]), f[2]), ((f[0], f[2], None), f[1])):
            rest = [y for y in out[key] if y != x]
            if rest:
                out[key] = rest
            else:
                del out[key]
    for f in came:
        for key, x in (((f[0], f[1]), f[2]), ((f[0], f[2], None), f[1])):
            got = out.get(key)
            if got is None:
                out[key] = [x]
            else:
                grown = got + [x]
                grown.sort()
                out[key] = grown
    return out


class Reached(Exception):
    """Raised by :func:`begin` on a probe: every precondition of the action held."""


def begin(state: B1KState) -> "Edit":
    """The edit an action's effects are written to, once its preconditions hold (on a probe: :class:`Reached`)."""
    if state.probe:
        raise Reached
    return Edit(state)


class Edit:
    """A mutable copy of a state's facts: ``add``/``remove`` then ``freeze``."""

    def __init__(self, state: B1KState):
        self.facts = set(state.facts)
        self.held = state.held
        self.activity = state.activity
        self.base = state if state.__class__ is B1KState else None  # (a read-tracking view edits no state)

    def add(self, *atom: str) -> None:
        self.facts.add(atom)

    def remove(self, *atom: str) -> None:
        self.facts.discard(atom)

    def unplace(self, inst: str) -> None:
        """Drop where ``inst`` is (its placement relations, both ways for the symmetric ones)."""
        self.facts = {f for f in self.facts if not (len(f) == 3 and f[0] in PLACEMENT and
                                                    (f[1] == inst or (f[0] in SYMMETRIC and f[2] == inst)))}

    def consume(self, inst: str) -> None:
        """A rule's input is used up: it stops existing (``real`` false, ``future`` true) with its relations."""
        self.facts = {f for f in self.facts if inst not in f[1:]}
        self.facts.add(("future", inst))
        if self.held == inst:
            self.held = None

    def create(self, inst: str) -> None:
        self.facts.discard(("future", inst))
        self.facts.add(("real", inst))

    def freeze(self) -> B1KState:
        base = self.base if self.base is not None and self.base.activity == self.activity else None
        return B1KState(frozenset(self.facts), self.held, self.activity, base=base)
