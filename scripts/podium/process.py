"""Child processes: starting an engine, reading its lines with a deadline, writing to it, and
making sure that none outlives the program (a registry killed on exit, Ctrl-C or SIGTERM) and that
none that dies stays a zombie (its reader collects it), with an optional transcript of all the
traffic. What the thread-based process here and the asyncio one (aio.py) share: the cutting of
output into lines (LineSplitter) and the check that nothing sent carries a line break."""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import re
import shlex
import signal
import subprocess
import threading
import time

from .errors import ArgumentError, EngineStartFailed, EngineTerminated, EngineTimeout, ProtocolError

# The longest line read from an engine, in bytes: the protocol's own limit on a line (protocol.md,
# section 1). A longer line is a protocol error, and is not kept in memory.
LONGEST_LINE = 1 << 20
CHUNK = 1 << 16  # bytes read from an engine at a time
# The longest single wait on a queue or an event: longer waits (a deadline days away, or none) are
# made of several, since threads and event loops refuse timeouts past their own limits.
LONGEST_WAIT = 86400.0
# What may not be sent inside a line: the line breaks that would end it early (LF, CR, and the
# Unicode ones other readers break at) and the other control characters, tab excepted.
LINE_BREAK_RE = re.compile("[\x00-\x08\x0a-\x1f\x7f\x85\u2028\u2029]")


class Overlong:
    """In the lines read: a line longer than LONGEST_LINE, of which only the start is kept."""

    def __init__(self, head: str):
        self.head = head


def line_break_in(text: str) -> str | None:
    """The first character of text that would break a protocol line (repr'd), or None."""
    found = LINE_BREAK_RE.search(text)
    return None if found is None else repr(found.group())


def within_limit(label: str, line: str | Overlong) -> str:
    """A line read from the engine; one the reader cut for its length is a ProtocolError."""
    if isinstance(line, Overlong):
        raise ProtocolError(label, f"printed a line longer than the protocol's limit of {LONGEST_LINE} bytes")
    return line


def check_line(line: str, label: str) -> None:
    """A line about to be sent must be one line: an ArgumentError otherwise, and nothing is sent."""
    if not isinstance(line, str):
        raise ArgumentError(f"{label}: a line to send must be a text, not {type(line).__name__}")
    if (character := line_break_in(line)) is not None:
        raise ArgumentError(f"{label}: not sent, since it would carry a line break ({character}) into the "
                            f"protocol: {line[:80]!r}")


class LineSplitter:
    """Cuts what an engine prints into lines, without doing any reading itself: feed() takes the
    bytes read and returns the whole lines among them (decoded, the CR before LF dropped), end() the
    last one if it had no LF. A line longer than LONGEST_LINE bytes comes out as one Overlong, and
    the rest of it is skipped, not kept."""

    def __init__(self, limit: int = LONGEST_LINE):
        self._limit = limit
        self._buffer = bytearray()
        self._skipping = False  # inside an overlong line, up to its LF

    def feed(self, data: bytes) -> list[str | Overlong]:
        lines: list[str | Overlong] = []
        start = 0
        while (end := data.find(b"\n", start)) >= 0:
            self._take(data[start:end], lines, ended=True)
            start = end + 1
        self._take(data[start:], lines, ended=False)
        return lines

    def end(self) -> list[str | Overlong]:
        """What is left when the output ends: a last line without its LF, if any."""
        lines: list[str | Overlong] = []
        if self._buffer and not self._skipping:
            lines.append(_decoded(bytes(self._buffer)))
        self._buffer.clear()
        return lines

    def _take(self, piece: bytes, lines: list, ended: bool) -> None:
        if self._skipping:
            self._skipping = not ended
            return
        if len(self._buffer) + len(piece) > self._limit:
            lines.append(Overlong(_decoded(bytes(self._buffer[:80] or piece[:80]))))
            self._buffer.clear()
            self._skipping = not ended
        elif ended:
            lines.append(_decoded(bytes(self._buffer) + piece))
            self._buffer.clear()
        else:
            self._buffer += piece


