"""BEHAVIOR in the registry (:mod:`eai_gym.registry`): its env, task set and scoring modes.

Light on purpose: importing it imports neither Gymnasium nor the world nor its data.
"""

from ...eai.options import (
    ALL_FRACTION,
    EAI_KEYS,
    GOAL_COUNTS_AND_FRACTIONS,
    PROTOCOLS,
    SEED,
    transition_modeling_mode,
)
from ...registry import EnvSpec, ModeSpec, Option, SplitSpec, SummaryKey, WorldSpec, similarity_mode

SCORING = "eai_gym.scoring.behavior.modes"
PROMPTS = "eai_gym.envs.behavior.prompts"
GOLD_NOTES = "docs/behavior.md, 'Initial states'"
SUBGOAL_GOLD_NOTES = "docs/behavior.md, 'Subgoal decomposition'"
INITIAL_STATE = Option("initial_state", "how unstated initial values are completed (default: calibrated)",
                       default="calibrated", choices=("calibrated", "reference-defaults"))

WORLD = WorldSpec(
    name="behavior",
    title="EAI BEHAVIOR (100 activities)",
    description="EAI's 100 BEHAVIOR activities without iGibson",
    envs=(EnvSpec("eai_gym/Behavior-v0", "eai_gym.envs.behavior.env:BehaviorEnv", max_episode_steps=200),),
    task_set="eai_gym.envs.behavior.taskset",
    agent_prompt="eai_gym.envs.behavior.agent_prompt",
    splits=(SplitSpec("eval", "eval", "EAI's 100 BEHAVIOR activities: an evaluation set (EAI has no training split)"),),
    modes=(
        ModeSpec("action_sequencing", "replay each output's action list through the world",
                 PROTOCOLS, f"{SCORING}:action_jobs", gold=f"{SCORING}:action_gold",
                 prompts=f"{PROMPTS}:mode_prompts", options=(INITIAL_STATE,),
                 record_options=("initial_state",),
                 summary_keys=EAI_KEYS, summary_units=ALL_FRACTION, plan_records=True, gold_notes=GOLD_NOTES),
        ModeSpec("subgoal_decomposition", "expand each output's subgoals into actions and replay them",
                 PROTOCOLS, f"{SCORING}:subgoal_jobs", gold=f"{SCORING}:subgoal_gold",
                 prompts=f"{PROMPTS}:mode_prompts", options=(SEED, INITIAL_STATE),
                 record_options=("seed", "initial_state"),
                 summary_keys=EAI_KEYS, summary_units=ALL_FRACTION, plan_records=True, gold_notes=SUBGOAL_GOLD_NOTES),
        ModeSpec("goal_interpretation", "compare each output's goal conditions with the task's gold goals",
                 PROTOCOLS, f"{SCORING}:goal_interpretation_jobs", gold=f"{SCORING}:goal_interpretation_gold",
                 prompts=f"{PROMPTS}:mode_prompts",
                 summary_keys=(SummaryKey("overall.overall_confusion_metrics.f1_score"),),
                 summary_units=GOAL_COUNTS_AND_FRACTIONS),
        transition_modeling_mode(f"{PROMPTS}:mode_prompts", planner_timeout=200.0),
        similarity_mode(PROTOCOLS, f"{SCORING}:action_gold", f"{SCORING}:similarity_actions",
                        f"{SCORING}:gold_actions"),
    ),
)
