"""Subgoals to actions in BEHAVIOR: candidate action lists per subgoal and the search over them.

As in eai-eval 1.0.5 (``behavior_eval/evaluation/subgoal_decomposition``): a subgoal plan is a
``then`` sequence of state formulas over TL object names (``ontop(plywood.0, room_floor_kitchen.0)``,
``not dusty(shelf.11)``, ``holds_rh(rag.0)``...). Each primitive subgoal maps to a list of actions
(grasp with a free hand first, releasing the right hand when both are full, then ``PLACE_ONTOP``...);
``nextto`` and ``ontop`` of the same object in a row become one ``PLACE_NEXTTO_ONTOP``. A breadth-first
search executes the candidates, skipping additional steps and dropping a branch at its first other
error; when the subgoals are used up, the task's BDDL goal is checked on the branch's final state (the
reference checks the evolving graph, not a temporal-logic formula). The best branch is the first
successful one with fewest errors, else (preferring branches that reached the goal check) the one with
fewest errors and the longest action sequence.

``reference=True`` keeps the reference's translator quirks: an object is "in a hand" when its name is
a substring of the held object's name, a hand is freed by releasing the right hand even when it holds
the rag or knife the next action needs, and ``not inside(x, y)`` always releases with the right hand.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

from ...core import Action
from ...core.branches import choose_branch
from ...logic import tl
from .dynamics import ADD, AFF, MISSING, ORDER, Errors
from .state import BehaviorState
from .world import BehaviorWorld

_ROOMS = ("Undefined", "BedRoom", "EmptyRoom", "DiningRoom", "PantryRoom", "Garage", "Bathroom", "PlayRoom",
          "HomeOffice", "Library", "Staircase", "Kitchen", "LivingRoom", "ExerciseRoom", "Corridor", "Auditorium",
          "TelevisionRoom", "Lobby", "Balcony", "StorageRoom", "ChildsRoom", "Closet", "UtilityRoom")
#: the predicates of ``resources/base_vocabulary.json`` and their parameter counts
STATE_PARAMS: dict[str, int] = {
    **{f"isIn{r}": 1 for r in _ROOMS}, "inFOVOfRobot": 1, "inHandOfRobot": 1, "inReachOfRobot": 1,
    "inSameRoomAsRobot": 1, "frozen": 1, "inside": 2, "nextto": 2, "touching": 2, "dusty": 1, "soaked": 1,
    "under": 2, "toggledon": 1, "sliced": 1, "burnt": 1, "ontop": 2, "cooked": 1, "onfloor": 2, "stained": 1,
    "open": 1, "holds_rh": 1, "holds_lh": 1}
#: the actions of the vocabulary with their parameter counts (``burn``, ``stain`` and ``unclean`` have none)
ACTION_PARAMS: dict[str, int] = {
    a: 1 for a in ("navigate_to", "left_grasp", "right_grasp", "left_place_ontop", "right_place_ontop",
                   "left_place_inside", "right_place_inside", "right_release", "left_release", "open", "close",
                   "cook", "clean", "freeze", "unfreeze", "slice", "soak", "dry", "toggle_on", "toggle_off",
                   "left_place_nextto", "right_place_nextto", "left_transfer_contents_inside",
                   "right_transfer_contents_inside", "left_transfer_contents_ontop",
                   "right_transfer_contents_ontop", "left_place_under", "right_place_under")}
ACTION_PARAMS.update(left_place_nextto_ontop=2, right_place_nextto_ontop=2)
VOCAB_ACTIONS: tuple[str, ...] = tuple(ACTION_PARAMS) + ("burn", "stain", "unclean")
_ONTOP, _NEXTTO = ("ontop", "onfloor"), ("nextto", "touching")
_PRECEDENCE = (ADD, ORDER, MISSING, AFF)
_REF_CLASS = {tl.Or: "SimpleTLOr", tl.And: "SimpleTLAnd", tl.Primitive: "SimpleTLPrimitive", tl.Then: "SimpleTLThen"}
_SIMPLE = {"cooked": "COOK", "burnt": "COOK", "frozen": "FREEZE", "open": "OPEN", "sliced": "SLICE",
           "soaked": "SOAK", "toggledon": "TOGGLE_ON"}
_SIMPLE_NOT = {"dusty": "CLEAN", "stained": "CLEAN", "frozen": "UNFREEZE", "open": "CLOSE",
               "toggledon": "TOGGLE_OFF"}
_PLACE = {"inside": "PLACE_INSIDE", "ontop": "PLACE_ONTOP", "onfloor": "PLACE_ONTOP", "nextto": "PLACE_NEXTTO",
          "touching": "PLACE_NEXTTO", "under": "PLACE_UNDER"}


class SubgoalCrash(Exception):
    """The reference raises while handling this plan (it then reports the task as NotParseable)."""


def tl_name(name: str) -> str:
    """An object's name in subgoal formulas: ``room_floor_kitchen_0`` → ``room_floor_kitchen.0``."""
    if "toggled" in name:
        return "toggledon"
    if "_" not in name:
        return name
    head, _, tail = name.replace(".", "_").rpartition("_")
    return f"{head}.{tail}"


