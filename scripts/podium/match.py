"""A match: games scheduled over workers (each with its own engines and referee), every record
written as it comes, progress and the final report, an early stop on an SPRT verdict."""

from __future__ import annotations

import queue
import sys
import threading
import traceback

from .engines import Player, Referee
from .errors import OptionRefused, RefereeError
from .game import GameRunner, GameSpec, game_specs
from .match_settings import MatchSettings
from .notation import POLDR_COLOURS
from .openings import OpeningBook
from .process import CHILDREN
from .records import RecordFile, game_moves_key, is_poldr_record, record_engines, record_index, result_text
from .stats import (MIN_PAIRS, Tally, count_of, elo_basis, format_elo, share_with_interval, sprt_bounds,
                    sprt_llr)

# How long a worker may take to end once its engines are killed (it closes them and leaves).
WORKER_EXIT_S = 10.0


class Worker(threading.Thread):
    """Plays games one after another with its own engines (one per seat) and its own referee."""

    def __init__(self, number: int, match: Match):
        super().__init__(name=f"worker {number}", daemon=True)
        self.number = number
        self.match = match

    def run(self) -> None:
        settings = self.match.settings
        transcript = settings.transcript.tagged(f"w{self.number}:")
        players = [Player(spec, settings.rules, settings.timeouts, transcript) for spec in settings.engines]
        referee = Referee(settings.referee_argv, settings.rules, settings.timeouts, transcript)
        try:
            referee.launch()
            self._play_games(players, referee)
        except (RefereeError, OptionRefused) as error:  # nothing can be judged, or played as asked
            self._report_error(str(error))
        except Exception as error:  # a bug: report it instead of dying silently
            if not self.match.stop.is_set():
                traceback.print_exc()
            self._report_error(f"internal error in {self.name}: {error!r}")
        finally:
            for engine in (*players, referee):
                engine.close()
            self.match.results.put(("done", None))

    def _play_games(self, players: list[Player], referee: Referee) -> None:
        while not self.match.stop.is_set():
            try:
                spec = self.match.pending.get_nowait()
            except queue.Empty:
                return
            opening = self.match.book.for_group(spec.group, referee)
            seats = {seat: players[engine] for seat, engine in zip(self.match.settings.rules.seat_keys, spec.seating)}
            record = GameRunner(spec, opening, seats, referee, self.match.settings, self.match.stop).run()
            if record is not None:
                self.match.results.put(("record", record))

    def _report_error(self, message: str) -> None:
        if not self.match.stop.is_set():  # after a stop, killed engines fail on purpose
            self.match.results.put(("error", message))


class Match:
    """Schedules the games over the workers, records and reports results, stops on an SPRT verdict."""

    def __init__(self, settings: MatchSettings, book: OpeningBook, recorded: list[dict], records: RecordFile):
        self.settings = settings
        self.records = records
        self.book = book
        self.names = [spec.name for spec in settings.engines]
        self.first = self.names[0]
        self.tally = Tally(self.first)
        self._games_by_moves: dict[tuple, int] = {}  # game_moves_key -> the game's number
        self._repeat_warned = False
        for record in recorded:
            self.tally.add(record)
            self._games_by_moves.setdefault(game_moves_key(record), record_index(record))
        done = {record_index(record) for record in recorded}
        planned = game_specs(settings.games, settings.rules, settings.shard)
        self.planned = len(planned)  # the games this run is to have played when it ends
        self.todo = [spec for spec in planned if spec.number not in done]
        self.pending: queue.Queue[GameSpec] = queue.Queue()
        for spec in self.todo:
            self.pending.put(spec)
        self.results: queue.Queue[tuple[str, object]] = queue.Queue()
        self.stop = threading.Event()
        self.sprt_verdict = "continue"
        self._playing = 0  # workers that have not said they are done

    def run(self) -> None:
        """Plays the missing games; raises RefereeError if the referee fails."""
        if self._sprt_decided():
            return
        workers = [Worker(number, self) for number in range(min(self.settings.concurrency, len(self.todo)))]
        self._playing = len(workers)
        try:
            for worker in workers:
                worker.start()
            self._collect()
        finally:
            self._stop_workers(workers)

    def _stop_workers(self, workers: list[Worker]) -> None:
        """Ends the workers before anything they use (the records, the log) is closed: after an
        interruption, a referee failure or an SPRT verdict their engines are killed, which ends
        any wait of theirs at once."""
        self.stop.set()
        if self._playing:
            CHILDREN.kill_all()  # games in flight no longer matter
        for worker in workers:
            worker.join(timeout=WORKER_EXIT_S)

    def _collect(self) -> None:
        while self._playing:
            try:
                kind, payload = self.results.get(timeout=0.2)
            except queue.Empty:
                continue
            if kind == "done":
                self._playing -= 1
            elif kind == "error":
                raise RefereeError(payload)
            elif kind == "record" and not self.stop.is_set():
                self.records.write(payload)
                self.tally.add(payload)
                print(self.progress_line(payload), flush=True)
                self._watch_for_repeats(payload)
                if self._sprt_decided():
                    return

    def _watch_for_repeats(self, record: dict) -> None:
        """Deterministic engines (a fixed depth or nodes, one thread) play the same game again from
        the same opening: such games add nothing, and the user is told once how to avoid them."""
        earlier = self._games_by_moves.setdefault(game_moves_key(record), record_index(record))
        if earlier != record_index(record) and not self._repeat_warned:
            self._repeat_warned = True
            print(f"arbiter: warning: game {record_index(record)} repeats game {earlier} move for move "
                  f"(same opening, same seats): the engines play alike from alike openings; vary the openings "
                  f"with --random-plies N or an --openings file", file=sys.stderr, flush=True)

    def _sprt_decided(self) -> bool:
        if self.settings.sprt is None:
            return False
        llr = sprt_llr(self.tally.pentanomial(), self.settings.sprt.elo0, self.settings.sprt.elo1)
        self.sprt_verdict = self.settings.sprt.verdict(llr)
        return self.sprt_verdict != "continue"

    def progress_line(self, record: dict) -> str:
        tally = self.tally
        number = record_index(record)
        head = (f"Game {number} ({' vs '.join(record_engines(record))}): {result_text(record)} {record['reason']} "
                f"| {tally.games}/{count_of(self.planned, 'game')}, ")
        if len(self.names) != 2:
            return head + "wins " + ", ".join(f"{name} {tally.engine_wins[name]}" for name in self.names)
        first, second = self.names
        elo = format_elo(tally.elo()) if tally.enough_pairs() else "too few games"
        if is_poldr_record(record):
            line = (head + f"{first} vs {second} wins {tally.wins}-{tally.losses}, "
                    f"{first} win share {100 * tally.score():.1f}%, Elo {elo}")
        else:
            line = (head + f"{first} vs {second} W-L-D {tally.wins}-{tally.losses}-{tally.draws}, "
                    f"score {100 * tally.score():.1f}%, Elo {elo}")
        if sprt := self.settings.sprt:
            line += f", LLR {sprt_llr(tally.pentanomial(), sprt.elo0, sprt.elo1):.2f}"
        return line

    def report(self) -> str:
        return match_report(self.settings, self.tally)


