"""The multi-agent rearrange world in the registry (:mod:`eai_gym.registry`): its envs, task set and modes.

Light on purpose: importing it imports neither Gymnasium nor the world nor its data.
"""

from ...registry import EnvSpec, ModeSpec, Option, SplitSpec, SummaryKey, WorldSpec, similarity_mode

PROTOCOLS = ("fixed", "partnr")
SCORING = "eai_gym.scoring.rearrange.modes"
ACTIONS_INPUT = "one JSON file of {episode_id, actions: {agent_0: [...], agent_1: [...]}}"

WORLD = WorldSpec(
    name="rearrange",
    title="rearrange validation set (12 houses)",
    description="PARTNR-style multi-agent rearrangement (robot + human)",
    envs=(EnvSpec("eai_gym/rearrange-v0", "eai_gym.envs.rearrange.env:parallel_env", kind="parallel"),
          EnvSpec("eai_gym/rearrange-v0", "eai_gym.envs.rearrange.env:aec_env", kind="aec"),
          EnvSpec("eai_gym/Rearrange-v0", "eai_gym.envs.rearrange.env:RearrangeEnv")),  # truncates itself
    task_set="eai_gym.envs.rearrange.taskset",
    agent_prompt="eai_gym.envs.rearrange.agent_prompt",
    splits=(SplitSpec("val", "eval", "the packaged validation episodes (12 houses, eai-gym's seeded generator): for evaluation; no training episodes ship"),),
    modes=(
        ModeSpec("facts", "replay per-step world facts through the evaluation engine", PROTOCOLS,
                 f"{SCORING}:facts_jobs", load_items=f"{SCORING}:facts_items", result=f"{SCORING}:facts_result",
                 inputs="case files and/or folders of cases", multiple_inputs=True,
                 summary_keys=(SummaryKey("task_percent_complete"), SummaryKey("task_state_success")),
                 summary_units=(("n_*", "count"), ("*", "fraction"))),
        ModeSpec("actions", "replay per-agent skill scripts through the rearrange world", PROTOCOLS,
                 f"{SCORING}:actions_jobs", gold=f"{SCORING}:actions_gold", load_items=f"{SCORING}:actions_items",
                 result=f"{SCORING}:actions_result", inputs=ACTIONS_INPUT,
                 options=(Option("episodes", "the episode file (PARTNR layout; default: the packaged validation set)",
                                 type="path"),
                          Option("max_steps", "ticks before an episode is cut off (default 300)", type="int",
                                 default=300),
                          Option("observability", "what the agents see (no effect on scripted replays' outcome; "
                                                  "recorded in the results)", default="full",
                                 choices=("full", "partial"))),
                 record_options=("episodes", "max_steps", "observability"),
                 summary_keys=(SummaryKey("task_state_success"), SummaryKey("task_percent_complete"),
                               SummaryKey("failed_actions", higher_is_better=False)),
                 summary_units=(("*episodes", "count"), ("invalid_input", "count"), ("*error_counts.*", "count"),
                                ("*num_steps*", "steps"), ("*failed_actions", "number"), ("*", "fraction")),
                 plan_records=True),
        similarity_mode(PROTOCOLS, f"{SCORING}:similarity_gold", f"{SCORING}:similarity_actions",
                        f"{SCORING}:gold_actions", inputs=ACTIONS_INPUT),
    ),
)
