"""`eai-gym serve alfworld` driven over loopback HTTP with AgentGym's client calling sequence."""

from __future__ import annotations

import json
import subprocess
import sys
import time

import pytest

requests = pytest.importorskip("requests")
pytest.importorskip("fastapi")
pytest.importorskip("uvicorn")

from eai_gym.compat import alfworld as compat  # noqa: E402
from eai_gym.compat.alfworld.game_files import export_game  # noqa: E402
from eai_gym.envs.alfworld.engine import Engine  # noqa: E402
from eai_gym.envs.alfworld.oracle import Oracle  # noqa: E402
from eai_gym.serve.alfworld import main  # noqa: E402,F401 - the module under test

N_TRAIN = 3553


def start(*args: str, idle: str = "3600"):
    proc = subprocess.Popen([sys.executable, "-c", "import sys; from eai_gym.serve.alfworld import main; "
                             "sys.exit(main(sys.argv[1:]))", "--port", "0", "--idle-timeout", idle, *args],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    line = proc.stdout.readline().strip()
    assert line.startswith("http://127.0.0.1:"), (line, proc.stderr.read() if proc.poll() else "")
    url = line
    for _ in range(100):
        try:
            requests.get(url + "/", timeout=2)
            break
        except requests.ConnectionError:
            time.sleep(0.05)
    return proc, url


def stop(proc):
    proc.terminate()
    try:
        proc.wait(timeout=10)
    except subprocess.TimeoutExpired:
        proc.kill()


@pytest.fixture(scope="module", params=["0.3", "0.4"])
def server(request):
    proc, url = start("--dialect", request.param)
    yield url, request.param
    stop(proc)


class Client:
    """AgentGym's AlfWorldEnvClient calling sequence (create; reset with game and world_type; step; close),
    rewritten from its published code's pattern."""

    def __init__(self, base: str) -> None:
        self.base = base
        ok = requests.post(f"{base}/create", timeout=30)
        assert ok.status_code == 200
        self.env_id = ok.json()["id"]

    def _post(self, path, data):
        data["id"] = self.env_id
        res = requests.post(f"{self.base}/{path}", json=data, timeout=30)
        assert res.status_code == 200
        return res.json()

    def _get(self, path):
        res = requests.get(f"{self.base}/{path}?id={self.env_id}", timeout=30)
        assert res.status_code == 200
        return res.json()

    def reset(self, game, world_type="Text"):
        response = {}
        for _ in range(3):
            response = self._post("reset", {"game": game, "world_type": world_type})
            if "observation" in response:
                break
        self.info = {"observation": response["observation"], "available_actions": response["available_actions"],
                     "reward": 0, "done": False}
        return response

    def step(self, action):
        response = self._post("step", {"action": action})
        self.info = {k: response[k] for k in ("observation", "available_actions", "reward", "done")}
        return response

    def close(self):
        return self._post("close", {})


def oracle_for(game_index: int, dialect: str):
    path = (compat.shipped_paths("train") + compat.shipped_paths("eval_out_of_distribution"))[game_index]
    engine = Engine(compat.load_game(path), dialect)
    return engine, Oracle(engine), engine.initial_state()


@pytest.mark.parametrize("game", [0, 1, 2, 3, 4, 5, N_TRAIN, N_TRAIN + 133])
def test_agentgym_client_plays_to_the_end(server, game):
    url, dialect = server
    client = Client(url)
    r = client.reset(game)
    assert set(r) == {"id", "observation", "available_actions", "task_type"}
    assert r["observation"].startswith("You are in the middle of a room.") and "Your task is to: " in r["observation"]
    assert r["task_type"].split("/")[0].split("-")[0] in {
        "pick_and_place_simple", "look_at_obj_in_light", "pick_clean_then_place_in_recep",
        "pick_heat_then_place_in_recep", "pick_cool_then_place_in_recep", "pick_two_obj_and_place"}
    assert r["available_actions"] == sorted(r["available_actions"])
    engine, oracle, state = oracle_for(game, dialect)
    assert requests.get(f"{url}/observation?id={client.env_id}").json() == r["observation"]
    detail = requests.get(f"{url}/detail?id={client.env_id}").json()
    assert detail["done"] is False and detail["game"] == game and detail["world_type"] == "Text"
    done, steps = False, 0
    while not done and steps < 50:
        action = oracle.plan(state)[0]
        engine.step(state, action)
        out = client.step(action)
        assert set(out) == {"observation", "reward", "available_actions", "done"}
        assert not out["observation"].startswith("You arrive at loc ")
        done, steps = out["done"], steps + 1
    assert done and out["reward"] == 1.0
    finished = {"error": f"The task with environment {client.env_id} has finished."}
    assert requests.get(f"{url}/detail?id={client.env_id}").json() == finished  # as AgentGym's _check_id
    after = client._post("step", {"action": "look"})
    assert after == {"error": f"The task with environment {client.env_id} has finished."}
    assert client.reset(game)["observation"] == r["observation"]  # a finished env can be reset
    closed = client.close()
    assert closed["closed"] is True and closed["id"] == client.env_id
    assert client._post("step", {"action": "look"}) == {
        "error": f"The task with environment {client.env_id} has been deleted."}


def test_bad_input_gets_clear_errors_and_the_server_keeps_serving(server):
    url, _ = server
    good = Client(url)
    good.reset(0)
    bad = Client(url)
    post = lambda path, body: requests.post(f"{url}/{path}", json=body, timeout=30)  # noqa: E731
    assert post("step", {"id": 10**6, "action": "look"}).json() == {"error": "The id 1000000 is not valid."}
    assert "POST /reset first" in post("step", {"id": bad.env_id, "action": "look"}).json()["error"]
    assert "out of range" in post("reset", {"id": bad.env_id, "game": 10**6, "world_type": "Text"}).json()["error"]
    assert "out of range" in post("reset", {"id": bad.env_id, "game": -1, "world_type": "Text"}).json()["error"]
    assert post("reset", {"id": bad.env_id, "game": 0, "world_type": "Vision"}).json() == {
        "error": 'world_type must be one of "Text", "Embody" and "Hybrid"'}
    res = requests.post(f"{url}/step", data="{not json", headers={"Content-Type": "application/json"}, timeout=30)
    assert res.status_code == 400
    assert post("step", {"id": good.env_id}).status_code == 400
    assert requests.get(f"{url}/detail?id=abc", timeout=30).status_code == 400
    big = post("step", {"id": good.env_id, "action": "x" * 100_000}).json()
    assert "100000 characters" in big["error"]
    assert requests.get(f"{url}/available_actions?id={bad.env_id}").json()["error"].endswith("POST /reset first")
    # the good env is unaffected
    out = good.step("look")
    assert set(out) == {"observation", "reward", "available_actions", "done"} and out["done"] is False
    assert post("close", {"id": 10**6}).json() == {"error": "The id 1000000 is not valid."}
    good.close(), bad.close()


def test_idle_envs_are_reclaimed():
    proc, url = start("--idle-timeout", "0.5", idle="0.5")
    try:
        c = Client(url)
        c.reset(0)
        time.sleep(1.6)
        assert c._post("step", {"action": "look"}) == {"error": f"The task with environment {c.env_id} has been deleted."}
    finally:
        stop(proc)


def test_games_folder_and_agentgym_mapping_files(tmp_path):
    train = compat.shipped_paths("train", 4)
    test = compat.shipped_paths("eval_out_of_distribution", 3)
    mappings = []
    for paths, root, name in ((train, "train", "train"), (test, "valid_train", "test")):
        entries = []
        for p in paths:
            written = export_game(p, str(tmp_path))
            if root == "valid_train":  # AgentGym's test games live under json_2.1.1/valid_train
                import shutil
                src = written.rsplit("/", 1)[0]
                dst = src.replace("/valid_unseen/", "/valid_train/")
                shutil.copytree(src, dst)
            task, trial = p.split("/")[-3:-1]
            entries.append({"task_type": task, "task_id": trial})
        mp = tmp_path / f"mappings_{name}.json"
        mp.write_text(json.dumps(entries))
        mappings.append(str(mp))
    proc, url = start("--games", str(tmp_path), "--mapping", *mappings)
    try:
        c = Client(url)
        for game, path in enumerate(train + test):
            assert c.reset(game)["task_type"] == "/".join(path.split("/")[-3:-1])
        assert "out of range" in c._post("reset", {"game": 7, "world_type": "Text"})["error"]
    finally:
        stop(proc)
    proc, url = start("--games", str(tmp_path / "json_2.1.1" / "train"))
    try:
        c = Client(url)
        names = sorted("/".join(p.split("/")[-3:-1]) for p in train)
        assert [c.reset(i)["task_type"] for i in range(4)] == names
    finally:
        stop(proc)


def test_main_rejects_bad_arguments(tmp_path, capsys):
    assert main(["--port", "0", "--games", str(tmp_path / "missing")]) == 2
    assert "not a folder" in capsys.readouterr().err
    assert main(["--port", "0", "--mapping", "x.json"]) == 2
