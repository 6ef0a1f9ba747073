"""Tests of the tsplab package against the real tsp binary ($TSPLAB_TSP or
the package's own); each run is a fraction of a second."""

import math
import os
import tempfile
import unittest

import tsplab

try:
    import numpy
except ImportError:  # numpy is optional
    numpy = None

SQUARE = [(0, 0), (1, 0), (1, 1), (0, 1)]


def circle(n, r=100.0):
    """circle is n points on a circle: the optimal tour is its polygon."""
    return [(r * math.cos(2 * math.pi * i / n), r * math.sin(2 * math.pi * i / n)) for i in range(n)]


def polygon(n, r=100.0):
    return n * 2 * r * math.sin(math.pi / n)


class SolveTest(unittest.TestCase):
    def check_tour(self, r, n):
        self.assertEqual(sorted(r.tour), list(range(n)), "the tour visits every city once")

    def test_points(self):
        r = tsplab.solve(points=SQUARE, time=1)
        self.assertEqual(r.length, 4.0)
        self.check_tour(r, 4)
        self.assertIn(r.backend, ("cpu", "gpu"))
        self.assertEqual(r.report["dimension"], 4)

    def test_points_circle(self):
        pts = circle(60)
        r = tsplab.solve(points=pts, time=0.5, seed=3)
        self.check_tour(r, 60)
        self.assertAlmostEqual(r.length, polygon(60), delta=1e-3)
        # The length is the tour's, measured on the points given.
        again = sum(math.dist(pts[a], pts[b]) for a, b in zip(r.tour, r.tour[1:] + r.tour[:1]))
        self.assertAlmostEqual(r.length, again, delta=1e-3)

    def test_matrix(self):
        # Four cities on a line at 0, 1, 3, 6: the best tour is 12 long.
        xs = [0, 1, 3, 6]
        m = [[abs(a - b) for b in xs] for a in xs]
        r = tsplab.solve(matrix=m, time=0.5)
        self.assertEqual(r.length, 12.0)
        self.check_tour(r, 4)

    def test_file(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "sq.tsp")
            with open(path, "w") as f:
                f.write("NAME: sq\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n")
                f.write("1 0 0\n2 10 0\n3 10 10\n4 0 10\nEOF\n")
            r = tsplab.solve(file=path, time=0.5)
        self.assertEqual(r.length, 40.0)
        self.assertEqual(r.report["instance"], "sq")

    def test_open_path(self):
        r = tsplab.solve(points=[(0, 0), (1, 0), (2, 0), (3, 0)], time=0.5, open=True)
        self.assertEqual(r.length, 3.0)

    def test_bad_input(self):
        with tempfile.TemporaryDirectory() as d:
            path = os.path.join(d, "bad.txt")
            with open(path, "w") as f:
                f.write("0 0\n1 x\n")
            with self.assertRaises(tsplab.TspError) as cm:
                tsplab.solve(file=path, time=0.5)
        msg = str(cm.exception)
        self.assertIn("bad.txt:2", msg)
        self.assertIn("not a number", msg)
        self.assertEqual(len(msg.splitlines()), 1)

    def test_bad_arguments(self):
        with self.assertRaises(ValueError):
            tsplab.solve(points=SQUARE, matrix=[[0]])
        with self.assertRaises(ValueError):
            tsplab.solve(points=[(0, 0, 0)])
        with self.assertRaises(tsplab.TspError):
            tsplab.solve(points=SQUARE, time=0.5, backend="no-such-backend")

    def test_cli_reason(self):
        # TspError carries the command line's one-line reason, not the
        # pointer to its usage that follows it.
        for kw, says in (({"time": -1}, "--time -1s is out of range"), ({"backend": "tpu"}, "--backend tpu is unknown")):
            with self.assertRaises(tsplab.TspError) as cm:
                tsplab.solve(points=SQUARE, **kw)
            msg = str(cm.exception)
            self.assertIn(says, msg)
            self.assertNotIn("Usage", msg)
            self.assertEqual(len(msg.splitlines()), 1)
            self.assertEqual(cm.exception.returncode, 2)

    def test_matrix_not_square(self):
        for m in ([[0, 1], [1, 0], [2, 2]], [[0, 1, 2], [1, 0, 3]], [[0, 1], [1]], []):
            with self.assertRaises(ValueError) as cm:
                tsplab.solve(matrix=m, time=0.5)
            self.assertIn("matrix=", str(cm.exception))

    @unittest.skipIf(numpy is None, "numpy is not installed")
    def test_numpy_matrix_not_square(self):
        with self.assertRaises(ValueError):
            tsplab.solve(matrix=numpy.zeros((3, 2)), time=0.5)

    def test_no_temporary_paths(self):
        # Input the package wrote is named by the argument that gave it.
        with self.assertRaises(ValueError) as cm:
            tsplab.solve(points=[], time=0.5)
        self.assertIn("points= is empty", str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            tsplab.solve(points=SQUARE, start=[0, 0, 1, 2], time=0.5)
        msg = str(cm.exception)
        self.assertIn("start=", msg)
        self.assertNotIn(tempfile.gettempdir(), msg)
        self.assertNotIn("tsplab-", msg)

    def test_batch_gap_as_solve(self):
        one = tsplab.solve(points=SQUARE, time=0.5)
        (batch,) = tsplab.solve_batch([SQUARE], time=0.5)
        self.assertEqual((batch.gap, batch.gap_above, batch.optimum), (one.gap, one.gap_above, one.optimum))
        self.assertEqual(one.gap, 0)
        self.assertEqual(one.gap_above, "optimum")

    def test_errors_speak_the_callers_arguments(self):
        # 0-based indices and the argument's name, not the command line's
        # flags and 1-based ids; a 1-D array is a ValueError saying so
        pts = circle(5)
        for kw, says in (
            ({"ends": (0, 99)}, "ends= 99 is not an index of the 5 cities (0..4)"),
            ({"ends": (2, 2)}, "ends=(2, 2): a path from a city to itself"),
            ({"start": [0, 1, 2]}, "start= has 3 of the 5 indices: index 3 is missing"),
            ({"start": [0, 1, 2, 3, 5]}, "start= 5 is not an index of the 5 cities (0..4)"),
        ):
            with self.assertRaises(ValueError) as cm:
                tsplab.solve(points=pts, time=0.2, **kw)
            self.assertIn(says, str(cm.exception))
            self.assertNotIn("--", str(cm.exception))
        for bad in ([1, 2, 3], [(0, 0), 5]):
            with self.assertRaises(ValueError) as cm:
                tsplab.solve(points=bad, time=0.2)
            self.assertIn("points= item", str(cm.exception))
        with self.assertRaises(ValueError) as cm:
            tsplab.solve(matrix=[0, 1, 2], time=0.2)
        self.assertIn("matrix= item 0 is 0, not a row of costs", str(cm.exception))
        if numpy is not None:
            with self.assertRaises(ValueError):
                tsplab.solve(points=numpy.arange(6.0), time=0.2)

    def test_batch_bound_gap_as_solve(self):
        # an instance without a known optimum: solve's gap above its
        # lower bound, and solve_batch's the same way
        rng = __import__("random").Random(7)
        pts = [(rng.uniform(0, 1000), rng.uniform(0, 1000)) for _ in range(60)]
        one = tsplab.solve(points=pts, time=1)
        (batch,) = tsplab.solve_batch([pts], time=1)
        self.assertEqual(one.gap_above, "lower_bound")
        self.assertEqual(batch.gap_above, "lower_bound")
        self.assertIsNotNone(batch.gap)
        self.assertIsNotNone(batch.lower_bound)

    def test_repr_is_short(self):
        r = tsplab.solve(points=circle(200), time=0.3)
        text = repr(r)
        self.assertLess(len(text), 200, text)
        self.assertIn("n=200", text)
        self.assertIn("length=", text)

    def test_path_result(self):
        r = tsplab.solve(points=[(0, 0), (1, 0), (2, 0), (3, 0)], time=0.3, open=True)
        self.assertTrue(r.path)
        self.assertFalse(tsplab.solve(points=SQUARE, time=0.3).path)

    def test_batch_line_route(self):
        # a batch line marks a path as the record does, under "route"
        line = {"name": "p", "n": 3, "length": 12, "tour": [3, 1, 2], "route": {"open": True, "from": "3", "to": "2"}}
        self.assertTrue(tsplab.Result.from_report(line).path)
        del line["route"]
        self.assertFalse(tsplab.Result.from_report(line).path)

    def test_progress_is_progress_only(self):
        # the run's summary on stderr is no progress line
        seen = []
        tsplab.solve(points=circle(200), time=0.5, progress=seen.append)
        self.assertTrue(seen)
        for item in seen:
            self.assertIsInstance(item, dict, "a line that is no progress: %r" % (item,))

    def test_progress(self):
        seen = []
        r = tsplab.solve(points=circle(200), time=0.5, progress=seen.append)
        self.check_tour(r, 200)
        self.assertTrue(seen, "the callback received no progress line")
        for item in seen:
            self.assertIsInstance(item, (str, dict))

    @unittest.skipIf(numpy is None, "numpy is not installed")
    def test_numpy(self):
        r = tsplab.solve(points=numpy.array(SQUARE, dtype=float), time=0.5)
        self.assertEqual(r.length, 4.0)

    def test_batch(self):
        xs = [0, 1, 3, 6]
        rs = tsplab.solve_batch(
            [SQUARE, {"matrix": [[abs(a - b) for b in xs] for a in xs]}, {"points": circle(30)}], time=0.2
        )
        self.assertEqual([r.length for r in rs[:2]], [4.0, 12.0])
        self.assertAlmostEqual(rs[2].length, polygon(30), delta=1e-3)
        for r, n in zip(rs, (4, 4, 30)):
            self.check_tour(r, n)

    def test_batch_without_time(self):
        # the batch's work budget ends each instance; no time is needed
        rs = tsplab.solve_batch([{"points": circle(40)}], bound=0)
        self.assertAlmostEqual(rs[0].length, polygon(40), delta=1e-3)
        self.check_tour(rs[0], 40)


if __name__ == "__main__":
    unittest.main()
