// Package tsplib reads and writes the TSPLIB95 file formats for the
// symmetric travelling salesman problem: instances (TYPE TSP) with node
// coordinates or an explicit distance matrix, and tours (TYPE TOUR); and
// the tables of known optima. Package instfile reads the other formats a
// user may open and tells them from TSPLIB files.
//
// The reference is G. Reinelt, "TSPLIB 95", Universität Heidelberg, 1995
// (the format description that accompanies the library), and
// G. Reinelt, "TSPLIB — A Traveling Salesman Problem Library", ORSA
// Journal on Computing 3(4):376–384, 1991.
//
// The reader is written for untrusted input: bounded tokens and lines,
// memory backed by data rather than the declared DIMENSION, an *Error
// naming file and line for every problem, never a panic. Files read by
// path may be gzip-compressed, as TSPLIB distributes them (see Open), the
// same limits applying to the decompressed data. Known optima come
// from optima.csv files and NAME.opt.tour, never from code.
package tsplib
