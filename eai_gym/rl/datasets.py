"""A world split's tasks as dataset rows for RL trainers: the prompt ``eai-gym evaluate --mode episodes`` gives a
model (the world's agent prompt: instructions and worked examples) and the task id.

Each row: ``prompt`` (one user message), ``world``, ``split``, ``task`` and ``environment`` (the world's name: the
key of TRL's ``environment_factory={name: Cls}``, see :func:`eai_gym.rl.trl.environment_classes`). The adapters'
``reset`` reads ``task`` (and checks ``split``); the first observation is appended to the prompt by the trainer.

Splits are the world's declared ones (:class:`eai_gym.registry.SplitSpec`). ``split="train"`` on a world that has no
training split is an error saying so: the EAI tasks (VirtualHome, BEHAVIOR), BEHAVIOR-1K's activities and the
rearrange validation episodes are evaluation sets, never handed out as training data. A split's role can be asked for
explicitly with ``role=`` (``"train"`` or ``"eval"``).
"""

from __future__ import annotations

from typing import Any

from .. import registry
from .split_play import split_tasks

#: how the prompt asks for actions, per adapter: TRL's tool call, or one action per reply (SkyRL)
ACTING = {
    "tool": "Act by calling the act tool with one action at a time, written exactly as shown above.",
    "text": "Reply with your next action only, on one line.",
}


def _split(world: registry.WorldSpec, split: str | None, role: str | None) -> registry.SplitSpec:
    if role is not None and role not in registry.SPLIT_ROLES:
        raise ValueError(f"role must be one of {', '.join(registry.SPLIT_ROLES)}, not {role!r}")
    names = [s.name for s in world.split_specs]
    if split is None:
        if role is None:
            return world.split()
        chosen = next((s for s in world.split_specs if s.role == role), None)
        if chosen is None:
            raise ValueError(f"{world.name} has no {role} split: its split(s) {', '.join(names)} are for "
                             f"{' and '.join(sorted({s.role for s in world.split_specs}))} only")
        return chosen
    if split not in names:
        if split == "train":
            raise ValueError(f"{world.name} has no train split: its tasks ({', '.join(names)}) are an evaluation set, "
                             "not training data")
        raise ValueError(f"{world.name} has split(s) {', '.join(names)}, not {split!r}")
    chosen = world.split(split)
    if role is not None and chosen.role != role:
        raise ValueError(f"{world.name} split {split!r} is for {chosen.role}, not {role}")
    return chosen


def prompt_text(world: str, options: dict[str, Any] | None = None, acting: str = "tool") -> str:
    """What the model is told before the task: the world's agent-prompt instructions, its worked examples and how
    to act (``acting``: ``"tool"`` or ``"text"``)."""
    spec = registry.world(world)
    if not spec.agent_prompt:
        raise ValueError(f"{world} has no agent prompt: it cannot be played online")
    if acting not in ACTING:
        raise ValueError(f"acting must be one of {', '.join(ACTING)}, not {acting!r}")
    prompt = registry.load(spec.agent_prompt)
    options = {**(options or {}), "team": False}  # one agent plays the world's single-agent env
    parts = [prompt.instructions(options).strip()]
    examples = prompt.examples(options)
    if examples:
        parts.append("Examples:\n" + examples.strip())
    parts.append(ACTING[acting])
    return "\n\n".join(parts)


def task_rows(world: str, split: str | None = None, *, role: str | None = None, limit: int | None = None,
              options: dict[str, Any] | None = None, acting: str = "tool") -> list[dict[str, Any]]:
    """The rows of ``world``'s ``split`` (default: its task set), in the split's task order; ``limit``: the first N."""
    spec = registry.world(world)
    chosen = _split(spec, split, role)
    if limit is not None and (isinstance(limit, bool) or not isinstance(limit, int) or limit < 0):
        raise ValueError(f"limit must be an int of at least 0, not {limit!r}")
    ids = list(split_tasks(spec.name, chosen.name).ids)
    ids = ids[:limit] if limit is not None else ids
    text = prompt_text(spec.name, options, acting)
    return [{"prompt": [{"role": "user", "content": text}], "world": spec.name, "split": chosen.name, "task": t,
             "environment": spec.name} for t in ids]


def task_dataset(world: str, split: str | None = None, **kwargs: Any) -> Any:
    """:func:`task_rows` as a ``datasets.Dataset`` (needs the ``datasets`` package)."""
    try:
        from datasets import Dataset
    except ImportError as e:
        raise ImportError("task_dataset needs the datasets package (pip install datasets); task_rows gives the same "
                          "rows as a list of dicts") from e
    return Dataset.from_list(task_rows(world, split, **kwargs))
