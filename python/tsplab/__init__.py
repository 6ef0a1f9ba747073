"""TSP Lab for Python: solve symmetric travelling salesman problems.

The package runs the ``tsp`` command line that its wheel carries (or the one
named by ``$TSPLAB_TSP``) and reads its JSON report, so no compiler and no Go
toolchain are needed. numpy arrays are accepted wherever lists are.

    >>> import tsplab
    >>> r = tsplab.solve(points=[(0, 0), (1, 0), (1, 1), (0, 1)], time=1)
    >>> r.length
    4.0
"""

from ._solve import Result, TspError, executable, solve, solve_batch, version

__all__ = ["Result", "TspError", "executable", "solve", "solve_batch", "version"]
__version__ = "0.0.0"
