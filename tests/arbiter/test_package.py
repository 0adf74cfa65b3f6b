#!/usr/bin/env python3
"""Tests of the podium package as a package: importable from a checkout with scripts/ on sys.path,
installable by `pip install ./scripts` (its pyproject.toml is checked here, pip is not run), and the
modules keep within about 600 lines each. The README's example is run, and its output compared, by
tests/doc_examples.rs.

    python3 tests/arbiter/test_package.py
"""

import os
import subprocess
import sys
import tomllib
import unittest

from support import ROOT, SCRIPTS

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

    def test_modules_stay_small(self):
        for name in sorted(os.listdir(PACKAGE)):
            if name.endswith(".py"):
                with open(os.path.join(PACKAGE, name), encoding="utf-8") as handle:
                    self.assertLessEqual(len(handle.readlines()), 600, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
