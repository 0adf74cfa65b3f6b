"""The verdicts store: who wins Pods positions with perfect play, one JSON object a line, shared by
scripts/perfect_play.py and scripts/campaign.py (docs/solving.md, "The verdicts store").

A line is {"variant": "standard", "position": "<position line>", "winner": "white" | "black" | null}
with, where the writer knows them, "cpu_limit" (seconds of CPU the proof was given), "cpu_ms",
"nodes", "certificate" (the file of its proof tree) and "by" ("solve": `podium solve`; "tree": the
verdicts of its children). `winner` null: not proved within the limit. A file is only ever
appended to, so a run that stops loses nothing it wrote; a proved line outweighs any unproved one
of the same position, and of two unproved lines the one given more CPU time counts.

Python 3.11 standard library only.
"""

from __future__ import annotations

import json
import os

from .errors import PodiumError

SIDES = ("white", "black")


class StoreError(PodiumError):
    """A verdicts file that cannot be read: the message says which file and line."""


def key_of(entry: dict) -> tuple[str, str]:
    return entry["variant"], entry["position"]


def better(new: dict, old: dict | None) -> bool:
    """Whether `new` says more about its position than `old`."""
    if old is None:
        return True
    if old.get("winner") is not None:
        return False
    if new.get("winner") is not None:
        return True
    return (new.get("cpu_limit") or 0) > (old.get("cpu_limit") or 0)


def read_store(path: str, store: dict[tuple[str, str], dict] | None = None) -> dict[tuple[str, str], dict]:
    """The verdicts of `path` (none if it does not exist), added to `store` where given."""
    store = {} if store is None else store
    if not os.path.exists(path):
        return store
    try:
        with open(path, encoding="utf-8") as handle:
            for number, line in enumerate(handle, 1):
                if not line.strip():
                    continue
                try:
                    entry = json.loads(line)
                    key = key_of(entry)
                    if entry["winner"] not in (None, *SIDES) or not all(isinstance(part, str) for part in key):
                        raise TypeError
                except (json.JSONDecodeError, KeyError, TypeError):
                    raise StoreError(f"{path}: line {number}: not a verdict "
                                     "(docs/solving.md, the verdicts store)") from None
                if better(entry, store.get(key)):
                    store[key] = entry
    except (OSError, UnicodeDecodeError) as error:
        raise StoreError(f"{path}: {error}") from None
    return store


def append(path: str, entry: dict) -> None:
    """Adds one verdict to `path`, at once (flushed and synced: a stop loses nothing written)."""
    with open(path, "a", encoding="utf-8") as handle:
        handle.write(json.dumps(entry) + "\n")
        handle.flush()
        os.fsync(handle.fileno())