def scene_name(tl_obj: str) -> str:
    return tl_obj.replace(".", "_")


@dataclass(frozen=True)
class Step:
    """One action of a candidate list, as the reference writes it."""

    action: str
    objects: tuple[str, ...]

    def item(self) -> dict[str, str]:
        return {"action": self.action, "object": ", ".join(self.objects)}

    def to_action(self) -> Action:
        return Action(self.action, self.objects, self.objects, raw=str(self.item()))


@dataclass
class Branch:
    steps: list[Step]
    errors: list[dict[str, Any]] = field(default_factory=list)
    state: BehaviorState | None = None
    reached_goal_check: bool = False


class Translator:
    """Subgoal → candidate action lists, in a given state (see the module docstring)."""

    def __init__(self, reference: bool, names: dict[str, str] | None = None) -> None:
        self.reference = reference
        self.names = names or {}

    def scene(self, tl_obj: str) -> str:
        """The object a TL name stands for (``names`` overrides the reference's ``.`` → ``_`` rule)."""
        return self.names.get(tl_obj) or scene_name(tl_obj)

    def hand_of(self, s: BehaviorState, tl_obj: str) -> str | None:
        obj = self.scene(tl_obj)
        for hand, held in (("LEFT", s.hands[0]), ("RIGHT", s.hands[1])):
            if held is not None and (obj in held if self.reference else obj == held):
                return hand
        return None

    @staticmethod
    def release(s: BehaviorState, hand: str) -> list[Step]:
        held = s.hands[0 if hand == "LEFT" else 1]
        return [] if held is None else [Step(f"{hand}_RELEASE", (held,))]

    def free_hand(self, s: BehaviorState, important: Callable[[str], bool] = lambda o: False) -> tuple[str, list[Step]]:
        """A hand for an action that needs one free: an empty hand, else release one."""
        if s.hands[1] is None:
            return "RIGHT", []
        if s.hands[0] is None:
            return "LEFT", []
        if not self.reference and important(s.hands[1]) and not important(s.hands[0]):
            return "LEFT", self.release(s, "LEFT")
        return "RIGHT", self.release(s, "RIGHT")

    def holding(self, s: BehaviorState, tl_obj: str) -> tuple[str, list[Step]]:
        """The hand holding ``tl_obj``, grasping it first if needed."""
        hand = self.hand_of(s, tl_obj)
        if hand is not None:
            return hand, []
        hand, steps = self.free_hand(s)
        return hand, steps + [Step(f"{hand}_GRASP", (self.scene(tl_obj),))]

    def important(self, s: BehaviorState, kind: str) -> Callable[[str], bool]:
        if kind == "dusty":
            return lambda o: s.value(o, "CleaningTool") is not None
        if kind == "stained":
            return lambda o: (s.value(o, "CleaningTool") is not None and s.value(o, "Soaked") is True) or \
                "detergent" in o
        if kind == "sliced":
            return lambda o: s.value(o, "Slicer") is not None
        return lambda o: False

    def positive(self, p: tl.Primitive, s: BehaviorState) -> list[list[Step]]:
        name, args = p.name, p.args
        if name in _PLACE:
            hand, steps = self.holding(s, args[0])
            return [steps + [Step(f"{hand}_{_PLACE[name]}", (self.scene(args[1]),))]]
        if name in _SIMPLE:
            _, steps = self.free_hand(s, self.important(s, name))
            return [steps + [Step(_SIMPLE[name], (self.scene(args[0]),))]]
        if name in ("holds_rh", "holds_lh"):
            hand = "RIGHT" if name == "holds_rh" else "LEFT"
            return [self.release(s, hand) + [Step(f"{hand}_GRASP", (self.scene(args[0]),))]]
        return []

    def negative(self, p: tl.Primitive, s: BehaviorState) -> list[list[Step]]:
        name, args = p.name, p.args
        if name == "inside":
            hand, steps = self.holding(s, args[0])
            return [steps + [Step(f"{'RIGHT' if self.reference else hand}_RELEASE", (self.scene(args[0]),))]]
        if name in _SIMPLE_NOT:
            _, steps = self.free_hand(s, self.important(s, name))
            return [steps + [Step(_SIMPLE_NOT[name], (self.scene(args[0]),))]]
        if name in ("holds_rh", "holds_lh"):
            hand = "RIGHT" if name == "holds_rh" else "LEFT"
            return [self.release(s, hand) if self.hand_of(s, args[0]) == hand else []]
        return []

    def candidates(self, cur: Any, nxt: Any, s: BehaviorState) -> tuple[bool, list[list[Step]]]:
        """``(uses the next subgoal too, candidate action lists)`` for the subgoal ``cur``."""
        pair = combined(cur, nxt)
        if pair is not None:
            on, by = pair
            hand, steps = self.holding(s, on.args[0])
            other = by.args[0] if on.args[0] == by.args[1] else by.args[1]
            return True, [steps + [Step(f"{hand}_PLACE_NEXTTO_ONTOP", (self.scene(other), self.scene(on.args[1])))]]
        if isinstance(cur, tl.Primitive):
            return False, self.positive(cur, s)
        if isinstance(cur, tl.Not) and isinstance(cur.part, tl.Primitive):
            return False, self.negative(cur.part, s)
        raise SubgoalCrash(f"no action translation for subgoal {cur}")


