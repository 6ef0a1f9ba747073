// Package construct builds start tours, []int permutations of the cities:
// random, nearest neighbour and greedy edge (over candidate lists, with
// exact searches where the lists run out; the Context variants give up
// when the context is done) and the space-filling curve (O(n log n), no
// distances: the cheap fallback).
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
