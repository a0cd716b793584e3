"""Reading runs into what a report shows, whatever the world and mode: result files of ``eai-gym score --out`` and
the runs of ``eai-gym evaluate`` (its ``results.json``, or the run directory that holds it with ``settings.json``).

A run's records differ by world and mode; this module reads each record's outcome (success), the error types it
had, its task category and its progress per step, so the report code is world-independent. Every field is read
defensively: a results file is the user's input, and ``eai-gym evaluate`` adds fields over time.
"""

from __future__ import annotations

import json
import math
import os
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..registry import SummaryLayout

#: the largest results file read (a larger one is refused with a message, not read into memory)
MAX_RESULTS_BYTES = 512 * 2 ** 20
#: the largest ``settings.json`` of a run directory read
MAX_SETTINGS_BYTES = 4 * 2 ** 20
#: the longest progress curve drawn (steps)
MAX_CURVE_STEPS = 1000
#: record statuses of items that were not scored (bad input, skipped, a failed evaluation): every other status is
#: an outcome (``evaluated``; ``scored``; the reference's ``identical_to_gold_shortcut``; an episode's ``finished``,
#: ``max_steps``, ``request_error``, ...), as the summaries count them
NOT_SCORED = ("invalid_input", "evaluation_error", "skipped_gold_test_failed", "duplicate_identifier", "ignored",
              "missing", "not_reached", "error")
RESULTS = "results.json"
SETTINGS = "settings.json"


class RunFileError(ValueError):
    """A results file (or run directory) that is not an eai-gym result."""


@dataclass
class Run:
    name: str
    path: str
    world: str
    mode: str
    protocol: str
    summary: dict[str, Any]
    records: list[dict[str, Any]]
    meta: dict[str, Any] = field(default_factory=dict)
    #: ``score`` (a results file of ``eai-gym score``) or ``evaluate`` (a run of ``eai-gym evaluate``)
    source: str = "score"
    #: the model(s) and the endpoint of an ``evaluate`` run (from its ``settings.json``)
    model: str | None = None
    endpoint: str | None = None
    #: token totals of an ``evaluate`` run (``prompt_tokens``, ``completion_tokens``, ``total_tokens``)
    tokens: dict[str, int] = field(default_factory=dict)
    #: requests that failed after their retries (``evaluate`` runs; None: not an evaluate run)
    request_errors: int | None = None
    #: what could not be read (shown in the report)
    notes: list[str] = field(default_factory=list)

    @property
    def label(self) -> str:
        return f"{self.name} ({self.world} {self.mode}, {self.protocol})"

    def evaluated(self) -> list[dict[str, Any]]:
        """The records with an outcome (see :data:`NOT_SCORED`)."""
        return [r for r in self.records if isinstance(r.get("status"), str) and r["status"] not in NOT_SCORED]

    @property
    def layout(self) -> SummaryLayout:
        """What the run's summary figures are (headline figures and units), from the registry."""
        return summary_layout(self.world, self.mode)


def summary_layout(world: str, mode: str) -> SummaryLayout:
    """The layout of a world and mode's summary (``episodes``: every world's episode summary); an empty layout
    (every figure shown as it is) for a world or mode this installation does not know."""
    from .. import registry
    from ..evaluate.targets import EPISODES

    if mode == EPISODES:
        return registry.EPISODES_SUMMARY
    try:
        return registry.mode(world, mode).summary_layout
    except registry.RegistryError:
        return SummaryLayout()


# ------------------------------------------------------------------------------ loading
def _read_json(p: Path, limit: int, what: str) -> Any:
    try:
        size = p.stat().st_size
        if size > limit:
            raise RunFileError(f"{p}: {size // 2 ** 20} MB, larger than the {limit // 2 ** 20} MB a {what} may be")
        with p.open("rb") as f:
            return json.loads(f.read(limit + 1).decode("utf-8"))
    except FileNotFoundError:
        raise RunFileError(f"{p}: no such file") from None
    except IsADirectoryError:
        raise RunFileError(f"{p}: a directory without {RESULTS}") from None
    except (OSError, UnicodeDecodeError, ValueError) as e:
        raise RunFileError(f"{p}: not a readable JSON file ({e})") from None
    except RecursionError:
        raise RunFileError(f"{p}: not a readable JSON file (nested too deeply)") from None


def _text(value: Any) -> str | None:
    if isinstance(value, str):
        return value
    if isinstance(value, (list, tuple)) and value and all(isinstance(v, str) for v in value):
        return ", ".join(value)
    return None


