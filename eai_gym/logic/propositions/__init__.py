"""The collaboration evaluation engine of the multi-agent rearrange setting (PARTNR's propositions,
dependencies, constraints and metrics), independent of any world: it scores any sequence of
symbolic states given as :class:`Facts`.

>>> spec = EvaluationSpec.from_json(episode)            # PARTNR episode fields or a fact-replay case
>>> tracker = PropositionTracker(spec, protocol="fixed")  # or "partnr" for the reference's behaviour
>>> tracker.reset(facts_0); tracker.update(facts_1)       # one Facts per step
>>> tracker.task_percent_complete, tracker.evaluation_log(), tracker.explain()
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
