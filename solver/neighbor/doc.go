// Package neighbor finds the cities near each city: candidate lists for
// local search (the k nearest, or the nearest in each quadrant) from a k-d
// tree for 2-D Euclidean-like metrics and by brute force otherwise, and a
// shrinking point set that answers "nearest remaining city" during
// construction. Lists are exact in the TSPLIB metric and repeatable (ties
// by city index, on any number of cores); the Context variants give up
// when the context is done.
//
// References:
//
//   - J. L. Bentley, "Multidimensional binary search trees used for
//     associative searching", Communications of the ACM 18(9), 1975: the
//     k-d tree.
//   - J. L. Bentley, "Fast algorithms for geometric traveling salesman
//     problems", ORSA Journal on Computing 4(4), 1992, pp. 387–411: k-d
//     trees and semidynamic point sets for nearest-neighbour searches in
//     tour construction.
//   - D. S. Johnson and L. A. McGeoch, "The traveling salesman problem: a
//     case study in local optimization", in E. H. L. Aarts and J. K.
//     Lenstra (eds.), Local Search in Combinatorial Optimization, Wiley,
//     1997, pp. 215–310, section 3.3: neighbour lists and quadrant
//     neighbours.
package neighbor
