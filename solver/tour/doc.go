// Package tour holds what the engines do to a tour: the array and doubly
// linked forms, the moves' O(1) length deltas (new − old, in the exact
// TSPLIB distances read through Dist, so negative improves), 2-opt and
// Or-opt local searches over neighbour lists with don't-look bits, and
// the Queue those searches and the engines' own share.
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
