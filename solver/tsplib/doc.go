// Package tsplib reads and writes the TSPLIB95 file formats for the
// symmetric travelling salesman problem: instances (TYPE TSP) with node
// coordinates or an explicit distance matrix, and tours (TYPE TOUR).
//
// The reference is G. Reinelt, "TSPLIB 95", Universität Heidelberg, 1995
// (the format description that accompanies the library), and
// G. Reinelt, "TSPLIB — A Traveling Salesman Problem Library", ORSA
// Journal on Computing 3(4):376–384, 1991.
//
// The reader is written for untrusted input: it streams the file with a
// bounded token and line length, never sizes memory by the declared
// DIMENSION before the data backs it, and reports every problem as an
// *Error naming the file and line. It never panics.
//
// Known optima are never tabulated in code: FindOptimum and Load look for an
// optima.csv beside the instance (or in given directories) and for an
// optimal tour NAME.opt.tour beside it.
package tsplib
