package construct

import "github.com/tsplab/tsplab/solver/problem"

// KeepFixed returns t reordered to use every fixed edge of in (paths); without fixed edges, t itself.
func KeepFixed(in *problem.Instance, t []int) []int {
	if len(in.FixedEdges) == 0 {
		return t
	}
	n := in.N
	adj := problem.FixedPartners(n, in.FixedEdges) // the fixed partners of c: adj[2c], adj[2c+1]
	visited := make([]bool, n)
	out := make([]int, 0, n)
	walk := func(c int) { // from c along fixed edges until a visited city
		prev := int32(-1)
		for cur := int32(c); cur >= 0 && !visited[cur]; {
			visited[cur] = true
			out = append(out, int(cur))
			next := adj[2*cur]
			if next == prev || (next >= 0 && visited[next]) {
				next = adj[2*cur+1]
			}
			prev, cur = cur, next
		}
	}
	for _, c := range t {
		if !visited[c] && adj[2*c+1] < 0 { // a free city or the end of a path
			walk(c)
		}
	}
	for _, c := range t { // what is left lies on a cycle of fixed edges
		if !visited[c] {
			walk(c)
		}
	}
	return out
}
