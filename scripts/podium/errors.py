"""Every exception of the package, in one module so that the client, the arbiter and the tests
raise and catch the same types.

    PodiumError
    ├── EngineFault            the engine failed the protocol (reason + detail)
    │   ├── EngineTerminated   its process is gone ("crash")
    │   │   └── EngineStartFailed   its command could not be run at all
    │   ├── EngineTimeout      no answer in time ("stall"); also a TimeoutError
    │   └── ProtocolError      a line the protocol does not allow ("protocol error")
    ├── EngineError            the engine refused a command (`info string error: <message>`) or
    │   │                      ignored some of its words (`info string warning: ... (ignored)`)
    │   ├── IllegalMoveError   a move of `position ... moves` could not be played
    │   └── OptionRefused      a player refused an option the match sets (the arbiter's)
    ├── PerspectiveError       a score asked from a view the protocol cannot give; also a ValueError
    ├── ArgumentError          a call given an argument it cannot take (a line break in a text, a
    │   │                      number out of the protocol's range); also a ValueError
    │   └── ArgumentTypeError  an argument of the wrong type; also a TypeError
    └── UsageError, RefereeError, Interrupted, CheckFailed, CheckSkipped   the arbiter's own
"""

from __future__ import annotations

import signal

# Why a game ended when an engine broke the rules of the match (the `reason` of its EngineFault).
ENGINE_FAULTS = ("illegal move", "crash", "stall", "time forfeit", "protocol error")


class PodiumError(Exception):
    """Base of every error this package raises."""


class EngineFault(PodiumError):
    """An engine did not do what the protocol, or the match, asks of it.

    reason: one of ENGINE_FAULTS, how it failed; engine: the engine's label (its name in a match);
    what: what it did, for people. detail, "engine: what", is how every message names the fault,
    so the engine is named once, by whoever raises."""

    def __init__(self, reason: str, engine: str, what: str):
        self.reason = reason
        self.engine = engine
        self.what = what
        self.detail = f"{engine}: {what}"
        super().__init__(f"{reason}: {self.detail}")


class EngineTerminated(EngineFault):
    """The engine's process exited, closed its output, or cannot be written to."""

    def __init__(self, engine: str, what: str):
        super().__init__("crash", engine, what)


class EngineStartFailed(EngineTerminated):
    """The engine's command could not be executed at all (no such file, not executable)."""


class EngineTimeout(EngineFault, TimeoutError):
    """No answer came before the deadline."""

    def __init__(self, engine: str, what: str):
        super().__init__("stall", engine, what)


class ProtocolError(EngineFault):
    """The engine printed a line that the protocol does not allow where it came."""

    def __init__(self, engine: str, what: str):
        super().__init__("protocol error", engine, what)


class EngineError(PodiumError):
    """The engine refused a command and said why: `info string error: <message>`; or it carried the
    command out without some of its words: `info string warning: <message> (ignored)`.

    message: the engine's words; command: the line that was refused."""

    def __init__(self, message: str, command: str = ""):
        super().__init__(message)
        self.message = message
        self.command = command


class IllegalMoveError(EngineError):
    """A move of `position ... moves` could not be played: the position stays just before it, and
    the game is over, lost by the side that tried it (protocol.md, `position`).

    move: the move as sent; index: its place in the moves, counting from 0."""

    def __init__(self, message: str, command: str, move: str, index: int):
        super().__init__(message, command)
        self.move = move
        self.index = index


class OptionRefused(EngineError):
    """A playing engine refused an option of the match (its option.NAME=, or one selecting the
    game): it would play with settings the user did not get, so the match stops."""

    def __init__(self, engine: str, message: str, command: str):
        super().__init__(f"engine {engine} refuses `{command}`: {message}", command)
        self.engine = engine
        self.message = message  # the engine's own words


class PerspectiveError(PodiumError, ValueError):
    """A score was asked from a side's view that the protocol cannot give: with three players only
    the side to move's own view is known."""


class ArgumentError(PodiumError, ValueError):
    """A call of the package was given an argument it cannot take: nothing was sent to the engine.
    A text that would carry a line break into the protocol is one; so is a number beyond the range
    the protocol gives (protocol.md)."""


class ArgumentTypeError(ArgumentError, TypeError):
    """An argument of the wrong type: a list where a mapping is due, a text where a number is."""


class UsageError(PodiumError):
    """Bad command line, or an engine that cannot be used at all: one line, exit 2."""


class RefereeError(PodiumError):
    """The trusted referee failed, so nothing more can be judged: exit 1."""


class Interrupted(PodiumError):
    """SIGINT or SIGTERM arrived; the arbiter winds down and exits non-zero."""

    def __init__(self, signum: int):
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


class CheckFailed(PodiumError):
    """A compliance check found the engine at fault: why, for people."""


class CheckSkipped(PodiumError):
    """The engine does not declare what the check needs (an option, a game)."""