def match_report(settings: MatchSettings, tally: Tally) -> str:
    """The results of a match (or of the games played so far): the same for one run and for
    shards merged (arbiter.py merge)."""
    names = [spec.name for spec in settings.engines]
    shard = f", shard {settings.shard[0]}/{settings.shard[1]}" if settings.shard else ""
    lines = [f"Results of {' vs '.join(names)} ({settings.rules.describe()}, "
             f"{settings.describe_controls()}, {count_of(tally.games, 'game')}{shard}):"]
    if settings.rules.poldr:
        lines += _poldr_win_lines(settings, names, tally)
    else:
        share = f" ({100 * tally.score():.2f}%)" if tally.games else ""
        lines.append(f"W-L-D: {tally.wins}-{tally.losses}-{tally.draws}, points "
                     f"{tally.wins + tally.draws / 2:g}/{tally.games}{share}")
    if len(names) == 2:
        lines += _two_player_lines(settings, tally)
    for (engine, reason), count in sorted(tally.faults.items()):
        lines.append(f"Faults: {engine} lost {count} by {reason}")
    lines.append(f"Records: {settings.records_path}")
    return "\n".join(lines)


def _two_player_lines(settings: MatchSettings, tally: Tally) -> list[str]:
    """Elo, LOS, pentanomial and SPRT (when one was asked for) of the first engine against the second;
    below MIN_PAIRS complete game pairs Elo and LOS say only that the games are too few."""
    penta = tally.pentanomial()
    elo = tally.elo()
    if tally.enough_pairs():
        lines = [f"Elo: {format_elo(elo)} ({elo_basis(elo)})", f"LOS: {100 * tally.los():.2f}%"]
    else:
        few = f"too few games ({count_of(sum(penta), 'game pair')}; Elo and LOS need {MIN_PAIRS})"
        lines = [f"Elo: {few}", f"LOS: {few}"]
    lines.append(f"Pentanomial [LL, LD, WL+DD, WD, WW]: {penta}"
                 + (" (no draws in POLD.R: LD and WD stay 0)" if settings.rules.poldr else ""))
    if sprt := settings.sprt:
        llr = sprt_llr(penta, sprt.elo0, sprt.elo1)
        lower, upper = sprt_bounds(sprt.alpha, sprt.beta)
        lines.append(f"SPRT [{sprt.elo0:g}, {sprt.elo1:g}] (logistic Elo, pentanomial GSPRT), alpha {sprt.alpha:g}, "
                     f"beta {sprt.beta:g}: LLR {llr:.2f} ({lower:.2f}, {upper:.2f}) -> {sprt.verdict(llr)}")
    return lines


def _poldr_win_lines(settings: MatchSettings, names: list[str], tally: Tally) -> list[str]:
    """Per engine: games, wins, win share with its 95% (Wilson) interval and mean final reserve;
    then the same win shares per seat, which show any advantage of moving first."""
    lines = []
    for name in names:
        reserves = tally.final_reserves.get(name)
        mean_reserve = f"{sum(reserves) / len(reserves):.2f}" if reserves else "n/a"
        lines.append(f"{name}: {count_of(tally.games, 'game')}, won {tally.engine_wins[name]}, "
                     f"{share_with_interval(tally.engine_wins[name], tally.games)}, "
                     f"mean final reserve {mean_reserve}")
    for seat, colour in zip(settings.rules.seat_keys, POLDR_COLOURS):
        lines.append(f"Seat {seat} ({colour}): won {tally.seat_wins[seat]}, "
                     f"{share_with_interval(tally.seat_wins[seat], tally.games)}")
    return lines
