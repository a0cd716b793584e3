"""BEHAVIOR-1K in the registry (:mod:`eai_gym.registry`): its env, task set and scoring modes.

Light on purpose: importing it imports neither Gymnasium nor the world nor its data.
"""

from ...registry import EnvSpec, ModeSpec, SplitSpec, SummaryKey, WorldSpec, similarity_mode

PROTOCOLS = ("bddl-3.6.0",)
#: goal interpretation is scored as EAI scores BEHAVIOR's: its two protocols (docs/goal_interpretation.md)
GI_PROTOCOLS = ("fixed", "eai-1.0.5")
SCORING = "eai_gym.scoring.behavior1k.modes"
PROMPTS = "eai_gym.envs.behavior1k.prompts"
BEHAVIOR_INPUT = "one JSON file of {identifier: activity, llm_output: [{action, object}, ...]} items"
GI_INPUT = ("one JSON file of {identifier: activity, llm_output: '{\"node goals\": [...], \"edge goals\": "
            "[...]}'} items")

WORLD = WorldSpec(
    name="behavior1k",
    title="BEHAVIOR-1K (1,016 bddl 3.6.0 activities)",
    description="BEHAVIOR-1K's activities as a symbolic world: bddl 3.6.0's goals, OmniGibson's primitives",
    envs=(EnvSpec("eai_gym/Behavior1K-v0", "eai_gym.envs.behavior1k.env:Behavior1KEnv", max_episode_steps=300),),
    task_set="eai_gym.envs.behavior1k.taskset",
    agent_prompt="eai_gym.envs.behavior1k.agent_prompt",
    splits=(SplitSpec("eval", "eval", "BEHAVIOR-1K's 1,016 bddl 3.6.0 activities: the benchmark's tasks, for evaluation (no training split ships)"),),
    modes=(
        ModeSpec("action_sequencing", "replay each output's action list through the symbolic world",
                 PROTOCOLS, f"{SCORING}:action_jobs", gold=f"{SCORING}:action_gold", inputs=BEHAVIOR_INPUT,
                 prompts=f"{PROMPTS}:mode_prompts",
                 summary_keys=(SummaryKey("goal_evaluation.task_success_rate"),
                               SummaryKey("trajectory_evaluation.execution_success_rate")),
                 summary_units=(("items", "count"), ("successes", "count"), ("executable", "count"), ("*", "fraction")),
                 plan_records=True, gold_notes="docs/behavior1k.md, 'Gold plans and scoring'"),
        ModeSpec("goal_interpretation", "compare each output's goal conditions with the activity's "
                 ":goal, as EAI scores BEHAVIOR goal interpretation", GI_PROTOCOLS,
                 f"{SCORING}:goal_interpretation_jobs", gold=f"{SCORING}:goal_interpretation_gold", inputs=GI_INPUT,
                 prompts=f"{PROMPTS}:mode_prompts",
                 summary_keys=(SummaryKey("overall.overall_confusion_metrics.f1_score"),),
                 summary_units=(("*.num_*", "count"), ("*_num", "count"), ("*", "fraction"))),
        similarity_mode(PROTOCOLS, f"{SCORING}:action_gold", f"{SCORING}:similarity_actions",
                        f"{SCORING}:gold_actions", inputs=BEHAVIOR_INPUT),
    ),
)
