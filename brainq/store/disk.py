"""A store's disk: a full one is named as such, where SQLite and Chroma blame the store."""

from __future__ import annotations

import shutil
from pathlib import Path

# Below this much free space, a write that fails is taken for a full disk, not for damage:
# moving vectors aside would lose intact ones and need their room twice.
FULL_DISK_BYTES = 64 * 2**20
# How SQLite and Chroma say a write found no room: its own words, or a disk that failed.
_NO_ROOM = ("disk i/o error", "disk is full", "no space left")


def full_disk(home: Path, error: BaseException | str | None = None) -> str | None:
    """What to say when the disk holding the store `home` is full, else None. With `error`,
    only when it is one a full disk gives: a damaged file on a full disk is still damaged."""
    if error is not None and not any(words in str(error).lower() for words in _NO_ROOM):
        return None
    try:
        free = shutil.disk_usage(home).free
    except OSError:
        return None
    if free >= FULL_DISK_BYTES:
        return None
    return f"the disk holding store {home} is full ({free // 2**20} MB free): free some space, then run again"
