"""The rules of POLD.R in plain Python, for the Monte Carlo yardstick (mcts.py,
scripts/mcts_player.py): position lines read and written, legal moves (passes included), moves
played, the end and the winner. Written from the canonical rules text alone (the contract that
docs/poldr-rules.md explains), never from the engine's code: tests/arbiter/test_mcts.py checks
the two against each other.

Speed comes from integers used as bit sets: cell i (file f, rank r from 0, i = r * size + f) is
bit i; each player's bricks are one integer; the interval of every aligned pair of cells is
precomputed once per board size (Geometry).

A state is a tuple (pawn, markers, bricks, reserves, phase, ply, changed): pawn a cell or -1,
markers a tuple of cells or -1 per seat, bricks a tuple of bit sets per seat, reserves a tuple of
counts, phase 1 or 2 as the position line writes it, ply, and changed a tuple of plies per seat
(0 for `-`). A move is an integer: MARKER + cell (the mover's marker to that cell), PAWN + cell,
FIRST + pawn * 128 + marker (the first turn of the game) or PASS.

Python 3.11 standard library only.
"""

from __future__ import annotations

import re
from typing import Sequence

MARKER, PAWN, FIRST, PASS = 0, 128, 1 << 14, 1 << 20
SIDES = "byr"
BRICK_LETTERS = "byr"
MARKER_LETTERS = "BYR"
DIRECTIONS = ((1, 0), (-1, 0), (0, 1), (0, -1), (1, 1), (1, -1), (-1, 1), (-1, -1))
MOVE_RE = re.compile(r"^(?:([Pp])([a-i])([1-9])(?:([Mm])([a-i])([1-9]))?|([Mm])([a-i])([1-9])|(pass))$")


class Geometry:
    """The cells of one board size and, for every aligned pair, the interval between them."""

    _cache: dict[int, "Geometry"] = {}

    def __init__(self, size: int):
        self.size = size
        self.cells = size * size
        self.full = (1 << self.cells) - 1
        self.names = [f"{'abcdefghi'[i % size]}{i // size + 1}" for i in range(self.cells)]
        # aligned[p]: (q, bit of q, interval mask) for every q aligned with p.
        self.aligned: list[tuple[tuple[int, int, int], ...]] = []
        self.between: dict[int, int] = {}  # p * cells + q -> interval mask, for aligned pairs only
        for p in range(self.cells):
            row = []
            for df, dr in DIRECTIONS:
                f, r = p % size + df, p // size + dr
                mask = 0
                while 0 <= f < size and 0 <= r < size:
                    q = r * size + f
                    if mask:
                        row.append((q, 1 << q, mask))
                        self.between[p * self.cells + q] = mask
                    mask |= 1 << q
                    f, r = f + df, r + dr
            row.sort()
            self.aligned.append(tuple(row))

    @classmethod
    def of(cls, size: int) -> "Geometry":
        if size not in cls._cache:
            cls._cache[size] = Geometry(size)
        return cls._cache[size]


