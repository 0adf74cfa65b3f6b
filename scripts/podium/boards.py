"""The boards of the pictures, as SVG: a Pods board as White sees it (the board's lines at its
rotation, the pods with their legs, both hands) and a POLD.R grid (pawn, markers, bricks, the
reserves). Pure functions from the boards and positions of replay.py to SVG strings.

Every point or cell is an element with `data-point="c3"` and `data-piece` (a pod letter, or P, B,
Y, R, b, y, r; "" when empty); its piece is a <use> of a definition (symbol_definitions), so that
a page's script can show another position by changing attributes alone."""

from __future__ import annotations

import math
from typing import Iterable

from .notation import POLDR_COLOURS
from .replay import PoldrBoard, PodsBoard, Position

# Pods: spacing of points, margin for the file and rank labels, hands' slots per row and their size.
POINT_SPACING = 60
MARGIN = 48
HAND_SLOTS_PER_ROW = 8
HAND_SCALE = 0.7
# POLD.R: cell size and the reserves' strip under the grid.
CELL = 60
RESERVE_STRIP = 44
# Unit vectors in the picture (y grows downwards) of the eight directions, as White names them.
DIRECTIONS = {"N": (0, -1), "NE": (1, -1), "E": (1, 0), "SE": (1, 1), "S": (0, 1), "SW": (-1, 1), "W": (-1, 0),
              "NW": (-1, -1)}
POLDR_FILLS = {"b": "#2f6fd6", "y": "#e3b81c", "r": "#d63a31"}  # Blue, Yellow, Red
HAND_STATE_CODES = {"hand": "h", "board": "b", "out": "o"}  # a pod in hand, on the board, out of the game


def board_svg(board: PodsBoard | PoldrBoard, board_id: str, position: Position | None = None) -> str:
    """The board as SVG, with the pieces of position on it (none: empty)."""
    if isinstance(board, PodsBoard):
        return pods_board_svg(board, board_id, position)
    return poldr_board_svg(board, board_id, position)


def pods_board_svg(board: PodsBoard, board_id: str, position: Position | None = None) -> str:
    """A Pods board as White sees it: Black's hand above, the board's points and lines at its
    rotation (as the engine drew them) with the pods on them, White's hand below."""
    pieces = position.pieces if position else {}
    width = 2 * MARGIN + 5 * POINT_SPACING
    band = _hand_band_height(board)
    top = band  # the board starts under Black's hand
    height = 2 * band + 2 * MARGIN + 5 * POINT_SPACING
    parts = [_hand_band(board, "black", 0, width, position),
             _pods_lines(board.picture, top),
             *_pods_labels(top),
             *(_point(point, x, y, pieces.get(point, "")) for point, (x, y) in _pods_point_places(top).items()),
             _hand_band(board, "white", top + 2 * MARGIN + 5 * POINT_SPACING, width, position)]
    return (f'<svg class="board pods" id="{board_id}" viewBox="0 0 {width} {height}" width="{width}" '
            f'height="{height}" role="img" aria-label="Pods board">{"".join(parts)}</svg>')


def _pods_point_places(top: float) -> dict[str, tuple[float, float]]:
    """Point name -> its place: file a to f from the left, rank 6 at the top."""
    return {f"{'abcdef'[file]}{rank}": (MARGIN + file * POINT_SPACING, top + MARGIN + (6 - rank) * POINT_SPACING)
            for rank in range(6, 0, -1) for file in range(6)}


def _pods_lines(picture: tuple[str, ...], top: float) -> str:
    """The lines of the picture: `-` and `|` join the points beside them, `\\` `/` `X` the corners
    of their little square (docs/pods-rules.md section 2)."""
    def place(row: int, column: int) -> tuple[float, float]:
        return MARGIN + column / 2 * POINT_SPACING, top + MARGIN + row / 2 * POINT_SPACING

    segments = []
    for row, text in enumerate(picture):
        for column, char in enumerate(text):
            ends = {"-": [((row, column - 1), (row, column + 1))],
                    "|": [((row - 1, column), (row + 1, column))],
                    "\\": [((row - 1, column - 1), (row + 1, column + 1))],
                    "/": [((row - 1, column + 1), (row + 1, column - 1))],
                    "X": [((row - 1, column - 1), (row + 1, column + 1)),
                          ((row - 1, column + 1), (row + 1, column - 1))]}.get(char, [])
            for start, end in ends:
                (x1, y1), (x2, y2) = place(*start), place(*end)
                segments.append(f"M{_n(x1)} {_n(y1)}L{_n(x2)} {_n(y2)}")
    return f'<path class="lines" d="{"".join(segments)}"/>'


