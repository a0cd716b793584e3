"""The TRL ``environment_factory`` classes: every world, its rewards, its episode ends, TRL's own probing."""

from __future__ import annotations

import inspect
import os

import pytest

from eai_gym.rl.episode import EpisodeOver
from eai_gym.rl.trl import WorldEnvironment, environment_class, environment_classes

from .conftest import PLAYABLE


def _tools(cls: type) -> list[str]:
    """The tools TRL finds on a class (its public functions but reset and get_reward, as GRPOTrainer lists them)."""
    return [n for n, _ in inspect.getmembers(cls, predicate=inspect.isfunction)
            if n not in ("reset", "get_reward") and not n.startswith("_")]


@pytest.mark.parametrize("world", PLAYABLE)
def test_a_gold_script_wins_with_reward_1_and_then_the_tool_raises(world, winning_script):
    task, script = winning_script(world)
    env = environment_class(world, max_steps=len(script) + 5)()
    first = env.reset(task=task, prompt=[{"role": "user", "content": "ignored"}], world=world, environment=world)
    assert first.startswith("\n\nYour task:\n") and len(first) > 20
    for command in script:
        assert env.get_reward() == 0.0
        text = env.act(command=command)
        if env._metrics()["done"]:
            break
    assert env._metrics()["success"] == 1.0 and env.get_reward() == 1.0
    assert "[The episode is over: the goal was reached" in text
    with pytest.raises(EpisodeOver, match="is over"):
        env.act(command=script[0])
    # the next episode on the same instance starts afresh
    env.reset(task=task)
    assert env.get_reward() == 0.0 and env._metrics()["steps"] == 0


@pytest.mark.parametrize("world", PLAYABLE)
def test_the_dense_reward_sums_to_the_progress_gained_never_below_zero(world, winning_script):
    task, script = winning_script(world)
    env = environment_class(world, reward="progress", max_steps=len(script) + 5)()
    env.reset(task=task)
    start = env._episode.reward.start_progress
    assert start is not None and 0.0 <= start <= 1.0
    rewards = []
    for command in script:
        before = env.get_reward()
        env.act(command=command)
        rewards.append(env.get_reward() - before)
        if env._metrics()["done"]:
            break
    assert all(r >= 0 for r in rewards)
    assert env._metrics()["success"] == 1.0
    assert env.get_reward() == pytest.approx(1.0 - start)  # progress is 1.0 once the goal holds


@pytest.mark.parametrize("world", PLAYABLE)
def test_the_episode_ends_itself_at_max_steps(world):
    cls = environment_class(world, max_steps=3)
    env = cls()
    task = sorted(env._episode.task_ids())[0]
    env.reset(task=task)
    texts = [env.act(command="no such action at all") for _ in range(3)]
    assert "[The episode is over: cut off after 3 steps.]" in texts[-1]
    assert env._metrics()["truncated"] and env.get_reward() == 0.0
    assert env._metrics()["errors"] >= 1  # the worlds record the nonsense as an EAI error
    with pytest.raises(EpisodeOver):
        env.act(command="look")


def test_a_thought_is_answered_ok_without_a_step_of_the_world():
    env = environment_class("alfworld", max_steps=2)()
    env.reset(task="0")
    assert env.act(command="think: where is the apple?") == "OK."
    assert env._metrics()["errors"] == 0
    assert env.act(command="think: still thinking").startswith("OK.\n\n[The episode is over: cut off after 2 steps")


@pytest.mark.parametrize("world", PLAYABLE)
def test_each_class_has_one_tool_act_and_a_name_of_its_own(world):
    cls = environment_class(world)
    assert _tools(cls) == ["act"]
    assert cls.__name__.startswith("EaiGym") and cls.__name__.endswith("Environment") and cls.__name__.isidentifier()


def test_rows_of_another_split_or_without_a_task_are_refused_by_name():
    env = environment_class("alfworld", "train")()
    with pytest.raises(ValueError, match="split 'train'.*of split 'eval_in_distribution'"):
        env.reset(task="0", split="eval_in_distribution")
    with pytest.raises(KeyError, match="no 'task' column"):
        env.reset(prompt="x")
    with pytest.raises(KeyError, match="has no task '3553'"):
        env.reset(task="3553")
    with pytest.raises(EpisodeOver, match="call reset"):
        environment_class("alfworld")().act(command="look")
    with pytest.raises(TypeError, match="environment_class"):
        WorldEnvironment()


def test_bad_arguments_are_named_when_the_class_is_made():
    with pytest.raises(ValueError, match="reward must be one of success, progress"):
        environment_class("alfworld", reward="dense")
    with pytest.raises(ValueError, match="max_steps must be an int of at least 1"):
        environment_class("alfworld", max_steps=0)
    with pytest.raises(KeyError, match="has split"):
        environment_class("virtualhome", "train")
    with pytest.raises(KeyError, match="unknown world"):
        environment_class("nowhere")


