package gpu

// ggrMaxRounds caps the matching rounds of 2opt-or's greedy start; the
// rounds stop earlier when one adds no edge.
const ggrMaxRounds = 100

// ggrLink joins the fragments of the greedy matching into one tour of n
// cities and returns it. deg[c] is c's degree (0-2), adj[2c], adj[2c+1]
// its neighbours, oth[e] the other end of end e's fragment (oth[c] == c
// for a city of degree 0). The fragments are taken in the order of their
// smaller end (a rank along the Hilbert curve) and each is entered at the
// end nearer (by near) to where the previous one left off.
func ggrLink(deg, oth, adj []int32, near func(a, b int32) float64) []int32 {
	n := len(deg)
	tour := make([]int32, 0, n)
	last := int32(-1)
	for r := 0; r < n; r++ {
		e := int32(r)
		if deg[r] >= 2 || oth[r] < e {
			continue
		}
		in, out := e, oth[r]
		if last >= 0 && near(last, out) < near(last, in) {
			in, out = out, in
		}
		tour = ggrWalk(tour, adj, deg, in, out)
		last = out
	}
	return tour
}

// ggrWalk appends the fragment from end in to end out to tour.
func ggrWalk(tour, adj, deg []int32, in, out int32) []int32 {
	prev, cur := int32(-1), in
	tour = append(tour, cur)
	for cur != out {
		next := adj[2*cur]
		if next == prev && deg[cur] == 2 {
			next = adj[2*cur+1]
		}
		prev, cur = cur, next
		tour = append(tour, cur)
	}
	return tour
}