def combined(cur: Any, nxt: Any) -> tuple[tl.Primitive, tl.Primitive] | None:
    """``(ontop-like, nextto-like)`` when ``cur`` and ``nxt`` place one object next to and on others."""
    if not isinstance(cur, tl.Primitive) or not isinstance(nxt, tl.Primitive):
        return None
    if cur.name in _ONTOP and nxt.name in _NEXTTO and cur.args[0] in nxt.args[:2]:
        return cur, nxt
    if cur.name in _NEXTTO and nxt.name in _ONTOP and nxt.args[0] in cur.args[:2]:
        return nxt, cur
    return None


def sample_path(f: Any, choose: Callable[[Sequence[Any]], Any]) -> list[Any]:
    """The reference's ``sample_a_determined_path_from_tl_expr``: ``then``/``and`` in order, one
    disjunct of every ``or`` picked by ``choose``, ``not`` of a primitive kept; any other negation
    raises as the reference does."""
    if isinstance(f, tl.Primitive):
        return [f]
    if isinstance(f, (tl.Then, tl.And)):
        return [g for p in f.parts for g in sample_path(p, choose)]
    if isinstance(f, tl.Or):
        return sample_path(choose(f.parts), choose)
    if isinstance(f, tl.Not):
        p = f.part
        if isinstance(p, tl.Primitive):
            return [f]
        if isinstance(p, tl.Then):
            raise SubgoalCrash("De Morgan's law is not applicable to temporal order.")
        if isinstance(p, tl.Quantified):
            raise SubgoalCrash("Unknown expression type.")
        g = p.part if isinstance(p, tl.Not) else (tl.Or if isinstance(p, tl.And) else tl.And)(
            tuple(tl.Not(x) for x in p.parts))
        if not isinstance(g, tl.Not):
            raise SubgoalCrash(f"'{_REF_CLASS.get(type(g), 'SimpleTLExpression')}' object has no attribute 'arg'")
        return [g] if isinstance(g.part, tl.Primitive) else sample_path(g, choose)
    raise SubgoalCrash("Unknown expression type.")


def _error(errors: Errors) -> dict[str, list[str]]:
    """The reference's compound-error rule: keep the first error of the highest precedence."""
    if len(errors.items) > 1:
        for kind in _PRECEDENCE:
            for k, reason in errors.items:
                if k == kind:
                    return {"error_type": [f"ErrorType.{k}"], "error_info": [reason]}
    return {"error_type": [f"ErrorType.{k}" for k, _ in errors.items], "error_info": [r for _, r in errors.items]}


GoalCheck = Callable[[BehaviorState], bool]