class Rules:
    """POLD.R for one board size and number of players: moves, their names, the end and the winner."""

    def __init__(self, size: int = 5, players: int = 2):
        if not 4 <= size <= 9 or players not in (2, 3):
            raise ValueError(f"POLD.R is played on 4x4 to 9x9 by 2 or 3 players, not {size}x{size} by {players}")
        self.size, self.players = size, players
        self.geometry = g = Geometry.of(size)
        self.aligned, self.between, self.cells, self.names = g.aligned, g.between, g.cells, g.names

    # -- positions ---------------------------------------------------------------------------
    def start(self, bricks: int = 16) -> tuple:
        n = self.players
        return (-1, (-1,) * n, (0,) * n, (bricks,) * n, 1, 0, (0,) * n)

    def occupied(self, state: tuple) -> int:
        pawn, markers, bricks = state[0], state[1], state[2]
        occ = 0
        for b in bricks:
            occ |= b
        for m in markers:
            if m >= 0:
                occ |= 1 << m
        if pawn >= 0:
            occ |= 1 << pawn
        return occ

    # -- moves ---------------------------------------------------------------------------------
    def _building(self, state: tuple, seat: int, first_only: bool = False) -> list[int]:
        """The phase-1 turns of seat (any one, if first_only)."""
        pawn, markers, reserves = state[0], state[1], state[3]
        reserve = reserves[seat]
        occ = self.occupied(state)
        moves: list[int] = []
        if pawn < 0:  # the first turn of the game: pawn anywhere, then the marker aligned with it
            for p in range(self.cells):
                if occ >> p & 1:
                    continue
                for q, qbit, iv in self.aligned[p]:
                    if not occ & qbit and 0 < (iv & ~occ).bit_count() <= reserve:
                        moves.append(FIRST + p * 128 + q)
                        if first_only:
                            return moves
            return moves
        marker = markers[seat]
        if marker < 0:  # this player's first turn: the marker aligned with the pawn
            for q, qbit, iv in self.aligned[pawn]:
                if not occ & qbit and 0 < (iv & ~occ).bit_count() <= reserve:
                    moves.append(MARKER + q)
                    if first_only:
                        return moves
            return moves
        rest = occ ^ (1 << marker)  # the marker lifted
        for q, qbit, iv in self.aligned[pawn]:
            if q != marker and not rest & qbit and 0 < (iv & ~rest).bit_count() <= reserve:
                moves.append(MARKER + q)
                if first_only:
                    return moves
        rest = occ ^ (1 << pawn)  # the pawn lifted
        for p, pbit, iv in self.aligned[marker]:
            if p != pawn and not rest & pbit and 0 < (iv & ~rest).bit_count() <= reserve:
                moves.append(PAWN + p)
                if first_only:
                    return moves
        return moves

    def _clearing(self, state: tuple, seat: int, first_only: bool = False) -> list[int]:
        """The phase-2 turns of seat (any one, if first_only): the interval holds a brick of its own."""
        pawn, marker, mine = state[0], state[1][seat], state[2][seat]
        moves: list[int] = []
        if pawn < 0 or marker < 0 or not mine:
            return moves
        occ = self.occupied(state)
        rest = occ ^ (1 << marker)
        for q, qbit, iv in self.aligned[pawn]:
            if q != marker and not rest & qbit and iv & mine:
                moves.append(MARKER + q)
                if first_only:
                    return moves
        rest = occ ^ (1 << pawn)
        for p, pbit, iv in self.aligned[marker]:
            if p != pawn and not rest & pbit and iv & mine:
                moves.append(PAWN + p)
                if first_only:
                    return moves
        return moves

    def last_brick_winner(self, state: tuple) -> int:
        """The seat that placed its last brick (the game is then over), else -1."""
        if state[4] == 1:
            for seat, reserve in enumerate(state[3]):
                if reserve == 0:
                    return seat
        return -1

    def legal_moves(self, state: tuple) -> list[int]:
        """Every legal move; [] when the game is over."""
        if self.last_brick_winner(state) >= 0:
            return []
        seat = state[5] % self.players
        if state[4] == 1:
            moves = self._building(state, seat)
            if moves:
                return moves
        moves = self._clearing(state, seat)
        if moves:
            return moves
        if any(self._clearing(state, other, True) for other in range(self.players) if other != seat):
            return [PASS]
        return []

    def play(self, state: tuple, move: int) -> tuple:
        """The state after a legal move (legality is not checked: see legal_moves)."""
        pawn, markers, bricks, reserves, phase, ply, changed = state
        seat = ply % self.players
        if move == PASS:
            return (pawn, markers, bricks, reserves, 2, ply + 1, changed)
        occ = self.occupied(state)
        markers, bricks, reserves, changed = list(markers), list(bricks), list(reserves), list(changed)
        if move >= FIRST:
            pawn, marker = divmod(move - FIRST, 128)
            markers[seat] = marker
            occ |= 1 << pawn | 1 << marker
        elif move >= PAWN:
            occ ^= 1 << pawn
            pawn = move - PAWN
            occ |= 1 << pawn
            marker = markers[seat]
        else:
            marker = markers[seat]
            if marker >= 0:
                occ ^= 1 << marker
            marker = move - MARKER
            markers[seat] = marker
            occ |= 1 << marker
        iv = self.between[pawn * self.cells + marker]
        fill = iv & ~occ
        placed = fill.bit_count()
        if phase == 1 and 0 < placed <= reserves[seat]:  # a building turn (a blocked player's is a clearing one)
            bricks[seat] |= fill
            reserves[seat] -= placed
        else:
            cleared = iv & bricks[seat]
            bricks[seat] ^= cleared
            reserves[seat] += cleared.bit_count()
            phase = 2
        changed[seat] = ply + 1
        return (pawn, tuple(markers), tuple(bricks), tuple(reserves), phase, ply + 1, tuple(changed))

    def winner_at_end(self, state: tuple) -> int:
        """The winner of a finished game: the last brick placed, else the most bricks in reserve,
        ties going to the earlier last change (a reserve never changed counts as ply 0, and then
        the earlier seat)."""
        seat = self.last_brick_winner(state)
        if seat >= 0:
            return seat
        reserves, changed = state[3], state[6]
        return max(range(self.players), key=lambda s: (reserves[s], -changed[s], -s))

    def winner(self, state: tuple) -> int:
        """The winner if the game is over, else -1."""
        seat = self.last_brick_winner(state)
        if seat >= 0:
            return seat
        return -1 if self.legal_moves(state) else self.winner_at_end(state)

    # -- random playouts ---------------------------------------------------------------------
    def playout(self, state: tuple, random, tries: int = 6, trace: list | None = None) -> tuple[int, int]:
        """Plays uniformly random legal moves to the end: (winner, plies played), 0 plies when the
        state is already over. random is a random.Random's random method.

        Uniform by rejection: a move is drawn among the candidates (the mover's marker to any cell
        aligned with the pawn, the pawn to any cell aligned with the marker: each possible move once)
        until one is legal, at most `tries` times, then from the full list of legal moves. Either way
        each legal move has the same chance, and the list is built only when few candidates are legal.
        trace, a list, gets the moves played (for tests)."""
        winner = self.last_brick_winner(state)
        if winner >= 0:
            return winner, 0
        if state[0] < 0:  # the first turn of the game: the one move drawn from the full list
            moves = self.legal_moves(state)
            move = moves[int(random() * len(moves))]
            if trace is not None:
                trace.append(move)
            state = self.play(state, move)
            winner = self.last_brick_winner(state)
            if winner >= 0:
                return winner, 1
            first = 1
        else:
            first = 0
        pawn, markers, bricks, reserves, phase, ply, changed = state
        markers, bricks, reserves, changed = list(markers), list(bricks), list(reserves), list(changed)
        players, aligned, start_ply = self.players, self.aligned, ply - first
        occ = self.occupied(state)
        while True:
            seat = ply % players
            marker = markers[seat]
            on_pawn = aligned[pawn]
            if marker >= 0:
                on_marker = aligned[marker]
                rest_m = occ ^ (1 << marker)
            else:
                on_marker = ()
                rest_m = occ
            rest_p = occ ^ (1 << pawn)
            count_p = len(on_pawn)
            total = count_p + len(on_marker)
            if phase == 1:
                reserve = reserves[seat]
                chosen = None
                for _ in range(tries):
                    k = int(random() * total)
                    if k < count_p:
                        q, qbit, iv = on_pawn[k]
                        if q != marker and not rest_m & qbit and 0 < (iv & ~rest_m).bit_count() <= reserve:
                            chosen = (0, q, iv)
                            break
                    else:
                        p, pbit, iv = on_marker[k - count_p]
                        if p != pawn and not rest_p & pbit and 0 < (iv & ~rest_p).bit_count() <= reserve:
                            chosen = (1, p, iv)
                            break
                else:
                    options = [(0, q, iv) for q, qbit, iv in on_pawn
                               if q != marker and not rest_m & qbit and 0 < (iv & ~rest_m).bit_count() <= reserve]
                    options += [(1, p, iv) for p, pbit, iv in on_marker
                                if p != pawn and not rest_p & pbit and 0 < (iv & ~rest_p).bit_count() <= reserve]
                    if options:
                        chosen = options[int(random() * len(options))]
                if chosen is not None:
                    kind, cell, iv = chosen
                    if trace is not None:
                        trace.append(PAWN + cell if kind else MARKER + cell)
                    if kind:
                        pawn = cell
                        occ = rest_p | 1 << cell
                    else:
                        markers[seat] = cell
                        occ = rest_m | 1 << cell
                    fill = iv & ~occ
                    occ |= fill
                    bricks[seat] |= fill
                    reserves[seat] -= fill.bit_count()
                    ply += 1
                    changed[seat] = ply
                    if not reserves[seat]:
                        return seat, ply - start_ply
                    continue
            # Clearing (phase 2, or a blocked player in phase 1).
            mine = bricks[seat]
            chosen = None
            if mine:
                for _ in range(tries):
                    k = int(random() * total)
                    if k < count_p:
                        q, qbit, iv = on_pawn[k]
                        if q != marker and not rest_m & qbit and iv & mine:
                            chosen = (0, q, iv)
                            break
                    else:
                        p, pbit, iv = on_marker[k - count_p]
                        if p != pawn and not rest_p & pbit and iv & mine:
                            chosen = (1, p, iv)
                            break
                else:
                    options = [(0, q, iv) for q, qbit, iv in on_pawn
                               if q != marker and not rest_m & qbit and iv & mine]
                    options += [(1, p, iv) for p, pbit, iv in on_marker
                                if p != pawn and not rest_p & pbit and iv & mine]
                    if options:
                        chosen = options[int(random() * len(options))]
            phase = 2
            ply += 1
            if chosen is not None:
                kind, cell, iv = chosen
                if trace is not None:
                    trace.append(PAWN + cell if kind else MARKER + cell)
                if kind:
                    pawn = cell
                    occ = rest_p | 1 << cell
                else:
                    markers[seat] = cell
                    occ = rest_m | 1 << cell
                cleared = iv & mine
                occ ^= cleared
                bricks[seat] = mine ^ cleared
                reserves[seat] += cleared.bit_count()
                changed[seat] = ply
                continue
            if any(self._can_clear(pawn, markers[other], bricks[other], occ)
                   for other in range(players) if other != seat):
                if trace is not None:
                    trace.append(PASS)
                continue  # a pass
            ply -= 1  # no move: the game was over before it
            return (max(range(players), key=lambda s: (reserves[s], -changed[s], -s)), ply - start_ply)

    def _can_clear(self, pawn: int, marker: int, mine: int, occ: int) -> bool:
        if marker < 0 or not mine:
            return False
        rest = occ ^ (1 << marker)
        for q, qbit, iv in self.aligned[pawn]:
            if iv & mine and q != marker and not rest & qbit:
                return True
        rest = occ ^ (1 << pawn)
        for p, pbit, iv in self.aligned[marker]:
            if iv & mine and p != pawn and not rest & pbit:
                return True
        return False

    # -- notation ------------------------------------------------------------------------------
    def move_name(self, move: int) -> str:
        if move == PASS:
            return "pass"
        if move >= FIRST:
            pawn, marker = divmod(move - FIRST, 128)
            return f"P{self.names[pawn]}M{self.names[marker]}"
        if move >= PAWN:
            return f"P{self.names[move - PAWN]}"
        return f"M{self.names[move - MARKER]}"

    def parse_move(self, text: str) -> int:
        """The move a word names (not checked for legality); ValueError if it names none on this board."""
        match = MOVE_RE.match(text)
        if not match:
            raise ValueError(f"'{text}' is not a move: write Pc3, Mc3, Pc3Mc5 or pass")
        if match.group(10):
            return PASS

        def cell(file: str, rank: str) -> int:
            f, r = "abcdefghi".index(file), int(rank) - 1
            if f >= self.size or r >= self.size:
                raise ValueError(f"'{text}': {file}{rank} is off the {self.size}x{self.size} board")
            return r * self.size + f

        if match.group(1):
            pawn = cell(match.group(2), match.group(3))
            if match.group(4):
                return FIRST + pawn * 128 + cell(match.group(5), match.group(6))
            return PAWN + pawn
        return MARKER + cell(match.group(8), match.group(9))

    def fen(self, state: tuple) -> str:
        pawn, markers, bricks, reserves, phase, ply, changed = state
        size = self.size
        ranks = []
        for r in range(size - 1, -1, -1):
            text, empty = "", 0
            for f in range(size):
                i = r * size + f
                piece = ""
                if i == pawn:
                    piece = "P"
                else:
                    for seat in range(self.players):
                        if markers[seat] == i:
                            piece = MARKER_LETTERS[seat]
                        elif bricks[seat] >> i & 1:
                            piece = BRICK_LETTERS[seat]
                if piece:
                    text += (str(empty) if empty else "") + piece
                    empty = 0
                else:
                    empty += 1
            ranks.append(text + (str(empty) if empty else ""))
        return " ".join(["/".join(ranks), SIDES[ply % self.players], ",".join(map(str, reserves)), str(phase),
                         str(ply), ",".join(str(c) if c else "-" for c in changed)])


