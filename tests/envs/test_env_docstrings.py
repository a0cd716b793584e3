"""Every registered env documents itself like a Gymnasium env: its class docstring has Gymnasium's sections, and what
they can be checked against is true of the env (its id and version, its constructor's arguments and defaults, its
reset options, its spaces, its step limit, the info keys it returns). A factory entry point (PettingZoo's
``parallel_env``/``aec_env``) points to the class it builds, which holds the docstring."""

from __future__ import annotations

import inspect
import re
from pathlib import Path
from typing import Any

import gymnasium as gym
import pytest

import eai_gym  # noqa: F401  (registers the ids)
from eai_gym import registry

#: Gymnasium's template (gymnasium/envs/classic_control/cartpole.py, toy_text/frozen_lake.py), in this order; a
#: docstring may add sections (e.g. ``Information``) between them
SECTIONS = ("Description", "Action Space", "Observation Space", "Rewards", "Starting State", "Episode End",
            "Arguments", "Version History")

ENVS = [e for w in registry.worlds() for e in w.envs]
IDS = [f"{e.id}:{e.kind}" for e in ENVS]
_ROW = re.compile(r"^\| ``(\w+)`` \| (.*?) \| (.*?) \| (.*) \|$")
DOCS = Path(__file__).resolve().parents[2] / "docs"
#: the arguments that turn an env's opt-in info keys on (an env without any needs no entry)
OPT_IN = {"eai_gym/VirtualHome-v0": {"admissible": True}, "eai_gym/rearrange-v0": {"legal_actions_info": True},
          "eai_gym/Rearrange-v0": {"legal_actions_info": True},
          "eai_gym/AlfWorld-v0": {"request_infos": ["admissible_commands", "won", "expert_plan", "expert_next", "facts"]}}


def documented_class(spec: registry.EnvSpec) -> type:
    """The class whose docstring documents the env: the entry point, or the class a factory builds."""
    entry = registry.load(spec.entry_point)
    if inspect.isclass(entry):
        return entry
    cls = type(make(spec).unwrapped)
    assert cls.__name__ in (entry.__doc__ or ""), f"{spec.entry_point}'s docstring does not name {cls.__name__}"
    return cls


def make(spec: registry.EnvSpec, **kwargs: Any) -> Any:
    if spec.kind == "gymnasium":
        return gym.make(spec.id, **kwargs)
    return registry.load(spec.entry_point)(**kwargs)


def sections(cls: type) -> dict[str, str]:
    """The docstring's ``## Title`` sections: title -> text (the text before the first one under ``""``)."""
    out: dict[str, str] = {}
    title = ""
    for line in inspect.getdoc(cls).splitlines():
        if line.startswith("## "):
            title = line[3:].strip()
            assert title not in out, f"{cls.__name__}: section {title!r} twice"
            out[title] = ""
        else:
            out[title] = out.get(title, "") + line + "\n"
    return out


def shown_default(value: Any) -> str:
    return repr(value).replace("'", '"')


@pytest.mark.parametrize("spec", ENVS, ids=IDS)
def test_the_docstring_has_gymnasiums_sections_in_order(spec):
    found = [t for t in sections(documented_class(spec)) if t in SECTIONS]
    assert found == list(SECTIONS)


@pytest.mark.parametrize("spec", ENVS, ids=IDS)
def test_the_docstring_names_the_id_and_its_version(spec):
    cls = documented_class(spec)
    assert spec.id in inspect.getdoc(cls)
    version = spec.id.rsplit("-", 1)[1]
    assert re.search(rf"^- {version}: ", sections(cls)["Version History"], re.M)


@pytest.mark.parametrize("spec", ENVS, ids=IDS)
def test_every_argument_is_in_the_table_with_its_default(spec):
    cls = documented_class(spec)
    rows = {m.group(1): m.group(3).replace("``", "") for m in map(_ROW.match, sections(cls)["Arguments"].splitlines())
            if m}
    params = [p for p in inspect.signature(cls.__init__).parameters.values() if p.name != "self"]
    assert sorted(rows) == sorted(p.name for p in params)
    assert {p.name: shown_default(p.default) for p in params} == rows


@pytest.mark.parametrize("spec", ENVS, ids=IDS)
def test_every_reset_option_is_named(spec):
    cls = documented_class(spec)
    arguments = sections(cls)["Arguments"]
    assert cls.RESET_OPTIONS
    assert [k for k in cls.RESET_OPTIONS if f"``{k}``" not in arguments] == []


@pytest.mark.parametrize("spec", ENVS, ids=IDS)
@pytest.mark.parametrize("action_mode,opt_in", [("text", False), ("index", False), ("text", True)],
                         ids=["text", "index", "opt-in"])
def test_the_spaces_step_limit_and_info_keys_are_the_envs(spec, action_mode, opt_in):
    cls = documented_class(spec)
    text = sections(cls)
    env = make(spec, action_mode=action_mode, **(OPT_IN.get(spec.id, {}) if opt_in else {}))
    if spec.kind == "gymnasium":
        action_space, observation_space = env.action_space, env.observation_space
        _, info = env.reset(seed=0)
        infos = [info, env.step(action_space.sample())[4]]
    else:
        agent = env.possible_agents[0]
        action_space, observation_space = env.action_space(agent), env.observation_space(agent)
        first = env.reset(seed=0)[1] if spec.kind == "parallel" else (env.reset(seed=0), env.infos)[1]
        step = (env.step({a: env.action_space(a).sample() for a in env.agents})[4] if spec.kind == "parallel"
                else (env.step(action_space.sample()), env.infos)[1])
        infos = [first[agent], step[agent]]
    env.close()
    shown = (f"Discrete({action_space.n})" if action_mode == "index"
             else f"Text(max_length={action_space.max_length})")
    assert f"``{shown}``" in text["Action Space"]
    assert f"``Text(max_length={observation_space.max_length})``" in text["Observation Space"]
    if spec.max_episode_steps is not None:
        assert f"after {spec.max_episode_steps} steps" in text["Episode End"]
    described = text["Information"]
    assert [k for k in sorted({k for info in infos for k in info}) if f"``{k}``" not in described] == []


@pytest.mark.parametrize("spec", ENVS, ids=IDS)
def test_a_world_page_renders_the_docstring(spec):
    """A page of the site other than the API reference shows the docstring (mkdocstrings, without the members)."""
    cls = documented_class(spec)
    directive = re.compile(rf"^::: {re.escape(cls.__module__)}\.{cls.__qualname__}\n(    .*\n)*?      members: false$",
                           re.M)
    pages = [p.name for p in sorted(DOCS.glob("*.md")) if p.name != "api.md" and directive.search(p.read_text())]
    assert pages, f"no docs page renders {cls.__qualname__}'s docstring"
