#!/usr/bin/env python3
"""Tests of the podium package as a package: importable from a checkout with scripts/ on sys.path,
installable by `pip install ./scripts` (its pyproject.toml is checked here, pip is not run), the
README's example runs, and the modules keep within about 600 lines each.

    python3 tests/arbiter/test_package.py
"""

import os
import re
import subprocess
import sys
import tomllib
import unittest

from support import NEEDS_PODIUM, PODIUM, ROOT, SCRIPTS

PACKAGE = os.path.join(SCRIPTS, "podium")


class PackageTest(unittest.TestCase):
    def test_import_from_a_checkout(self):
        done = subprocess.run([sys.executable, "-c", "import podium; print(podium.__file__, podium.Engine.__name__)"],
                              cwd=ROOT, env={**os.environ, "PYTHONPATH": "scripts"}, capture_output=True,
                              text=True, timeout=30)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertEqual(done.stdout.split(), [os.path.join(PACKAGE, "__init__.py"), "Engine"])

    def test_pyproject_installs_the_package_alone(self):
        with open(os.path.join(SCRIPTS, "pyproject.toml"), "rb") as handle:
            project = tomllib.load(handle)
        self.assertEqual(project["build-system"]["build-backend"], "setuptools.build_meta")
        self.assertEqual(project["project"]["name"], "podium")
        self.assertEqual(project["project"]["dependencies"], [])  # the standard library only
        self.assertEqual(project["tool"]["setuptools"]["packages"], ["podium"])

    @NEEDS_PODIUM
    def test_the_readme_example_runs(self):
        with open(os.path.join(ROOT, "README.md"), encoding="utf-8") as handle:
            readme = handle.read()
        section = readme[readme.index("## Python client"):]
        example = re.search(r"```python\n(.*?)```", section, re.S).group(1)
        self.assertIn('"target/release/podium"', example)
        example = example.replace('"target/release/podium"', repr(PODIUM))  # the binary under test
        done = subprocess.run([sys.executable, "-c", example], cwd=ROOT, capture_output=True, text=True, timeout=60)
        self.assertEqual(done.returncode, 0, done.stderr)
        self.assertRegex(done.stdout, r"\A(?:[123]\. (?:cp|mate) -?\d+ at depth 6: (?:\S+ ?)+\n){3}\Z")

    def test_modules_stay_small(self):
        for name in sorted(os.listdir(PACKAGE)):
            if name.endswith(".py"):
                with open(os.path.join(PACKAGE, name), encoding="utf-8") as handle:
                    self.assertLessEqual(len(handle.readlines()), 600, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
