package main

import (
	"flag"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/tsplib"
)

// routeFlags are tsp solve's flags about the route itself: the tour to
// start from.
type routeFlags struct {
	start string // --start: a tour file, "" for none
}

// register declares the flags on fs.
func (f *routeFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.start, "start", "", "start from the tour in `TOUR`: a TSPLIB .tour file, or a text or CSV of city ids in tour order (1-based as TSPLIB; a point list's own ids; a header names the id column)")
}

// apply reads the start tour, when one was asked for, into p.
func (f *routeFlags) apply(in *solver.Instance, p *solver.Params) error {
	if f.start == "" {
		return nil
	}
	t, err := tsplib.ReadStartTour(f.start, in)
	if err != nil {
		return err
	}
	p.Start = t
	return nil
}
