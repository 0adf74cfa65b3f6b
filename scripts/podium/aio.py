"""The client on asyncio: AsyncEngine has every call of Engine (client.py), each awaited, on
asyncio's subprocesses, so that one event loop drives several engines at once.

    import asyncio
    from podium import AsyncEngine, Limit

    async def main():
        async with AsyncEngine("target/release/podium") as one, AsyncEngine("target/release/podium") as two:
            first, second = await asyncio.gather(one.play("startpos", Limit(depth=6)),
                                                 two.analyse("startpos", Limit(depth=6), multipv=2))
            print(first.move, [str(line.score) for line in second])

    asyncio.run(main())

`engine = await AsyncEngine.open(command)` starts one outside a `with` (then `await engine.close()`).
`stream = await engine.analysis(...)` gives the lines of a search as they come: `async for info in
stream`, `await stream.stop()`, or `async with stream`. The calls are the client's conversations
(client.EngineBase) carried out by AsyncDriver.run instead of EngineDriver.run: the protocol is
written once. Calls on one engine take turns (a lock); an engine that dies is collected by
asyncio's child watcher, and the registry of process.py kills any left when the program ends."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shlex
import signal
import time
from typing import Any, Mapping, Sequence

from .client import EngineBase, SearchView, engine_setup
from .errors import EngineStartFailed, EngineTerminated, EngineTimeout, PodiumError
from .info import Info
from .process import CHILDREN, CHUNK, LONGEST_LINE, LONGEST_WAIT, LineSplitter, Overlong, Transcript, check_line, \
    describe_exit, within_limit
from .protocol import Conversation, Protocol, Send, Timeouts, reworded


class AsyncEngineProcess:
    """One child process on asyncio: a task reads its output, cut into lines, into a queue, so that
    reads can time out."""

    def __init__(self, proc: asyncio.subprocess.Process, label: str, transcript: Transcript | None):
        self.label = label
        self._proc = proc
        self._transcript = transcript or Transcript(None)
        self._lines: asyncio.Queue = asyncio.Queue()
        self._ended = False
        self._reader: asyncio.Task | None = None

    @classmethod
    async def start(cls, argv: list[str], label: str, cwd: str | None = None,
                    transcript: Transcript | None = None) -> AsyncEngineProcess:
        try:
            # A session of its own, as for the thread-read process: our Ctrl-C is ours to handle.
            proc = await asyncio.create_subprocess_exec(
                *argv, stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.DEVNULL, cwd=cwd, start_new_session=True)
        except (OSError, ValueError) as error:
            reason = getattr(error, "strerror", None) or str(error)
            raise EngineStartFailed(label, f"cannot start {shlex.join(argv)}: {reason}") from None
        process = cls(proc, label, transcript)
        if not CHILDREN.add(process):
            process.kill()
            raise EngineTerminated(label, "not started: the program is shutting down")
        process._reader = asyncio.get_running_loop().create_task(process._pump())
        return process

    async def _pump(self) -> None:
        splitter = LineSplitter()
        try:
            while chunk := await self._proc.stdout.read(CHUNK):
                stamp = time.monotonic()
                for line in splitter.feed(chunk):
                    self._deliver(line, stamp)
            for line in splitter.end():
                self._deliver(line, time.monotonic())
        except (OSError, ValueError):
            pass
        self._lines.put_nowait((None, time.monotonic()))
        with contextlib.suppress(Exception):
            await self._proc.wait()  # asyncio's child watcher has collected it: note how it ended
        CHILDREN.discard(self)

    def _deliver(self, line: str | Overlong, stamp: float) -> None:
        shown = f"{line.head}... (longer than {LONGEST_LINE} bytes: not read)" if isinstance(line, Overlong) else line
        self._transcript.write(self.label, "<", shown)
        self._lines.put_nowait((line, stamp))

    @property
    def pid(self) -> int:
        return self._proc.pid

    @property
    def alive(self) -> bool:
        return not self._ended and self._proc.returncode is None

    async def send(self, line: str) -> None:
        check_line(line, self.label)
        self._transcript.write(self.label, ">", line)
        try:
            self._proc.stdin.write((line + "\n").encode("utf-8"))
            await self._proc.stdin.drain()
        except (OSError, ValueError, RuntimeError):
            raise EngineTerminated(self.label, f"gone (writing {line!r})") from None

    async def read(self, deadline: float) -> tuple[str, float]:
        """The next line and when it arrived (time.monotonic()), by deadline (inf: none)."""
        if self._ended:
            raise EngineTerminated(self.label, f"exited{await self._exit_status()}")
        while True:
            remaining = deadline - time.monotonic()
            try:
                line, stamp = self._lines.get_nowait()
                break
            except asyncio.QueueEmpty:
                pass
            if remaining <= 0:
                raise EngineTimeout(self.label, "no output in time")
            try:
                line, stamp = await asyncio.wait_for(self._lines.get(), timeout=min(remaining, LONGEST_WAIT))
                break
            except asyncio.TimeoutError:
                if remaining <= LONGEST_WAIT:
                    raise EngineTimeout(self.label, "no output in time") from None
        if line is None:
            self._ended = True
            raise EngineTerminated(self.label, f"exited{await self._exit_status()}")
        return within_limit(self.label, line), stamp

    async def _exit_status(self) -> str:
        try:
            return describe_exit(await asyncio.wait_for(self._proc.wait(), 0.5))
        except asyncio.TimeoutError:
            return describe_exit(None)

    def kill(self) -> None:
        """Kills the process and its group at once (callable without an event loop: at exit)."""
        if self._proc.returncode is None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(self._proc.pid, signal.SIGKILL)
        with contextlib.suppress(Exception):  # the loop may be gone when the program ends
            self._proc.kill()
        with contextlib.suppress(Exception):
            self._proc.stdin.close()
        CHILDREN.discard(self)

    async def close(self, grace: float = 1.0) -> None:
        """Asks the engine to quit, then kills whatever is left of it, and collects it."""
        if self.alive:
            with contextlib.suppress(EngineTerminated):
                await self.send("quit")
        with contextlib.suppress(asyncio.TimeoutError):
            await asyncio.wait_for(self._proc.wait(), grace)
        self.kill()
        with contextlib.suppress(asyncio.TimeoutError, ProcessLookupError):
            await asyncio.wait_for(self._proc.wait(), 5)
        if self._reader is not None:
            with contextlib.suppress(asyncio.TimeoutError, asyncio.CancelledError):
                await asyncio.wait_for(self._reader, 5)


class AsyncDriver(Protocol):
    """The protocol's conversations (protocol.Protocol) carried out on an asyncio subprocess."""

    def __init__(self, argv: list[str], label: str = "engine", timeouts: Timeouts = Timeouts(),
                 cwd: str | None = None, transcript: Transcript | None = None):
        super().__init__(argv, label, timeouts, cwd, transcript)
        self.process: AsyncEngineProcess | None = None

    def _running_process(self) -> AsyncEngineProcess:
        if self.process is None:
            raise EngineTerminated(self.label, "not running")
        return self.process

    async def run(self, conversation: Conversation) -> Any:
        """As EngineDriver.run, awaiting each line."""
        reply, error = None, None
        while True:
            try:
                request = conversation.send(reply) if error is None else conversation.throw(error)
            except StopIteration as done:
                return done.value
            reply, error = None, None
            try:
                if isinstance(request, Send):
                    await self._running_process().send(request.line)
                else:
                    reply = await self._running_process().read(request.deadline.at)
            except PodiumError as fault:
                error = fault if isinstance(request, Send) else reworded(self.label, request, fault)

    async def start(self) -> None:
        self.kill()
        self.process = await AsyncEngineProcess.start(self.argv, self.label, self.cwd, self.transcript)
        await self.run(self.handshake_steps())

    def kill(self) -> None:
        if self.process is not None:
            self.process.kill()
            self.process = None

    async def close(self) -> None:
        if self.process is not None:
            process, self.process = self.process, None
            await process.close()


