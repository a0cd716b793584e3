"""Every world as a SkyRL-gym text environment (``skyrl-gym``, the ``eai-gym[skyrl]`` extra).

One class, :class:`WorldTextEnv` (a ``skyrl_gym.envs.base_text_env.BaseTextEnv``), parametrised by world, registered
once per world under the id ``eai_gym_<world>`` (:func:`env_id`). SkyRL's registry lives in each process: importing
this module registers every world's id, so a Ray worker that builds envs must import it (or call
:func:`register_envs`) before ``skyrl_gym.make``; the trainer's entry point is the usual place.

SkyRL's generator builds one env per trajectory with ``make(env_class, env_config=<the env_class section of the
skyrl_gym config>, extras=<the row's extras, with max_turns set by the generator>)``, calls ``init(prompt)`` and then
``step(reply)`` until ``done``. Here:

* the task is the row's ``task`` (top level or under ``extra_info``), of the row's ``split`` (or ``env_config.split``,
  or the world's task set);
* ``env_config`` may set ``reward`` (``success`` or ``progress``, :mod:`eai_gym.rl.rewards`), ``max_steps``,
  ``admissible``, ``protocol``, ``options`` and ``seed`` (:class:`~eai_gym.rl.episode.WorldEpisode`);
* the turn limit is ``extras["max_turns"]`` when the generator sets it, else ``env_config.max_steps`` (default 50):
  the env ends itself there, since SkyRL stops only on ``done``;
* ``init`` appends the task's first observation to the last user message; each ``step`` reads the reply's first
  non-empty line as the action (as ``eai-gym evaluate`` does), returns the next observation as a user message and
  the step's reward (per step: the ``progress`` reward is dense and sums to the best progress gained, never below 0).
"""

from __future__ import annotations

from typing import Any, Mapping

try:
    import skyrl_gym
    from skyrl_gym.envs.base_text_env import BaseTextEnv, BaseTextEnvStepOutput
except ImportError as e:  # pragma: no cover - depends on the environment
    raise ImportError("eai_gym.rl.skyrl needs skyrl-gym: pip install 'eai-gym[skyrl]'") from e

from .. import registry
from ..evaluate.episodes import reply_action
from .episode import DEFAULT_MAX_STEPS, WorldEpisode

#: the prefix of every world's SkyRL id
ID_PREFIX = "eai_gym_"
#: the ``env_config`` keys :class:`WorldTextEnv` reads
CONFIG_KEYS = ("split", "reward", "max_steps", "admissible", "protocol", "options", "seed")


def env_id(world: str) -> str:
    """The SkyRL id of ``world`` (``eai_gym_alfworld``...)."""
    return ID_PREFIX + registry.world(world).name


def _plain(value: Any) -> Any:
    """An OmegaConf container (what SkyRL passes as ``env_config``) as plain dicts and lists."""
    if hasattr(value, "items") and callable(value.items):
        return {str(k): _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)) or type(value).__name__ == "ListConfig":
        return [_plain(v) for v in value]
    return value


def _row_value(extras: Mapping[str, Any], key: str) -> Any:
    if key in extras:
        return extras[key]
    info = extras.get("extra_info")
    return info.get(key) if isinstance(info, Mapping) else None


class WorldTextEnv(BaseTextEnv):
    """One episode of an eai-gym world for SkyRL (see the module docstring).

    Args:
        world: the world (set by the registered id's kwargs).
        env_config: the trainer's config for this env id (keys :data:`CONFIG_KEYS`).
        extras: the dataset row's extras: ``task`` (required), ``split``, ``max_turns``.
    """

    def __init__(self, world: str, env_config: Any = None, extras: Mapping[str, Any] | None = None) -> None:
        super().__init__()
        config = _plain(env_config) if env_config is not None else {}
        if not isinstance(config, dict):
            raise TypeError(f"env_config must be a mapping, not {type(env_config).__name__}")
        unknown = sorted(set(config) - set(CONFIG_KEYS))
        if unknown:
            raise ValueError(f"unknown env_config key(s) {', '.join(unknown)} (known: {', '.join(CONFIG_KEYS)})")
        extras = dict(extras or {})
        task = _row_value(extras, "task")
        if task is None:
            raise KeyError("the row's extras have no 'task' (eai_gym.rl.datasets.task_rows makes such rows)")
        split = _row_value(extras, "split") or config.get("split")
        max_turns = extras.get("max_turns", config.get("max_steps", DEFAULT_MAX_STEPS))
        self.episode = WorldEpisode(world, split, reward=config.get("reward", "success"), max_steps=max_turns,
                                    admissible=config.get("admissible", False), protocol=config.get("protocol"),
                                    options=config.get("options"), seed=config.get("seed", 0))
        self.task = str(task)
        self.max_turns = self.episode.max_steps

    def init(self, prompt: list[dict[str, Any]]) -> tuple[list[dict[str, Any]], dict[str, Any]]:
        """The prompt with the task's first observation appended to its last user message."""
        observation = "Your task:\n" + self.episode.reset(self.task)
        messages = [dict(m) for m in prompt]
        if messages and messages[-1].get("role") == "user" and isinstance(messages[-1].get("content"), str):
            messages[-1]["content"] = messages[-1]["content"] + "\n\n" + observation
        else:
            messages.append({"role": "user", "content": observation})
        return messages, {"task": self.task, "split": self.episode.split.name}

    def step(self, action: str) -> BaseTextEnvStepOutput:
        """Play the reply's action; the next observation (none once done), the step's reward and ``done``."""
        self.turns += 1
        result = self.episode.step(reply_action(action if isinstance(action, str) else str(action)))
        return BaseTextEnvStepOutput(
            observations=[] if result.done else [{"role": "user", "content": result.observation}],
            reward=result.reward, done=result.done,
            metadata={"task": self.task, "won": result.won, "truncated": result.truncated, "error": result.error,
                      "steps": self.episode.steps},
            postprocessed_action=None)

    def get_metrics(self) -> dict[str, Any]:
        """The episode's numbers: success, total reward, steps, EAI error counts (and progress, if rewarded)."""
        return {k: v for k, v in self.episode.metrics().items() if isinstance(v, (int, float)) and v is not None}

    def close(self) -> None:
        self.episode.close()


def register_envs(worlds: tuple[str, ...] | None = None) -> list[str]:
    """Register the SkyRL id of every world (or of ``worlds``) in this process; idempotent. Returns the ids."""
    from skyrl_gym.envs.registration import registry as skyrl_registry

    ids = []
    for name in worlds if worlds is not None else registry.world_names():
        spec = registry.world(name)
        if not spec.agent_prompt:
            continue
        ident = env_id(spec.name)
        if ident not in skyrl_registry:
            skyrl_gym.register(id=ident, entry_point=f"{__name__}:WorldTextEnv", kwargs={"world": spec.name})
        ids.append(ident)
    return ids


register_envs()
