#!/usr/bin/env python3
"""Tests of the client on asyncio (scripts/podium/aio.py): two engines searching at once in one
event loop, streams, timeouts, misuse and dead engines, on asyncio's subprocesses, with the
conversations of the one engine driver.

    PODIUM_BIN=target/release/podium python3 tests/arbiter/test_client_async.py
"""

import asyncio
import time
import unittest

from support import NEEDS_PODIUM, PODIUM, fake_argv
from test_client_api import START, reaped

from podium import (ArgumentError, ArgumentTypeError, AsyncEngine, Engine, EngineStartFailed, EngineTerminated,
                    EngineTimeout, Limit, PlayResult, Score)
from podium.aio import AsyncDriver
from podium.client import EngineBase
from podium.protocol import EngineDriver, Protocol


class StructureTest(unittest.TestCase):
    def test_one_driver_two_runners(self):
        # the protocol is written once (Protocol's conversations), the calls once (EngineBase)
        self.assertTrue(issubclass(EngineDriver, Protocol) and issubclass(AsyncDriver, Protocol))
        self.assertTrue(issubclass(Engine, EngineBase) and issubclass(AsyncEngine, EngineBase))
        self.assertIs(AsyncEngine.play, Engine.play)


@NEEDS_PODIUM
class AsyncEngineTest(unittest.TestCase):
    def run_async(self, coroutine):
        return asyncio.run(asyncio.wait_for(coroutine, 60))

    def test_two_engines_search_at_once_in_one_event_loop(self):
        async def main():
            async with AsyncEngine(PODIUM, options={"Hash": 8}) as one, AsyncEngine(PODIUM, options={"Hash": 8}) as two:
                started = time.monotonic()
                first, second = await asyncio.gather(one.play("startpos", Limit(movetime=500)),
                                                     two.analyse("startpos moves B@d1", Limit(movetime=500), multipv=2))
                elapsed = time.monotonic() - started
                legal = await one.is_legal(first.move), await two.is_legal(second.bestmove)
                return first, second, elapsed, legal, (one.pid, two.pid)

        first, second, elapsed, legal, pids = self.run_async(main())
        self.assertIsInstance(first, PlayResult)
        self.assertEqual(len(second), 2)
        self.assertEqual(second[0].score.seat, "p2")
        self.assertEqual(legal, (True, True))
        self.assertNotEqual(*pids)
        self.assertLess(elapsed, 0.95)  # one after the other would take a second at least

    def test_streams_of_two_engines_interleave(self):
        async def main():
            engines = [await AsyncEngine.open(PODIUM, options={"Hash": 8}) for _ in range(2)]
            try:
                # Not the start: the engine answers it from the start's proof, with no lines to come.
                streams = [await engine.analysis("startpos moves B@d1") for engine in engines]
                seen = []
                for _ in range(3):  # a line of one, then a line of the other
                    for number, stream in enumerate(streams):
                        info = await stream.__anext__()
                        seen.append((number, info.depth))
                moves = [await stream.stop() for stream in streams]
                depths = [[info.depth async for info in await engine.analysis("startpos", Limit(depth=3))]
                          for engine in engines]
                fens = [await engine.fen() for engine in engines]
                return seen, moves, depths, fens
            finally:
                for engine in engines:
                    await engine.close()

        seen, moves, depths, fens = self.run_async(main())
        self.assertEqual(seen, [(0, 1), (1, 1), (0, 2), (1, 2), (0, 3), (1, 3)])
        self.assertTrue(all(moves))
        self.assertEqual(depths, [[1, 2, 3], [1, 2, 3]])
        self.assertEqual(fens, [START, START])

    def test_timeouts_misuse_and_errors(self):
        async def main():
            async with AsyncEngine(PODIUM, options={"Hash": 8}) as engine:
                partial = await engine.analyse("startpos", Limit(depth=120), timeout=0.4)
                with self.assertRaises(ArgumentError):
                    await engine.is_legal("A@c3\nposition startpos moves B@d1")
                with self.assertRaises(ArgumentTypeError):
                    await engine.play("startpos", times="x")
                scores = [line.score async for line in await engine.analysis("startpos", depth=2)]
                return partial, await engine.fen(), scores

        partial, fen, scores = self.run_async(main())
        self.assertTrue(partial.partial)
        self.assertEqual(fen, START)
        self.assertTrue(all(isinstance(score, Score) for score in scores))
        with self.assertRaises(ArgumentError):
            AsyncEngine([])

    def test_engines_that_fail(self):
        async def main():
            with self.assertRaises(EngineStartFailed):
                await AsyncEngine.open("/no/such/engine")
            crashing = await AsyncEngine.open(fake_argv("crash"))
            pid = crashing.pid
            with self.assertRaisesRegex(EngineTerminated, r"exit code 3\) while searching"):
                await crashing.play("startpos", depth=1)
            gone = await asyncio.get_running_loop().run_in_executor(None, reaped, pid)
            await crashing.close()
            hung = await AsyncEngine.open(fake_argv("hang"), timeout=0.3)
            started = time.monotonic()
            with self.assertRaises(EngineTimeout):
                await hung.play("startpos", movetime=100)  # movetime + timeout, then stop, unanswered
            waited = time.monotonic() - started
            await hung.close()
            with self.assertRaises(EngineTerminated):
                await hung.fen()  # closed
            return gone, waited

        gone, waited = self.run_async(main())
        self.assertTrue(gone, "the dead engine stayed a zombie")
        self.assertLess(waited, 1.5)


if __name__ == "__main__":
    unittest.main(verbosity=2)
