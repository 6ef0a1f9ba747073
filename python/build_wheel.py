"""build_wheel.py writes one wheel of tsplab for one platform: the Python
package from tsplab/ and that platform's tsp binary in tsplab/bin/, as ruff
and uv ship theirs (a py3-none-<platform> wheel). It needs only the standard
library, so it runs offline.

    python3 build_wheel.py --binary ../dist/tsp --version v0.1.0-3-gabc --out ../dist/wheels

--platform names the wheel's platform tag (win_amd64, macosx_12_0_arm64);
for a Linux binary it is read from the binary (linux_platform).
"""

import argparse
import base64
import hashlib
import os
import re
import sys
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
NAME = "tsplab"


def pep440(describe: str) -> str:
    """pep440 turns `git describe` (v1.2.0, v1.2.0-3-gabc1234, abc1234, with
    -dirty) or scripts/version.sh's development build (v0.1.0-dev-gabc1234)
    into a version pip accepts: 1.2.0, 1.2.0.post3+gabc1234, 0.0.0+gabc1234,
    0.1.0.dev0+gabc1234; a bare 1.2.0 passes as it is."""
    d = describe.strip()
    dirty = d.endswith("-dirty")
    d = d[: -len("-dirty")] if dirty else d
    local = []
    m = re.fullmatch(r"v?(\d+(?:\.\d+)*)(?:-(\d+)-g([0-9a-f]+))?", d)
    dev = re.fullmatch(r"v?(\d+(?:\.\d+)*)-dev-g([0-9a-f]+)", d)
    if re.fullmatch(r"[0-9a-f]{7,40}", d):
        v = "0.0.0"
        local.append("g" + d)
    elif dev:
        v = dev.group(1) + ".dev0"
        local.append("g" + dev.group(2))
    elif m:
        v = m.group(1)
        if m.group(2):
            v += ".post" + m.group(2)
            local.append("g" + m.group(3))
    else:
        v = "0.0.0"
        local.append(re.sub(r"[^A-Za-z0-9]+", ".", d).strip(".") or "dev")
    if dirty:
        local.append("dirty")
    return v + ("+" + ".".join(local) if local else "")


# ELF e_machine values and the wheel architectures they are.
_ELF_ARCH = {0x3E: "x86_64", 0xB7: "aarch64"}


def linux_platform(binary: str) -> str:
    """linux_platform is the wheel platform tag a Linux binary (ELF) can
    carry, read from the binary itself: a static one (no program
    interpreter: what `file` calls "statically linked") needs no C library
    and runs wherever Go's runtime does (kernel 3.2 or newer), so the
    manylinux2014 floor (glibc 2.17, kernel 3.10) and musl distributions; a
    dynamic one needs the newest glibc symbol version it names."""
    with open(binary, "rb") as f:
        data = f.read()
    if data[:4] != b"\x7fELF" or data[4] != 2 or data[5] != 1:
        raise ValueError("%s is not a 64-bit little-endian ELF binary" % binary)
    arch = _ELF_ARCH.get(int.from_bytes(data[18:20], "little"))
    if arch is None:
        raise ValueError("%s: no wheel architecture for its ELF machine" % binary)
    phoff = int.from_bytes(data[0x20:0x28], "little")
    phentsize = int.from_bytes(data[0x36:0x38], "little")
    phnum = int.from_bytes(data[0x38:0x3A], "little")
    PT_INTERP = 3
    dynamic = any(
        int.from_bytes(data[phoff + i * phentsize : phoff + i * phentsize + 4], "little") == PT_INTERP
        for i in range(phnum)
    )
    if not dynamic:
        return "manylinux_2_17_{0}.manylinux2014_{0}.musllinux_1_1_{0}".format(arch)
    minor = max([int(m) for m in re.findall(rb"GLIBC_2\.(\d+)", data)] or [17])
    return "manylinux_2_%d_%s" % (max(minor, 17), arch)


def record_line(arcname: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode()
    return "%s,sha256=%s,%d" % (arcname, digest, len(data))


def metadata(version: str) -> str:
    with open(os.path.join(HERE, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    return (
        "Metadata-Version: 2.1\n"
        "Name: %s\n"
        "Version: %s\n"
        "Summary: Travelling salesman solver (TSP Lab): local search on all CPU cores or an NVIDIA GPU\n"
        "Home-page: https://github.com/tsplab/tsplab\n"
        "License: Apache-2.0\n"
        "Requires-Python: >=3.8\n"
        "Provides-Extra: numpy\n"
        "Requires-Dist: numpy; extra == \"numpy\"\n"
        "Classifier: License :: OSI Approved :: Apache Software License\n"
        "Classifier: Programming Language :: Python :: 3\n"
        "Description-Content-Type: text/markdown\n\n%s" % (NAME, version, readme)
    )


def build(binary: str, platform: str, version: str, out: str) -> str:
    """build writes the wheel into out and returns its path."""
    tag = "py3-none-" + platform
    dist_info = "%s-%s.dist-info" % (NAME, version)
    path = os.path.join(out, "%s-%s-%s.whl" % (NAME, version, tag))
    os.makedirs(out, exist_ok=True)
    exe = "tsp.exe" if binary.endswith(".exe") else "tsp"
    files = []
    pkg = os.path.join(HERE, NAME)
    for fn in sorted(os.listdir(pkg)):
        if fn.endswith(".py"):
            with open(os.path.join(pkg, fn), "rb") as f:
                data = f.read()
            if fn == "__init__.py":
                data = re.sub(rb'__version__ = "[^"]*"', b'__version__ = "%s"' % version.encode(), data)
            files.append((NAME + "/" + fn, data, 0o644))
    with open(binary, "rb") as f:
        files.append((NAME + "/bin/" + exe, f.read(), 0o755))
    with open(os.path.join(HERE, "..", "LICENSE"), "rb") as f:
        files.append((dist_info + "/LICENSE", f.read(), 0o644))
    files.append((dist_info + "/METADATA", metadata(version).encode(), 0o644))
    wheel = "Wheel-Version: 1.0\nGenerator: tsplab build_wheel.py\nRoot-Is-Purelib: false\n"
    wheel += "".join("Tag: py3-none-%s\n" % p for p in platform.split("."))
    files.append((dist_info + "/WHEEL", wheel.encode(), 0o644))
    record = [record_line(n, d) for n, d, _ in files] + [dist_info + "/RECORD,,"]
    files.append((dist_info + "/RECORD", ("\n".join(record) + "\n").encode(), 0o644))
    tmp = path + ".tmp"
    with zipfile.ZipFile(tmp, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        for name, data, mode in files:
            info = zipfile.ZipInfo(name, date_time=(2020, 1, 1, 0, 0, 0))
            info.external_attr = (0o100000 | mode) << 16
            info.compress_type = zipfile.ZIP_DEFLATED
            z.writestr(info, data)
    os.replace(tmp, path)
    return path


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--binary", required=True, help="the tsp binary of the platform")
    ap.add_argument(
        "--platform",
        help="the wheel's platform tag, e.g. win_amd64 (default for a Linux binary: read from it, linux_platform)",
    )
    ap.add_argument("--version", required=True, help="git describe or a PEP 440 version")
    ap.add_argument("--out", required=True, help="folder for the wheel")
    a = ap.parse_args()
    print(build(a.binary, a.platform or linux_platform(a.binary), pep440(a.version), a.out))
    return 0


if __name__ == "__main__":
    sys.exit(main())
