"""The multi-agent rearrange world: agents running PARTNR skills concurrently, scored every tick.

One :meth:`RearrangeWorld.step` is one tick. An idle agent's action starts a skill (see
:mod:`.skills`); a busy agent's action is ignored and it is told ``Action X is still in progress.``
Skills that finish in the same tick take effect in agent order (``agent_0`` first), each against
the state its predecessors left: when both agents pick the same object in the same tick, the robot
gets it and the human is told ``Failed! This object is held by another agent.`` After every tick
the evaluation engine (:class:`~eai_gym.logic.propositions.PropositionTracker`) scores the state.

Observability: ``full`` shows every object where it is; ``partial`` shows what the agent has seen
(objects on or in furniture it navigated to or explored, opened furniture's contents, the floor of
rooms it stood in) and what either agent moved, picked or changed — at the location last seen.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any, Mapping

from ...core import ErrorType
from ...core.step import raw_text
from ...logic.propositions import PropositionTracker, StepMetrics
from . import skills
from .episode import AGENTS, RearrangeEpisode
from .houses import load_house
from .objects import object_classes
from .state import AgentState, RearrangeState

ROLES = {"agent_0": "robot", "agent_1": "human"}
OBSERVABILITY = ("full", "partial")


@dataclass
class Feedback:
    """What an agent is told after a tick."""

    action: str
    ok: bool
    finished: bool  #: False while the skill is still running
    message: str  #: PARTNR's text: "Successful execution!", "Unexpected failure! - ...", a tool's answer
    error: ErrorType | None = None
    started: bool = False  #: True when this tick's action started a skill (or failed at once)

    def to_dict(self) -> dict[str, Any]:
        return {"action": self.action, "ok": self.ok, "finished": self.finished, "message": self.message,
                "error": None if self.error is None else self.error.value, "started": self.started}


class RearrangeWorld:
    def __init__(self, episode: RearrangeEpisode, protocol: str = "fixed", observability: str = "full",
                 agents: tuple[str, ...] = AGENTS) -> None:
        if observability not in OBSERVABILITY:
            raise ValueError(f"observability must be 'full' or 'partial', got {observability!r}")
        if not agents or any(a not in AGENTS for a in agents) or len(set(agents)) != len(agents):
            raise ValueError(f"agents must be distinct names from {AGENTS}, got {agents!r}")
        self.episode = episode
        self.protocol = protocol
        self.observability = observability
        self.agents = tuple(agents)
        self.house = load_house(episode.scene_id)
        self.spec = episode.spec(protocol)
        everything = set(skills.SKILLS)
        self.capabilities = {a: (everything if len(agents) == 1 or a not in episode.capabilities
                                 else set(episode.capabilities[a]) | {"Done", "Wait"}) for a in agents}
        self.tracker = PropositionTracker(self.spec, protocol)
        self.reset()

    # -- lifecycle -------------------------------------------------------------------------------
    def reset(self) -> StepMetrics:
        ep, house = self.episode, self.house
        classes = object_classes()
        registered: dict[str, tuple[str, ...]] = {}
        for h, c in ep.object_classes.items():
            if c not in classes:
                raise ValueError(f"episode {ep.episode_id}: unknown object class {c!r} for {h}")
            extra = tuple(s for s, vals in sorted(self.spec.object_states.items()) if h in vals)
            registered[h] = tuple(dict.fromkeys(classes[c].states + extra))
        s = RearrangeState(house, dict(ep.object_classes), registered)
        s.open = {f.name: False for f in house.furniture if f.articulated}
        for h, target in ep.name_to_receptacle.items():
            if target in house.floors:
                s.put(h, "floor", target)
            elif target in house.furniture_by_name:
                s.put(h, house.furniture_by_name[target].relation, target)
            else:
                raise ValueError(f"episode {ep.episode_id}: {h} starts at unknown receptacle {target!r}")
        s.values = {k: {h: bool(v) for h, v in vals.items()} for k, vals in self.spec.object_states.items()}
        self.state = s
        for i, a in enumerate(self.agents):
            start = ep.agent_start.get(a) or house.rooms[i % len(house.rooms)].name
            s.agents[a] = AgentState(a, (0.0, 0.0), house.rooms[0].name)
            pos, room, at = skills._nav_target(self, start) if _known(s, start) else (None, None, None)
            if pos is None:
                raise ValueError(f"episode {ep.episode_id}: {a} starts at unknown place {start!r}")
            s.move_agent(a, pos, room, at)
        self.running: dict[str, skills.RunningSkill] = {}
        self.said_done = {a: False for a in self.agents}
        self.seen: dict[str, dict[str, str]] = {a: {} for a in self.agents}
        self.last: dict[str, Feedback | None] = {a: None for a in self.agents}
        rooms = [f"{r.name}: {r.floor}" + "".join(f", {f.name}" for f in house.furniture_in(r.name))
                 for r in house.rooms]
        self._header = "\n".join([f"Task: {ep.instruction}", "", "Furniture:", *rooms])
        self.ticks = 0
        self.history: list[dict[str, Any]] = []
        for a in self.agents:
            self.observe_at(a, s.agents[a].at or s.agents[a].room)
        self.metrics = self.tracker.reset(s)
        return self.metrics

    def __reduce__(self):
        # running skills and the tracker hold closures: a copy is rebuilt by replaying the ticks
        return (_replayed, (self.episode, self.protocol, self.observability, self.agents, self.history))

    def idle(self, agent: str) -> bool:
        return agent not in self.running

    @property
    def success(self) -> bool:
        return bool(self.metrics.task_state_success)

    @property
    def done(self) -> bool:
        return self.success or all(self.said_done.values())

    def step(self, actions: Mapping[str, Any]) -> dict[str, Feedback]:
        """One tick. ``actions`` maps agents to action text; busy agents' actions are ignored and an
        idle agent without an action stays idle."""
        unknown = sorted(set(actions) - set(self.agents))
        if unknown:
            raise ValueError(f"unknown agent(s) {', '.join(unknown)}; this world has {', '.join(self.agents)}")
        self.history.append({a: t for a, t in actions.items() if t is not None})
        out: dict[str, Feedback] = {}
        for a in self.agents:
            if a in self.running:
                continue
            if actions.get(a) is None:
                continue
            text = actions[a]
            shown = text.strip() if isinstance(text, str) else raw_text(text)
            self.state.agents[a].last_action = shown
            try:
                run = skills.start(self, a, text)
            except skills.SkillFailure as e:
                out[a] = Feedback(shown, False, True, f"Unexpected failure! - {e.text}", e.error, True)
                self.said_done[a] = False
                continue
            self.said_done[a] = False
            self.running[a] = run
            out[a] = Feedback(shown, True, False, f"Action {shown} is still in progress.", None, True)
        for a in self.agents:
            run = self.running.get(a)
            if run is None:
                continue
            started = a in out and out[a].started
            run.ticks_left -= 1
            if run.ticks_left > 0:
                out[a] = Feedback(run.text, True, False, f"Action {run.text} is still in progress.", None, started)
                continue
            phase = run.phases.pop(0)
            try:
                answer = phase.run()
            except skills.SkillFailure as e:
                del self.running[a]
                out[a] = Feedback(run.text, False, True, f"Unexpected failure! - {e.text}", e.error, started)
                continue
            if run.phases:
                run.ticks_left = run.phases[0].ticks
                out[a] = Feedback(run.text, True, False, f"Action {run.text} is still in progress.", None, started)
                continue
            del self.running[a]
            out[a] = Feedback(run.text, True, True, answer if answer is not None else skills.SUCCESS, None, started)
            if run.name == "Done":
                self.said_done[a] = True
        out = {a: out[a] for a in self.agents if a in out}
        for a, fb in out.items():
            if fb.finished:
                self.last[a] = fb
                self.state.agents[a].last_result = fb.message
        self.ticks += 1
        self.metrics = self.tracker.update(self.state)
        return out

    # -- perception ----------------------------------------------------------------------------
    def observe_at(self, agent: str, place: str) -> None:
        """``agent`` sees the visible objects on/in ``place`` (furniture), or on the floor of a room."""
        s = self.state
        room = s.house.floors.get(place) or (place if place in s.house.room_by_name else None)
        for h, (rel, target) in s.loc.items():
            if target == place or (room is not None and rel == "floor" and s.house.floors[target] == room):
                if s.reachable_inside(h):
                    self.seen[agent][h] = s.describe_location(h)

    def observe_objects(self, *handles: str) -> None:
        """Every agent learns where ``handles`` are now (the agents tell each other what they did)."""
        for h in handles:
            if h in self.state.loc:
                for a in self.agents:
                    self.seen[a][h] = self.state.describe_location(h)

    def visible_objects(self, agent: str) -> dict[str, str]:
        """Object -> where the agent believes it is, in the episode's object order."""
        if self.observability == "full":
            return {h: self.state.describe_location(h) for h in self.state.classes}
        seen = self.seen[agent]
        return {h: seen[h] for h in self.state.classes if h in seen}

    def near_water(self, agent: str, obj: str) -> bool:
        s = self.state
        rel, holder = s.loc.get(obj, ("", ""))
        sources = [f for f in s.house.furniture if f.water_source]
        if rel == "held":
            return holder == agent and any(skills.distance(self, agent, f.name) <= skills.REACH for f in sources)
        return any(holder == f.name for f in sources)

    def answer(self, tool: str, agent: str, query: str) -> str:
        """The Find tools: deterministic keyword matching over what the agent can see."""
        s = self.state
        words = _words(query)
        if tool == "FindAgentActionTool":
            others = [o for o in self.agents if o != agent]
            if not others:
                return "There is no other agent."
            o = others[0]
            if o in self.running:
                return f"The other agent is currently doing {self.running[o].text}."
            last = s.agents[o].last_action
            return f"The other agent's last action was {last}." if last else "The other agent has not acted yet."
        if tool == "FindRoomTool":
            rooms = [r.name for r in s.house.rooms if _matches(words, r.kind) or r.name in query]
            return ("Rooms: " + ", ".join(rooms)) if rooms else f"No room matches {query!r}. Rooms: " + ", ".join(
                r.name for r in s.house.rooms)
        if tool == "FindReceptacleTool":
            found = [f"{f.name} in {f.room}" for f in s.house.furniture
                     if _matches(words, f.cls) or f.name in query]
            return ("- " + "\n- ".join(found)) if found else f"No furniture with the name {query!r} was found."
        objs = self.visible_objects(agent)
        found = [f"{h} is on {where}" if not where.endswith("(held)") else f"{h} is held by {where[:-7]}"
                 for h, where in objs.items()
                 if _matches(words, s.classes[h]) or h in query or any(w in _words(where) for w in words)]
        return ("- " + "\n- ".join(found)) if found else f"No objects with the name {query!r} were found."

    # -- observations --------------------------------------------------------------------------
    def describe(self, agent: str) -> str:
        s = self.state
        lines = [self._header, "", "Objects:"]
        objs = self.visible_objects(agent)
        lines += [f"{h}: {where}" for h, where in objs.items()] or ["No objects found yet"]
        me = s.agents[agent]
        lines += ["", f"You are {agent} (the {ROLES[agent]}), in {me.room}, "
                  f"{'holding ' + me.held if me.held else 'holding nothing'}."]
        opened = sorted(f for f, v in s.open.items() if v)
        if opened:
            lines.append("Open furniture: " + ", ".join(opened) + ".")
        if agent in self.running:
            lines.append(f"Your action {self.running[agent].text} is still in progress.")
        elif self.last[agent] is not None:
            fb = self.last[agent]
            lines.append(f"Your last action {fb.action}: {fb.message}")
        for o in self.agents:
            if o != agent:
                last = s.agents[o].last_action
                lines.append(f"{o} (the {ROLES[o]}) last action: {last or 'none'}.")
        return "\n".join(lines)


def _replayed(episode: RearrangeEpisode, protocol: str, observability: str, agents: tuple[str, ...],
              history: list[dict[str, Any]]) -> RearrangeWorld:
    w = RearrangeWorld(episode, protocol, observability, agents)
    for actions in history:
        w.step(actions)
    return w


def _known(s: RearrangeState, name: str) -> bool:
    return name in s.house.furniture_by_name or name in s.house.floors or name in s.house.room_by_name or name in s.loc


_WORD = re.compile(r"[a-z]+")


def _words(text: str) -> set[str]:
    out = set()
    for w in _WORD.findall(text.lower()):
        out.add(w)
        if len(w) > 3 and w.endswith("s"):
            out.add(w[:-2] if w.endswith("es") and w[:-2] + "es" == w and w[-3] in "hsx" else w[:-1])
    return out


def _matches(words: set[str], cls: str) -> bool:
    parts = cls.split("_")
    return bool(parts) and all(p in words for p in parts)
