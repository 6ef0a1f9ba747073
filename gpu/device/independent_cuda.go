//go:build cuda

package device

import (
	"context"

	"github.com/tsplab/tsplab/solver"
)

// slotKey is the context key of the GPU context a search opens its runs on.
type slotKey struct{}

// withSlot returns ctx with the GPU context ds for NewRunIn.
func withSlot(ctx context.Context, ds DevSlot) context.Context {
	if ds == (DevSlot{}) {
		return ctx
	}
	return context.WithValue(ctx, slotKey{}, ds)
}

// slotIn is the GPU context ctx names (device 0's primary by default).
func slotIn(ctx context.Context) DevSlot {
	ds, _ := ctx.Value(slotKey{}).(DevSlot)
	return ds
}

// selKey is the context key of the contexts a run selected, for an engine working on the first.
type selKey struct{}

// SelectedIn is one context for NewRunIn per GPU context ctx's run selected, the first where the engine's own work runs
// (device 0 when none).
func SelectedIn(ctx context.Context) []context.Context {
	sel, _ := ctx.Value(selKey{}).([]DevSlot)
	if len(sel) == 0 {
		return []context.Context{ctx}
	}
	out := make([]context.Context, len(sel))
	for i, ds := range sel {
		out[i] = withSlot(ctx, ds)
	}
	return out
}

// NewRunIn opens a run on the GPU context of ctx's search (device 0's primary otherwise).
func NewRunIn(ctx context.Context) (*Run, error) { return newRunAt(slotIn(ctx)) }

// NewRunForIn is NewRunIn, refused when the kernels lack in's metric.
func NewRunForIn(ctx context.Context, in *solver.Instance) (*Run, error) {
	if _, err := MetricCode(in); err != nil {
		return nil, err
	}
	return NewRunIn(ctx)
}

// LabelIn is the label of NewRunIn's GPU ("GPU" when it does not open).
func LabelIn(ctx context.Context) string {
	var d *Device
	var err error
	if ds := slotIn(ctx); ds == (DevSlot{}) {
		d, err = GetDevice() // as a run there opens it
	} else {
		d, err = deviceAt(ds)
	}
	if err != nil {
		return "GPU"
	}
	return d.Label
}

// Independent is the body of an engine searching on one GPU context: on several contexts, search i seeded ShareSeed(seed, i),
// the shortest tour kept, moves and steps summed, a failed search named in the account.
func Independent(solve SolveFunc) MultiSolveFunc {
	return func(ctx context.Context, e solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, sel []DevSlot) (solver.Result, error) {
		if len(sel) <= 1 {
			ds := DevSlot{}
			if len(sel) == 1 {
				ds = sel[0]
			}
			return solve(withSlot(ctx, ds), e, in, p, snaps)
		}
		n := len(sel)
		res := make([]solver.Result, n)
		merge := newBestOf(snaps, n)
		errs := OnEach(n, func(i int) error {
			q := p
			q.Seed = ShareSeed(p.Seed, i)
			ch, done := merge.share(i)
			defer done()
			var err error
			res[i], err = solve(withSlot(ctx, sel[i]), e, in, q, ch)
			return err
		})
		return bestResult(res, errs, sel, p)
	}
}