def _count(value: Any) -> int | None:
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and math.isfinite(value) and value.is_integer():
        return int(value)
    return None


def load_run(path: str | Path, name: str | None = None) -> Run:
    """A results file of ``eai-gym score --out`` or ``eai-gym evaluate``, or an ``evaluate`` run directory.
    Raises :class:`RunFileError` naming the file when it is none of these."""
    p = Path(path)
    run_dir = p if p.is_dir() else None
    results = p / RESULTS if run_dir else p
    if run_dir is not None and not results.is_file():
        raise RunFileError(f"{p}: a directory without {RESULTS} (an eai-gym evaluate run directory holds it once "
                           f"its run has finished)")
    data = _read_json(results, MAX_RESULTS_BYTES, "results file")
    if not isinstance(data, dict) or not isinstance(data.get("tasks"), list) or "summary" not in data:
        raise RunFileError(f"{results}: not an eai-gym results file (expected 'summary' and 'tasks', as eai-gym score "
                           f"--out and eai-gym evaluate write them)")
    evaluate = run_dir is not None or "tokens" in data or (results.parent / SETTINGS).is_file() and "world" not in data
    settings: dict[str, Any] = {}
    notes: list[str] = []
    if evaluate and (results.parent / SETTINGS).is_file():
        try:
            loaded = _read_json(results.parent / SETTINGS, MAX_SETTINGS_BYTES, "settings file")
            settings = loaded if isinstance(loaded, dict) else {}
            if not isinstance(loaded, dict):
                notes.append(f"{SETTINGS} is not a JSON object: model and endpoint unknown")
        except RunFileError as e:
            notes.append(f"{e}: model and endpoint unknown")
    summary = data["summary"] if isinstance(data["summary"], dict) else {}

    def first(key: str) -> str:
        for source in (data, settings):
            if isinstance(source.get(key), str) and source[key]:
                return source[key]
        return "?"

    records = [r for r in data["tasks"] if isinstance(r, dict)]
    if len(records) < len(data["tasks"]):
        notes.append(f"{len(data['tasks']) - len(records)} task entries are not JSON objects (left out)")
    tokens = data.get("tokens") if isinstance(data.get("tokens"), dict) else {}
    request_errors = _count(data.get("n_request_errors"))
    if request_errors is None and evaluate:
        request_errors = _count(summary.get("request_errors"))
    if request_errors is None and evaluate:
        request_errors = sum(1 for r in records if r.get("request_error") or r.get("status") == "request_error")
    default_name = (run_dir or results.parent).name if (run_dir or results.name == RESULTS) else results.stem
    return Run(name or default_name or results.stem, str(results), first("world"), first("mode"), first("protocol"),
               summary, records, {k: v for k, v in data.items() if k not in ("tasks", "summary")},
               source="evaluate" if evaluate else "score", model=_text(settings.get("model")),
               endpoint=_text(settings.get("endpoint")),
               tokens={k: v for k, v in tokens.items() if _count(v) is not None},
               request_errors=request_errors if evaluate else None, notes=notes)


# ------------------------------------------------------------------------------ per record
def task_key(rec: dict[str, Any]) -> str:
    for k in ("task_id", "episode_id", "identifier", "game", "case_id", "task"):
        if isinstance(rec.get(k), str) and rec[k]:
            return rec[k]
    try:
        return json.dumps(rec.get("identifier"))[:200]
    except (TypeError, ValueError, RecursionError):
        return "?"


def success(rec: dict[str, Any]) -> bool | None:
    for k in ("success", "all_goal_satisfied", "task_success"):
        if k in rec and rec[k] is not None:
            return bool(rec[k])
    if "task_state_success" in rec:
        return bool(rec["task_state_success"])
    if "exact_match" in rec:
        return bool(rec["exact_match"])
    if "edit_distance" in rec:
        return rec["edit_distance"] == 0
    return None


def error_counts(rec: dict[str, Any]) -> Counter[str]:
    """The error types a record reports, with their number of occurrences where the scorer counts them."""
    out: Counter[str] = Counter()
    if isinstance(rec.get("runtime_errors"), list) and rec["runtime_errors"]:  # VirtualHome: every runtime error
        out.update(str(e) for e in rec["runtime_errors"])
    elif isinstance(rec.get("error_counts"), dict):
        for k, v in rec["error_counts"].items():
            n = _count(v)
            if n is not None and n > 0:
                out[str(k)] += n
    elif isinstance(rec.get("error_types"), list):
        out.update(str(e) for e in rec["error_types"])
    elif isinstance(rec.get("errors"), list) and rec["errors"]:
        for e in rec["errors"]:
            if isinstance(e, dict):
                t = e.get("error_type")
                out[str(t[0]) if isinstance(t, list) and t else str(t)] += 1
    elif rec.get("error_type"):
        out[str(rec["error_type"])] += 1
    elif rec.get("category") and rec.get("category") not in ("Correct",):
        out[str(rec["category"])] += 1
    return out


