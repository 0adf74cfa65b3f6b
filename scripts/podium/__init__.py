"""Podium's Python tooling, standard library only: a client for scripts, the engine driver it is
built on, and the arbiter's parts.

    from podium import Engine, Limit

    with Engine("target/release/podium") as engine:
        result = engine.play("startpos", Limit(depth=6))
        print(result.move, result.score, result.info.depth)
        for line in engine.analyse("startpos", Limit(depth=6), multipv=3):
            print(line.multipv, line.score, " ".join(line.pv))

Installable with `pip install ./scripts` (which also installs the commands podium-arbiter and
podium-picture), or importable from a checkout with scripts/ on sys.path. docs/client.md describes
the client. The modules, one job each:

    client      the client: Engine, AnalysisStream, and the calls it shares with AsyncEngine
    aio         the client on asyncio: AsyncEngine, AsyncAnalysisStream
    info        what engines say as values: Score, Info, Analysis, PlayResult, Option, Evaluation
    limits      Limit, and the checks of every argument the client sends
    process     child processes, the registry that kills them on exit, the transcript
    protocol    the engine driver: the protocol spoken to one engine, every wait bounded
    errors      every exception of the package
    notation    moves and position lines of both games
    rules       the game a match plays: seats, options, seatings
    engines     the arbiter's players and referee, built on the driver
    clock       time controls and the game clock
    openings    the opening of each group of games
    game        one game: moves proposed, judged, recorded
    match       workers, progress and the report of a match
    stats       Elo, pentanomial, SPRT, Wilson intervals, the tally
    header      a match's settings, the first line of its records
    records     game records: written, read back (older ones too), checked, resumed
    merge       the records of a match's shards, checked and joined
    compliance  the protocol self-test of one engine
    replay      every position of a game, as a Podium draws it, for the pictures
    summary     a match's figures for its page, from stats
    boards      the boards as SVG
    pictures    self-contained HTML pages of a game or a match
    page_assets the pages' style and scripts, the evaluation graph's among them
    board       the analysis board's sessions: one engine per page, its game, its search
    board_notation  the board's moves as paths of clicks, lines as marks, requests checked
    board_server    the board's web server (scripts/board.py)
    board_page, board_script  the board's page: HTML and style, script
    settings    a match's settings, from the arbiter's arguments or a resumed file
    balanced    books of balanced openings: random walks scored by `podium analyse`
    export      the Pods games of records, as `podium tune --games` reads them
    cli         the arbiter's command line (scripts/arbiter.py, the podium-arbiter command)
    picture_cli scripts/picture.py's command line (the podium-picture command)
"""

from .aio import AsyncAnalysisStream, AsyncEngine
from .client import AnalysisStream, Engine
from .errors import (ArgumentError, ArgumentTypeError, EngineError, EngineFault, EngineStartFailed, EngineTerminated,
                     EngineTimeout, IllegalMoveError, PerspectiveError, PodiumError, ProtocolError)
from .info import Analysis, Evaluation, Info, Option, PlayResult, Score
from .limits import Limit

__all__ = ["Analysis", "AnalysisStream", "ArgumentError", "ArgumentTypeError", "AsyncAnalysisStream", "AsyncEngine",
           "Engine", "EngineError", "EngineFault", "EngineStartFailed", "EngineTerminated", "EngineTimeout",
           "Evaluation", "IllegalMoveError", "Info", "Limit", "Option", "PerspectiveError", "PlayResult", "PodiumError",
           "ProtocolError", "Score"]
