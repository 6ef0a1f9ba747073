// Package tsplib reads and writes the TSPLIB95 file formats for the
// symmetric travelling salesman problem: instances (TYPE TSP) with node
// coordinates or an explicit distance matrix, and tours (TYPE TOUR); and
// point lists (x y, id x y or lat/lon a line, as CSV or text), which Read
// tells from TSPLIB files by their first line.
//
// The reference is G. Reinelt, "TSPLIB 95", Universität Heidelberg, 1995
// (the format description that accompanies the library), and
// G. Reinelt, "TSPLIB — A Traveling Salesman Problem Library", ORSA
// Journal on Computing 3(4):376–384, 1991.
//
// The reader is written for untrusted input: bounded tokens and lines,
// memory backed by data rather than the declared DIMENSION, an *Error
// naming file and line for every problem, never a panic. Known optima come
// from optima.csv files and NAME.opt.tour, never from code.
package tsplib
