"""Tests of the wheel builder: versions from git describe, and a wheel's
files, tags, executable bit and RECORD hashes."""

import base64
import hashlib
import os
import sys
import tempfile
import unittest
import zipfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
import build_wheel  # noqa: E402


class BuildWheelTest(unittest.TestCase):
    def test_pep440(self):
        cases = {
            "v1.2.0": "1.2.0",
            "v1.2.0-3-gabc1234": "1.2.0.post3+gabc1234",
            "v1.2.0-dirty": "1.2.0+dirty",
            "7281918": "0.0.0+g7281918",
            "abc1234-dirty": "0.0.0+gabc1234.dirty",
            "dev": "0.0.0+dev",
            "v0.1.0-dev-g551d8edc7a73": "0.1.0.dev0+g551d8edc7a73",
            "v0.1.0-dev-g551d8edc7a73-dirty": "0.1.0.dev0+g551d8edc7a73.dirty",
        }
        for describe, want in cases.items():
            self.assertEqual(build_wheel.pep440(describe), want, describe)

    def test_wheel(self):
        with tempfile.TemporaryDirectory() as d:
            binary = os.path.join(d, "tsp.exe")
            with open(binary, "wb") as f:
                f.write(b"MZ not really a program")
            path = build_wheel.build(binary, "win_amd64", "1.2.0", d)
            self.assertEqual(os.path.basename(path), "tsplab-1.2.0-py3-none-win_amd64.whl")
            with zipfile.ZipFile(path) as z:
                names = z.namelist()
                self.assertIn("tsplab/bin/tsp.exe", names)
                self.assertIn("tsplab/__init__.py", names)
                self.assertEqual(z.getinfo("tsplab/bin/tsp.exe").external_attr >> 16 & 0o777, 0o755)
                self.assertIn(b'__version__ = "1.2.0"', z.read("tsplab/__init__.py"))
                self.assertIn(b"Tag: py3-none-win_amd64", z.read("tsplab-1.2.0.dist-info/WHEEL"))
                for line in z.read("tsplab-1.2.0.dist-info/RECORD").decode().splitlines():
                    name, digest, size = line.split(",")
                    if not digest:
                        continue
                    data = z.read(name)
                    want = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
                    self.assertEqual(digest, "sha256=" + want, name)
                    self.assertEqual(int(size), len(data), name)


if __name__ == "__main__":
    unittest.main()
