"""`eai-gym serve alfworld` refuses what does not fit its protocol or its limits, and keeps serving: requests with
NaN/Infinity, wrong JSON types, oversized bodies, more envs than ``--max-envs``; the API docs only with ``--docs``."""

from __future__ import annotations

import json
import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

TestClient = pytest.importorskip("fastapi.testclient").TestClient  # (needs Starlette's HTTP client package)

from eai_gym.serve.alfworld import build_app  # noqa: E402

from .test_alfworld_server import start, stop  # noqa: E402

requests = pytest.importorskip("requests")

#: each body route and a valid body for it (``id`` 0)
BODIES = {"/step": {"id": 0, "action": "look"}, "/reset": {"id": 0, "game": 0, "world_type": "Text"},
          "/close": {"id": 0}}
NOT_FINITE = ("NaN", "Infinity", "-Infinity", "1e400", "-1e999")


@pytest.fixture(scope="module")
def client():
    with TestClient(build_app(max_envs=4, max_body_bytes=4096), raise_server_exceptions=False) as c:
        yield c


def post(client, path: str, text: str):
    return client.post(path, content=text, headers={"Content-Type": "application/json"})


def fresh_env(client) -> int:
    for idx in list(client.app.state.server.envs):  # a clean slate under the module's cap
        client.post("/close", json={"id": idx})
    env = client.post("/create").json()["id"]
    assert "observation" in client.post("/reset", json={"id": env, "game": 0, "world_type": "Text"}).json()
    return env


@pytest.mark.parametrize("path", list(BODIES))
@pytest.mark.parametrize("number", NOT_FINITE)
def test_non_finite_numbers_are_a_400_naming_them(client, path, number):
    env = fresh_env(client)
    for field in [*BODIES[path], "extra"]:
        text = json.dumps({**BODIES[path], "id": env, field: "__number__"}).replace('"__number__"', number)
        res = post(client, path, text)
        assert res.status_code == 400, (text, res.text)
        assert number in res.json()["detail"] and "finite" in res.json()["detail"]
    assert client.get(f"/detail?id={env}").json()["game"] == 0  # the env is untouched


@pytest.mark.parametrize("path", list(BODIES))
@pytest.mark.parametrize("bad", [True, False, 1.0, "0", None, [0], {"id": 0}])
def test_an_id_of_another_json_type_is_a_400(client, path, bad):
    first, second = fresh_env(client), client.post("/create").json()["id"]
    client.post("/reset", json={"id": second, "game": 1, "world_type": "Text"})
    before = client.get(f"/detail?id={second}").json()
    res = client.post(path, json={**BODIES[path], "id": bad})
    assert res.status_code == 400 and res.json()["detail"][0]["loc"] == ["body", "id"], res.text
    assert client.get(f"/detail?id={second}").json() == before and client.get(f"/detail?id={first}").status_code == 200


def test_a_game_of_another_json_type_is_a_400(client):
    env = fresh_env(client)
    for bad in (True, 1.5, "1"):
        res = client.post("/reset", json={"id": env, "game": bad, "world_type": "Text"})
        assert res.status_code == 400 and res.json()["detail"][0]["loc"] == ["body", "game"]


def test_bodies_over_the_limit_are_a_413(client):
    env = fresh_env(client)
    exact = json.dumps({"id": env, "action": "look"})
    exact += " " * (4096 - len(exact))
    assert post(client, "/step", exact).status_code == 200
    res = post(client, "/step", exact + " ")
    assert res.status_code == 413 and "4096 bytes" in res.json()["detail"]
    chunks = (b" " * 1024 for _ in range(5))  # no Content-Length: counted as it arrives
    res = client.post("/step", content=chunks, headers={"Content-Type": "application/json"})
    assert res.status_code == 413
    assert client.post("/step", json={"id": env, "action": "look"}).status_code == 200


def test_max_envs_caps_create_in_agentgyms_error_convention(client):
    fresh_env(client)
    made = [client.post("/create").json()["id"] for _ in range(3)]
    full = client.post("/create")
    assert full.status_code == 200 and "maximum of 4 envs" in full.json()["error"]
    client.post("/close", json={"id": made[0]})
    assert "id" in client.post("/create").json()


def test_api_docs_only_when_asked_for(client):
    for page in ("/docs", "/redoc", "/openapi.json"):
        assert client.get(page).status_code == 404
    with TestClient(build_app(docs=True)) as with_docs:
        for page in ("/docs", "/redoc", "/openapi.json"):
            assert with_docs.get(page).status_code == 200


JSON = st.recursive(st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats() | st.text(max_size=20),
                    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=8), inner, max_size=4),
                    max_leaves=12)


@settings(max_examples=150, deadline=None)
@given(path=st.sampled_from(list(BODIES)), fields=st.dictionaries(st.sampled_from(["id", "action", "game",
                                                                                  "world_type", "x"]), JSON))
def test_arbitrary_json_bodies_get_the_protocol_or_a_400(client, path, fields):
    """Never a 500: a body the protocol accepts gets its payload or AgentGym's {"error"}, any other a 400."""
    res = post(client, path, json.dumps(fields))  # (NaN and Infinity written as Python's JSON writes them)
    assert res.status_code in (200, 400), res.text
    body = res.json()
    if res.status_code == 400:
        assert body["detail"]
    non_finite = any(isinstance(v, float) and not math.isfinite(v) for v in _leaves(fields))
    assert not (non_finite and res.status_code == 200)


def _leaves(value):
    if isinstance(value, dict):
        for v in value.values():
            yield from _leaves(v)
    elif isinstance(value, list):
        for v in value:
            yield from _leaves(v)
    else:
        yield value


def test_the_real_server_applies_the_limits():
    proc, url = start("--max-envs", "1", "--max-body-bytes", "2000", "--docs")
    try:
        env = requests.post(url + "/create", timeout=30).json()["id"]
        assert "error" in requests.post(url + "/create", timeout=30).json()
        assert requests.post(url + "/reset", json={"id": env, "game": 0, "world_type": "Text"}, timeout=30).ok
        headers = {"Content-Type": "application/json"}
        nan = requests.post(url + "/step", data='{"id": NaN, "action": "look"}', headers=headers, timeout=30)
        assert nan.status_code == 400
        assert requests.post(url + "/step", json={"id": True, "action": "look"}, timeout=30).status_code == 400
        big = requests.post(url + "/step", json={"id": env, "action": "x" * 3000}, timeout=30)
        assert big.status_code == 413
        step = requests.post(url + "/step", json={"id": env, "action": "look"}, timeout=30)
        assert set(step.json()) == {"observation", "reward", "available_actions", "done"}
        assert requests.get(url + "/docs", timeout=30).status_code == 200
    finally:
        stop(proc)
