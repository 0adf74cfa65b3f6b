"""Podium's Python tooling, standard library only: the engine driver and the arbiter's parts.

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
    records     game records: written, read back, resumed
    compliance  the protocol self-test of one engine
    cli         the arbiter's command line (scripts/arbiter.py)
"""
