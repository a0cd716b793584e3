"""ALFWorld in the registry (:mod:`eai_gym.registry`): its env, task set and scoring modes.

Light on purpose: importing it imports neither Gymnasium nor the world nor its data.
"""

from ...registry import EnvSpec, ModeSpec, Option, SplitSpec, SummaryKey, WorldSpec, similarity_mode

SCORING = "eai_gym.scoring.alfworld.modes"
COMMANDS_INPUT = "one JSON file of {game, commands} items"
DIALECT = Option("dialect", "the text dialect (0.4: move X to Y; 0.3: put X in/on Y), unless an item says",
                 default="0.4", choices=("0.4", "0.3"))

WORLD = WorldSpec(
    name="alfworld",
    title="ALFWorld eval split (134 games)",
    description="ALFWorld's text household games (alfred PDDL domain)",
    envs=(EnvSpec("eai_gym/AlfWorld-v0", "eai_gym.envs.alfworld.env:AlfWorldEnv", max_episode_steps=100),),
    task_set="eai_gym.envs.alfworld.taskset",
    agent_prompt="eai_gym.envs.alfworld.agent_prompt",
    server="eai_gym.serve.alfworld:main",
    server_protocol="agentgym",
    splits=(
        SplitSpec("eval_out_of_distribution", "eval", "the 134 shipped eval games on floor plans never trained on "
                  "(ALFWorld's valid_unseen task-type mix): the task set"),
        SplitSpec("train", "train", "3,553 games generated on ALFWorld's training floor plans (its train size)",
                  task_ids="eai_gym.envs.alfworld.splits:train_ids", play="eai_gym.envs.alfworld.splits:play_train"),
        SplitSpec("eval_in_distribution", "eval", "140 games generated on the training floor plans from other seeds "
                  "(ALFWorld's valid_seen size)", task_ids="eai_gym.envs.alfworld.splits:seen_ids",
                  play="eai_gym.envs.alfworld.splits:play_seen"),
    ),
    modes=(
        ModeSpec("commands", "replay each game's commands: success and every progress metric", ("fixed",),
                 f"{SCORING}:commands_jobs", gold=f"{SCORING}:commands_gold", options=(DIALECT,),
                 record_options=("dialect",), inputs=COMMANDS_INPUT,
                 summary_keys=(SummaryKey("success_rate"), SummaryKey("avg_progress_rate"),
                               SummaryKey("avg_steps", higher_is_better=False)),
                 summary_units=(("*games", "count"), ("invalid_input", "count"), ("*avg_steps", "steps"),
                                ("*", "fraction")),
                 plan_records=True),
        similarity_mode(("fixed",), f"{SCORING}:similarity_gold", f"{SCORING}:similarity_actions",
                        f"{SCORING}:gold_actions", inputs=COMMANDS_INPUT, options=(DIALECT,)),
    ),
)