def parse_fen(line: str) -> tuple[Rules, tuple]:
    """The rules (size and players) and the state of a POLD.R position line; ValueError naming
    what is wrong if the line is not a valid position (docs/poldr-rules.md section 5)."""
    fields = line.split(" ")
    if len(fields) != 6:
        raise ValueError(f"expected 6 fields (board side reserves phase ply changed), found {len(fields)}")
    board, side, reserve_text, phase_text, ply_text, changed_text = fields
    rows = board.split("/")
    size = len(rows)
    if not 4 <= size <= 9:
        raise ValueError(f"board: {size} ranks, expected 4 to 9")
    reserve_words = reserve_text.split(",")
    players = len(reserve_words)
    if players not in (2, 3):
        raise ValueError(f"reserves: {players} numbers, expected 2 or 3")
    rules = Rules(size, players)

    def number(word: str, what: str) -> int:
        if not word.isdigit() or not word.isascii():
            raise ValueError(f"{what}: '{word}' is not a whole number")
        return int(word)

    reserves = tuple(number(word, "reserves") for word in reserve_words)
    if any(reserve > 40 for reserve in reserves):
        raise ValueError("reserves: at most 40")
    if phase_text not in ("1", "2"):
        raise ValueError(f"phase: '{phase_text}', expected 1 or 2")
    phase, ply = int(phase_text), number(ply_text, "ply")
    changed_words = changed_text.split(",")
    if len(changed_words) != players:
        raise ValueError(f"changed: {len(changed_words)} fields for {players} players")
    changed = tuple(0 if word == "-" else number(word, "changed") for word in changed_words)
    if any(word != "-" and c == 0 for word, c in zip(changed_words, changed)):
        raise ValueError("changed: plies start at 1")
    pawn, markers, bricks = -1, [-1] * players, [0] * players
    for row_index, row in enumerate(rows):
        r, f = size - 1 - row_index, 0
        for char in row:
            if char.isdigit():
                if char == "0":
                    raise ValueError(f"board rank {r + 1}: '0' is no run of empty cells")
                f += int(char)
                continue
            if f >= size:
                raise ValueError(f"board rank {r + 1}: more than {size} cells")
            i = r * size + f
            if char == "P":
                if pawn >= 0:
                    raise ValueError("board: two pawns")
                pawn = i
            elif char in MARKER_LETTERS[:players]:
                seat = MARKER_LETTERS.index(char)
                if markers[seat] >= 0:
                    raise ValueError(f"board: two markers '{char}'")
                markers[seat] = i
            elif char in BRICK_LETTERS[:players]:
                bricks[BRICK_LETTERS.index(char)] |= 1 << i
            else:
                raise ValueError(f"board rank {r + 1}: '{char}' is not a piece of a {players}-player game")
            f += 1
        if f != size:
            raise ValueError(f"board rank {r + 1}: {f} cells, expected {size}")
    if side not in SIDES[:players] or SIDES.index(side) != ply % players:
        raise ValueError(f"side: '{side}' is not the seat to move at ply {ply}")
    for seat in range(players):
        if (markers[seat] >= 0) != (changed[seat] > 0):
            raise ValueError(f"seat {seat + 1}: a marker exactly when its changed field is a number")
        if bricks[seat] and markers[seat] < 0:
            raise ValueError(f"seat {seat + 1}: bricks without a marker")
        if changed[seat] > ply or (changed[seat] and changed[seat] % players != (seat + 1) % players):
            raise ValueError(f"changed: {changed[seat]} cannot be seat {seat + 1}'s at ply {ply}")
        if phase == 1 and seat < ply and markers[seat] < 0:
            raise ValueError(f"phase 1: seat {seat + 1} has had a turn but has no marker")
    numbers = [c for c in changed if c]
    if len(set(numbers)) != len(numbers):
        raise ValueError("changed: two equal plies")
    if ply == 0 and (pawn >= 0 or any(m >= 0 for m in markers) or any(bricks) or phase != 1 or numbers):
        raise ValueError("ply 0: the board is empty, phase 1, no changes")
    if ply > 0 and pawn < 0:
        raise ValueError("after ply 0 the pawn is on the board")
    zeros = [seat for seat, reserve in enumerate(reserves) if reserve == 0]
    if zeros and (phase != 1 or len(zeros) > 1 or zeros[0] != (ply - 1) % players or ply == 0):
        raise ValueError("a reserve of 0 is only the last mover's, in phase 1")
    return rules, (pawn, tuple(markers), tuple(bricks), reserves, phase, ply, changed)


def play_names(rules: Rules, state: tuple, names: Sequence[str]) -> tuple:
    """The state after the moves named, each checked; ValueError naming the first illegal one."""
    for index, name in enumerate(names):
        move = rules.parse_move(name)
        if move not in rules.legal_moves(state):
            raise ValueError(f"illegal move {name} at index {index}")
        state = rules.play(state, move)
    return state
