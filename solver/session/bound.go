package session

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
	"github.com/tsplab/tsplab/solver/report"
)

// boundRun is a lower bound computed while the engine runs.
type boundRun struct {
	stop    chan struct{}
	stopped sync.Once
	done    chan boundOutcome
}

type boundOutcome struct {
	r   bound.Result
	err error
}

// startBound starts in's lower bound beside a run within BoundShare of limit, on dev when set, through the shared
// ascents; on receives a proven bound.
func (pl *Pipeline) startBound(ctx context.Context, in *solver.Instance, dev solver.OpenAscentDevice, limit time.Duration, on func(bound.Result)) *boundRun {
	b := &boundRun{stop: make(chan struct{}), done: make(chan boundOutcome, 1)}
	start := time.Now()
	opts := boundOptions(dev, limit)
	share := opts.Time
	// not ctx: an interrupt ends the run, whose end stops the bound with its best
	bctx := context.WithoutCancel(ctx)
	go func() {
		r, err := pl.ascents.StopAscent(bctx, b.stop, in, opts)
		if err != nil && opts.Device != nil && BoundFailed(err) {
			opts.Device = nil
			if limit > 0 {
				opts.Time = share - time.Since(start)
			}
			if limit == 0 || opts.Time > 0 {
				r, err = pl.ascents.StopAscent(bctx, b.stop, in, opts)
			}
		}
		if err == nil && on != nil {
			on(r)
		}
		b.done <- boundOutcome{r, err}
	}()
	return b
}

// boundOptions are the bound's options beside a run of limit on dev.
func boundOptions(dev solver.OpenAscentDevice, limit time.Duration) bound.Options {
	// Thorough: the gap is measured against it (below bound.ThoroughMaxN an ascent of its own, a fraction of a second).
	opts := bound.Options{Time: time.Duration(float64(limit) * BoundShare), Thorough: true}
	if dev != nil {
		opts.Device = dev
	}
	return opts
}

// end stops the bound.
func (b *boundRun) end() { b.stopped.Do(func() { close(b.stop) }) }

// result stops the bound and returns it if ready within BoundWait.
func (b *boundRun) result() (*bound.Result, error) {
	b.end()
	select {
	case o := <-b.done:
		if o.err != nil {
			return nil, o.err
		}
		return &o.r, nil
	case <-time.After(BoundWait):
		return nil, nil
	}
}

// BoundFailed reports whether err is a failure of the bound, not its time running out.
func BoundFailed(err error) bool {
	return !errors.Is(err, context.DeadlineExceeded) && !errors.Is(err, context.Canceled) && !errors.Is(err, bound.ErrStopped)
}

// boundAfter computes a bound after the run within limit, on dev then the cores, stopped by ctx with the best by then.
func (pl *Pipeline) boundAfter(ctx context.Context, in *solver.Instance, dev solver.OpenAscentDevice, limit time.Duration) (*bound.Result, error) {
	opts := bound.Options{Time: limit, Device: dev, Thorough: true}
	start := time.Now()
	r, err := bound.UntilDone(ctx, pl.ascents.StopAscent, in, opts)
	if err != nil && dev != nil && ctx.Err() == nil && BoundFailed(err) {
		opts.Time -= time.Since(start) // limit bounds both tries together
		if opts.Time <= 0 {
			opts.Time = time.Nanosecond // no time left: no second try
		}
		opts.Device = nil
		r, err = bound.UntilDone(ctx, pl.ascents.StopAscent, in, opts)
	}
	if err != nil {
		return nil, err
	}
	return &r, nil
}

// CacheDirEnv names the variable holding TSP Lab's cache folder (default: the user's cache folder's tsplab/).
const CacheDirEnv = "TSPLAB_CACHE_DIR"

// boundsDir is the cached bounds' folder ("": no cache folder).
func boundsDir() string {
	dir := os.Getenv(CacheDirEnv)
	if dir == "" {
		d, err := os.UserCacheDir()
		if err != nil {
			return ""
		}
		dir = filepath.Join(d, "tsplab")
	}
	return filepath.Join(dir, "bounds")
}

// cachedBound is a cache file: the best bound proven on one instance's distances.
type cachedBound struct {
	N         int   `json:"n"`
	ScaleExp  int   `json:"scale_exp"`
	Bound     int64 `json:"bound_scaled"`
	Optimal   bool  `json:"optimal,omitempty"`
	Converged bool  `json:"converged"`
}