def _decoded(raw: bytes) -> str:
    return raw.decode("utf-8", "replace").rstrip("\r")


def describe_exit(code: int | None) -> str:
    """' (exit code 3)', ' (killed by SIGKILL)', or ' (closed its output)' while it still runs."""
    if code is None:
        return " (closed its output)"
    if code >= 0:
        return f" (exit code {code})"
    try:
        return f" (killed by {signal.Signals(-code).name})"
    except ValueError:
        return f" (signal {-code})"


class ChildRegistry:
    """Every process started here, so that none outlives the program."""

    def __init__(self):
        self._lock = threading.Lock()
        self._children: set[EngineProcess] = set()
        self._closed = False

    def add(self, child: EngineProcess) -> bool:
        """Registers a child; False once shutting down (the caller must kill it)."""
        with self._lock:
            if self._closed:
                return False
            self._children.add(child)
            return True

    def discard(self, child: EngineProcess) -> None:
        with self._lock:
            self._children.discard(child)

    def kill_all(self) -> None:
        """Kills every child and refuses new ones from now on."""
        with self._lock:
            self._closed = True
            children = list(self._children)
        for child in children:
            child.kill()


CHILDREN = ChildRegistry()
# A script that forgets to close an engine still leaves no process behind.
atexit.register(CHILDREN.kill_all)


class Transcript:
    """Optional log of all engine traffic (the arbiter's --log), for debugging protocol problems.

    Closing it is final for every tagged view of it: a line written afterwards (a reader thread of
    an engine being killed) is dropped, not an error."""

    def __init__(self, path: str | None):
        self._log = _LogFile(open(path, "a", encoding="utf-8") if path else None)
        self._start = time.monotonic()
        self._prefix = ""

    def tagged(self, prefix: str) -> Transcript:
        """The same log, with lines marked by prefix (which worker's engine spoke)."""
        view = Transcript(None)
        view._log, view._start, view._prefix = self._log, self._start, prefix
        return view

    def close(self) -> None:
        with self._log.lock:
            if self._log.file is not None:
                self._log.file.close()
                self._log.file = None

    def write(self, label: str, direction: str, line: str) -> None:
        with self._log.lock:
            if self._log.file is None:
                return
            self._log.file.write(f"{time.monotonic() - self._start:10.3f} {self._prefix}{label} {direction} {line}\n")
            self._log.file.flush()


class _LogFile:
    """The file a transcript and its tagged views share, and the lock that keeps their lines whole."""

    def __init__(self, file):
        self.file = file
        self.lock = threading.Lock()


