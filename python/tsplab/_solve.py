"""solve and solve_batch: the tsp command line run with --json."""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
from dataclasses import dataclass, field
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

_EXE = "tsp.exe" if sys.platform == "win32" else "tsp"


class TspError(Exception):
    """TspError is a run that failed: its message is the command line's own
    one-line error (for a bad file, the file, the line and the problem)."""

    def __init__(self, message: str, returncode: int = 1, stderr: str = ""):
        super().__init__(message)
        self.returncode = returncode
        self.stderr = stderr


@dataclass
class Result:
    """Result is one solved instance.

    tour holds 0-based indices into the points or the matrix given (for a
    file, its cities in file order); length is the tour's length in the
    input's units; gap is the percentage above the optimum or, when
    gap_above is "lower_bound", an upper limit of it from the proven lower
    bound; report holds every fact of the run as the JSON report gives it.
    """

    tour: List[int] = field(repr=False)
    length: float
    gap: Optional[float] = None
    gap_above: Optional[str] = None
    optimum: Optional[float] = None
    lower_bound: Optional[float] = None
    algorithm: str = ""
    backend: str = ""
    device: str = ""
    seconds: float = 0.0
    version: str = ""
    path: bool = False
    report: Dict[str, Any] = field(default_factory=dict, repr=False)

    def __repr__(self) -> str:
        """__repr__ is one short line: the figures, and the tour's first
        cities only (all of them are in tour)."""
        head = ", ".join(str(c) for c in self.tour[:5]) + (", ..." if len(self.tour) > 5 else "")
        figures = ["n=%d" % len(self.tour), "length=%r" % self.length]
        if self.gap is not None:
            figures.append("gap=%.4g (above the %s)" % (self.gap, (self.gap_above or "optimum").replace("_", " ")))
        if self.path:
            figures.append("open path")
        figures += ["%s/%s" % (self.algorithm, self.backend), "%.2f s" % self.seconds, "tour=[%s]" % head]
        return "Result(%s)" % ", ".join(figures)

    @classmethod
    def from_report(cls, rep: Dict[str, Any]) -> "Result":
        """from_report builds a Result from a JSON report of tsp solve or a
        line of tsp batch (whose gap is gap_percent above the optimum, or
        bound_gap_percent above the lower bound, as solve's report says)."""
        gap, above = rep.get("gap_percent", rep.get("gap")), rep.get("gap_above")
        if above is None and gap is not None:
            above = "optimum"
        elif gap is None and rep.get("bound_gap_percent") is not None:
            gap, above = rep["bound_gap_percent"], "lower_bound"
        return cls(
            tour=[c - 1 for c in rep.get("tour") or []],
            length=float(rep["length"]),
            gap=gap,
            gap_above=above,
            optimum=rep.get("optimum"),
            lower_bound=rep.get("lower_bound"),
            algorithm=rep.get("algorithm", ""),
            backend=rep.get("backend", ""),
            device=rep.get("device", ""),
            seconds=float(rep.get("elapsed_seconds", rep.get("time_s", 0.0))),
            version=rep.get("version", ""),
            path=bool((rep.get("account") or {}).get("route") or rep.get("route")),
            report=rep,
        )


def executable() -> str:
    """executable is the tsp binary the package runs: $TSPLAB_TSP, else the
    one inside the package (a wheel's), else tsp on PATH."""
    env = os.environ.get("TSPLAB_TSP")
    if env:
        return env
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", _EXE)
    if os.path.isfile(here):
        return here
    found = shutil.which("tsp")
    if found:
        return found
    raise TspError("tsplab: no tsp binary: install a tsplab wheel for this platform or set TSPLAB_TSP")


def version() -> str:
    """version is the first line of `tsp version`: the build's version."""
    out = subprocess.run([executable(), "version"], capture_output=True, text=True, check=False)
    return out.stdout.splitlines()[0] if out.stdout else ""


