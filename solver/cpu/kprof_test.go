package cpu

import (
	"fmt"
	"os"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/tsplab/tsplab/solver/construct"
	"github.com/tsplab/tsplab/solver/neighbor"
	"github.com/tsplab/tsplab/solver/tour"
)

func TestKProf(t *testing.T) {
	mode := os.Getenv("KMODE")
	if mode == "" {
		t.Skip()
	}
	in := uniformInstance(10000, 1)
	nb := neighbor.Nearest(in, 8)
	d := tour.NewDist(in)
	t0 := to32(construct.Greedy(in, nb))
	s := newLS(d, nb.List, nb.K, t0)
	s.orOpt, s.threeOpt, s.depth, s.or3 = true, true, 2, true
	if mode == "lk5" {
		s.k5 = newKopt()
		if b := os.Getenv("KB"); b != "" {
			fmt.Sscanf(b, "%d,%d,%d,%d", &s.k5.breadth[0], &s.k5.breadth[1], &s.k5.breadth[2], &s.k5.breadth[3])
		}
		if v := os.Getenv("KSTEPS"); v != "" {
			s.k5.steps, _ = strconv.Atoi(v)
		}
		if os.Getenv("NOOR") != "" {
			s.orOpt = false
		}
	}
	kicks, _ := strconv.Atoi(os.Getenv("KICKS"))
	cpu := func() float64 {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return float64(ru.Utime.Sec) + float64(ru.Utime.Usec)/1e6
	}
	s.cacheNbDist()
	s.r = newRNG(1, 0)
	s.record = true
	st := time.Now()
	s.pushAll()
	s.optimize(func() bool { return false })
	t.Logf("%s descent: %d in %v", mode, s.length, time.Since(st))
	st = time.Now()
	c0 := cpu()
	for i := 0; i < kicks; i++ {
		s.tryKick(30, true, func() bool { return false })
	}
	t.Logf("%s %s steps %s kicks %d: %d (%.4f %% above 0.7124 sqrt(NA)) in %v, cpu %.2f s", mode, os.Getenv("KB"), os.Getenv("KSTEPS"), kicks, s.length, 100*(float64(s.length)/71240-1), time.Since(st), cpu()-c0)
}
