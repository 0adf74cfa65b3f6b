"""What an engine says, as Python values: scores (Score), the `info` lines of a search (Info), a
search's results (Analysis, PlayResult), the options it declares (Option) and its static evaluation
(Evaluation); and the parsers that read them from the protocol's lines (protocol.md sections 3-5).

Scores compare and sort by how good they are for the side whose view they give: a win sooner is
better than a win later, any win better than any evaluation, any evaluation better than a loss, a
loss later better than a loss sooner. A score knows whose view it is (its `seat`) when the client
made it, and turns to another seat's view with pov() in a two-player game; with three players only
the side to move's own view is known (PerspectiveError)."""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Iterator, Mapping

from .errors import PerspectiveError

# The whole-number fields of an `info` line.
INFO_NUMBERS = ("depth", "seldepth", "multipv", "nodes", "nps", "hashfull", "time", "currmovenumber", "tbhits")
OPTION_RE = re.compile(r"^option name (?P<name>.+?) type (?P<type>\S+)(?: .*)?$")
OPTION_FIELDS = ("default", "min", "max", "var")
SEAT_OF_COLOUR = {"White": "p1", "Black": "p2", "Blue": "p1", "Yellow": "p2", "Red": "p3"}


@dataclass(frozen=True, eq=False)
class Score:
    """A search's score from one side's view: cp, the evaluation (positive is good for that side),
    or mate: that side wins in `mate` of its own moves, or loses in `-mate` if it is negative.
    Exactly one of the two is set. seat: whose view it is ("p1", "p2", "p3"), None when not known;
    players: how many play (2 or 3), None when not known.

    Scores compare by value (==, <, sorted, max): mate 2 > mate 5 > cp 900 > cp -30 > mate -5 >
    mate -2. Two scores from different seats' views do not compare: pov() brings them to one."""
    cp: int | None = None
    mate: int | None = None
    seat: str | None = None
    players: int | None = None

    @property
    def is_mate(self) -> bool:
        return self.mate is not None

    def negated(self) -> Score:
        """The same score from the opponent's view (two players): a win in m is a loss in m."""
        other = None if self.seat is None else {"p1": "p2", "p2": "p1"}.get(self.seat)
        return Score(cp=None if self.cp is None else -self.cp, mate=None if self.mate is None else -self.mate,
                     seat=other, players=self.players)

    def __neg__(self) -> Score:
        return self.negated()

    def pov(self, seat: str) -> Score:
        """The score from seat's view: itself, or with two players the opponent's score negated.
        PerspectiveError when the view cannot be known: whose view this is was not recorded, or
        three play (a score is the mover's against both others, and says nothing of each)."""
        if seat not in ("p1", "p2", "p3"):
            raise PerspectiveError(f"pov({seat!r}): a seat is p1, p2 or p3")
        if seat == self.seat:
            return self
        if self.seat is None:
            raise PerspectiveError(f"pov({seat!r}): whose view this score gives is not known")
        if self.players != 2:
            raise PerspectiveError(f"with three players a score is known from the side to move's view only "
                                   f"({self.seat}), not from {seat}'s")
        return self.negated()

    def score(self, mate_score: int | None = None) -> int | None:
        """The score in centipawns; a mate is None, or with mate_score m: m - n for a win in n, -m - n
        for a loss in n (so that sooner wins and later losses count more, as python-chess does)."""
        if self.cp is not None:
            return self.cp
        if mate_score is None:
            return None
        return mate_score - self.mate if self.mate > 0 else -mate_score - self.mate

    def sort_key(self) -> tuple[int, int]:
        """A key that orders scores from worst to best for the side whose view they give."""
        if self.mate is None:
            return 1, self.cp
        return (2, -self.mate) if self.mate > 0 else (0, -self.mate)

    def _comparable(self, other: object) -> bool:
        if not isinstance(other, Score):
            return False
        if self.seat is not None and other.seat is not None and self.seat != other.seat:
            raise PerspectiveError(f"a score from {self.seat}'s view and one from {other.seat}'s do not compare: "
                                   f"turn one with pov()")
        return True

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Score):
            return NotImplemented
        return (self.cp, self.mate) == (other.cp, other.mate) and (
            self.seat is None or other.seat is None or self.seat == other.seat)

    def __hash__(self) -> int:
        return hash((self.cp, self.mate))

    def __lt__(self, other: object) -> bool:
        return self.sort_key() < other.sort_key() if self._comparable(other) else NotImplemented

    def __le__(self, other: object) -> bool:
        return self.sort_key() <= other.sort_key() if self._comparable(other) else NotImplemented

    def __gt__(self, other: object) -> bool:
        return self.sort_key() > other.sort_key() if self._comparable(other) else NotImplemented

    def __ge__(self, other: object) -> bool:
        return self.sort_key() >= other.sort_key() if self._comparable(other) else NotImplemented

    def __str__(self) -> str:
        return f"mate {self.mate}" if self.is_mate else f"cp {self.cp}"

    def __repr__(self) -> str:
        value = f"mate={self.mate}" if self.is_mate else f"cp={self.cp}"
        return f"Score({value}" + (f", seat={self.seat!r}" if self.seat else "") + ")"