def _rows(a, arg: str, what: str) -> list:
    """_rows turns a numpy array or any sequence of sequences into lists;
    arg names the argument ("points=") and what one of its rows is, for
    the ValueError of an item that is no sequence (a 1-D array)."""
    rows = a.tolist() if hasattr(a, "tolist") else list(a)
    out = []
    for i, r in enumerate(rows):
        if isinstance(r, (str, bytes)) or not hasattr(r, "__len__"):
            raise ValueError("tsplab: %s item %d is %r, not %s" % (arg, i, r, what))
        out.append(list(r))
    return out


def _number(x) -> str:
    """_number writes a finite number as the readers take it."""
    try:
        v = float(x)
    except (TypeError, ValueError):
        raise ValueError("tsplab: %r is not a number" % (x,)) from None
    if v != v or v in (float("inf"), float("-inf")):
        raise ValueError("tsplab: %r is not a finite number" % (x,))
    return repr(int(v)) if v == int(v) and abs(v) < 2**53 else repr(v)


def _square(rows: list) -> list:
    """_square checks that rows are a square cost matrix (as many numbers
    in each row as there are rows) and returns them."""
    if not rows:
        raise ValueError("tsplab: matrix= is empty: give an n x n matrix of costs")
    n = len(rows)
    for i, r in enumerate(rows):
        if len(r) != n:
            raise ValueError(
                "tsplab: matrix= is not square: %d rows, and row %d has %d numbers; a cost matrix has n rows of n" % (n, i, len(r))
            )
    return rows


def _write_input(d: str, name: str, points, matrix, file) -> str:
    """_write_input is the file tsp reads: file itself, or points ("x y" a
    line) or a matrix (CSV rows) written into folder d. Input that is no
    instance (no points, a matrix that is not square) raises ValueError."""
    given = [x is not None for x in (points, matrix, file)]
    if sum(given) != 1:
        raise ValueError("tsplab: give exactly one of points=, matrix= or file=")
    if file is not None:
        return os.fspath(file)
    if points is not None:
        rows = _rows(points, "points=", "an (x, y) pair")
        if not rows:
            raise ValueError("tsplab: points= is empty: give the (x, y) of every city")
    else:
        rows = _square(_rows(matrix, "matrix=", "a row of costs"))
    path = os.path.join(d, name + (".txt" if points is not None else ".csv"))
    with open(path, "w", encoding="utf-8") as f:
        if points is not None:
            for p in rows:
                if len(p) != 2:
                    raise ValueError("tsplab: a point is (x, y), not %r" % (p,))
                f.write("%s %s\n" % (_number(p[0]), _number(p[1])))
        else:
            for r in rows:
                f.write(",".join(_number(v) for v in r) + "\n")
    return path


def _size(points, matrix) -> Optional[int]:
    """_size is the number of cities of points or matrix (None for a file)."""
    for a in (points, matrix):
        if a is not None:
            return len(a)
    return None


def _index(x, arg: str, n: Optional[int]) -> int:
    """_index is x as a 0-based index of one of n cities (n None: unknown),
    or a ValueError that names the argument arg."""
    try:
        i = int(x)
    except (TypeError, ValueError):
        raise ValueError("tsplab: %s %r is not an index" % (arg, x)) from None
    if i != x or i < 0 or (n is not None and i >= n):
        cities = "" if n is None else " of the %d cities (0..%d)" % (n, n - 1)
        raise ValueError("tsplab: %s %r is not an index%s" % (arg, x, cities))
    return i


def _check_start(start, n: Optional[int]) -> List[int]:
    """_check_start is start, a tour of 0-based indices, checked to visit
    each of n cities once."""
    tour = [_index(c, "start=", n) for c in (start.tolist() if hasattr(start, "tolist") else start)]
    seen = set()
    for k, c in enumerate(tour):
        if c in seen:
            raise ValueError("tsplab: start= gives index %d twice (at positions %d and %d)" % (c, tour.index(c), k))
        seen.add(c)
    if n is not None and len(tour) != n:
        missing = min(set(range(n)) - seen)
        raise ValueError("tsplab: start= has %d of the %d indices: index %d is missing" % (len(tour), n, missing))
    return tour


