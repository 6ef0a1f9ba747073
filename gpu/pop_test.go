package gpu

import (
	"testing"

	"github.com/tsplab/tsplab/solver"
)

// GPU pop's pool follows the workers when unset, within its bounds, and
// stays as given otherwise; the caller's Extra is not changed.
func TestPopParamsPool(t *testing.T) {
	for _, c := range []struct {
		workers int
		given   string
		want    string
	}{{2, "", "8"}, {16, "", "16"}, {1000, "", "256"}, {16, "5", "5"}} {
		p := solver.Params{Workers: c.workers, Extra: map[string]string{"seed": "x"}}
		if c.given != "" {
			p.Extra["pool"] = c.given
		}
		q := popParams(p)
		if q.Extra["pool"] != c.want || q.Backend != solver.BackendCPU {
			t.Errorf("workers %d, pool %q: pool %q, backend %q; want %q", c.workers, c.given, q.Extra["pool"], q.Backend, c.want)
		}
		if p.Extra["pool"] != c.given {
			t.Errorf("workers %d: the caller's Extra changed to %v", c.workers, p.Extra)
		}
	}
}