class Info(dict):
    """One `info` line: a dictionary of its fields (info["depth"]), also read as attributes
    (info.depth, None when the line has no such field). Fields: depth, seldepth, multipv, score (a
    Score), nodes, nps, hashfull, time (ms), tbhits, pv (a list of moves), currmove,
    currmovenumber, string (the text of `info string`)."""

    FIELDS = frozenset((*INFO_NUMBERS, "score", "pv", "currmove", "string"))

    def __getattr__(self, name: str) -> object:
        if name not in Info.FIELDS:  # a misspelt field is an error, not a silent None
            raise AttributeError(f"an Info has no field {name!r} (its fields: {', '.join(sorted(Info.FIELDS))})")
        return self.get(name)

    def __repr__(self) -> str:
        return f"Info({dict.__repr__(self)})"


def parse_info(line: str) -> Info:
    """The fields of an `info` line: numbers as int, `score` as a Score, `pv` as a list of moves,
    `currmove` as a move, `string` as the rest of the line. Words it does not know are skipped."""
    if line.startswith("info string"):
        return Info(string=line[len("info string"):].strip())
    words = line.split()[1:]
    info = Info()
    index = 0
    while index < len(words):
        key, value = words[index], words[index + 1] if index + 1 < len(words) else None
        if key == "pv":
            info["pv"] = words[index + 1:]
            break
        if key == "score" and value in ("cp", "mate") and index + 2 < len(words):
            number = _integer(words[index + 2])
            if number is not None:
                info["score"] = Score(cp=number) if value == "cp" else Score(mate=number)
            index += 3
        elif key in INFO_NUMBERS and value is not None and _integer(value) is not None:
            info[key] = _integer(value)
            index += 2
        elif key == "currmove" and value is not None:
            info[key] = value
            index += 2
        else:
            index += 1
    return info


def _integer(word: str) -> int | None:
    if len(word) > 40 or not re.fullmatch(r"-?\d+", word):  # no int() of a thousand digits
        return None
    return int(word)


def with_view(info: Info, seat: str, players: int) -> Info:
    """The info with its score marked as seat's view (the side to move's, as the engine gives it)."""
    if "score" not in info:
        return info
    return Info(info, score=replace(info["score"], seat=seat, players=players))


class Analysis(list):
    """The result of Engine.analyse: the final Info of each best line, best first. partial: True
    when the search was stopped at the timeout asked for before it reached its limits (the lines
    are then the best it had found); bestmove and ponder: the search's own answer (None when the
    game is over)."""

    def __init__(self, lines=(), *, partial: bool = False, bestmove: str | None = None, ponder: str | None = None):
        super().__init__(lines)
        self.partial = partial
        self.bestmove = bestmove
        self.ponder = ponder

    def __repr__(self) -> str:
        return f"Analysis({list.__repr__(self)}, partial={self.partial}, bestmove={self.bestmove!r})"


@dataclass(frozen=True)
class PlayResult:
    """The result of Engine.play: the move (None when the game is over), the move the engine
    expects in reply (ponder: only while its Ponder option is on and its line is long enough), the
    last Info with a score the search printed, whether it was stopped at the timeout asked for
    (partial), and the seconds from `go` to `bestmove`."""
    move: str | None
    ponder: str | None = None
    info: Info = field(default_factory=Info)
    partial: bool = False
    elapsed: float | None = None

    @property
    def score(self) -> Score | None:
        return self.info.get("score")


@dataclass(frozen=True)
class Option:
    """An option the engine declares in its handshake: name, type (check, spin, combo, button,
    string), default (as the engine writes it; None for a button), min and max (spin) and var
    (combo: the values allowed)."""
    name: str
    type: str
    default: str | None = None
    min: int | None = None
    max: int | None = None
    var: tuple[str, ...] = ()

    def __str__(self) -> str:
        return self.name


