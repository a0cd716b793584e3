"""The text of :meth:`~.world.Behavior1KWorld.describe`, kept from one state to the next.

A step changes the facts of a few entities; :class:`KeptDescription` rebuilds only their lines (an entity's line
reads only the facts whose first argument it is, ``real``/``future`` included), so the observation costs the size
of the change, not of the scene. The text is the same as ``describe(state)``'s, character for character.
"""

from __future__ import annotations

from .kb import activity_kb
from .state import B1KState


class KeptDescription:
    """``describe(state)`` for the states of one episode after another (any state works: another activity's
    starts afresh)."""

    def __init__(self) -> None:
        self.state: B1KState | None = None
        self.text = ""
        self._lines: list[str] = []
        self._position: dict[str, int] = {}
        self._facts_of: dict[str, set] = {}
        self._substances: frozenset[str] = frozenset()

    def describe(self, state: B1KState) -> str:
        last = self.state
        if last is state:
            return self.text
        if last is None or last.activity != state.activity:
            self._start(state)
        else:
            touched = set()
            facts_of = self._facts_of
            for f in last.facts ^ state.facts:
                touched.add(f[1])
                if f in state.facts:
                    facts_of.setdefault(f[1], set()).add(f)
                else:
                    facts_of[f[1]].discard(f)
            position, lines = self._position, self._lines
            for inst in touched:
                p = position.get(inst)
                if p is not None:
                    lines[p] = self._line(state, inst)
        self.state = state
        self.text = "\n".join(self._lines)
        return self.text

    def _start(self, state: B1KState) -> None:
        kb = activity_kb(state.activity)
        facts_of: dict[str, set] = {}
        for f in state.facts:
            facts_of.setdefault(f[1], set()).add(f)
        self._facts_of = facts_of
        shown = [i for i in kb.instances if i != kb.agent]
        self._position = {inst: p for p, inst in enumerate(shown)}
        self._substances = kb.substances
        self._lines = [self._line(state, inst) for inst in shown]

    def _line(self, state: B1KState, inst: str) -> str:
        kind = "substance" if inst in self._substances else "object"
        facts = state.facts
        exists = "exists" if ("real", inst) in facts else "does not exist yet" if ("future", inst) in facts \
            else "gone"
        parts = "; ".join(f[0] if len(f) == 2 else f"{f[0]} {f[2]}" for f in sorted(self._facts_of.get(inst, ()))
                          if f[0] != "real" and f[0] != "future")
        return f"{inst} ({kind}, {exists})" + (f": {parts}" if parts else "")
