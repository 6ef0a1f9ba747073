package cpu

import (
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// claimEdgesKept fails unless every edge of the claim path joins
// neighbours of tour t.
func claimEdgesKept(t *testing.T, claim, tr []int32, what string) {
	t.Helper()
	pos := posOf(tr)
	for j := 1; j < len(claim); j++ {
		if !adjacent(pos, claim[j-1], claim[j]) {
			t.Fatalf("%s: the claimed edge %d–%d is no longer in the tour", what, claim[j-1], claim[j])
		}
	}
}

// claimPathIn returns the claim's path as tour t holds it: its cities
// from its first city to its last, which t must hold as one path.
func claimPathIn(t *testing.T, pr *partRun, claim, tr []int32) []int32 {
	t.Helper()
	n, m := len(tr), len(claim)
	at := int(posOf(tr)[claim[0]])
	for _, dir := range [2]int{1, -1} {
		path := make([]int32, m)
		for j := range m {
			path[j] = tr[((at+dir*j)%n+n)%n]
		}
		ok := path[m-1] == claim[m-1]
		for _, ct := range path {
			ok = ok && pr.claimed(ct)
		}
		if ok {
			return path
		}
	}
	t.Fatal("the claim is not one path of the tour")
	return nil
}

// improveInner improves the path at positions from+1..from+m-2 of tr
// (cyclic) by 2-opt reversals that keep its two end cities in place, as
// a companion's windows do, and returns the gain.
func improveInner(tr []int32, from, m int, dist func(a, b int32) int64) int64 {
	n := len(tr)
	p := func(i int) int { return (from + i) % n }
	var gain int64
	for improved := true; improved; {
		improved = false
		// reverse local positions i+1..j, 1 ≤ i, j ≤ m-3: the cities at
		// local 1 and m-2 stay
		for i := 1; i < m-3; i++ {
			for j := i + 2; j <= m-3; j++ {
				a, b, c, d := tr[p(i)], tr[p(i+1)], tr[p(j)], tr[p(j+1)]
				delta := dist(a, c) + dist(b, d) - dist(a, b) - dist(c, d)
				if delta >= 0 {
					continue
				}
				for x, y := i+1, j; x < y; x, y = x+1, y-1 {
					tr[p(x)], tr[p(y)] = tr[p(y)], tr[p(x)]
				}
				gain -= delta
				improved = true
			}
		}
	}
	return gain
}

// TestPartitionClaim runs partition rounds of every shape beside a
// stand-in companion that claims 30 % of the tour. First an offer that
// improved only the claimed path of the start tour (its inner cities, as
// the GPU windows do) while the engine ran a round on the rest is folded
// in whole: the engine's tour gets shorter by at least the offer's gain.
// Then, round after round, the claimed path's edges are all still in the
// tour, the tour is valid and exact, and the rounds of paths put no
// claimed city in a segment and every other city in one.
func TestPartitionClaim(t *testing.T) {
	in := uniformInstance(3000, 23)
	for _, shape := range []string{"path", "region", "alternate"} {
		t.Run(shape, func(t *testing.T) {
			pr := newTestPartRun(t, in, 2, map[string]string{OptPartKicks: "0.3", OptPartShape: shape})
			x := &solver.Companion{}
			x.SetClaim(0.3, 7)
			x.HonourClaims()
			pr.r.comp = &companionLink{x: x}
			start := pr.length
			rng := newRNG(11, 0)

			// the fold of an offer that improved only the claim
			pr.companion()
			offer, l0, _, _, c := x.LatestClaim(nil)
			if c.ID == 0 || c.Len != 900 {
				t.Fatalf("the published tour's claim: %+v", c)
			}
			gain := improveInner(offer, c.From, c.Len, pr.global.d.At)
			if gain <= 0 {
				t.Fatal("the claimed path could not be improved: the test shows nothing")
			}
			x.OfferClaim(offer, l0-gain, c.ID)
			pr.step(rng.intn(in.N), 0) // the engine's round on the rest meanwhile
			before := pr.length
			if before == l0 {
				t.Fatal("the engine's round changed nothing: the test shows nothing")
			}
			pr.companion()
			checkPartTour(t, pr, "after the fold")
			if pr.length > before-gain {
				t.Fatalf("the fold kept %d of the claim's gain %d (engine %d → %d)", before-pr.length, gain, before, pr.length)
			}
			// the claim's path is now the offer's
			kept := make([]int32, c.Len)
			for j := range kept {
				kept[j] = offer[(c.From+j)%in.N]
			}
			claimEdgesKept(t, kept, pr.t, "after the fold")
			t.Logf("%s: claim gain %d kept whole (engine %d → %d after its round, %d after the fold)", shape, gain, l0, before, pr.length)

			regions := 0
			for round := range 6 {
				if round == 3 {
					x.AskClaim() // a new claim at the next publication
				}
				if round > 0 {
					pr.companion()
				}
				claim, id := x.Claim(nil)
				if id == 0 || len(claim) != 900 {
					t.Fatalf("round %d: claim %d of %d cities, want 900", round, id, len(claim))
				}
				before := pr.length
				path := claimPathIn(t, pr, claim, pr.t)
				off := rng.intn(in.N)
				pr.cut(off, 0)
				if !pr.region {
					if pr.claimLen != len(claim) {
						t.Fatalf("round %d: the claim is not one path of the tour", round)
					}
					inSeg := make([]int, in.N)
					for _, sg := range pr.segs {
						if sg.m < partMinSegment {
							t.Fatalf("round %d: a segment of %d cities", round, sg.m)
						}
						for _, ct := range sg.cities[:sg.m] {
							inSeg[ct]++
						}
					}
					for _, ct := range claim {
						if inSeg[ct] != 0 {
							t.Fatalf("round %d: the claimed city %d is in a segment", round, ct)
						}
						inSeg[ct] = 1
					}
					for ct, k := range inSeg {
						if k != 1 {
							t.Fatalf("round %d: city %d in %d segments", round, ct, k)
						}
					}
				} else {
					regions++
					for _, sg := range pr.segs {
						for _, ct := range sg.cities[:sg.m] {
							if pr.claimed(ct) {
								t.Fatalf("round %d: the claimed city %d is in a region", round, ct)
							}
						}
					}
				}
				pr.runRound()
				pr.stitch(time.Hour)
				pr.round++
				checkPartTour(t, pr, "after a round")
				claimEdgesKept(t, path, pr.t, "after a round")
				if pr.length > before {
					t.Fatalf("round %d: %d → %d", round, before, pr.length)
				}
			}
			if (shape == "path") != (regions == 0) {
				t.Fatalf("%d region rounds under %s", regions, shape)
			}
			if pr.length >= start {
				t.Fatalf("seven rounds: %d → %d", start, pr.length)
			}
		})
	}
}
