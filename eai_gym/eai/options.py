"""What the registry entries of EAI's two worlds (VirtualHome and BEHAVIOR) share: their protocols, the
transition-modeling planner options, the eai-1.0.5 seed option, the EAI summary's headline figures and the units
of EAI's summaries (each reference's own scale: VirtualHome reports some modules in percent, BEHAVIOR in fractions).

Light on purpose (imported by the worlds' ``spec`` modules): only the registry's option types.
"""

from ..registry import ModeSpec, Option, SummaryKey

PROTOCOLS = ("fixed", "eai-1.0.5")
PLANNER = Option("planner", "the planner for the planner success rate: auto (default: Fast Downward when installed, "
                             "else none: the planner columns are marked not computed), fast-downward, builtin (pure Python, "
                             "see docs/transition_modeling.md for its agreement with Fast Downward) or none",
                 default="auto", choices=("auto", "fast-downward", "builtin", "none"))
PLANNER_TIMEOUT = Option("planner_timeout", "seconds per planner call (default: the reference's, 100 VirtualHome, "
                                            "200 BEHAVIOR)", type="int", default=None)
SEED = Option("seed", "with eai-1.0.5, the seed of the reference's random choice of 'or' disjuncts (0 reproduces "
                      "runs after random.seed(0); fixed explores them all)", type="int", default=0)
#: the EAI summary's headline figures (dotted paths into the nested summary; their unit is the mode's)
EAI_KEYS = (SummaryKey("goal_evaluation.task_success_rate"), SummaryKey("trajectory_evaluation.execution_success_rate"))
#: a summary whose every figure is a percent (0-100)
ALL_PERCENT = (("*", "percent"),)
#: a summary whose every figure is a fraction (0-1)
ALL_FRACTION = (("*", "fraction"),)
#: EAI's BEHAVIOR goal-interpretation summary: condition counts (``num_*``, ``*_num``), the rest fractions
GOAL_COUNTS_AND_FRACTIONS = (("*.num_*", "count"), ("*_num", "count"), ("*", "fraction"))


def transition_modeling_mode(prompts: str, planner_timeout: float) -> ModeSpec:
    """The transition-modeling mode of an EAI world: one scorer (:mod:`eai_gym.eai.transition_modeling`), the
    planner options, summaries in percent; the world gives its prompts entry point and the reference's planner
    timeout in seconds (the mode's ``planner_timeout`` parameter)."""
    return ModeSpec("transition_modeling", "score each output's PDDL operators (logic scores) and plan with them",
                    PROTOCOLS, "eai_gym.eai.transition_modeling:mode_jobs",
                    gold="eai_gym.eai.transition_modeling:mode_gold",
                    prompts=prompts, options=(PLANNER, PLANNER_TIMEOUT),
                    record_options=("planner", "planner_timeout"),
                    parameters=(("planner_timeout", planner_timeout),), summary_units=ALL_PERCENT)
