// Package tour holds what the engines do to a tour: the array and doubly
// linked representations and the local-search moves with their O(1)
// length deltas. Start tours come from package construct, candidate lists
// from package neighbor.
//
// Tours are []int permutations of the cities 0..n-1, closed (the last city
// connects to the first). Every delta is new length − old length, in the
// exact integer TSPLIB distances of solver.Instance.Dist (read through
// Dist, a matrix or inline EUC_2D), so a negative delta is an improvement.
// This is the one move layer: the CPU engines price their moves with the
// Delta...Edges functions on their own int32 tours, the simulated
// annealing engines keep their solution in a Linked, and the Array and
// Linked forms, property-tested against recomputed lengths, are the
// oracle the engines' tests compare with.
//
// Tours: Array (positions, 2-opt by reversing the shorter side) and
// Linked (Lam et al.'s doubly linked list). Moves, each a Delta function
// and an apply method: 2-opt, relocation of one city (LWSA), Or-opt
// (segments of 1–3 cities, both orientations), pair swap, double bridge.
// TwoOpt is a complete 2-opt local search with neighbour lists and
// don't-look bits; Queue is the don't-look-bit queue it and the engines'
// local searches share.
//
// References:
//
//   - D. S. Johnson and L. A. McGeoch, "The traveling salesman problem: a
//     case study in local optimization", in E. H. L. Aarts and J. K.
//     Lenstra (eds.), Local Search in Combinatorial Optimization, Wiley,
//     1997, pp. 215–310: Or-opt, neighbour lists, "don't look" bits.
//   - J. L. Bentley, "Fast algorithms for geometric traveling salesman
//     problems", ORSA Journal on Computing 4(4), 1992, pp. 387–411: 2-opt
//     and Or-opt on arrays by reversing the shorter side.
//   - O. Martin, S. W. Otto and E. W. Felten, "Large-step Markov chains for
//     the traveling salesman problem", Complex Systems 5, 1991: the double
//     bridge kick.
//   - Lam et al. (cited in full in solver/cpu/doc.go): the lightweight
//     simulated annealing move (LWSA), a solution stored as a doubly
//     linked list, a move relocates one city between another city
//     and its successor in O(1).
package tour
