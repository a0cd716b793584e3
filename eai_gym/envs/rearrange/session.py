"""What the PettingZoo and the Gymnasium rearrange envs share: episode choice, world, observations, infos."""

from __future__ import annotations

from typing import Any, Mapping, Sequence

import numpy as np

from ...core import Action, Step, UnknownTaskError
from ..arguments import action_index, check_text_action, kind, reset_options, shown, str_option
from ..base import CHARSET, MAX_ACTION, MAX_OBS, printable
from . import catalogue as cat
from .episode import EpisodeError, RearrangeEpisode, load_episodes, shipped_episodes
from .skills import SkillFailure, parse
from .world import Feedback, RearrangeWorld

__all__ = ["CHARSET", "MAX_ACTION", "MAX_OBS", "RESET_OPTIONS", "RearrangeSession"]

#: the keys ``reset(options=...)`` accepts: an episode (a dict in the episode format, or a RearrangeEpisode) or
#: the id of one in the env's episode set
RESET_OPTIONS = ("episode", "episode_id")


class RearrangeSession:
    """Holds the episode set and the current world for an env with ``agents``."""

    def __init__(self, agents: tuple[str, ...], episodes: Any = None, episode_id: str | None = None,
                 protocol: str = "fixed", observability: str = "full", action_mode: str = "text",
                 legal_actions_info: bool = False) -> None:
        if action_mode not in ("text", "index"):
            raise ValueError(f"action_mode must be 'text' or 'index', got {action_mode!r}")
        if protocol not in ("fixed", "partnr"):
            raise ValueError(f"protocol must be 'fixed' or 'partnr', got {protocol!r}")
        if observability not in ("full", "partial"):
            raise ValueError(f"observability must be 'full' or 'partial', got {observability!r}")
        self.agents = agents
        self.episodes = _episodes(episodes)
        self.by_id = {e.episode_id: e for e in self.episodes}
        if episode_id is not None and (not isinstance(episode_id, str) or episode_id not in self.by_id):
            raise UnknownTaskError(f"unknown episode_id {shown(episode_id)}")
        self.episode_id = episode_id
        self.protocol, self.observability, self.action_mode = protocol, observability, action_mode
        self.legal_actions_info = legal_actions_info
        self.world: RearrangeWorld | None = None
        self.actions: list[str] = []
        self.steps: dict[str, Step | None] = {}

    def check_options(self, options: Any, where: str, strict: bool = True) -> dict[str, Any]:
        """The reset options (:data:`RESET_OPTIONS`), checked (see :mod:`eai_gym.envs.arguments`); ``strict=False``
        leaves other keys out instead of refusing them."""
        options = reset_options(options, RESET_OPTIONS, where, strict)
        episode = options.get("episode")
        if episode is not None and not isinstance(episode, (RearrangeEpisode, Mapping)):
            raise TypeError(f"{where}: options['episode'] must be an episode (a dict), got {kind(episode)}: "
                            f"{shown(episode)}")
        if isinstance(episode, Mapping):
            try:
                options["episode"] = RearrangeEpisode.from_json(episode)
            except EpisodeError as e:
                raise EpisodeError(f"{where}: options['episode']: {e}") from None
        eid = str_option(options, "episode_id", where)
        if eid is not None and eid not in self.by_id:
            raise UnknownTaskError(f"{where}: unknown options['episode_id'] {shown(eid)} (the episode set has "
                                   f"{len(self.by_id)}, e.g. {', '.join(list(self.by_id)[:3])})")
        return options

    def start(self, rng: np.random.Generator, options: Mapping[str, Any]) -> RearrangeWorld:
        """A new world, on the episode the options (checked by :meth:`check_options`) ask for."""
        ep = options.get("episode")
        if ep is not None:
            episode = ep if isinstance(ep, RearrangeEpisode) else RearrangeEpisode.from_json(ep)
        else:
            eid = options.get("episode_id", self.episode_id)
            if eid is None:
                episode = self.episodes[int(rng.integers(len(self.episodes)))]
            else:
                episode = self.by_id[eid]
        self.world = RearrangeWorld(episode, self.protocol, self.observability, self.agents)
        self.actions = cat.cached_catalogue(self.world) if self.action_mode == "index" else []
        self.steps = {a: None for a in self.agents}
        return self.world

    def check_action(self, action: Any, where: str) -> None:
        """Raise ``TypeError``/``ValueError`` unless ``action`` is a text (text mode) or an index into the action
        space (index mode); see :mod:`eai_gym.envs.arguments`."""
        if self.action_mode == "text":
            check_text_action(action, where)
        else:
            action_index(action, cat.MAX_ACTIONS, where)

    def action_text(self, action: Any) -> str:
        """The text of a checked action (:meth:`check_action`): an index past the catalogue names no skill."""
        if self.action_mode == "text":
            return action
        idx = int(action)
        return self.actions[idx] if idx < len(self.actions) else f"<unused action index {idx}>"

    def tick(self, actions: Mapping[str, Any], max_steps: int) -> tuple[dict[str, Feedback], float, bool, bool]:
        """One tick of the world: (feedback, reward, terminated, truncated). The reward is the change
        in task percent complete; at the end, the runner's extra evaluation update is made."""
        w = self.world
        assert w is not None
        before = w.metrics.task_percent_complete
        feedback = w.step({a: self.action_text(t) for a, t in actions.items()})
        self.record(feedback)
        reward = float(w.metrics.task_percent_complete - before)
        terminated = w.done
        truncated = not terminated and w.ticks >= max_steps
        if (terminated or truncated) and not w.success:
            w.metrics = w.tracker.final_update()
        return feedback, reward, terminated, truncated

    def record(self, feedback: Mapping[str, Feedback]) -> None:
        assert self.world is not None
        for a, fb in feedback.items():
            if not fb.started and not fb.finished:
                continue
            try:
                name, args = parse(fb.action)
                action: Action | None = Action(name, args, args, fb.action)
            except SkillFailure:
                action = None
            self.steps[a] = Step(self.world.ticks - 1, fb.action, action, fb.ok, fb.error,
                                 "" if fb.ok else fb.message, fb.message, {"finished": fb.finished})

    # -- metric hooks (eai_gym.wrappers) ------------------------------------------------------------
    def goal_propositions(self) -> list[dict[str, Any]]:
        assert self.world is not None
        return self.world.tracker.proposition_records()

    def goal_report(self) -> dict[str, Any]:
        assert self.world is not None
        m = self.world.metrics
        return {"success": bool(m.task_state_success), "partial": float(m.task_percent_complete),
                "partial_definition": "partnr_percent_complete"}

    def progress_report(self) -> dict[str, Any]:
        assert self.world is not None
        return {"definition": "partnr_percent_complete", "value": float(self.world.metrics.task_percent_complete)}

    def observation(self, agent: str) -> str:
        assert self.world is not None
        return printable(self.world.describe(agent))[:MAX_OBS]

    def info(self, agent: str, feedback: Feedback | None, ended: bool) -> dict[str, Any]:
        w = self.world
        assert w is not None
        m = w.metrics
        step = self.steps.get(agent)
        info: dict[str, Any] = {
            "episode_id": w.episode.episode_id, "task_kind": w.episode.task_kind, "tick": w.ticks,
            "feedback": {} if feedback is None else feedback.to_dict(), "busy": not w.idle(agent),
            "step": {} if step is None or feedback is None or not (feedback.finished or feedback.started)
            else step.to_dict(),
            "task_percent_complete": float(m.task_percent_complete), "task_state_success": float(m.task_state_success),
        }
        if self.action_mode == "index":
            info["action_mask"] = cat.legal_mask(w, agent, self.actions)
        if self.legal_actions_info:
            acts = self.actions or cat.catalogue(w)
            mask = info.get("action_mask")
            if mask is None:
                mask = cat.legal_mask(w, agent, acts)
            info["legal_actions"] = [t for t, ok in zip(acts, mask) if ok]
        if ended:
            info["evaluation_log"] = w.tracker.evaluation_log()
            info["explanation"] = w.tracker.explain()
        return info


class SessionMetricHooks:
    """The metric hooks (:mod:`eai_gym.wrappers`) of an env that keeps its episode in ``self.session``."""

    session: RearrangeSession

    def goal_propositions(self) -> list[dict[str, Any]]:
        """The episode's PARTNR propositions now (with dependencies and constraint validity)."""
        return self.session.goal_propositions()

    def goal_report(self) -> dict[str, Any]:
        return self.session.goal_report()

    def progress_report(self) -> dict[str, Any]:
        return self.session.progress_report()


def _episodes(source: Any) -> list[RearrangeEpisode]:
    if source is None:
        eps = shipped_episodes("val")
    elif isinstance(source, str) and source in ("val",):
        eps = shipped_episodes(source)
    elif isinstance(source, (str,)) or hasattr(source, "__fspath__"):
        eps = load_episodes(source)
    elif isinstance(source, Sequence):
        eps = [e if isinstance(e, RearrangeEpisode) else RearrangeEpisode.from_json(e) for e in source]
    else:
        raise TypeError(f"episodes must be None, 'val', a path or a list of episodes, got {type(source).__name__}")
    if not eps:
        raise ValueError("the episode set is empty")
    return eps
