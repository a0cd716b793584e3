"""The expert: the canonical optimal next command from any state, at training speed.

**What it answers** (a function of the state alone, whatever was asked before): with ``h*`` the cost of an
optimal plan (the oracle's costs and its useful commands, :mod:`.oracle`), the next command is the
alphabetically first useful command ``a`` with ``cost(a) + h*(after a) == h*(state)``; ``None`` when the game
is won or the goal is unreachable. :meth:`Expert.plan` follows it to the goal (an optimal plan).
:func:`reference_next` computes the same answer from scratch with the oracle's own search.

**How.** The abstract cost model (:mod:`.expert_model`, closed forms in :mod:`.expert_costs`) answers from a
small configuration of the state — where the goal objects and lamps are, what is held, which of the receptacles
that matter are open — without listing the engine's commands; answers are remembered per configuration and
location. Where the model does not apply (a goal that is not the formula ALFWorld writes for its task type, a
lamp in hand: never on the shipped games), the search expert (:mod:`.expert_search`) answers, and
:attr:`Expert.fallbacks` counts those answers.
"""

from __future__ import annotations

from .engine import AlfState, Engine
from .expert_model import Config, CostModel
from .expert_search import SearchExpert, reference_next

__all__ = ["SAME_CONFIG", "Expert", "reference_next"]

#: the operation kinds (:meth:`.engine.Engine.apply`) after which :meth:`Expert.config` is unchanged
SAME_CONFIG = frozenset({"goto", "look", "inventory", "help", "examine_r", "examine_o"})


class Expert:
    """The canonical optimal next command (see the module docstring), with caches kept across calls."""

    def __init__(self, engine: Engine, max_expansions: int = 200_000) -> None:
        self.engine = engine
        self.model = CostModel(engine)
        self.max_expansions = max_expansions
        self._search: SearchExpert | None = None
        #: answers given by the search because the model does not apply
        self.fallbacks = 0

    @property
    def search(self) -> SearchExpert:
        """The search expert (made when first needed)."""
        if self._search is None:
            self._search = SearchExpert(self.engine, self.max_expansions)
        return self._search

    def config(self, s: AlfState) -> Config | None:
        """The model's configuration of ``s`` (None where the model does not apply). Operations of the kinds
        in :data:`SAME_CONFIG` leave it unchanged: a caller stepping a game may keep it across those and pass it
        to :meth:`answer`."""
        return self.model.config(s)

    def answer(self, s: AlfState, config: Config | None) -> str | None:
        """:meth:`next_command` given ``config`` = :meth:`config` of ``s``."""
        if config is None:
            self.fallbacks += 1
            return self.search.next_command(s)
        return self.model.next_command(config, s.loc)

    def next_command(self, s: AlfState) -> str | None:
        """The canonical optimal next command from ``s`` (None once won, or when the goal is unreachable)."""
        return self.answer(s, self.model.config(s))

    def cost(self, s: AlfState) -> int | None:
        """``h*(s)``: the cost of an optimal plan from ``s`` (None: the goal is unreachable)."""
        c = self.model.config(s)
        if c is None:
            self.fallbacks += 1
            return self.search.cost(s)
        return self.model.cost(c, s.loc)

    def plan(self, s: AlfState) -> list[str] | None:
        """The canonical optimal plan from ``s`` ([] if won; None if the goal is unreachable)."""
        if self.cost(s) is None:
            return None
        s, out = s.copy(), []
        while (text := self.next_command(s)) is not None:
            self.engine.apply(s, self.engine.commands(s)[text])
            out.append(text)
        return out
