"""One game of a match: the players propose moves, the referee decides everything, and the game
ends as the rules say, or with a fault charged to the engine that made it."""

from __future__ import annotations

import datetime
import threading
import time
from collections import Counter
from dataclasses import dataclass

from .clock import GameClock
from .engines import Player, Referee
from .errors import EngineFault, RefereeError
from .match_settings import MatchSettings
from .notation import (BLACK, NO_MOVE, WHITE, fen_fields, hand_of, ply_of, poldr_reserves, repetition_key,
                       side_to_move, win_for)
from .openings import Opening
from .protocol import position_command
from .rules import GameRules


@dataclass(frozen=True, slots=True)
class GameSpec:
    index: int  # from 0
    group: int  # from 0; the games of one group share an opening, one game per seating (two players: a pair)
    seating: tuple[int, ...]  # index into the engine list of the engine in each seat, in turn order

    @property
    def number(self) -> int:
        """The game's number as records, progress lines and pages give it: from 1."""
        return self.index + 1


def game_specs(games: int, rules: GameRules, shard: tuple[int, int] | None = None) -> list[GameSpec]:
    """Game k of each group of len(seatings) games shares the group's opening and has seating k:
    with two players games 2p and 2p+1 share opening p with colours swapped, the first engine
    White (p1) in 2p; with three players games 6g to 6g+5 play opening g in all six seatings.

    shard (K, N): only the groups g with g % N == K - 1, the K-th of N disjoint slices of the match
    that never split a group, so that N runs on N machines play the match between them."""
    seatings = rules.seatings
    number, count = shard or (1, 1)
    groups = range(number - 1, group_count(games, rules), count)  # only the shard's: never all of a huge match
    return [GameSpec(index, group, seatings[index % len(seatings)]) for group in groups
            for index in range(group * len(seatings), min(games, (group + 1) * len(seatings)))]