def _check_ends(ends, n: Optional[int]) -> tuple:
    """_check_ends is ends, two 0-based indices, checked."""
    try:
        a, b = ends
    except (TypeError, ValueError):
        raise ValueError("tsplab: ends=%r is not a pair of indices (a, b)" % (ends,)) from None
    a, b = _index(a, "ends=", n), _index(b, "ends=", n)
    if a == b:
        raise ValueError("tsplab: ends=%r: a path from a city to itself is a tour" % (ends,))
    return a, b


def _write_start(d: str, tour: List[int]) -> str:
    """_write_start writes a start tour of 0-based indices as 1-based ids."""
    path = os.path.join(d, "start.txt")
    with open(path, "w", encoding="utf-8") as f:
        f.write("".join("%d\n" % (c + 1) for c in tour))
    return path


def _common_args(time, backend, seed, algorithm, options) -> List[str]:
    args = ["--time", "%gs" % float(time), "--backend", backend, "--seed", str(int(seed))]
    if algorithm:
        args += ["--algo", algorithm]
    for k, v in (options or {}).items():
        args += ["--opt", "%s=%s" % (k, v)]
    return args


def _failure(returncode: int, lines: List[str], names: Optional[Dict[str, str]] = None) -> TspError:
    """_failure is the exception of a failed run: the last line that says
    what went wrong (tsp's "tsp: FILE:LINE: problem", or "tsp solve:
    --time -1s is out of range: …" before the pointer to the usage, which
    is left out), with the files the package wrote named by what they hold
    (names: path -> "points=") rather than their temporary paths."""
    errs = [l for l in lines if l.strip() and not l.startswith("{") and not l.startswith("Usage: ")]
    msg = errs[-1] if errs else "tsp exited with status %d" % returncode
    for path, name in (names or {}).items():
        msg = msg.replace(path, name)
    return TspError(msg, returncode, "\n".join(lines))


def _pump(stream, lines: List[str], progress: Optional[Callable], json_only: bool) -> None:
    """_pump reads stderr a line at a time: each kept, and handed to
    progress, parsed when it is a JSON object (--progress json); with
    json_only the other lines (the summary, notes) are kept for errors
    only."""
    for raw in stream:
        line = raw.rstrip("\n")
        lines.append(line)
        if progress is None or not line:
            continue
        item: Any = line
        if line.startswith("{"):
            try:
                item = json.loads(line)
            except ValueError:
                pass
        if json_only and not isinstance(item, dict):
            continue
        progress(item)


def _run(args: List[str], progress: Optional[Callable], names: Optional[Dict[str, str]] = None) -> str:
    """_run runs tsp with args; it returns stdout or raises TspError (names:
    the files the package wrote, as _failure takes them)."""
    proc = subprocess.Popen(
        [executable()] + args,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        stdin=subprocess.DEVNULL,
        text=True,
        encoding="utf-8",
        errors="replace",
    )
    lines: List[str] = []
    with proc:
        json_only = "--progress" in args and args[args.index("--progress") + 1] == "json"
        reader = threading.Thread(target=_pump, args=(proc.stderr, lines, progress, json_only), daemon=True)
        reader.start()
        try:
            out = proc.stdout.read()
            proc.wait()
        except BaseException:
            proc.kill()
            raise
        finally:
            reader.join()
    if proc.returncode != 0:
        raise _failure(proc.returncode, lines, names)
    return out


_progress_json: Dict[str, bool] = {}


def _has_progress_json() -> bool:
    """_has_progress_json reports whether this tsp writes --progress json."""
    exe = executable()
    if exe not in _progress_json:
        h = subprocess.run([exe, "solve", "--help"], capture_output=True, text=True, check=False)
        _progress_json[exe] = "-progress" in (h.stdout + h.stderr)
    return _progress_json[exe]


