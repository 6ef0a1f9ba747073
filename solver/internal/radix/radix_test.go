package radix

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSort: the keys end in the order of a comparison sort, with and
// without values, the values following their keys and tied keys keeping
// their order; keys that share digits, and none, sort too.
func TestSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, c := range []struct {
		n    int
		used uint
		mod  uint64 // keys below mod, then shifted up by 20 bits (shared low digits)
	}{{0, 64, 1}, {1, 64, 1 << 63}, {5000, 64, 1 << 63}, {5000, 33, 1 << 13}, {3000, 40, 7}} {
		keys := make([]uint64, c.n)
		for i := range keys {
			keys[i] = rng.Uint64N(c.mod) << 20
		}
		type kv struct {
			k uint64
			v int32
		}
		want := make([]kv, c.n)
		vals := make([]int32, c.n)
		for i, k := range keys {
			want[i], vals[i] = kv{k, int32(i)}, int32(i)
		}
		slices.SortStableFunc(want, func(a, b kv) int { return cmp.Compare(a.k, b.k) })
		plain := slices.Clone(keys)
		Sort(keys, c.used, vals)
		Sort(plain, c.used, nil)
		for i, w := range want {
			if keys[i] != w.k || vals[i] != w.v || plain[i] != w.k {
				t.Fatalf("%d keys of %d bits: at %d key %d value %d (without values %d), want %d and %d", c.n, c.used, i, keys[i], vals[i], plain[i], w.k, w.v)
			}
		}
	}
}
