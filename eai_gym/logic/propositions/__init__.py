"""The collaboration evaluation engine of the multi-agent rearrange setting (PARTNR's propositions,
dependencies, constraints and metrics), independent of any world: it scores any sequence of
symbolic states given as :class:`Facts`.

A spec comes from PARTNR's episode fields (or a fact-replay case); the tracker takes one :class:`Facts` per step
(``protocol="fixed"``, or ``"partnr"`` for the reference's behaviour):

>>> from eai_gym.logic.propositions import EvaluationSpec, PropositionTracker, WorldFacts
>>> episode = {"entities": ["cup_1", "sink_1"], "rooms": ["kitchen"], "propositions": [
...     {"function_name": "is_inside", "args": {"object_handles": ["cup_1"], "receptacle_handles": ["sink_1"]}}]}
>>> tracker = PropositionTracker(EvaluationSpec.from_json(episode), protocol="fixed")
>>> entities, rooms = frozenset(episode["entities"]), frozenset(episode["rooms"])
>>> tracker.reset(WorldFacts({}, entities, rooms))
StepMetrics(task_percent_complete=0.0, task_state_success=0.0, proposition_satisfied_at=(-1,))
>>> tracker.update(WorldFacts({"inside": [["cup_1", "sink_1"]]}, entities, rooms))
StepMetrics(task_percent_complete=1.0, task_state_success=1.0, proposition_satisfied_at=(1,))

``tracker.evaluation_log()`` is PARTNR's evaluation log; ``tracker.explain()`` says in words why the episode is not
(yet) a success (``""`` on success).
"""

from .constraints import (
    Constraint,
    DifferentArgConstraint,
    SameArgConstraint,
    TemporalConstraint,
    TerminalSatisfactionConstraint,
)
from .facts import Facts, FactsError, TruthFacts, WorldFacts
from .results import PropositionResult
from .spec import (
    PREDICATES,
    PROTOCOLS,
    EvaluationProposition,
    EvaluationPropositionDependency,
    EvaluationSpec,
    SpecError,
)
from .tracker import PropositionTracker, StepMetrics, unroll_propositions

__all__ = [
    "Constraint", "DifferentArgConstraint", "EvaluationProposition",
    "EvaluationPropositionDependency", "EvaluationSpec", "Facts", "FactsError", "PREDICATES", "PROTOCOLS",
    "PropositionResult", "PropositionTracker", "SameArgConstraint", "SpecError", "StepMetrics",
    "TemporalConstraint", "TerminalSatisfactionConstraint", "TruthFacts", "WorldFacts", "unroll_propositions",
]