def group_count(games: int, rules: GameRules) -> int:
    """The number of groups of games (openings) of a match: the most shards it can be cut into."""
    return -(-games // len(rules.seatings))


@dataclass
class Ending:
    result: str  # "1-0", "0-1" or "1/2-1/2"; POLD.R: "p1win", "p2win" or "p3win"
    reason: str
    detail: str = ""
    faulty: str | None = None  # the engine whose fault ended the game


class GameRunner:
    """Plays one game: players propose moves, the referee decides everything.

    Seats are keyed white/black in Pods and p1/p2(/p3) in POLD.R (GameRules.seat_keys)."""

    def __init__(self, spec: GameSpec, opening: Opening, seats: dict[str, Player], referee: Referee,
                 settings: MatchSettings, stop: threading.Event):
        self.spec = spec
        self.opening = opening
        self.seats = seats
        self.referee = referee
        self.settings = settings
        self.rules = settings.rules
        self.stop = stop
        self.controls = {seat: settings.control_of(player.spec) for seat, player in seats.items()}
        self.clock = GameClock(self.controls, settings.margin_ms, self.rules.seat_keys)
        self.moves: list[str] = []
        self.move_info: list[dict] = []  # per move: time_ms, and score, depth, nodes as the engine said
        self.used_ms = {seat: 0.0 for seat in self.rules.seat_keys}
        self.seen: Counter[str] = Counter()
        # The current position; whose turn it is and the ply are read from the referee's position line each move.
        self.fen = opening.fen
        self.to_move, self.ply = self.rules.side_to_move(opening.fen), ply_of(opening.fen)
        self.faults: dict[str, EngineFault] = {}  # seat -> the fault its engine made in this game

    def run(self) -> dict | None:
        """The game's record, or None when the match was stopped during it."""
        self.referee.new_game()
        ending = self._prepare_players()
        while ending is None and not self.stop.is_set():
            ending = self._judge_position()
            if ending is None:
                ending = self._play_move()
        if self.stop.is_set():
            return None
        return self._record(ending)

    def _prepare_players(self) -> Ending | None:
        for seat in self.rules.seat_keys:
            try:
                self.seats[seat].prepare_for_game()
            except EngineFault as fault:
                fault = EngineFault(fault.reason, fault.engine, f"{fault.what} (getting ready for the game)")
                if ending := self._forfeit(seat, fault):
                    return ending
        return None

    def _judge_position(self) -> Ending | None:
        """The referee's verdict on the current position; also notes whose turn it is."""
        self.referee.set_position(self.opening.fen, self.moves)
        over = self.referee.game_over()
        self.fen = fen = self.referee.fen()
        if self.rules.poldr:  # no repetitions, no draws: every POLD.R game ends by the rules
            if over:
                return self._poldr_ending(self.referee.result(), fen)
            self.to_move, self.ply = self.rules.side_to_move(fen), ply_of(fen)
            return None
        self.seen[repetition_key(fen)] += 1
        repeated = self.seen[repetition_key(fen)] >= 3
        if over:
            return self._natural_ending(self.referee.result(), fen, repeated)
        if repeated:
            return Ending("1/2-1/2", "threefold repetition")
        if self.settings.max_plies and ply_of(fen) >= self.settings.max_plies:
            return Ending("1/2-1/2", "max plies", f"adjudicated at ply {ply_of(fen)}")
        self.to_move, self.ply = side_to_move(fen), ply_of(fen)
        return None

    def _natural_ending(self, result: str, fen: str, repeated: bool) -> Ending:
        if result == "draw":
            return Ending("1/2-1/2", "threefold repetition" if repeated else "draw")
        if result not in ("p1win", "p2win"):
            raise RefereeError(f"referee says the game is over but gives result {result!r}")
        winner = WHITE if result == "p1win" else BLACK
        if self.settings.variant == "advanced" and not hand_of(fen, winner):
            return Ending(win_for(winner), "hand emptied")
        return Ending(win_for(winner), "no legal move")

    def _poldr_ending(self, result: str, fen: str) -> Ending:
        """POLD.R ends by a last brick laid in phase 1, or when nobody can clear: the most bricks win."""
        if result not in [self.rules.win_for(seat) for seat in self.rules.seat_keys]:
            raise RefereeError(f"referee says the POLD.R game is over but gives result {result!r}")
        reserves = poldr_reserves(fen)
        winner = self.rules.seat_keys.index(result[:-len("win")])
        detail = f"reserves {fen_fields(fen)[2]}"
        if reserves[winner] == 0:
            return Ending(result, "last brick", detail)
        if reserves.count(reserves[winner]) > 1:
            detail += ", tie broken: reached first"
        return Ending(result, "most bricks", detail)

    def _play_move(self) -> Ending | None:
        colour = self.to_move
        if colour in self.faults:  # its engine failed before its turn came: it forfeits now
            return self._forfeit(colour, self.faults[colour])
        player = self.seats[colour]
        asked = time.monotonic()
        try:
            move, elapsed, report = player.best_move(position_command(self.opening.fen, self.moves),
                                                     self.clock.go_command(colour), self.clock.limit_seconds(colour))
        except EngineFault as fault:
            self.used_ms[colour] += (time.monotonic() - asked) * 1000  # a forfeited move's time counts too
            return self._forfeit(colour, fault)
        elapsed_ms = elapsed * 1000
        self.used_ms[colour] += elapsed_ms
        if not self.clock.charge(colour, elapsed_ms):
            return self._forfeit(colour, EngineFault("time forfeit", player.label, f"{move} took {elapsed_ms:.0f} ms"))
        if move == NO_MOVE:
            return self._forfeit(colour, EngineFault("illegal move", player.label,
                                                     "bestmove (none) in a game still on"))
        if not self.referee.is_legal(move):
            return self._forfeit(colour, EngineFault("illegal move", player.label, f"{move} at ply {self.ply}"))
        self.moves.append(move)
        self.move_info.append({"time_ms": round(elapsed_ms), **report})
        return None

    def _forfeit(self, seat: str, fault: EngineFault) -> Ending | None:
        """Charges a fault to seat, whose engine then cannot win this game.

        When one seat is left without a fault it wins (always so with two players). Otherwise the
        faulty seat must be the one to move, and the referee ranks the others by the rules'
        scoring (Referee.forfeit_winner). A seat whose engine fails while getting ready for the
        game, before its turn has come, cannot be put to the referee yet: the game goes on without
        asking it anything and it forfeits when its turn comes (None: the game is not over). The
        ending's detail names the fault that ends the game, then any seat's earlier one."""
        if fault.reason != "illegal move":
            self.seats[seat].kill()  # crashed, hung or confused: a fresh process next game
        self.faults[seat] = fault
        standing = [other_seat for other_seat in self.rules.seat_keys if other_seat not in self.faults]
        if len(standing) == 1:
            winner = standing[0]
        elif seat == self.to_move:
            winner = self.referee.forfeit_winner(self.opening.fen, self.moves)
            if winner not in standing:
                raise RefereeError(f"referee let {winner}, which forfeited, win after {seat}'s fault")
        else:
            return None
        name = self.seats[seat].spec.name
        detail = fault.detail
        # A seat that failed earlier, while getting ready, is out of this game too: the record
        # names the fault that ended it, and these.
        if earlier := [other_fault.detail for other, other_fault in self.faults.items() if other != seat]:
            detail += f"; also out: {'; '.join(earlier)}"
        return Ending(self.rules.win_for(winner), fault.reason, detail, faulty=name)

    def _record(self, ending: Ending) -> dict:
        """The game's record, in the one schema of both games (records.py, docs/records.md): its
        number and group's from 1, the engines by seat (p1 first), the result in the engines' words."""
        rules, keys = self.rules, self.rules.seat_keys
        names = [self.seats[seat].spec.name for seat in keys]
        result = {"1-0": "p1win", "0-1": "p2win", "1/2-1/2": "draw"}.get(ending.result, ending.result)
        winner = None if result == "draw" else names[int(result[1:-len("win")]) - 1]
        record = {"type": "game", "game": rules.game, "index": self.spec.number, "group": self.spec.group + 1,
                  "seats": names}
        if rules.poldr:
            record.update(players=rules.players, size=rules.size, bricks=rules.bricks)
        else:
            record["variant"] = self.settings.variant
        record.update({
            "opening": self.opening.fen,
            "opening_base": self.opening.base,
            "opening_moves": list(self.opening.moves),
            "moves": self.moves,
            "move_info": self.move_info,
            "final": self.fen,
            "result": result,
            "winner": winner,
            "reason": ending.reason,
            "detail": ending.detail,
            "faulty": ending.faulty,
            "time_ms": {f"p{number}": round(self.used_ms[seat]) for number, seat in enumerate(keys, 1)},
            "time_control": {f"p{number}": self.controls[seat].describe() for number, seat in enumerate(keys, 1)},
            "seed": self.settings.seed,
            "finished": datetime.datetime.now().isoformat(timespec="seconds"),
        })
        return record
