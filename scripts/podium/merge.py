"""The shards of a match (--shard K/N), played apart, joined again: checked to be slices of one
match (the same settings, no game twice, no shard missing or unfinished, or which) and tallied as
one run of the whole match would have been."""

from __future__ import annotations

from dataclasses import dataclass

from .errors import UsageError
from .game import game_specs
from .header import IDENTITY, describe, header_rules, identity_differences
from .records import check_one_match, open_records_file, record_index


@dataclass
class JoinedMatch:
    header: dict  # the match's settings, as one run of the whole match records them (no shard)
    records: list[dict]  # every game of every shard, by game number
    missing: list[str]  # what is not there yet, for people: "shards 2/4 and 4/4", "game 7 of shard 3/4"


def join_shards(paths: list[str]) -> JoinedMatch:
    """The shards' records as one match; a file that is not a shard of the same match as the first,
    a shard given twice or a game in two files is a UsageError."""
    first_path, first = None, None
    shards: dict[int, str] = {}  # K -> the file of shard K
    games: dict[int, tuple[dict, str]] = {}  # game number -> (record, file)
    missing: list[str] = []
    for path in paths:
        read = open_records_file(path)
        header, records = read.header, read.records
        if header is None:
            raise UsageError(f"{path}: no match settings on its first line (written by an older arbiter?): "
                             f"merge needs them to check that the shards belong together")
        if first is None:
            first_path, first = path, header
        elif differences := identity_differences(first, header, ignore=("shard",)):
            key = differences[0]
            raise UsageError(f"{path} is not a shard of the match of {first_path}: {IDENTITY[key]} is "
                             f"{describe(key, header[key])} there, {describe(key, first[key])} here")
        number, count = header["shard"] or (1, 1)
        first_count = (first["shard"] or (1, 1))[1]
        if count != first_count:
            raise UsageError(f"{path} is shard {number}/{count}, but {first_path} is one of {first_count} shards")
        if number in shards:
            raise UsageError(f"{shards[number]} and {path} are both shard {number}/{count}")
        shards[number] = path
        check_one_match(read)  # the engines, the game and the games of its settings, as --resume checks
        planned = {spec.number for spec in game_specs(header["games"], header_rules(header), (number, count))}
        for record in records:
            index = record_index(record)
            if index not in planned:
                raise UsageError(f"{read.where(record)} is not one of shard {number}/{count}'s games")
            if index in games and games[index][1] != path:
                raise UsageError(f"game {index} is in both {games[index][1]} and {path}")
            games.setdefault(index, (record, path))
        if unplayed := sorted(planned - {record_index(record) for record in records}):
            missing.append(f"{len(unplayed)} of shard {number}/{count}'s {len(planned)} games ({path}: resume it "
                           f"with --resume {path})")
    count = (first["shard"] or (1, 1))[1]
    if absent := [f"{number}/{count}" for number in range(1, count + 1) if number not in shards]:
        missing.insert(0, f"shard{'s' if len(absent) > 1 else ''} {', '.join(absent)}")
    return JoinedMatch({**first, "shard": None}, [games[index][0] for index in sorted(games)], missing)