def test_classes_by_role_never_offer_an_evaluation_set_for_training():
    train = environment_classes("train")
    assert set(train) == {"alfworld"} and train["alfworld"].config["split"] == "train"
    assert set(environment_classes("eval")) == set(PLAYABLE)


def test_admissible_lists_the_legal_actions_in_each_observation():
    env = environment_class("alfworld", admissible=True)()
    first = env.reset(task="0")
    assert "\nAdmissible actions:\n- " in first and "- look" in first
    assert "\nAdmissible actions:\n- " in env.act(command="look")


# -- transformers' schema builder and TRL's own probing (skipped where they are not installed) -----------------------

def test_transformers_get_json_schema_accepts_the_tool():
    utils = pytest.importorskip("transformers.utils")
    env = environment_class("alfworld")()
    schema = utils.get_json_schema(env.act)
    fn = schema["function"]
    assert fn["name"] == "act" and fn["parameters"]["required"] == ["command"]
    assert fn["parameters"]["properties"]["command"]["type"] == "string"


def _tiny_model_and_tokenizer():
    """A one-layer Qwen2 with random weights and a character-level tokenizer using Qwen 2.5's chat template (TRL
    knows how to parse its tool calls): nothing downloaded."""
    from tokenizers import Tokenizer, models, pre_tokenizers
    from transformers import PreTrainedTokenizerFast, Qwen2Config, Qwen2ForCausalLM
    from trl.chat_template_utils import qwen2_5_chat_template

    specials = ["<unk>", "<|im_start|>", "<|im_end|>", "<|endoftext|>", "<tool_call>", "</tool_call>"]
    vocab = {t: i for i, t in enumerate(specials + [chr(c) for c in range(32, 127)] + ["\n"])}
    tok = Tokenizer(models.WordLevel(vocab=vocab, unk_token="<unk>"))
    tok.pre_tokenizer = pre_tokenizers.Split("", "isolated")
    tokenizer = PreTrainedTokenizerFast(tokenizer_object=tok, unk_token="<unk>", eos_token="<|im_end|>",
                                        pad_token="<|endoftext|>", additional_special_tokens=specials[1:])
    tokenizer.chat_template = qwen2_5_chat_template
    config = Qwen2Config(vocab_size=len(vocab), hidden_size=16, intermediate_size=32, num_hidden_layers=1,
                         num_attention_heads=2, num_key_value_heads=1, max_position_embeddings=16384)
    return Qwen2ForCausalLM(config), tokenizer


def test_grpo_trainer_probes_the_classes_and_rolls_out_through_reset_and_get_reward(tmp_path, monkeypatch):
    trl = pytest.importorskip("trl")
    from eai_gym.rl.datasets import task_dataset

    monkeypatch.setenv("TRL_EXPERIMENTAL_SILENCE", "1")
    model, tokenizer = _tiny_model_and_tokenizer()
    args = trl.GRPOConfig(output_dir=str(tmp_path), per_device_train_batch_size=2, num_generations=2, max_steps=1,
                          report_to="none", use_cpu=True, max_completion_length=4)
    # one environment: TRL finds the one tool and the reward named after the class
    cls = environment_class("alfworld", "train", reward="progress")
    dataset = task_dataset("alfworld", "train", limit=1)
    trainer = trl.GRPOTrainer(model=model, processing_class=tokenizer, args=args, train_dataset=dataset,
                              environment_factory=cls)
    assert [t.__name__ for t in trainer._env_tools[None]] == ["act"]
    assert trainer.reward_func_names == [cls.__name__]
    # a rollout: TRL resets each pooled instance with the row, generates, and scores with get_reward
    trainer._generate_and_score_completions([dict(dataset[0]), dict(dataset[0])])
    assert [e._episode.task for e in trainer.environments] == ["0", "0"]
    assert trainer._metrics["train"][f"rewards/{cls.__name__}/mean"] == [0.0]
    # TRL's own tool dicts call the tool as a model's tool call would
    act = trainer._sync_tool_dicts[0]["act"]
    assert "Nothing happens." in act(command="go to nowhere 7")
    # every world at once: one class each, each with its one tool
    multi = environment_classes("eval")
    trainer = trl.GRPOTrainer(model=model, processing_class=tokenizer, args=args,
                              train_dataset=task_dataset("alfworld", limit=1), environment_factory=multi)
    assert {k: [t.__name__ for t in v] for k, v in trainer._env_tools.items()} == {w: ["act"] for w in PLAYABLE}
    assert os.environ["TRL_EXPERIMENTAL_SILENCE"] == "1"
