// Package bound computes the Held–Karp lower bound of a symmetric TSP
// instance: the weight of a minimum 1-tree under node penalties π, raised by
// subgradient ascent on the penalties (Held & Karp, "The traveling-salesman
// problem and minimum spanning trees", Operations Research 18, 1970, and
// "Part II", Mathematical Programming 1, 1971). Every tour is a 1-tree, and
// adding π_i + π_j to every edge (i, j) adds exactly 2·Σπ to every tour, so
// for any π
//
//	min 1-tree weight under d(i,j)+π_i+π_j  −  2·Σπ  ≤  optimal tour length.
//
// The step size and period rules of the ascent are those of LKH
// (Helsgaun, "An effective implementation of the Lin–Kernighan traveling
// salesman heuristic", European Journal of Operational Research 126, 2000,
// section 4.1, and the LKH-2 user guide): the subgradient is the degree
// excess d_i − 2 blended with the previous one as 0.7·v + 0.3·v_last, the
// first period is N/2 (bounded here, see Options.MaxPeriod), the step
// doubles while the bound improves in the first period, a period that ends
// improving is doubled, and period and step halve after every period. Like
// LKH, the 1-tree is a minimum spanning tree plus the second-cheapest edge
// of the leaf where that edge is the most expensive.
//
// The ascent runs on a sparse candidate graph (quadrant neighbours plus a
// minimum spanning tree of the complete graph, so it is connected) to scale
// to a million cities. A 1-tree of a subgraph is not in general a lower
// bound, so the penalties found are then evaluated exactly on the complete
// graph: by Prim's O(n²) algorithm for instances without 2-D Euclidean-like
// coordinates, and otherwise by Borůvka's algorithm whose cheapest outgoing
// edges come from a k-d tree search that prunes a box by the exact metric
// of its nearest point plus the smallest penalty inside it. Weights are
// integers (TSPLIB distances times Precision plus integer penalties), so the
// reported bound, rounded up, is proven.
//
// Alpha-nearness (Helsgaun 2000, section 4.1) of the final 1-tree gives
// candidate lists for the engines: see Result.AlphaCandidates.
package bound
