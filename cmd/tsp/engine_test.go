package main

import (
	"context"
	"math/rand/v2"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// Test-only engines, so the CLI tests do not depend on the real engines'
// behaviour: testclimb is a plain 2-opt descent from a random tour;
// testwait holds a fixed tour until it is cancelled or its time is up.
func init() {
	solver.Register(testClimb{})
	solver.Register(testWait{})
	solver.Register(testHang{})
}

// testHang ignores its context and its time limit for a minute, as a
// stuck engine would.
type testHang struct{}

func (testHang) Name() string     { return "testhang" }
func (testHang) Backend() string  { return solver.BackendCPU }
func (testHang) Describe() string { return "test only: ignores cancellation for a minute" }
func (testHang) Available() error { return nil }

func (e testHang) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	sink := solver.NewSink(snaps, 0, start)
	t := solver.IdentityTour(in.N)
	l := solver.TourLength(in, t)
	sink.Send(solver.Snapshot{Length: l, BestLength: l, Moves: 1})
	time.Sleep(time.Minute)
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Moves: 1, Steps: 1, Start: start, Stopped: true, Device: "cpu: test"})
}

type testClimb struct{}

func (testClimb) Name() string     { return "testclimb" }
func (testClimb) Backend() string  { return solver.BackendCPU }
func (testClimb) Describe() string { return "test only: 2-opt descent from a random tour" }
func (testClimb) Available() error { return nil }

func (e testClimb) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	sink := solver.NewSink(snaps, 0, start)
	rng := rand.New(rand.NewPCG(p.Seed, 1))
	t := rng.Perm(in.N)
	var moves int64
	stopped := false
	for improved := true; improved && !stopped; {
		improved = false
		for i := 0; i < in.N-1 && !stopped; i++ {
			for j := i + 2; j < in.N; j++ {
				a, b, c, d := t[i], t[i+1], t[j], t[(j+1)%in.N]
				if a == d {
					continue
				}
				moves++
				if in.Dist(a, c)+in.Dist(b, d) < in.Dist(a, b)+in.Dist(c, d) {
					for l, r := i+1, j; l < r; l, r = l+1, r-1 {
						t[l], t[r] = t[r], t[l]
					}
					improved = true
				}
			}
			if sink.Due() {
				l := solver.TourLength(in, t)
				sink.Send(solver.Snapshot{Tour: append([]int(nil), t...), Length: l, Best: append([]int(nil), t...), BestLength: l, Moves: moves})
			}
			if ctx.Err() != nil || p.TimeLimit > 0 && time.Since(start) > p.TimeLimit {
				stopped = true
			}
		}
	}
	return solver.Finish(in, e, p, solver.Outcome{Tour: t, Moves: moves, Steps: 1, Start: start, Stopped: stopped, Device: "cpu: test"})
}

type testWait struct{}

func (testWait) Name() string     { return "testwait" }
func (testWait) Backend() string  { return solver.BackendCPU }
func (testWait) Describe() string { return "test only: waits for cancellation" }
func (testWait) Available() error { return nil }

func (e testWait) Solve(ctx context.Context, in *solver.Instance, p solver.Params, snaps chan solver.Snapshot) (solver.Result, error) {
	start := time.Now()
	sink := solver.NewSink(snaps, 10*time.Millisecond, start)
	t := solver.IdentityTour(in.N)
	l := solver.TourLength(in, t)
	var timeout <-chan time.Time
	if p.TimeLimit > 0 {
		timeout = time.After(p.TimeLimit)
	}
	tick := time.NewTicker(10 * time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return solver.Finish(in, e, p, solver.Outcome{Tour: t, Moves: 1, Steps: 1, Start: start, Stopped: true, Device: "cpu: test"})
		case <-timeout:
			return solver.Finish(in, e, p, solver.Outcome{Tour: t, Moves: 1, Steps: 1, Start: start, Stopped: true, Device: "cpu: test"})
		case <-tick.C:
			sink.Send(solver.Snapshot{Length: l, BestLength: l, Moves: 1, Progress: 0.5})
		}
	}
}