def parse_option(line: str) -> Option | None:
    """An `option name <name> type <type> [default <value>] [min <n>] [max <n>] [var <value>]...` line;
    None if the line is not one. A value runs up to the next field's keyword."""
    found = OPTION_RE.match(line)
    if found is None:
        return None
    rest = line[found.end("type"):].split(" ")
    fields: dict[str, list[str]] = {}
    current: list[str] | None = None
    var: list[str] = []
    for word in rest:
        if word in OPTION_FIELDS:
            current = []
            if word == "var":
                var.append("")
                current = None
            else:
                fields[word] = current
        elif current is not None:
            current.append(word)
        elif var:
            var[-1] = f"{var[-1]} {word}".strip()
    default = " ".join(fields["default"]) if "default" in fields else None
    return Option(found["name"], found["type"], default, _bound(fields.get("min")), _bound(fields.get("max")),
                  tuple(var))


def _bound(words: list[str] | None) -> int | None:
    return None if not words or len(words) != 1 else _integer(words[0])


class Options(Mapping[str, Option]):
    """The options an engine declares, by name, the name matched without regard to case as the
    protocol matches it: options["hash"] is options["Hash"]. Iterating gives the names as declared."""

    def __init__(self, options: list[Option] = ()):
        self._by_key = {option.name.lower(): option for option in options}

    def __getitem__(self, name: str) -> Option:
        if not isinstance(name, str):
            raise KeyError(name)
        return self._by_key[name.lower()]

    def __iter__(self) -> Iterator[str]:
        return (option.name for option in self._by_key.values())

    def __len__(self) -> int:
        return len(self._by_key)

    def __contains__(self, name: object) -> bool:
        return isinstance(name, str) and name.lower() in self._by_key

    def __repr__(self) -> str:
        return f"Options({list(self)})"


@dataclass(frozen=True)
class Evaluation:
    """The engine's static evaluation of the current position (`eval`): score, the total from the
    side to move's view (a Score); turn, the seat to move; terms, the terms it adds up (Pods) or the
    mover's (POLD.R: score, phase); players, POLD.R: each seat's own terms, total included; over,
    the engine's words when the game is over (then score and turn are None); line, the whole line."""
    score: Score | None
    turn: str | None
    terms: dict[str, int | str]
    players: dict[str, dict[str, int]]
    over: str | None
    line: str


EVAL_RE = re.compile(r"^eval (?P<colour>\w+) to move: (?P<rest>.*)$")


def parse_eval(line: str, players: int) -> Evaluation | None:
    """The Evaluation of an `eval` line, None if the line is not one."""
    if line.startswith("eval none: "):
        return Evaluation(None, None, {}, {}, line[len("eval none: "):].removeprefix("game over, "), line)
    found = EVAL_RE.match(line)
    if found is None or found["colour"] not in SEAT_OF_COLOUR:
        return None
    turn = SEAT_OF_COLOUR[found["colour"]]
    parts = [part.strip() for part in found["rest"].split(";") if part.strip()]
    terms = _terms(parts[0].split())
    seats: dict[str, dict[str, int]] = {}
    if found["colour"] in ("White", "Black"):  # Pods: the terms, then the total
        total = terms.get("total")
    else:  # POLD.R: score S phase P <Colour> <terms> total T; <Colour> ...
        first = parts[0].split()
        colour_at = next((index for index, word in enumerate(first) if word in SEAT_OF_COLOUR), len(first))
        terms = _terms(first[:colour_at])
        for part in [" ".join(first[colour_at:]), *parts[1:]]:
            words = part.split()
            if words and words[0] in SEAT_OF_COLOUR:
                seats[SEAT_OF_COLOUR[words[0]]] = {key: value for key, value in _terms(words[1:]).items()
                                                   if isinstance(value, int)}
        total = terms.get("score")
    if not isinstance(total, int):
        return None
    return Evaluation(Score(cp=total, seat=turn, players=players), turn, terms, seats, None, line)


def _terms(words: list[str]) -> dict[str, int | str]:
    """`name value name value ...` -> {name: value}, values whole numbers where they read as one."""
    terms: dict[str, int | str] = {}
    for name, value in zip(words[0::2], words[1::2]):
        number = _integer(value)
        terms[name] = value if number is None else number
    return terms
