package main

import (
	"flag"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/instfile"
)

// routeFlags are solve's route flags: the start tour, an open path or a path between two ends.
type routeFlags struct {
	start string // --start: a tour file, "" for none
	open  bool   // --open: a path with both ends free
	ends  string // --ends A,B: a path from A to B, "" for none
}

// register declares the flags on fs.
func (f *routeFlags) register(fs *flag.FlagSet) {
	fs.BoolVar(&f.open, "open", false, "find an open path (a Hamiltonian path, both ends free) instead of a tour: a tour through one more city at distance 0 from all, for engines that take distances from the instance (up to 5,000 cities)")
	fs.StringVar(&f.ends, "ends", "", "find a path from city `A,B` (ids or names, as --start's) instead of a tour: a tour with the edge A-B fixed, then dropped, for engines that keep fixed edges")
	fs.StringVar(&f.start, "start", "", "start from the tour in `TOUR`: any tour file tsp writes (TSPLIB .tour, --out's .csv, .geojson, .gpx, the --json report) or a text or CSV of city ids or names in tour order (1-based as TSPLIB; a point list's own ids; a header names the id column)")
}

// apply reads the start tour into p and returns the route engine e runs on.
func (f *routeFlags) apply(in *solver.Instance, e solver.Engine, p *solver.Params) (*solveRoute, error) {
	if f.start != "" {
		t, err := instfile.ReadStartTour(f.start, in)
		if err != nil {
			return nil, err
		}
		p.Start = t
	}
	return f.newRoute(in, e, p)
}
