"""What the Python tests share: where the scripts, the podium binary and the fake engine are.

Importing it puts scripts/ first on sys.path, so the tests use the checkout's podium package."""

import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SCRIPTS = os.path.join(ROOT, "scripts")
ARBITER = os.path.join(SCRIPTS, "arbiter.py")
RANDOM_MOVER = os.path.join(SCRIPTS, "random_mover.py")
FAKE = os.path.join(HERE, "fake_engine.py")
# Absolute, since the tests run engines from scratch directories: PODIUM_BIN=target/release/podium works too.
PODIUM = os.path.abspath(os.environ["PODIUM_BIN"]) if os.environ.get("PODIUM_BIN") else None
if PODIUM:
    # The scripts under test default to $PODIUM_BIN, read from their own scratch directories.
    os.environ["PODIUM_BIN"] = PODIUM
NEEDS_PODIUM = unittest.skipUnless(PODIUM, "PODIUM_BIN is not set: set it to the podium binary to run this test")

if SCRIPTS not in sys.path:
    sys.path.insert(0, SCRIPTS)


def fake_argv(mode: str) -> list[str]:
    """The command of a broken engine (fake_engine.py MODE)."""
    return [sys.executable, FAKE, mode]


def fake_command(mode: str) -> str:
    return " ".join(fake_argv(mode))


def fake(mode: str) -> str:
    """The --engine cmd= token of a broken engine."""
    return f"cmd={fake_command(mode)}"
