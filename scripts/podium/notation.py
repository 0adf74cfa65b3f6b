"""The notation of both games as the protocol writes it: moves, position lines and what can be read
from a position line without asking an engine (protocol.md sections 2 and 9)."""

from __future__ import annotations

import re

WHITE, BLACK = "white", "black"
NO_MOVE = "(none)"  # `bestmove (none)`, `moves` -> `(none)`: the game is over

MOVE_RE = re.compile(r"^(?:[A-Za-z]@[a-f][1-6]|[a-f][1-6][a-f][1-6])$")
POSITION_RE = re.compile(r"^[1-6A-Za-z/]+ [wb] (?:[A-Z]*[a-z]*|-) (?:0|90|180|270) \d+$")
# POLD.R (docs/poldr-rules.md section 5): `Pc3Me5` (first turn), `Pc3`, `Mc5`, `pass`; six-field position lines.
POLDR_MOVE_RE = re.compile(r"^(?:[Pp][a-i][1-9](?:[Mm][a-i][1-9])?|[Mm][a-i][1-9]|pass)$")
POLDR_POSITION_RE = re.compile(r"^[1-9PBYRbyr/]+ [byr] \d+(?:,\d+){1,2} [12] \d+ (?:\d+|-)(?:,(?:\d+|-)){1,2}$")
ANY_MOVE_RE = re.compile(f"{MOVE_RE.pattern}|{POLDR_MOVE_RE.pattern}")
POLDR_SIDES = "byr"  # Blue (p1), Yellow (p2), Red (p3)
POLDR_COLOURS = ("Blue", "Yellow", "Red")
POINTS = [f"{file}{rank}" for rank in "123456" for file in "abcdef"]


def fen_fields(fen: str) -> list[str]:
    return fen.split(" ")


def is_poldr_position(fen: str) -> bool:
    """POLD.R position lines have six fields, Pods ones five."""
    return len(fen_fields(fen)) == 6


def seat_to_move(fen: str) -> str:
    """p1, p2 or p3, for either game's position line."""
    side = fen_fields(fen)[1]
    return f"p{POLDR_SIDES.index(side) + 1}" if is_poldr_position(fen) else ("p1" if side == "w" else "p2")


def players_of(fen: str) -> int:
    return len(poldr_reserves(fen)) if is_poldr_position(fen) else 2


# -- Pods


def side_to_move(fen: str) -> str:
    return WHITE if fen_fields(fen)[1] == "w" else BLACK


def ply_of(fen: str) -> int:
    return int(fen_fields(fen)[4])


def with_rotation(fen: str, rotation: int) -> str:
    fields = fen_fields(fen)
    fields[3] = str(rotation)
    return " ".join(fields)


def repetition_key(fen: str) -> str:
    """What makes two positions the same for repetition: board, side to move, hands."""
    return " ".join(fen_fields(fen)[:3])


def hand_of(fen: str, colour: str) -> str:
    hands = fen_fields(fen)[2].strip("-")
    return "".join(letter for letter in hands if letter.isupper() == (colour == WHITE))


def board_contents(fen: str) -> dict[str, str]:
    """Point name -> pod letter for every occupied point."""
    contents = {}
    for rank_index, row in enumerate(reversed(fen_fields(fen)[0].split("/"))):
        file_index = 0
        for char in row:
            if char.isdigit():
                file_index += int(char)
            else:
                contents[POINTS[rank_index * 6 + file_index]] = char
                file_index += 1
    return contents


def candidate_moves(fen: str, variant: str) -> list[str]:
    """Every move worth asking the referee about: placements from the hand, and in the advanced game
    moves of one's own pods to empty points (a superset of the legal moves)."""
    colour = side_to_move(fen)
    contents = board_contents(fen)
    empty = [point for point in POINTS if point not in contents]
    candidates = [f"{letter.upper()}@{point}" for letter in hand_of(fen, colour) for point in empty]
    if variant == "advanced":
        own = [point for point, letter in contents.items() if letter.isupper() == (colour == WHITE)]
        candidates += [source + target for source in own for target in empty]
    return candidates


def win_for(colour: str) -> str:
    return "1-0" if colour == WHITE else "0-1"


# -- POLD.R


def poldr_reserves(fen: str) -> list[int]:
    """POLD.R: the bricks in each reserve, in seat order."""
    return [int(count) for count in fen_fields(fen)[2].split(",")]


def poldr_shape(fen: str) -> tuple[int, int]:
    """POLD.R: (board size, number of players) of a position line."""
    return len(fen_fields(fen)[0].split("/")), len(poldr_reserves(fen))
