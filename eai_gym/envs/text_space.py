"""The observation space of the text envs: a :class:`gymnasium.spaces.Text` that vectorises correctly.

Gymnasium 1.4's ``AsyncVectorEnv`` (``shared_memory=True``, its default) reads the batch of
observations from shared memory once, when it is built, and returns that same object after every
``reset``/``step``. For array spaces the object is a numpy view of the shared buffer, so it follows
the workers' writes; for :class:`~gymnasium.spaces.Text` it is a tuple of strings decoded from the
still-empty buffer, so every observation comes back as the charset's first character repeated
``max_length`` times. :class:`TextObservation` is a ``Text`` (equal to the plain ``Text`` of the same
parameters) for which :func:`gymnasium.vector.utils.read_from_shared_memory` gives a live view of
the buffer instead; the workers write it with Gymnasium's own ``Text`` writer.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from gymnasium import spaces
from gymnasium.vector.utils import read_from_shared_memory


class TextObservation(spaces.Text):
    """A ``Text`` space whose batches ``AsyncVectorEnv`` shares through shared memory correctly."""


class SharedTexts(Sequence):
    """The texts in an ``AsyncVectorEnv`` shared-memory buffer, decoded when read.

    ``AsyncVectorEnv`` returns a deep copy of it (``copy=True``, the default): a tuple of ``str``, as
    ``SyncVectorEnv`` returns. With ``copy=False`` it returns this view, which follows later steps.
    """

    def __init__(self, space: spaces.Text, shared_memory: Any, n: int) -> None:
        self.codes = np.frombuffer(shared_memory.get_obj(), dtype=np.int32).reshape(n, space.max_length)
        self.chars = np.array(space.character_list, dtype=object)  # code -> character

    def __len__(self) -> int:
        return len(self.codes)

    def __getitem__(self, index: Any) -> Any:
        if isinstance(index, slice):
            return tuple(self)[index]
        row = self.codes[index]  # Gymnasium's Text writer: character codes, then len(charset) as padding
        return "".join(self.chars[row[row < len(self.chars)]])

    def __eq__(self, other: object) -> bool:
        return tuple(self) == (tuple(other) if isinstance(other, SharedTexts) else other)

    def __repr__(self) -> str:
        return f"SharedTexts({tuple(self)!r})"

    def __deepcopy__(self, memo: dict) -> tuple[str, ...]:
        return tuple(self)

    def __reduce__(self) -> tuple:
        return tuple, (tuple(self),)


@read_from_shared_memory.register(TextObservation)
def _read_texts(space: TextObservation, shared_memory: Any, n: int = 1) -> SharedTexts:
    return SharedTexts(space, shared_memory, n)

