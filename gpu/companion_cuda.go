//go:build cuda

package gpu

import (
	"context"
	"fmt"
	"math/rand/v2"
	"time"

	"gorgonia.org/cu"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/bound"
)

// companionStats counts what the windows did beside the engine.
type companionStats struct {
	rounds, uploads int
	evals           uint64
	// found is the length the windows' offers took off the tours they
	// started from, in all: what they found before the engine's folds
	// kept what the engine had not bettered meanwhile
	found int64
	// foundLate is found without the first period, the windows' search
	// from the engine's start tour
	foundLate int64
	label     string
	// ready is when the windows' device state was ready
	ready time.Time
}

// runCompanion runs the or-ils windows (kernels/oropt.cu, no global
// passes: the engine's own search supplies the moves between windows) as
// the companion x of an engine until ctx ends or the deadline: from the
// engine's newest tour, rounds of windows; every `every`, when they gained,
// the windows' tour is offered; once the engine has taken the offer (its
// next published tour has seen it) or after four periods, what the
// windows gained since is offered too and the windows go on from the
// engine's newest tour. Waiting for a round blocks the thread (no spin),
// so the engine keeps every host core.
func runCompanion(ctx context.Context, in *solver.Instance, p solver.Params, x *solver.Companion, deadline time.Time, every time.Duration, claim float64) (companionStats, error) {
	var st companionStats
	// however the windows end (a failing device too), the engine gets
	// the claimed path back at its next publication
	defer x.SetClaim(0, 0)
	o, err := parseOrOptions(windowParams(p), in.N)
	if err != nil {
		return st, err
	}
	// the device first: its start (context, kernels) overlaps the
	// engine's start tour instead of holding the windows back after it
	ru, err := newRun()
	if err != nil {
		return st, err
	}
	defer ru.close()
	// the engine's first tour (its start tour, before its first descent)
	var t32 []int32
	var upLen int64
	var upSeq uint64
	if !waitPublished(ctx, x, deadline, 0) {
		return st, nil
	}
	t32, upLen, upSeq, _ = x.Latest(t32)
	L := min(o.window, in.N)
	replicas := o.replicas
	claimW := 0
	if claim > 0 {
		if p.Extra[OptWindow] == "" {
			L = min(claimWindow, in.N)
		}
		// fewer windows than over the whole tour: more replicas each
		if err := ru.do(func() (err error) {
			w, rr, err := claimGeometry(ru.d, solver.ClaimLen(claim, in.N), L)
			if replicas == 0 {
				replicas = rr
			}
			claimW = w
			return err
		}); err != nil {
			return st, err
		}
	}
	var r *orRun
	if err := ru.do(func() (err error) { r, err = newOrRun(ru, in, t32, L, replicas); return err }); err != nil {
		return st, err
	}
	r.threeOpt = o.threeOpt
	defer ru.do(func() error { r.free(); return nil })
	st.label = fmt.Sprintf("%s, %d windows of ≤%d cities × %d replicas", ru.d.label, r.W, r.L, r.R)
	st.ready = time.Now()
	if claim > 0 {
		// the engine searched the whole tour until now; the claim comes
		// with its next publication (none when the engine does not
		// honour claims: then the windows search the whole tour)
		x.SetClaim(claim, p.Seed)
		seq, _, _ := x.Published()
		if !waitPublished(ctx, x, deadline, seq) {
			return st, nil
		}
		var cl solver.Claim
		t32, upLen, upSeq, _, cl = x.LatestClaim(t32)
		if err := ru.do(func() error { return htod(r.tour, t32) }); err != nil {
			return st, err
		}
		if cl.ID != 0 {
			st.label = fmt.Sprintf("%s, claims of %d cities (%.2g of the tour) for %v each: %d windows of ≤%d cities × %d replicas", ru.d.label, cl.Len, float64(cl.Len)/float64(in.N), every, claimW, r.L, r.R)
			return runClaims(ctx, in, p, x, deadline, every, o, ru, r, t32, upLen, cl, st)
		}
	}

	rng := rand.New(rand.NewPCG(p.Seed, 0xc0ba))
	download := func() error { return ru.do(func() error { return dtoh(t32, r.tour) }) }
	upload := func() error { return ru.do(func() error { return htod(r.tour, t32) }) }
	var gain, gainAt uint64 // the windows' total gain, and at the last upload
	lastOffer := uint64(0)  // gain at the newest offer since the last upload
	uploaded := time.Now()
	var pending uint64 // the offer the engine has not taken yet
	var offeredAt time.Time
	var gainOffered uint64
	var clock orClock
	for ctx.Err() == nil && time.Now().Before(deadline) {
		off := rng.Int64N(int64(in.N))
		var err error
		if gain, err = st.round(ru, &clock, o.kicks, p.Seed, deadline, func(kicks int, seed uint64) (uint64, uint64, error) {
			return r.round(off, kicks, seed, o.maxSeg)
		}); err != nil {
			return st, err
		}
		cur := upLen - int64(gain-gainAt)
		now := time.Now()
		if pending == 0 {
			if now.Sub(uploaded) < every {
				continue
			}
			if gain > gainAt {
				if err := download(); err != nil {
					return st, err
				}
				pending, offeredAt, gainOffered = x.Offer(t32, cur), now, gain
				lastOffer = gain
				continue
			}
			// nothing found since the last upload: go on from the
			// engine's newest tour when it has a newer one
			if seq, _, _ := x.Published(); seq == upSeq {
				continue
			}
		} else {
			if _, _, taken := x.Published(); taken < pending && now.Sub(offeredAt) < 4*every {
				continue
			}
			if gain > gainOffered {
				// what the windows found after the offer, for the
				// engine's next fold
				if err := download(); err != nil {
					return st, err
				}
				x.Offer(t32, cur)
				lastOffer = gain
			}
			pending = 0
		}
		t32, upLen, upSeq, _ = x.Latest(t32)
		if err := upload(); err != nil {
			return st, err
		}
		st.addFound(lastOffer, gainAt)
		gainAt, lastOffer, uploaded = gain, gain, now
		st.uploads++
	}
	st.addFound(lastOffer, gainAt)
	return st, nil
}