def solve(
    points=None,
    matrix=None,
    file: Union[str, "os.PathLike[str]", None] = None,
    time: float = 10,
    backend: str = "auto",
    seed: int = 1,
    start: Optional[Sequence[int]] = None,
    open: bool = False,
    ends: Optional[Sequence[int]] = None,
    progress: Optional[Callable[[Any], None]] = None,
    algorithm: Optional[str] = None,
    options: Optional[Dict[str, Any]] = None,
) -> Result:
    """solve finds a short tour through points (x, y pairs), through the
    cities of a symmetric cost matrix, or of an instance file (TSPLIB, a
    point list, a matrix CSV).

    time is the limit in seconds; backend is "cpu", "gpu" or "auto"; seed
    makes runs repeatable; start is a tour (0-based) to start from; open
    finds a path with free ends, ends=(a, b) a path from a to b (0-based).
    progress, if given, is called with each progress line of the run: a
    dict where tsp writes JSON progress, else the line's text. algorithm
    and options pick an engine and set its options ('tsp engines').
    Bad arguments (an index out of range, a start that is no tour) raise
    ValueError naming them; a failed run raises TspError with tsp's
    one-line message.
    """
    with tempfile.TemporaryDirectory(prefix="tsplab-") as d:
        inst = _write_input(d, "instance", points, matrix, file)
        n = _size(points, matrix)
        names = {} if file is not None else {inst: "points=" if points is not None else "matrix="}
        args = ["solve", inst, "--json", "-"]
        args += _common_args(time, backend, seed, algorithm, options)
        if start is not None:
            args += ["--start", _write_start(d, _check_start(start, n))]
            names[args[-1]] = "start="
        if open:
            args += ["--open"]
        if ends is not None:
            a, b = _check_ends(ends, n)
            args += ["--ends", "%d,%d" % (a + 1, b + 1)]
            names['--ends "%d,%d"' % (a + 1, b + 1)] = "ends=%r" % ((a, b),)
        if progress is not None and _has_progress_json():
            args += ["--progress", "json"]
        out = _run(args, progress, names)
    return Result.from_report(json.loads(out))


def solve_batch(
    instances: Sequence[Any],
    time: Optional[float] = None,
    backend: str = "auto",
    seed: int = 1,
    jobs: int = 0,
    progress: Optional[Callable[[Any], None]] = None,
    algorithm: Optional[str] = None,
    options: Optional[Dict[str, Any]] = None,
    bound: Optional[float] = None,
) -> List[Result]:
    """solve_batch solves many instances in one run of `tsp batch` and
    returns their results in order. Each instance gets the batch's work
    budget by its size (docs/BATCH.md), ending as soon as that work is
    done; time, when given, caps each instance at that many seconds. Each instance is a
    file path, a dict with one of "points", "matrix" or "file", or a
    sequence of (x, y) points. jobs is how many run at once on the CPU (0:
    one a core). The results carry the tour, its length and the gap as
    solve gives it: above the optimum where it is known, else at most
    above a proven lower bound, for which each instance whose optimum is
    unknown gets up to bound seconds more (None: time, or 1 s when time
    is None; 0: no bound, no
    gap); report holds the batch's line.
    """
    with tempfile.TemporaryDirectory(prefix="tsplab-") as d:
        paths = []
        names = {}
        for i, inst in enumerate(instances):
            if isinstance(inst, (str, os.PathLike)):
                inst = {"file": inst}
            elif not isinstance(inst, dict):
                inst = {"points": inst}
            paths.append(_write_input(d, "i%06d" % i, inst.get("points"), inst.get("matrix"), inst.get("file")))
            if inst.get("file") is None:
                names[paths[-1]] = "instances[%d]" % i
        args = ["batch"] + paths + ["--out", "-", "--tours"]
        if time is not None:
            args += ["--time-each", "%gs" % float(time)]
        args += ["--backend", backend, "--seed", str(int(seed))]
        if bound is None:
            bound = 1 if time is None else time
        args += ["--bound", "%gs" % float(bound)]
        if jobs:
            args += ["--jobs", str(int(jobs))]
        if algorithm:
            args += ["--algo", algorithm]
        for k, v in (options or {}).items():
            args += ["--opt", "%s=%s" % (k, v)]
        out = _run(args, progress, names)
    by_file = {}
    for line in out.splitlines():
        if line.startswith("{"):
            rep = json.loads(line)
            by_file[rep.get("file")] = rep
    missing = [p for p in paths if p not in by_file]
    if missing:
        raise TspError("tsplab: tsp batch gave no result for %s" % missing[0])
    return [Result.from_report(by_file[p]) for p in paths]