def error_types(rec: dict[str, Any]) -> list[str]:
    """The distinct error types a record reports, in the order it reports them."""
    return list(error_counts(rec))


def category(run: Run, rec: dict[str, Any]) -> str:
    """The task category the report groups success by."""
    for k in ("task_kind", "task_type"):
        if isinstance(rec.get(k), str):
            return rec[k]
    from .. import registry
    from ..tasksets import task_sets

    sets = task_sets()
    if run.world not in sets:
        return "all"
    try:
        return sets[run.world].category(task_key(rec)) or "all"
    except (KeyError, ValueError, TypeError, registry.RegistryError):
        return "all"


def _fraction(v: Any) -> float:
    return float(v) if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v) else 0.0


def progress_curve(run: Run, rec: dict[str, Any]) -> list[float] | None:
    """Progress after each step, where the record has it (at most :data:`MAX_CURVE_STEPS` steps): ALFWorld's
    AgentQuest progress; rearrange's share of propositions satisfied so far; an episode's share of goal propositions
    holding (``eai-gym evaluate --mode episodes``); for action plans, 1 while the plan is still executing (the
    curve averaged over tasks is the share of plans that got that far)."""
    if isinstance(rec.get("agentquest_progress"), list):
        return [_fraction(v) for v in rec["agentquest_progress"][:MAX_CURVE_STEPS]]
    log = rec.get("task_evaluation_log")
    steps = _count(rec.get("num_steps"))
    if isinstance(log, dict) and steps is not None and isinstance(log.get("proposition_satisfied_at"), list):
        at = [t for t in log["proposition_satisfied_at"] if isinstance(t, int) and not isinstance(t, bool)]
        n = len(log["proposition_satisfied_at"]) or 1
        return [sum(1 for t in at if 0 <= t <= s) / n for s in range(1, min(steps, MAX_CURVE_STEPS) + 1)]
    props = rec.get("propositions")
    if isinstance(props, dict) and isinstance(props.get("propositions"), list):
        histories = [p["history"][1:MAX_CURVE_STEPS + 1] for p in props["propositions"]
                     if isinstance(p, dict) and isinstance(p.get("history"), list)]
        if histories and any(histories):
            n = max(len(h) for h in histories)
            return [sum(bool(h[min(k, len(h) - 1)]) for h in histories if h) / len(histories) for k in range(n)]
    if isinstance(rec.get("execution_info"), list) and rec["execution_info"]:
        info = rec["execution_info"][:MAX_CURVE_STEPS]  # BEHAVIOR: it stops at the action that failed fatally
        last = info[-1] if isinstance(info[-1], dict) else {}
        last_ok = bool(last.get("execution_success")) or not rec.get("error_type")
        return [1.0 if k < len(info) - 1 or last_ok else 0.0 for k in range(len(info))]
    if isinstance(rec.get("actions"), list) and rec["actions"] and "executed" in rec:
        executed = rec["executed"]  # the executed actions, or their number
        n_ok = _count(executed) if not isinstance(executed, list) else len(executed)
        return [1.0 if k < (n_ok or 0) else 0.0 for k in range(min(len(rec["actions"]), MAX_CURVE_STEPS))]
    return None


def headline(rec: dict[str, Any]) -> str:
    """One short line about a record for the drill-down."""
    s = success(rec)
    parts = ["success" if s else "failure" if s is not None else str(rec.get("status", "?"))]
    errs = error_types(rec)
    if errs:
        parts.append(", ".join(errs))
    for k in ("task_percent_complete", "agentquest_progress_final", "progress", "lcs"):
        v = rec.get(k)
        if isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v):
            parts.append(f"{k} {v:.3g}")
    if rec.get("request_error"):
        parts.append("request failed")
    if rec.get("status") not in (None, "evaluated"):
        parts.append(str(rec["status"]))
    return "; ".join(parts)


def file_label(run: Run) -> str:
    """The run's file, relative to the working folder where that is shorter."""
    try:
        rel = os.path.relpath(run.path)
    except ValueError:
        return run.path
    return rel if len(rel) < len(run.path) else run.path
