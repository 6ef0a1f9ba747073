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

    def test_linux_platform(self):
        # An ELF with no program interpreter is static: the manylinux2014
        # floor and musl; one with an interpreter needs its newest glibc.
        def elf(machine, interp, tail=b""):
            head = bytearray(64)
            head[:6] = b"\x7fELF\x02\x01"
            head[18:20] = machine.to_bytes(2, "little")
            head[0x20:0x28] = (64).to_bytes(8, "little")  # program headers right after
            head[0x36:0x38] = (56).to_bytes(2, "little")
            head[0x38:0x3A] = (2).to_bytes(2, "little")
            ph = bytearray(112)
            ph[0:4] = (1).to_bytes(4, "little")  # PT_LOAD
            ph[56:60] = (3 if interp else 1).to_bytes(4, "little")  # PT_INTERP or another PT_LOAD
            return bytes(head + ph) + tail

        cases = [
            (elf(0x3E, False), "manylinux_2_17_x86_64.manylinux2014_x86_64.musllinux_1_1_x86_64"),
            (elf(0xB7, False, b"GLIBC_2.34"), "manylinux_2_17_aarch64.manylinux2014_aarch64.musllinux_1_1_aarch64"),
            (elf(0x3E, True, b"\0GLIBC_2.2.5\0GLIBC_2.34\0GLIBC_2.3\0"), "manylinux_2_34_x86_64"),
            (elf(0x3E, True), "manylinux_2_17_x86_64"),
        ]
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "tsp")
            for data, want in cases:
                with open(path, "wb") as f:
                    f.write(data)
                self.assertEqual(build_wheel.linux_platform(path), want)
            with open(path, "wb") as f:
                f.write(b"MZ not really a program")
            with self.assertRaises(ValueError):
                build_wheel.linux_platform(path)

    def test_linux_platform_of_tsp(self):
        # The tsp the tests run: a Go build without cgo is static, and its
        # wheel says so; a dynamic one names the glibc it needs.
        exe = os.environ.get("TSPLAB_TSP")
        if not exe or sys.platform != "linux":
            self.skipTest("no Linux tsp binary in $TSPLAB_TSP")
        with open(exe, "rb") as f:
            static = f.read(4) == b"\x7fELF" and b"ld-linux" not in f.read()
        tag = build_wheel.linux_platform(exe)
        if static:
            self.assertTrue(tag.startswith("manylinux_2_17_"), tag)
        else:
            self.assertRegex(tag, r"^manylinux_2_\d+_")


if __name__ == "__main__":
    unittest.main()
