// Package neighbor finds the cities near each city: candidate lists for
// local search (the k nearest, or the nearest in each quadrant), a k-d
// tree over the plane for 2-D Euclidean-like metrics (flat arrays, leaves
// of a few points, built and searched on all cores; each city's search
// starts at its own leaf and climbs), and a shrinking point set on a
// bucket grid that answers "nearest remaining city" during construction.
// Other metrics are searched by brute force.
//
// Every list is exact in the instance's TSPLIB metric: geometric searches
// only choose which cities to compare, the order comes from
// solver.Instance.Dist. Lists are repeatable: ties are broken by city
// index, the k-d searches prune by bounding boxes alone (what they keep
// does not depend on the tree's shape; the tree is the same on every build
// anyway), and the parallel loops only split the cities among goroutines,
// so the same instance and k give the same lists on any machine. The
// Context variants give up when the context is done, so that an engine's
// set-up honours its deadline.
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
