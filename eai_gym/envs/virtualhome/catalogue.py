"""The index-mode catalogue of a VirtualHome task: every grounded action over the task's objects, in a fixed order
(action names sorted; for each, no object, every object, or every ordered pair of distinct objects, in the task's
object order), as a read-only sequence whose actions are built when first asked for
(:class:`~eai_gym.core.catalogue.LazyCatalogue`): a task has thousands of entries and an episode touches a few
hundred. ``tests/envs/test_incremental_masks.py`` compares it with building every action.
"""

from __future__ import annotations

from json.encoder import encode_basestring_ascii  # type: ignore[attr-defined]

from ...core import Action, Task
from ...core.catalogue import LazyCatalogue
from .actions import ARITY
from .mask import NEEDS_CLOSE, NEEDS_FACING, NEEDS_HELD, RequirementGroups
from .tasks import task_object_ids
from .world import VirtualHomeWorld


def catalogue(world: VirtualHomeWorld, task: Task) -> "ActionCatalogue":
    """Every grounded action over the task's objects, in a fixed order (names, then object ids)."""
    scene = task.initial_state.scene
    ids = task_object_ids(task.id)
    return ActionCatalogue(sorted(world.vocabulary), ids, [scene.objects[i].name for i in ids])


class ActionCatalogue(LazyCatalogue):
    """The catalogue as a read-only sequence whose actions are built when first asked for (see the module
    docstring). An action's raw text is what ``action_item_json`` writes for it."""

    def __init__(self, names: list[str], ids: tuple[int, ...], obj_names: list[str]) -> None:
        self.ids = tuple(ids)
        enc = encode_basestring_ascii  # what json.dumps writes for a string: raw is action_item_json(action)
        self._names = tuple(obj_names)
        self._parts = tuple(f"{enc(n)}, {enc(str(i))}" for i, n in zip(ids, obj_names))
        super().__init__(((name, ARITY[name]) for name in names), len(self.ids))

    def build(self, name: str, positions: tuple[int, ...]) -> Action:
        raw = "{" + encode_basestring_ascii(name) + ": [" + ", ".join(self._parts[p] for p in positions) + "]}"
        return Action(name, tuple(self.ids[p] for p in positions), tuple(self._names[p] for p in positions), raw=raw)

    def requirement_groups(self) -> RequirementGroups:
        """:func:`~.mask.requirement_groups` of this catalogue, from its layout (no action is built)."""
        free: list[int] = []
        by_close: dict[int, list[int]] = {}
        by_facing: dict[int, list[int]] = {}
        by_held: dict[int, list[int]] = {}
        by_held_close: dict[tuple[int, int], list[int]] = {}
        ids = self.ids
        for start, name, n in self.blocks:
            size = self.block_size(n)
            if name in NEEDS_HELD and n == 2:
                for off in range(size):
                    r, c = self.positions(off, 2)
                    by_held_close.setdefault((ids[r], ids[c]), []).append(start + off)
            elif name in NEEDS_HELD or name in NEEDS_CLOSE or name in NEEDS_FACING:
                target = by_held if name in NEEDS_HELD else by_close if name in NEEDS_CLOSE else by_facing
                for off in range(size):
                    target.setdefault(ids[off], []).append(start + off)
            else:
                free.extend(range(start, start + size))
        return free, by_close, by_facing, by_held, by_held_close