def _pods_labels(top: float) -> Iterable[str]:
    bottom = top + 2 * MARGIN + 5 * POINT_SPACING
    for file in range(6):
        yield f'<text class="label" x="{MARGIN + file * POINT_SPACING}" y="{_n(bottom - 4)}">{"abcdef"[file]}</text>'
    for rank in range(1, 7):
        yield (f'<text class="label" x="12" y="{_n(top + MARGIN + (6 - rank) * POINT_SPACING + 4)}">'
               f"{rank}</text>")


def _point(point: str, x: float, y: float, piece: str) -> str:
    """A Pods point: a dot, a ring that marks the last move's points, the pod, and on top a
    transparent disc that takes the clicks of the analysis board (board.py)."""
    return (f'<g class="point" data-point="{point}" data-piece="{piece}" transform="translate({_n(x)} {_n(y)})">'
            f'<circle class="spot" r="3"/><circle class="mark" r="{_n(0.42 * POINT_SPACING)}"/>'
            f'{_use("pods", piece)}<circle class="hit" r="{_n(0.44 * POINT_SPACING)}"/></g>')


def _hand_band_height(board: PodsBoard) -> float:
    rows = math.ceil(len(board.pods) / HAND_SLOTS_PER_ROW)
    return 18 + rows * _hand_slot_size()


def _hand_slot_size() -> float:
    return (2 * MARGIN + 5 * POINT_SPACING) / HAND_SLOTS_PER_ROW


