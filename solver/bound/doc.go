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
// The ascent follows LKH (Helsgaun, "An effective implementation of the
// Lin–Kernighan traveling salesman heuristic", European Journal of
// Operational Research 126, 2000, section 4.1): subgradient 0.7·v +
// 0.3·v_last of the degree excess v = d_i − 2, first period N/2 (capped,
// see Options.MaxPeriod), the step doubling while the first period
// improves, a period ending improving doubled, period and step halved
// after each; the 1-tree adds to a spanning tree the dearest leaf's
// second-cheapest edge.
//
// The ascent runs on a sparse candidate graph (quadrant neighbours plus a
// spanning tree) to scale to a million cities; as a subgraph's 1-tree is
// no bound, the penalties are then evaluated exactly on the complete graph
// (Prim in O(n²), or Borůvka over a k-d tree for Euclidean-like
// coordinates). Weights are integers (distances times Precision plus
// penalties), so the bound, rounded up, is proven.
//
// Alpha-nearness (Helsgaun 2000, section 4.1) of the final 1-tree gives
// candidate lists for the engines: see Result.AlphaCandidates.
package bound
