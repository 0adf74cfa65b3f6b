"""The analysis board's notation work (board.py, board_server.py): each legal move as the path of
tokens a page clicks to play it, the first moves of an engine's line as marks to draw, and what a
page sends, checked field by field. Read from the notation alone: the rules are the engine's."""

from __future__ import annotations

import re
from typing import Sequence

from .errors import PodiumError
from .notation import ANY_MOVE_RE, POLDR_SIDES, fen_fields, is_poldr_position, players_of

POSITION_CHARS_RE = re.compile(r"^[A-Za-z0-9/,\- ]+$")  # the characters of both games' position lines
LONGEST_POSITION = 600  # characters of a pasted position line (a 9 x 9 POLD.R line is under 100)
MOST_MOVES = 2000  # moves pasted after a position
PV_DRAWN = 4  # moves of the best line drawn on the board
POLDR_TURN_RE = re.compile(r"(?:[Pp]([a-i][1-9]))?(?:[Mm]([a-i][1-9]))?")


class BoardError(PodiumError):
    """What the page asked cannot be done: the message says why, on the page."""


# -- the moves as paths of clicks


def click_paths(fen: str, pieces: dict[str, str], moves: Sequence[str]) -> list[dict]:
    """Each legal move with the tokens to click to play it (see the module's docstring). Read from
    the notation alone: where the pawn and the mover's marker stand is on the board drawn."""
    paths = []
    if is_poldr_position(fen):
        side = fen_fields(fen)[1]
        pawn = _source(pieces, "P", "pawn")
        marker = _source(pieces, side.upper(), "marker")
        for move in moves:
            if move == "pass":
                path = ["pass"]
            else:
                found = POLDR_TURN_RE.fullmatch(move)
                pawn_to, marker_to = found.groups() if found else (None, None)
                if pawn_to and marker_to:  # the game's first turn: the pawn, then the marker
                    path = [pawn, f"pt:{pawn_to}", f"pt:{marker_to}"]
                elif pawn_to:
                    path = [pawn, f"pt:{pawn_to}"]
                elif marker_to:
                    path = [marker, f"pt:{marker_to}"]
                else:
                    continue  # not a move this board knows how to click: left out
            paths.append({"move": move, "path": path})
        return paths
    white = fen_fields(fen)[1] == "w"
    for move in moves:
        if "@" in move:
            letter, point = move.split("@")
            paths.append({"move": move, "path": [f"pod:{letter.upper() if white else letter.lower()}", f"pt:{point}"]})
        else:
            paths.append({"move": move, "path": [f"pt:{move[:2]}", f"pt:{move[2:]}"]})
    return paths


def _source(pieces: dict[str, str], piece: str, off_board: str) -> str:
    """The token that picks a POLD.R piece: its cell, or its own token while it is not on the board."""
    return next((f"pt:{point}" for point, standing in pieces.items() if standing == piece), off_board)


def line_drawing(fen: str, pieces: dict[str, str], pv: Sequence[str], limit: int = PV_DRAWN) -> list[dict]:
    """The first moves of a line as marks to draw: {"n": 1, "seat": 0, "from": "c3", "to": "c5",
    "piece": "A"}, no "from" for a piece put on the board, {"pass": true} for a pass. Where the pawn
    and the markers go is followed along the line; nothing else is (no rules here)."""
    marks = []
    if is_poldr_position(fen):
        players = players_of(fen)
        first = POLDR_SIDES.index(fen_fields(fen)[1])
        places = {piece: point for point, piece in pieces.items() if piece in "PBYR"}
        for index, move in enumerate(pv[:limit]):
            seat = (first + index) % players
            if move == "pass":
                marks.append({"n": index + 1, "seat": seat, "pass": True})
                continue
            found = POLDR_TURN_RE.fullmatch(move)
            if not found:
                break
            for piece, target in (("P", found.group(1)), ("BYR"[seat], found.group(2))):
                if target:
                    mark = {"n": index + 1, "seat": seat, "to": target, "piece": piece}
                    if piece in places:
                        mark["from"] = places[piece]
                    places[piece] = target
                    marks.append(mark)
        return marks
    first = 0 if fen_fields(fen)[1] == "w" else 1
    for index, move in enumerate(pv[:limit]):
        seat = (first + index) % 2
        if "@" in move:
            letter = move[0].upper() if seat == 0 else move[0].lower()
            marks.append({"n": index + 1, "seat": seat, "to": move[2:4], "piece": letter})
        else:
            marks.append({"n": index + 1, "seat": seat, "from": move[:2], "to": move[2:4]})
    return marks


# -- what the page sends, checked


def text_field(body: dict, name: str, longest: int) -> str:
    value = body.get(name)
    if not isinstance(value, str):
        raise BoardError(f"{name}: expected a text")
    if len(value) > longest:
        raise BoardError(f"{name}: longer than {longest} characters")
    return value


def whole_field(body: dict, name: str, low: int, high: int) -> int:
    value = body.get(name)
    if type(value) is not int or not low <= value <= high:
        raise BoardError(f"{name}: expected a whole number from {low} to {high}")
    return value


def choice_field(body: dict, name: str, choices: Sequence) -> object:
    value = body.get(name)
    if value not in choices or isinstance(value, bool):
        raise BoardError(f"{name}: expected one of {', '.join(str(choice) for choice in choices)}")
    return value


def pasted_position(text: str) -> tuple[str, list[str]]:
    """A pasted position line, optionally followed by `moves ...` (and after `position` or `fen`,
    as the protocol writes them): (the line with single spaces, the moves). Only the shape is checked
    here; what the line says is the engine's to judge."""
    words = text.split()  # line breaks and tabs go: the engine is sent one line
    if not words:
        raise BoardError("paste a position line first")
    if words[0] == "position":
        words = words[1:]
    if words[:1] == ["fen"]:
        words = words[1:]
    moves: list[str] = []
    if "moves" in words:
        at = words.index("moves")
        words, moves = words[:at], words[at + 1:]
    line = " ".join(words)
    if len(words) not in (5, 6):
        raise BoardError(f"a position line has 5 fields (Pods) or 6 (POLD.R), not {len(words)}: {line[:80]!r}")
    if not POSITION_CHARS_RE.match(line):
        raise BoardError("a position line is made of letters, digits, '/', ',' and '-' alone")
    if len(moves) > MOST_MOVES:
        raise BoardError(f"at most {MOST_MOVES} moves after a position")
    for move in moves:
        if not ANY_MOVE_RE.match(move):
            raise BoardError(f"{move[:20]!r} is not a move of Pods or POLD.R")
    return line, moves
