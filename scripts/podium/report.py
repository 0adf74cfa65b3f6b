"""`arbiter.py report`: the page of a match's records. The records are read and checked as --resume
and merge check them (records.py: of one match, each whole), every game is replayed by a Podium
(replay.py), and one that cannot be (an illegal move) is a one-line error naming its file, line
and game; the page itself is drawn by pictures.py from the summary of summary.py."""

from __future__ import annotations

from typing import Sequence

from .errors import EngineError, UsageError
from .pictures import match_page
from .records import RecordsFile, check_one_match, open_records_file
from .replay import ReplayError, open_engine, replay_record
from .stats import Sprt
from .summary import match_summary


def match_records(read: RecordsFile) -> list[dict]:
    """The games of a checked records file by number, the first record of each number kept, as
    --resume keeps it."""
    by_number: dict[int, dict] = {}
    for record in read.records:
        by_number.setdefault(record["index"], record)
    return [by_number[number] for number in sorted(by_number)]


def report_page(path: str, engine_argv: Sequence[str] | None, sprt: Sprt | None, title: str | None
                ) -> tuple[str, int]:
    """The page of the match recorded in path and its number of games. The SPRT shown is sprt, or
    the one the match was played with; none if neither was asked for."""
    read = open_records_file(path)
    if not read.records:
        raise UsageError(f"{path}: no game records")
    check_one_match(read)
    records = match_records(read)
    if sprt is None and read.header is not None and read.header["sprt"] is not None:
        sprt = Sprt(**read.header["sprt"])
    replays = []
    with open_engine(engine_argv) as engine:
        for record in records:
            try:
                replays.append(replay_record(engine, record))
            except (EngineError, ReplayError) as error:
                raise UsageError(f"{read.where(record)}: cannot be replayed: {error}") from None
    return match_page(replays, match_summary(records, sprt), title), len(records)