class EngineProcess:
    """One child process; a reader thread feeds its output lines to a queue so reads can time out.

    Failures raise EngineStartFailed (cannot run), EngineTerminated (gone) and EngineTimeout (no line
    in time), each fault naming the process by its label."""

    def __init__(self, argv: list[str], label: str, cwd: str | None = None, transcript: Transcript | None = None):
        self.label = label
        self._transcript = transcript or Transcript(None)
        self._lines: queue.Queue[tuple[str | None, float]] = queue.Queue()
        self._ended = False
        try:
            # A session of its own: our Ctrl-C is ours to handle, and killpg reaches any grandchildren.
            self._proc = subprocess.Popen(
                argv, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                cwd=cwd, start_new_session=True)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise EngineStartFailed(label, f"cannot start {shlex.join(argv)}: {reason}") from None
        if not CHILDREN.add(self):
            self.kill()
            raise EngineTerminated(label, "not started: the program is shutting down")
        threading.Thread(target=self._pump, name=f"reader {label}", daemon=True).start()

    def _pump(self) -> None:
        splitter = LineSplitter()
        try:
            while chunk := self._proc.stdout.read1(CHUNK):
                stamp = time.monotonic()
                for line in splitter.feed(chunk):
                    self._deliver(line, stamp)
            for line in splitter.end():
                self._deliver(line, time.monotonic())
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError):
            self._proc.stdout.close()  # this thread is the only reader
        self._lines.put((None, time.monotonic()))
        self._reap()

    def _deliver(self, line: str | Overlong, stamp: float) -> None:
        if isinstance(line, Overlong):
            self._transcript.write(self.label, "<", f"{line.head}... (longer than {LONGEST_LINE} bytes: not read)")
        else:
            self._transcript.write(self.label, "<", line)
        self._lines.put((line, stamp))

    def _reap(self) -> None:
        """Once the output has ended: waits for the process to exit and collects it, so that an
        engine that died is not left a zombie while the script goes on without closing it. What it
        left running in its process group is killed first, while its pid is still its own."""
        if hasattr(os, "waitid"):
            try:
                os.waitid(os.P_PID, self._proc.pid, os.WEXITED | os.WNOWAIT)
            except ChildProcessError:  # collected already (kill, close)
                pass
            else:
                if self._proc.returncode is None:
                    with contextlib.suppress(ProcessLookupError, PermissionError):
                        os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self._proc.wait()
        with contextlib.suppress(OSError, ValueError):
            self._proc.stdin.close()  # nobody reads it any more: a write now fails at once
        CHILDREN.discard(self)

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return not self._ended and self._proc.poll() is None

    def send(self, line: str) -> None:
        check_line(line, self.label)
        self._transcript.write(self.label, ">", line)
        try:
            self._proc.stdin.write((line + "\n").encode("utf-8"))
            self._proc.stdin.flush()
        except (OSError, ValueError):
            raise EngineTerminated(self.label, f"gone (writing {line!r})") from None

    def end_input(self) -> None:
        """Closes the child's input: a program that reads all of it before it answers
        (`podium analyse --positions -`) then starts."""
        with contextlib.suppress(OSError, ValueError):
            self._proc.stdin.close()

    def read(self, deadline: float) -> tuple[str, float]:
        """The next line and when it arrived (time.monotonic()); deadline is a time.monotonic() too,
        float("inf") for none."""
        if self._ended:
            raise EngineTerminated(self.label, f"exited{self._exit_status()}")
        while True:
            remaining = deadline - time.monotonic()
            try:
                line, stamp = self._lines.get(timeout=max(0.0, min(remaining, LONGEST_WAIT)))
                break
            except queue.Empty:
                if remaining <= LONGEST_WAIT:
                    raise EngineTimeout(self.label, "no output in time") from None
        if line is None:
            self._ended = True
            raise EngineTerminated(self.label, f"exited{self._exit_status()}")
        return within_limit(self.label, line), stamp

    def pending(self) -> list[str]:
        """Lines already waiting, without blocking (an end of output is remembered, not raised)."""
        lines = []
        while not self._ended:
            try:
                line, _ = self._lines.get_nowait()
            except queue.Empty:
                break
            if line is None:
                self._ended = True
            elif not isinstance(line, Overlong):  # stale output, dropped like any other
                lines.append(line)
        return lines

    def _exit_status(self) -> str:
        try:
            return describe_exit(self._proc.wait(timeout=0.5))
        except subprocess.TimeoutExpired:
            return describe_exit(None)

    def kill(self) -> None:
        if self._proc.returncode is None:  # once collected, its pid may be another process's
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(OSError):
            self._proc.kill()
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=5)
        with contextlib.suppress(OSError, ValueError):
            self._proc.stdin.close()  # stdout is left to the reader thread, which meets its end
        CHILDREN.discard(self)

    def close(self, grace: float = 1.0) -> None:
        """Asks the engine to quit, then kills whatever is left of it."""
        with contextlib.suppress(EngineTerminated):
            if self.alive:
                self.send("quit")
        with contextlib.suppress(subprocess.TimeoutExpired):
            self._proc.wait(timeout=grace)
        self.kill()