// boundFile is the cache file of in's bound, named by a hash of its distances' inputs and its fixed edges.
func boundFile(in *solver.Instance) string {
	dir := boundsDir()
	if dir == "" || in == nil || in.N == 0 {
		return ""
	}
	h := sha256.New()
	fmt.Fprintf(h, "tsplab bound v1\n%d %s %d\n", in.N, in.Metric, in.ScaleExp)
	// The words go to the hash in blocks: an EXPLICIT instance has N² of them.
	buf := make([]byte, 0, 1<<16)
	word := func(v uint64) {
		if buf = binary.LittleEndian.AppendUint64(buf, v); len(buf) == cap(buf) {
			h.Write(buf)
			buf = buf[:0]
		}
	}
	if in.Metric == solver.Explicit {
		for _, d := range in.Matrix {
			word(uint64(d))
		}
	} else {
		for _, c := range [][]float64{in.X, in.Y, in.Z} {
			word(uint64(len(c)))
			for _, v := range c {
				word(math.Float64bits(v))
			}
		}
	}
	for _, e := range in.FixedEdges {
		word(uint64(e[0]))
		word(uint64(e[1]))
	}
	h.Write(buf)
	return filepath.Join(dir, hex.EncodeToString(h.Sum(nil))+".json")
}

// CachedBound is the best bound earlier runs proved on in's distances (Cached set), false when none is readable.
func CachedBound(in *solver.Instance) (bound.Result, bool) {
	name := boundFile(in)
	if name == "" {
		return bound.Result{}, false
	}
	data, err := os.ReadFile(name)
	if err != nil {
		return bound.Result{}, false
	}
	var c cachedBound
	if json.Unmarshal(data, &c) != nil || c.N != in.N || c.ScaleExp != in.ScaleExp || c.Bound <= 0 {
		return bound.Result{}, false // a damaged file is no bound
	}
	return bound.Result{Bound: c.Bound, Optimal: c.Optimal, Stopped: !c.Converged, Cached: true}, true
}

// StoreBound caches r, a bound of in, when higher than the cached one (or as high and converged); a write failure only loses it.
func StoreBound(in *solver.Instance, r bound.Result) {
	name := boundFile(in)
	if name == "" || r.Cached || r.Bound <= 0 {
		return
	}
	if old, ok := CachedBound(in); ok && (old.Bound > r.Bound || old.Bound == r.Bound && (!old.Stopped || r.Stopped)) {
		return
	}
	if os.MkdirAll(filepath.Dir(name), 0o755) != nil {
		return
	}
	c := cachedBound{N: in.N, ScaleExp: in.ScaleExp, Bound: r.Bound, Optimal: r.Optimal, Converged: !r.Stopped}
	_ = atomicfile.Write(name, func(w io.Writer) error { return json.NewEncoder(w).Encode(c) })
}

// startCached is in's cached bound (nil: none), handed to req's OnBound at once.
func startCached(in *solver.Instance, req *Request) *bound.Result {
	c, ok := CachedBound(in)
	if !ok {
		return nil
	}
	if on := req.OnBound; on != nil {
		on(c)
		req.OnBound = func(r bound.Result) {
			if r.Bound > c.Bound {
				on(r)
			}
		}
	}
	return &c
}

// bestBound is the higher of this run's bound and the cached one.
func bestBound(in *solver.Instance, computed, cached *bound.Result) *bound.Result {
	if computed != nil {
		StoreBound(in, *computed)
	}
	if cached != nil && (computed == nil || cached.Bound > computed.Bound) {
		return cached
	}
	return computed
}

// RecordBound sets the run's lower bound b (nil: none) in rep with its gap, source and whether it still converges.
func RecordBound(rep *report.Report, in *solver.Instance, b *bound.Result) {
	if b == nil {
		return
	}
	rep.SetLowerBound(in, b.Bound)
	rep.BoundSource, rep.BoundConverging = BoundOrigin(*b)
}

// BoundOrigin says where b came from and whether it still converges.
func BoundOrigin(b bound.Result) (src report.BoundSource, converging bool) {
	src = report.BoundThisRun
	if b.Cached {
		src = report.BoundCache
	}
	return src, b.Stopped && !b.Optimal
}