def search(world: BehaviorWorld, start: BehaviorState, path: Sequence[Any], goal: GoalCheck,
           translator: Translator) -> tuple[bool, list[Branch], list[Branch]]:
    """Breadth-first over the subgoals' candidate action lists. Returns ``(executable, successful
    branches, failed branches)``."""
    queue: deque = deque([(start, [], tuple(path), (), [])])
    feasible: list[Branch] = []
    failed: list[Branch] = []
    executable = False
    while queue:
        state, done, remaining, history, errors = queue.popleft()
        if not remaining:
            executable = True
            if goal(state):
                feasible.append(Branch(done, errors, state, True))
            else:
                failed.append(Branch(done, errors + [{"error_type": ["ErrorType.GOAL_FAILED"], "error_info": [
                    "Final goal not satisfied"], "subgoal": "None", "action": None}], state, True))
            continue
        cur = remaining[0]
        pair, cands = translator.candidates(cur, remaining[1] if len(remaining) > 1 else None, state)
        if not cands:
            queue.append((state, done, remaining[1:], history, errors))
            continue
        for cand in cands:
            s, hist, errs, ran, ok = state, history, list(errors), [], True
            for step in cand:
                new, recorded, crash = world.try_action(s, step.to_action(), hist)
                if crash is not None:
                    raise SubgoalCrash(crash)
                if new is not None:
                    s, hist = new, hist + (s,)
                    ran.append(step)
                    continue
                err = _error(recorded)
                errs.append({**err, "subgoal": str(cur), "action": step.item()})
                if all(t != f"ErrorType.{ADD}" for t in err["error_type"]):
                    ok = False
                    failed.append(Branch(done + ran, errs, s))
                    break
            if ok:
                queue.append((s, done + cand, remaining[2:] if pair else remaining[1:], hist, errs))
    return executable, feasible, failed


def choose(feasible: list[Branch], failed: list[Branch]) -> tuple[Branch | None, bool]:
    """The reported branch and whether it is a success."""
    return choose_branch(feasible, failed, lambda b: len(b.steps))


_STATE_OF_ACTION = {"OPEN": "open({})", "CLOSE": "not open({})", "TOGGLE_ON": "toggledon({})",
                    "TOGGLE_OFF": "not toggledon({})", "SLICE": "sliced({})", "SOAK": "soaked({})",
                    "DRY": "not soaked({})", "FREEZE": "frozen({})", "UNFREEZE": "not frozen({})", "COOK": "cooked({})"}
_PLACE_RELATION = {"ONTOP": "ontop", "INSIDE": "inside", "NEXTTO": "nextto", "UNDER": "under"}


def gold_subgoal_plan(task: dict) -> list[str]:
    """A subgoal plan read off a task's human-annotated gold action plan (its packaged record): the
    state each action brings about (a grasp → ``holds_rh(x)``, a placement → ``ontop(x, y)``, ...)."""
    floors = {o["name"] for o in task["objects"] if o["room_floor"]}
    dirt = {(lit[1], lit[0]) for lit in task["init_scene"] if len(lit) == 2}
    held: dict[str, str | None] = {"RIGHT": None, "LEFT": None}
    out: list[str] = []
    for step in task["gold_plan"]:
        a, objs = step["action"], [tl_name(o.strip()) for o in step["object"].split(",")]
        hand = a.split("_")[0]
        x = held.get(hand)
        if a.endswith("_GRASP"):
            held[hand] = objs[0]
            out.append(f"holds_{hand[0].lower()}h({objs[0]})")
        elif a.endswith("_RELEASE"):
            out.append(f"not holds_{hand[0].lower()}h({objs[0]})")
            held[hand] = None
        elif "_PLACE_" in a or "_TRANSFER_" in a:
            if a.endswith("NEXTTO_ONTOP"):
                out += [f"nextto({x}, {objs[0]})", f"ontop({x}, {objs[1]})"]
            else:
                rel = _PLACE_RELATION[a.rsplit("_", 1)[1]]
                on_floor = step["object"].split(",")[0].strip() in floors
                out.append(f"{'onfloor' if on_floor and rel == 'ontop' else rel}({x}, {objs[0]})")
            if "_PLACE_" in a:
                held[hand] = None
        elif a == "CLEAN":
            o = step["object"].strip()
            parts = [f"not {k}({objs[0]})" for k in ("dusty", "stained") if (o, k) in dirt] or [f"not dusty({objs[0]})"]
            out.append(" and ".join(parts))
        elif a in _STATE_OF_ACTION:
            out.append(_STATE_OF_ACTION[a].format(objs[0]))
    return out
