package population

import (
	"math/rand/v2"
	"slices"
	"testing"
)

func perm(n int, r *rand.Rand) []int32 {
	t := make([]int32, n)
	for i := range t {
		t[i] = int32(i)
	}
	r.Shuffle(n, func(i, j int) { t[i], t[j] = t[j], t[i] })
	return t
}

func TestPoolRefusesDuplicates(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	p := NewPool(4, 50)
	a := perm(50, r)
	if !p.Offer(a, 100) {
		t.Fatal("the first tour refused")
	}
	rot := append(slices.Clone(a[7:]), a[:7]...)
	rev := slices.Clone(a)
	slices.Reverse(rev)
	for _, d := range [][]int32{a, rot, rev} {
		if p.Offer(d, 90) {
			t.Fatal("the same cycle entered twice")
		}
	}
	if p.Len() != 1 {
		t.Fatalf("%d members, want 1", p.Len())
	}
}

// A full pool: a tour replaces the member closest to it by edge
// distance, only when shorter; the shortest member stays.
func TestPoolReplacesClosestIfShorter(t *testing.T) {
	r := rand.New(rand.NewPCG(2, 2))
	n := 100
	p := NewPool(3, n)
	base := [3][]int32{perm(n, r), perm(n, r), perm(n, r)}
	lens := []int64{300, 200, 100}
	for i := range base {
		if !p.Offer(base[i], lens[i]) {
			t.Fatalf("member %d refused while there was room", i)
		}
	}
	// near member 2 (the best, 100): a longer one is refused
	near := slices.Clone(base[2])
	slices.Reverse(near[10:14])
	if p.Offer(near, 150) {
		t.Fatal("a tour longer than the member closest to it entered")
	}
	if _, l := p.Tour(p.Best()); l != 100 {
		t.Fatalf("best %d, want 100", l)
	}
	// near member 0 (300): a shorter one replaces it, not the others
	near0 := slices.Clone(base[0])
	slices.Reverse(near0[20:30])
	if !p.Offer(near0, 250) {
		t.Fatal("a shorter tour near a member refused")
	}
	got := map[int64]bool{}
	for i := 0; i < p.Len(); i++ {
		_, l := p.Tour(i)
		got[l] = true
	}
	if !got[250] || !got[200] || !got[100] || got[300] {
		t.Fatalf("members %v, want 250, 200, 100", got)
	}
	// a shorter one near the best replaces it: the best gets better
	if !p.Offer(near, 90) {
		t.Fatal("a shorter tour near the best refused")
	}
	if _, l := p.Tour(p.Best()); l != 90 {
		t.Fatalf("best %d, want 90", l)
	}
}

func TestPoolSpreadAndPair(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 3))
	n := 40
	p := NewPool(5, n)
	a := perm(n, r)
	p.Offer(a, 100)
	if e, l := p.Spread(); e != 0 || l != 0 {
		t.Fatalf("one member: spread %v %v", e, l)
	}
	if _, _, ok := p.Pair(r); ok {
		t.Fatal("a pair from one member")
	}
	b := slices.Clone(a)
	slices.Reverse(b[5:15]) // two edges differ
	p.Offer(b, 110)
	e, l := p.Spread()
	if e != 2.0/float64(n) || l != 0.1 {
		t.Fatalf("spread %v of edges and %v in length, want %v and 0.1", e, l, 2.0/float64(n))
	}
	for k := 0; k < 20; k++ {
		i, j, ok := p.Pair(r)
		if !ok || i == j || i < 0 || j < 0 || i > 1 || j > 1 {
			t.Fatalf("pair %d, %d, %v", i, j, ok)
		}
	}
}
