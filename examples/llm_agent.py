"""An LLM agent playing ALFWorld through any OpenAI-compatible chat endpoint, with the metric wrappers.

    python examples/llm_agent.py                                   # a deterministic fake model (what CI runs)
    python examples/llm_agent.py --base-url http://localhost:8000/v1 --model my-model   # a real endpoint
    OPENAI_API_KEY=... python examples/llm_agent.py --base-url https://api.openai.com/v1 --model gpt-4o-mini

The agent sends the observation and the admissible commands, asks for one command, and steps the env.
The fake model is a small local HTTP server speaking the same protocol: it answers with an admissible
command chosen by a hash of the prompt, so runs are reproducible. Only the standard library is used
for HTTP.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import re
import threading
import urllib.request
from http.server import BaseHTTPRequestHandler, HTTPServer

import gymnasium as gym

import eai_gym  # noqa: F401  (registers the envs)
from eai_gym.wrappers import GoalSuccess, ProgressRate, PropositionLog, TrajectoryErrors

SYSTEM = ("You are a household agent in a text world. Reply with exactly one command from the list of "
          "admissible commands, and nothing else.")


def chat(base_url: str, model: str, messages: list[dict], api_key: str | None) -> str:
    """One chat completion (OpenAI's /chat/completions), the reply text."""
    body = json.dumps({"model": model, "messages": messages, "temperature": 0}).encode()
    req = urllib.request.Request(base_url.rstrip("/") + "/chat/completions", data=body,
                                 headers={"Content-Type": "application/json",
                                          **({"Authorization": f"Bearer {api_key}"} if api_key else {})})
    with urllib.request.urlopen(req, timeout=60) as resp:
        return json.load(resp)["choices"][0]["message"]["content"]


class FakeModel(BaseHTTPRequestHandler):
    """A deterministic stand-in for an LLM server: picks an admissible command listed in the prompt."""

    def do_POST(self) -> None:  # noqa: N802 (http.server's name)
        request = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        prompt = request["messages"][-1]["content"]
        commands = re.findall(r"^- (.+)$", prompt, flags=re.M)
        useful = [c for c in commands if not c.startswith(("examine", "look", "inventory", "help"))] or commands
        pick = useful[int(hashlib.sha256(prompt.encode()).hexdigest(), 16) % len(useful)] if useful else "look"
        reply = {"id": "fake", "object": "chat.completion", "model": request.get("model", "fake"),
                 "choices": [{"index": 0, "message": {"role": "assistant", "content": pick}, "finish_reason": "stop"}]}
        data = json.dumps(reply).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args) -> None:
        pass


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--base-url", help="an OpenAI-compatible endpoint (default: start the fake model)")
    ap.add_argument("--model", default="fake-model")
    ap.add_argument("--games", type=int, default=3, help="eval games to play")
    ap.add_argument("--max-steps", type=int, default=30)
    args = ap.parse_args()
    server = None
    base_url = args.base_url
    if base_url is None:
        server = HTTPServer(("127.0.0.1", 0), FakeModel)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        base_url = f"http://127.0.0.1:{server.server_address[1]}/v1"
    env = GoalSuccess(ProgressRate(PropositionLog(TrajectoryErrors(
        gym.make("eai_gym/AlfWorld-v0", max_episode_steps=args.max_steps)))))
    for game in range(args.games):
        obs, info = env.reset(seed=game, options={"split": "eval", "index": game})
        history = [{"role": "system", "content": SYSTEM}]
        while True:
            prompt = obs + "\n\nAdmissible commands:\n" + "\n".join(f"- {c}" for c in info["admissible_commands"])
            command = chat(base_url, args.model, history + [{"role": "user", "content": prompt}],
                           os.environ.get("OPENAI_API_KEY")).strip()
            history += [{"role": "user", "content": obs}, {"role": "assistant", "content": command}]
            obs, reward, terminated, truncated, info = env.step(command)
            if terminated or truncated:
                break
        g, p, e = (info[k]["summary"] for k in ("goal_success", "progress_rate", "trajectory_errors"))
        print(f"game {game}: success {g['success']}, steps {g['steps']}, progress {p['final']:.2f} "
              f"(max {p['max']:.2f}, {p['definition']}), errors {sum(e['counts'].values())}")
    if server is not None:
        server.shutdown()


if __name__ == "__main__":
    main()
