"""BEHAVIOR's action vocabulary (eai-eval's ``EvalActions``) and each action's number of objects. The syntax agents
write them in is EAI's, shared with BEHAVIOR-1K: :mod:`eai_gym.eai.behavior_syntax`."""

from __future__ import annotations

#: The action names of eai-eval's ``EvalActions``, in its order (the index-mode catalogue order).
ACTIONS: tuple[str, ...] = (
    "NAVIGATE_TO", "LEFT_GRASP", "RIGHT_GRASP", "LEFT_PLACE_ONTOP", "RIGHT_PLACE_ONTOP",
    "LEFT_PLACE_INSIDE", "RIGHT_PLACE_INSIDE", "RIGHT_RELEASE", "LEFT_RELEASE", "OPEN", "CLOSE",
    "BURN", "COOK", "CLEAN", "FREEZE", "UNFREEZE", "SLICE", "SOAK", "DRY", "TOGGLE_ON",
    "TOGGLE_OFF", "LEFT_PLACE_NEXTTO", "RIGHT_PLACE_NEXTTO", "LEFT_TRANSFER_CONTENTS_INSIDE",
    "RIGHT_TRANSFER_CONTENTS_INSIDE", "LEFT_TRANSFER_CONTENTS_ONTOP", "RIGHT_TRANSFER_CONTENTS_ONTOP",
    "LEFT_PLACE_NEXTTO_ONTOP", "RIGHT_PLACE_NEXTTO_ONTOP", "LEFT_PLACE_UNDER", "RIGHT_PLACE_UNDER",
)
TWO_OBJECTS = frozenset({"LEFT_PLACE_NEXTTO_ONTOP", "RIGHT_PLACE_NEXTTO_ONTOP"})


def arity(name: str) -> int:
    return 2 if name in TWO_OBJECTS else 1