def _hand_band(board: PodsBoard, colour: str, top: float, width: float, position: Position | None) -> str:
    """A side's pods: those in hand drawn plainly, those on the board faint, those out of the game
    faint and crossed (data-state hand, board, out)."""
    slot = _hand_slot_size()
    seat = 0 if colour == "white" else 1
    parts = [f'<rect class="band" data-seat="{seat}" x="0" y="{_n(top)}" width="{width}" '
             f'height="{_n(_hand_band_height(board))}" rx="6"/>',
             f'<text class="band-label" x="6" y="{_n(top + 13)}">{colour.capitalize()}&#x2019;s pods</text>']
    for index, letter in enumerate(board.letters):
        letter = letter if colour == "white" else letter.lower()
        x = slot / 2 + (index % HAND_SLOTS_PER_ROW) * slot
        y = top + 18 + slot / 2 + (index // HAND_SLOTS_PER_ROW) * slot
        state = hand_state(letter, position) if position else "hand"
        half = slot * 0.32
        parts.append(f'<g class="hand-slot" data-pod="{letter}" data-state="{state}" '
                     f'transform="translate({_n(x)} {_n(y)})">'
                     f'<g transform="scale({HAND_SCALE})">{_use("pods", letter)}</g>'
                     f'<path class="out-mark" d="M{_n(-half)} {_n(-half)}L{_n(half)} {_n(half)}'
                     f'M{_n(half)} {_n(-half)}L{_n(-half)} {_n(half)}"/>'
                     f'<rect class="hit" x="{_n(-slot / 2)}" y="{_n(-slot / 2)}" width="{_n(slot)}" '
                     f'height="{_n(slot)}"/></g>')
    return "".join(parts)


def hand_state(letter: str, position: Position) -> str:
    """Where a pod is: in its side's hand, on the board, or out of the game (taken in the advanced game)."""
    white_hand, black_hand = position.hands
    if letter in white_hand + black_hand:
        return "hand"
    return "board" if letter in position.pieces.values() else "out"


def pod_symbol(letter: str, legs: tuple[tuple[str, str], ...]) -> str:
    """One pod (letter: uppercase White's, lowercase Black's) as a <g> centred on 0, 0, its legs
    (White's, as the pod set gives them) as they stand on the board: Black's pods are White's
    turned half way round. Short legs end in a knob, long legs in an arrowhead."""
    colour = "white" if letter.isupper() else "black"
    reach = {"s": 0.36 * POINT_SPACING, "l": 0.48 * POINT_SPACING}
    parts = []
    for direction, length in legs:
        dx, dy = DIRECTIONS[direction]
        if colour == "black":
            dx, dy = -dx, -dy
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        tip_x, tip_y = ux * reach[length], uy * reach[length]
        parts.append(f'<line class="leg {"long" if length == "l" else "short"}" x1="0" y1="0" '
                     f'x2="{_n(tip_x)}" y2="{_n(tip_y)}"/>')
        if length == "l":
            back, side = 7, 4.5
            parts.append(f'<path class="arrow" d="M{_n(tip_x + 2 * ux)} {_n(tip_y + 2 * uy)}'
                         f'L{_n(tip_x - back * ux - side * uy)} {_n(tip_y - back * uy + side * ux)}'
                         f'L{_n(tip_x - back * ux + side * uy)} {_n(tip_y - back * uy - side * ux)}Z"/>')
        else:
            parts.append(f'<circle class="knob" cx="{_n(tip_x)}" cy="{_n(tip_y)}" r="2.6"/>')
    parts.append(f'<circle class="body" r="{_n(0.22 * POINT_SPACING)}"/>')
    parts.append(f'<text class="letter" y="5">{letter.upper()}</text>')
    return f'<g id="{_symbol_id("pods", letter)}" class="pod {colour}">{"".join(parts)}</g>'


def poldr_board_svg(board: PoldrBoard, board_id: str, position: Position | None = None) -> str:
    """A POLD.R grid, rank 1 at the bottom: the pawn, the markers, the bricks; each seat's reserve
    under it."""
    pieces = position.pieces if position else {}
    reserves = position.reserves if position else [0] * board.players
    grid = board.size * CELL
    width = 2 * MARGIN + grid
    height = 2 * MARGIN + grid + RESERVE_STRIP
    parts = []
    for rank in range(board.size, 0, -1):
        for file in range(board.size):
            point = f"{'abcdefghi'[file]}{rank}"
            x, y = MARGIN + (file + 0.5) * CELL, MARGIN + (board.size - rank + 0.5) * CELL
            parts.append(_cell(point, x, y, pieces.get(point, "")))
    for file in range(board.size):
        parts.append(f'<text class="label" x="{_n(MARGIN + (file + 0.5) * CELL)}" y="{_n(MARGIN + grid + 20)}">'
                     f'{"abcdefghi"[file]}</text>')
    for rank in range(1, board.size + 1):
        parts.append(f'<text class="label" x="{MARGIN // 2}" y="{_n(MARGIN + (board.size - rank + 0.5) * CELL + 5)}">'
                     f"{rank}</text>")
    seat_width = width / board.players
    strip_top = 2 * MARGIN + grid
    for seat, side, colour in zip(range(board.players), POLDR_FILLS, POLDR_COLOURS):
        left = seat * seat_width
        parts.append(f'<rect class="band" data-seat="{seat}" x="{_n(left + 2)}" y="{_n(strip_top)}" '
                     f'width="{_n(seat_width - 4)}" height="{RESERVE_STRIP - 4}" rx="6"/>'
                     f'<g transform="translate({_n(left + 20)} {_n(strip_top + 20)}) scale(0.5)">'
                     f'{_use("poldr", side.upper())}</g>'
                     f'<text class="reserve-label" x="{_n(left + 38)}" y="{_n(strip_top + 25)}">{colour} '
                     f'<tspan class="reserve" data-reserve-seat="{seat}">{reserves[seat]}</tspan></text>')
    return (f'<svg class="board poldr" id="{board_id}" viewBox="0 0 {_n(width)} {_n(height)}" width="{_n(width)}" '
            f'height="{_n(height)}" role="img" aria-label="POLD.R board">{"".join(parts)}</svg>')


def _cell(point: str, x: float, y: float, piece: str) -> str:
    half = CELL / 2
    return (f'<g class="cell point" data-point="{point}" data-piece="{piece}" transform="translate({_n(x)} {_n(y)})">'
            f'<rect class="square" x="{-half}" y="{-half}" width="{CELL}" height="{CELL}"/>'
            f'<rect class="mark" x="{-half + 3}" y="{-half + 3}" width="{CELL - 6}" height="{CELL - 6}"/>'
            f"{_use('poldr', piece)}</g>")


def poldr_symbols() -> list[str]:
    """The pawn (a chess pawn's outline), each player's marker (a disc with its initial) and brick
    (a block of masonry), centred on 0, 0 and sized in cells."""
    def at(*fractions: float) -> list[str]:
        return [_n(fraction * CELL) for fraction in fractions]

    base_y, base_rx, base_ry, foot, neck, neck_y, head_y, head_r = at(0.3, 0.27, 0.07, 0.19, 0.07, -0.04, -0.17, 0.15)
    symbols = [f'<g id="{_symbol_id("poldr", "P")}" class="pawn">'
               f'<ellipse cy="{base_y}" rx="{base_rx}" ry="{base_ry}"/>'
               f'<path d="M-{foot} {base_y}L-{neck} {neck_y}H{neck}L{foot} {base_y}Z"/>'
               f'<circle cy="{head_y}" r="{head_r}"/></g>']
    radius, half, quarter, side_length = at(0.32, 0.34, 0.17, 0.68)
    for side, fill in POLDR_FILLS.items():
        symbols.append(f'<g id="{_symbol_id("poldr", side.upper())}" class="marker">'
                       f'<circle r="{radius}" fill="{fill}"/><text class="letter" y="6">{side.upper()}</text></g>')
        symbols.append(f'<g id="{_symbol_id("poldr", side)}" class="brick">'
                       f'<rect x="-{half}" y="-{half}" width="{side_length}" height="{side_length}" rx="3" '
                       f'fill="{fill}"/>'
                       f'<path d="M-{half} 0H{half}M0 -{half}V0M-{quarter} 0V{half}M{quarter} 0V{half}"/></g>')
    return symbols


def _use(game: str, piece: str) -> str:
    """The piece drawn from its definition; an empty <use> when there is none (the script sets it)."""
    return f'<use class="piece" href="#{_symbol_id(game, piece)}"/>' if piece else '<use class="piece"/>'


def _symbol_id(game: str, piece: str) -> str:
    """The id of a piece's definition, not relying on case (a Pods pod B is no POLD.R marker B):
    pod-white-a, pod-black-a; poldr-pawn, poldr-marker-b, poldr-brick-b."""
    if game == "pods":
        return f"pod-{'white' if piece.isupper() else 'black'}-{piece.lower()}"
    if piece == "P":
        return "poldr-pawn"
    return f"poldr-{'marker' if piece.isupper() else 'brick'}-{piece.lower()}"


def symbol_definitions(boards: dict[PodsBoard | PoldrBoard, str]) -> str:
    """Every piece the page's boards can show, defined once and drawn by <use>."""
    definitions: list[str] = []
    for board in boards:
        if isinstance(board, PodsBoard):
            definitions += [pod_symbol(letter, legs) for letter, legs in board.pods]
            definitions += [pod_symbol(letter.lower(), legs) for letter, legs in board.pods]
        else:
            definitions += poldr_symbols()
    unique = list(dict.fromkeys(definitions))  # the games of a match share their pieces
    return f'<svg class="definitions" width="0" height="0" aria-hidden="true"><defs>{"".join(unique)}</defs></svg>'


def symbol_ids(boards: dict[PodsBoard | PoldrBoard, str]) -> dict[str, dict[str, str]]:
    """For the script: game -> piece -> the id of its definition."""
    ids: dict[str, dict[str, str]] = {}
    for board in boards:
        if isinstance(board, PodsBoard):
            ids["pods"] = {piece: _symbol_id("pods", piece) for piece in hand_slots(board)}
        else:
            ids["poldr"] = {piece: _symbol_id("poldr", piece) for piece in "PBYRbyr"}
    return ids


def board_points(board: PodsBoard | PoldrBoard) -> list[str]:
    """The board's points, in the order of the page's data (each ply's `pieces`)."""
    if isinstance(board, PodsBoard):
        return list(_pods_point_places(0))
    return [f"{'abcdefghi'[file]}{rank}" for rank in range(board.size, 0, -1) for file in range(board.size)]


def hand_slots(board: PodsBoard) -> str:
    """The pods of both hands, White's then Black's: the order of each ply's `handStates`."""
    return board.letters + board.letters.lower()


def board_data(board: PodsBoard | PoldrBoard) -> dict:
    """What a page's script needs of a board: the order of its points (and of the hands' pods)."""
    data = {"points": board_points(board)}
    if isinstance(board, PodsBoard):
        data["handSlots"] = hand_slots(board)
    return data


def svg_number(value: float) -> str:
    """A coordinate, short: 12, 12.5, 12.33."""
    return f"{round(value, 2):g}"


_n = svg_number  # short, for the many coordinates above
