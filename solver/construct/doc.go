// Package construct builds start tours: a uniformly random permutation,
// the nearest-neighbour tour, the greedy-edge (multiple fragment) tour and
// the space-filling-curve tour. Every tour is a []int permutation of the
// cities 0..n-1, closed (the last city connects to the first).
//
// Nearest neighbour and greedy read candidate lists from package
// neighbor and fall back to exact searches where the lists run out. The
// Context variants give up when the context is done, so that an engine's
// set-up honours its deadline; the space-filling curve is O(n log n) with
// no distance evaluations and is the cheap tour to fall back on.
//
// References:
//
//   - D. S. Johnson and L. A. McGeoch, "The traveling salesman problem: a
//     case study in local optimization", in E. H. L. Aarts and J. K.
//     Lenstra (eds.), Local Search in Combinatorial Optimization, Wiley,
//     1997, pp. 215–310, sections 2.1–2.3: nearest neighbour, greedy
//     (multiple fragment), space-filling curve.
//   - J. L. Bentley, "Fast algorithms for geometric traveling salesman
//     problems", ORSA Journal on Computing 4(4), 1992, pp. 387–411:
//     semidynamic point sets for nearest-neighbour construction.
//   - J. J. Bartholdi and L. K. Platzman, "An O(N log N) planar travelling
//     salesman heuristic based on spacefilling curves", Operations
//     Research Letters 1(4), 1982: the space-filling-curve tour.
package construct
