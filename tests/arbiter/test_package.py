#!/usr/bin/env python3
"""Tests of the podium package as a package: importable from a checkout with scripts/ on sys.path,
installable by `pip install ./scripts` with its commands podium-arbiter and podium-picture (pip
installs a copy into a scratch virtual environment, offline), and the modules keep within about 600
lines each. The README's example is run, and its output compared, by tests/doc_examples.rs.

    python3 tests/arbiter/test_package.py
"""

import importlib
import importlib.util
import os
import re
import shutil
import subprocess
import sys
import tempfile
import tomllib
import unittest
import venv

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
        # the commands it installs, each a function of the package
        self.assertEqual(set(project["project"]["scripts"]), {"podium-arbiter", "podium-picture"})
        for command, target in project["project"]["scripts"].items():
            module, function = target.split(":")
            self.assertTrue(callable(getattr(importlib.import_module(module), function)), command)

    def test_pip_install_installs_the_commands(self):
        """pip install of a copy of scripts/ into a scratch virtual environment: its commands run from
        there, on the installed package. Offline where setuptools can build a wheel by itself; else pip
        fetches setuptools and wheel for the build, and the test is skipped if it cannot."""
        try:
            import setuptools
        except ImportError:
            setuptools = None
        offline = setuptools is not None and (importlib.util.find_spec("wheel") is not None
                                              or tuple(map(int, setuptools.__version__.split(".")[:2])) >= (70, 1))
        with tempfile.TemporaryDirectory() as scratch:
            source = os.path.join(scratch, "source")
            shutil.copytree(SCRIPTS, source, ignore=shutil.ignore_patterns("__pycache__", "*.egg-info", "build"))
            environment = os.path.join(scratch, "env")
            venv.EnvBuilder(system_site_packages=True, with_pip=False).create(environment)
            python = os.path.join(environment, "bin", "python")
            how = ["--no-index", "--no-build-isolation"] if offline else []
            install = subprocess.run([python, "-m", "pip", "install", "--quiet", "--no-deps", *how, source],
                                     capture_output=True, text=True, timeout=300,
                                     env={**os.environ, "PIP_DISABLE_PIP_VERSION_CHECK": "1"})
            if install.returncode != 0 and "No module named pip" in install.stderr:
                self.skipTest("pip is not installed")
            if install.returncode != 0 and not offline and re.search(r"No matching distribution|Could not find a "
                                                                     r"version|connection|resolve", install.stderr):
                self.skipTest(f"pip cannot fetch what builds the package: {install.stderr.strip()[-200:]}")
            self.assertEqual(install.returncode, 0, install.stderr)
            for command, says in (("podium-arbiter", "usage: arbiter.py"), ("podium-picture", "usage: picture.py")):
                done = subprocess.run([os.path.join(environment, "bin", command), "--help"], capture_output=True,
                                      text=True, timeout=60, cwd=scratch)
                self.assertEqual(done.returncode, 0, done.stderr)
                self.assertIn(says, done.stdout)
            where = subprocess.run([python, "-c", "import podium; print(podium.__file__)"], capture_output=True,
                                   text=True, timeout=60, cwd=scratch)
            self.assertTrue(where.stdout.startswith(environment), where.stdout + where.stderr)
            usage = subprocess.run([os.path.join(environment, "bin", "podium-arbiter"), "--depth", "1"],
                                   capture_output=True, text=True, timeout=60, cwd=scratch)
            self.assertEqual((usage.returncode, usage.stderr.count("\n")), (2, 1), usage.stderr)

    def test_modules_stay_small(self):
        for name in sorted(os.listdir(PACKAGE)):
            if name.endswith(".py"):
                with open(os.path.join(PACKAGE, name), encoding="utf-8") as handle:
                    self.assertLessEqual(len(handle.readlines()), 600, name)


if __name__ == "__main__":
    unittest.main(verbosity=2)