class AsyncEngine(EngineBase):
    """Engine's calls, awaited (see the module's docstring); `async with AsyncEngine(command) as
    engine`, or `engine = await AsyncEngine.open(command)` and `await engine.close()`. The arguments
    are Engine's."""

    def __init__(self, command: str | Sequence[str], *, options: Mapping[str, object] | None = None,
                 timeout: float = 10.0, search_timeout: float | None = None, cwd: str | None = None):
        argv, self._options_given, timeouts, cwd = engine_setup(command, options, timeout, search_timeout, cwd)
        self._init_state(timeouts)
        self.driver = AsyncDriver(argv, os.path.basename(argv[0]), timeouts, cwd)
        self._lock = asyncio.Lock()
        self._started = False

    @classmethod
    async def open(cls, command: str | Sequence[str], **settings: Any) -> AsyncEngine:
        """An engine started: its process running, its options set."""
        return await cls(command, **settings).start()

    async def start(self) -> AsyncEngine:
        if not self._started:
            self._started = True
            try:
                await self.driver.start()
                for name, value in self._options_given.items():
                    await self.set_option(name, value)
            except BaseException:
                await self.close()
                raise
        return self

    def _run(self, conversation: Conversation) -> Any:
        return self._locked(conversation)

    async def _locked(self, conversation: Conversation) -> Any:
        async with self._lock:
            return await self.driver.run(conversation)

    async def __aenter__(self) -> AsyncEngine:
        return await self.start()

    async def __aexit__(self, *_exception) -> None:
        await self.close()

    async def close(self) -> None:
        """`quit` (which also stops a search), then whatever is left of the process is killed."""
        self._search = None
        await self.driver.close()

    @property
    def pid(self) -> int | None:
        return self.driver.process.pid if self.driver.process else None


class AsyncAnalysisStream(SearchView):
    """The lines of a running search as they come, awaited: `async for info in stream`; the search
    ends at its limits, on `await stream.stop()`, at the end of an `async with stream` block, or at
    the next call on the engine. bestmove is then the search's move (None if the game is over)."""

    def __aiter__(self) -> AsyncAnalysisStream:
        return self

    async def __anext__(self) -> Info:
        info = await self._engine._run(self._engine._stream_next_steps(self._search, self._tag))
        if info is None:
            raise StopAsyncIteration
        return info

    async def __aenter__(self) -> AsyncAnalysisStream:
        return self

    async def __aexit__(self, *_exception) -> None:
        await self.stop()

    async def stop(self) -> str | None:
        """Ends the search (if it still runs) and returns its best move."""
        return await self._engine._run(self._engine._stream_stop_steps(self._search))


AsyncEngine._stream_type = AsyncAnalysisStream