// waitPublished waits until the engine has published after publication
// seq; false when ctx ends or the deadline passes first.
func waitPublished(ctx context.Context, x *solver.Companion, deadline time.Time, seq uint64) bool {
	for {
		if ctx.Err() != nil || !time.Now().Before(deadline) {
			return false
		}
		if s, _, _ := x.Published(); s > seq {
			return true
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// round runs one round of the windows on the run's thread through do,
// with the kicks clock allows (of want) and the round's seed (from seed),
// times it and counts it; it returns the windows' gain so far.
func (st *companionStats) round(ru *run, clock *orClock, want int, seed uint64, deadline time.Time,
	do func(kicks int, seed uint64) (gain, evals uint64, err error)) (uint64, error) {
	kicks := clock.kicks(want, time.Until(deadline))
	rs := seed*0x9E3779B97F4A7C15 + uint64(st.rounds) + 0x5bd1e995
	t0 := time.Now()
	var gain, evals uint64
	if err := ru.do(func() (err error) { gain, evals, err = do(kicks, rs); return err }); err != nil {
		return 0, err
	}
	st.evals = evals
	clock.timed(time.Since(t0), kicks)
	st.rounds++
	return gain, nil
}

// addFound counts what the offers of one period found: the windows' gain
// at the newest offer less their gain at the period's upload.
func (st *companionStats) addFound(lastOffer, gainAt uint64) {
	if lastOffer <= gainAt {
		return
	}
	st.found += int64(lastOffer - gainAt)
	if st.uploads > 0 {
		st.foundLate += int64(lastOffer - gainAt)
	}
}

// solveCompanion is GPU auto from AutoCompanionMinN cities: the CPU auto
// engine on every core with the or-ils windows as its companion
// (runCompanion) every `every` (none when 0). The result is the CPU engine's,
// which holds whatever it folded in; a failing GPU side leaves the CPU
// search alone and is named in the device line.
//
// With early (from AutoOrILSMinN cities) or-ils runs from the start on
// its own tour (space-filling curve, windows; earlyParams) while the
// engine builds its candidate lists and greedy tour, and stops at the
// engine's first publication, leaving the engine its cores: the
// snapshots carry the better tour of the two, and so does the result. On
// a million cities that is a tour 5 % above the optimum within a second,
// where the engine's greedy tour, 13.6 % above, comes after about 1.5 s
// on 16 cores (its candidate lists took most of ten before they were
// built on all cores). Measured there at
// 60 s (docs/PERF.md, "GPU auto on a million cities"): the engine from
// its own greedy tour ends ahead of or-ils run to the end beside it (on
// 14 workers), of the engine started from or-ils's tour, and of the
// engine with the windows as its companion after the hand-over (every
// > 0: its folds and publications took 8.7 s).
func solveCompanion(ctx context.Context, e, cpu solver.Engine, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot, start time.Time, every time.Duration, early bool) (solver.Result, error) {
	x := &solver.Companion{}
	f, err := companionClaim(p)
	if err != nil {
		return solver.Result{}, err
	}
	gctx, stop := context.WithCancel(ctx)
	defer stop()
	deadline := start.Add(p.TimeLimit)
	type side struct {
		st  companionStats
		err error
	}
	done := make(chan side, 1)
	if every > 0 {
		go func() {
			st, err := runCompanion(gctx, in, p, x, deadline, every, f)
			done <- side{st, err}
		}()
	} else {
		done <- side{}
	}
	type orSide struct {
		ph  orPhase
		err error
	}
	orDone := make(chan orSide, 1)
	engSnaps, merged := snaps, func() {}
	if early {
		var orSnaps chan solver.Snapshot
		orSnaps, engSnaps, merged = mergeSnapshots(snaps)
		octx, stopOr := context.WithCancel(gctx)
		go func() {
			waitPublished(octx, x, deadline, 0)
			stopOr()
		}()
		go func() {
			ph, err := orILS(octx, in, earlyParams(p), orSnaps, start)
			orDone <- orSide{ph, err}
		}()
	} else {
		orDone <- orSide{}
	}
	r, err := cpu.Solve(bound.WithDevice(solver.WithCompanion(ctx, x), BoundDevice), in, cpuParams(p), engSnaps)
	stop()
	g, o := <-done, <-orDone
	merged()
	if err != nil {
		return solver.Result{}, err
	}
	offers, taken, folds, gained := x.Stats()
	device := r.Device
	best, moves := r.Tour, r.Moves+int64(g.st.evals)
	if early {
		if o.err != nil {
			device += fmt.Sprintf("; or-ils before its first tour stopped: %v", o.err)
		} else if o.ph.tour != nil {
			device += fmt.Sprintf("; before its first tour, or-ils (%s) reached %d", o.ph.device, o.ph.length)
			moves += o.ph.moves
			if o.ph.length < r.Length {
				best = o.ph.tour
				device += ", the result"
			}
		}
	}
	if every > 0 {
		device += "; GPU windows beside it"
		if g.st.label != "" {
			device += " (" + g.st.label + ")"
		}
		device += fmt.Sprintf(": %d offers, %d taken, %d shortened the tour by %d in all (the offers had found %d, %d after the first period); %.3g moves on the CPU, %.3g on the GPU; the CPU engine spent %.2f s on folds and publications",
			offers, taken, folds, gained, g.st.found, g.st.foundLate, float64(r.Moves), float64(g.st.evals), x.SpentTime().Seconds())
		if !g.st.ready.IsZero() {
			device += fmt.Sprintf("; the windows were ready %.2f s after the start and ran %d rounds", g.st.ready.Sub(start).Seconds(), g.st.rounds)
		}
		if g.err != nil {
			device += fmt.Sprintf("; the GPU side stopped: %v", g.err)
		}
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: best, Moves: moves, Steps: r.Steps, Start: start, Stopped: r.Stopped || ctx.Err() != nil, Device: device})
}

// useCompanion reports whether GPU auto runs the windows beside the CPU
// auto engine on in: from AutoCompanionMinN to AutoOrILSMinN cities,
// coordinates or-ils takes (orSpanOK) and no fixed edges (the windows do
// not keep them).
func useCompanion(in *solver.Instance, every time.Duration) bool {
	return every > 0 && in.N >= AutoCompanionMinN && in.N < AutoOrILSMinN && orSpanOK(in) && len(in.FixedEdges) == 0
}

// claimWindow is the windows' default size inside a claim: on pla85900
// (20 s, seed 2, claims of 0.35) windows of 512 found 2.3 times what
// windows of 1,024 found after the first period (285,145 against
// 126,150) and ended at 0.370 against 0.403 % (docs/PERF.md, "GPU auto:
// division of labour").
const claimWindow = 512

// claimMaxReplicas bounds the replicas per window of a claim's windows.
const claimMaxReplicas = 32

// claimGeometry returns the windows over the inner cities of a claim of m
// cities (all but its two end cities) in windows of at most L, and the
// replicas per window that fill d, at most claimMaxReplicas.
func claimGeometry(d *device, m, L int) (w, R int, err error) {
	w = max(1, (m-2+L-1)/L)
	_, full, err := orGeometry(d, w*L, L, 0)
	if err != nil {
		return 0, 0, err
	}
	// orGeometry caps at 16 what fills the device: ask for the slots
	wpb := orWarps(L)
	fn, _ := d.fn("oropt_windows")
	blocks, err := fn.MaxActiveBlocksPerMultiProcessor(32*wpb, int64(wpb*orWindowBytes(L)))
	if err != nil {
		return 0, 0, err
	}
	slots := max(1, blocks) * wpb * d.info.Multiprocs
	return w, max(full, min(claimMaxReplicas, slots/w)), nil
}

// runClaims is runCompanion's loop when the engine honours claims
// (solver.Companion, "Division of labour"): the windows search only the
// inner cities of the current claim, cl in the tour t32 uploaded (its
// length upLen); after every round that gained, the claim's positions
// come back and the tour is offered, so that the engine, which folds
// offers where its rounds start, takes the newest; once every `every`
// the windows ask for a new claim, and when the engine has published it
// they offer what they found since their last offer and go on from the
// tour it came with.
func runClaims(ctx context.Context, in *solver.Instance, p solver.Params, x *solver.Companion, deadline time.Time, every time.Duration,
	o orOptions, ru *run, r *orRun, t32 []int32, upLen int64, cl solver.Claim, st companionStats) (companionStats, error) {
	rng := rand.New(rand.NewPCG(p.Seed, 0xc1a5))
	n := in.N
	// download copies the claim's positions of the device tour into t32
	download := func(c solver.Claim) error {
		return ru.do(func() error {
			a := c.From
			k := min(c.Len, n-a)
			if err := dtoh(t32[a:a+k], r.tour+cu.DevicePtr(4*a)); err != nil {
				return err
			}
			return dtoh(t32[:c.Len-k], r.tour)
		})
	}
	upload := func() error { return ru.do(func() error { return htod(r.tour, t32) }) }
	var gain, gainAt, lastOffer uint64 // the windows' gain in all, at the upload, at the newest offer
	claimedAt := time.Now()
	asked := false
	var next []int32 // the engine's newest tour, read when it may bring a new claim
	seen, _, _ := x.Published()
	var clock orClock
	for ctx.Err() == nil && time.Now().Before(deadline) {
		// the windows over the claim's inner cities, from a random shift
		// of up to half a window
		span := cl.Len - 2
		w := max(1, (span+r.L-1)/r.L)
		shift := rng.IntN(max(1, span/w/2))
		span -= shift
		w = max(1, (span+r.L-1)/r.L)
		off := int64((cl.From + 1 + shift) % n)
		var err error
		if gain, err = st.round(ru, &clock, o.kicks, p.Seed, deadline, func(kicks int, seed uint64) (uint64, uint64, error) {
			return r.roundIn(off, int64(span), w, kicks, seed, o.maxSeg)
		}); err != nil {
			return st, err
		}
		if gain > lastOffer {
			if err := download(cl); err != nil {
				return st, err
			}
			x.OfferClaim(t32, upLen-int64(gain-gainAt), cl.ID)
			lastOffer = gain
		}
		if !asked && time.Since(claimedAt) >= every {
			x.AskClaim()
			asked = true
		}
		if !asked {
			continue
		}
		// a new claim comes with a new publication: take both
		seq, _, _ := x.Published()
		if seq == seen {
			continue
		}
		seen = seq
		var c solver.Claim
		var l2 int64
		if next, l2, _, _, c = x.LatestClaim(next); c.ID == cl.ID || c.ID == 0 {
			continue
		}
		st.addFound(lastOffer, gainAt)
		t32, next = next, t32
		upLen, cl = l2, c
		if err := upload(); err != nil {
			return st, err
		}
		gainAt, lastOffer = gain, gain
		claimedAt, asked = time.Now(), false
		st.uploads++
	}
	st.addFound(lastOffer, gainAt)
	return st, nil
}
