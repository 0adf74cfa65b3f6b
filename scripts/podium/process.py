"""Child processes: starting an engine, reading its lines with a deadline, writing to it, and
making sure that none outlives the program (a registry killed on exit, Ctrl-C or SIGTERM), with an
optional transcript of all the traffic."""

from __future__ import annotations

import atexit
import contextlib
import os
import queue
import shlex
import signal
import subprocess
import threading
import time

from .errors import EngineStartFailed, EngineTerminated, EngineTimeout, ProtocolError

# The longest line read from an engine, in bytes: the protocol's own limit on a line (protocol.md,
# section 1). A longer line is a protocol error, and is not kept in memory.
LONGEST_LINE = 1 << 20
OVERLONG = object()  # in the queue of lines: a line was longer than LONGEST_LINE


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
        try:
            while raw := self._proc.stdout.readline(LONGEST_LINE + 1):
                stamp = time.monotonic()
                if len(raw) > LONGEST_LINE and not raw.endswith(b"\n"):
                    self._transcript.write(self.label, "<", f"{raw[:80].decode('utf-8', 'replace')}... "
                                                            f"(longer than {LONGEST_LINE} bytes: not read)")
                    self._lines.put((OVERLONG, stamp))
                    self._skip_rest_of_line()
                    continue
                line = raw.decode("utf-8", "replace").rstrip("\r\n")
                self._transcript.write(self.label, "<", line)
                self._lines.put((line, stamp))
        except (OSError, ValueError):
            pass
        with contextlib.suppress(OSError):
            self._proc.stdout.close()  # this thread is the only reader
        self._lines.put((None, time.monotonic()))

    def _skip_rest_of_line(self) -> None:
        """Reads on to the end of an overlong line, a piece at a time, keeping none of it."""
        while (piece := self._proc.stdout.readline(LONGEST_LINE)) and not piece.endswith(b"\n"):
            pass

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return not self._ended and self._proc.poll() is None

    def send(self, line: str) -> None:
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
        """The next line and when it arrived (time.monotonic())."""
        if self._ended:
            raise EngineTerminated(self.label, f"exited{self._exit_status()}")
        try:
            line, stamp = self._lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            raise EngineTimeout(self.label, "no output in time") from None
        if line is None:
            self._ended = True
            raise EngineTerminated(self.label, f"exited{self._exit_status()}")
        if line is OVERLONG:
            raise ProtocolError(self.label, f"printed a line longer than the protocol's limit of {LONGEST_LINE} bytes")
        return line, stamp

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
            elif line is not OVERLONG:  # stale output, dropped like any other
                lines.append(line)
        return lines

    def _exit_status(self) -> str:
        try:
            code = self._proc.wait(timeout=0.5)
        except subprocess.TimeoutExpired:
            return " (closed its output)"
        if code >= 0:
            return f" (exit code {code})"
        try:
            return f" (killed by {signal.Signals(-code).name})"
        except ValueError:
            return f" (signal {-code})"

    def kill(self) -> None:
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
