"""VirtualHome in the registry (:mod:`eai_gym.registry`): its env, task set and scoring modes.

Light on purpose: importing it imports neither Gymnasium nor the world nor its data.
"""

from ...eai.options import ALL_FRACTION, ALL_PERCENT, EAI_KEYS, PROTOCOLS, SEED, transition_modeling_mode
from ...registry import EnvSpec, ModeSpec, Option, SplitSpec, SummaryKey, WorldSpec, similarity_mode

SCORING = "eai_gym.scoring.virtualhome.modes"
PROMPTS = "eai_gym.envs.virtualhome.prompts"
GOLD_NOTES = "docs/virtualhome.md, 'Offline scoring and the two protocols'"
SUBGOAL_GOLD_NOTES = "docs/virtualhome.md, 'Subgoal decomposition'"

WORLD = WorldSpec(
    name="virtualhome",
    title="EAI VirtualHome (scene_1)",
    description="EAI's 342 VirtualHome tasks on an evolving scene graph",
    envs=(EnvSpec("eai_gym/VirtualHome-v0", "eai_gym.envs.virtualhome.env:VirtualHomeEnv", max_episode_steps=100),),
    task_set="eai_gym.envs.virtualhome.taskset",
    agent_prompt="eai_gym.envs.virtualhome.agent_prompt",
    splits=(SplitSpec("eval", "eval", "EAI's 342 VirtualHome tasks: an evaluation set (EAI has no training split)"),),
    modes=(
        ModeSpec("action_sequencing", "replay each output's action script through the world",
                 PROTOCOLS, "eai_gym.scoring.virtualhome.action_sequencing:jobs", gold=f"{SCORING}:action_gold",
                 prompts=f"{PROMPTS}:mode_prompts",
                 options=(Option("gold_shortcut", "count plans identical to the gold script as executable without "
                                                  "simulating them (default: on for eai-1.0.5, off for fixed)",
                                 choices=("on", "off")),),
                 summary_keys=EAI_KEYS, summary_units=ALL_PERCENT, plan_records=True, gold_notes=GOLD_NOTES),
        ModeSpec("subgoal_decomposition", "expand each output's subgoals into actions and replay them",
                 PROTOCOLS, "eai_gym.scoring.virtualhome.subgoal_decomposition:jobs", gold=f"{SCORING}:subgoal_gold",
                 prompts=f"{PROMPTS}:mode_prompts", options=(SEED,),
                 record_options=("seed",),
                 summary_keys=EAI_KEYS, summary_units=ALL_FRACTION, plan_records=True, gold_notes=SUBGOAL_GOLD_NOTES),
        ModeSpec("goal_interpretation", "compare each output's goal conditions with the task's gold goals",
                 PROTOCOLS, f"{SCORING}:goal_interpretation_jobs", gold=f"{SCORING}:goal_interpretation_gold",
                 prompts=f"{PROMPTS}:mode_prompts", summary_keys=(SummaryKey("all_f1"),),
                 summary_units=ALL_PERCENT),
        transition_modeling_mode(f"{PROMPTS}:mode_prompts", planner_timeout=100.0),
        similarity_mode(PROTOCOLS, f"{SCORING}:action_gold", f"{SCORING}:similarity_actions",
                        f"{SCORING}:gold_actions"),
    ),
)
