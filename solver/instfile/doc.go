// Package instfile reads the instance and tour files a user opens, in
// every format TSP Lab takes, and tells the formats apart by their first
// lines: TSPLIB95 files (read by package tsplib), point lists (x y, id x y
// or lat/lon a line, as CSV or text), cost matrices as CSV, and tours as
// lists of city ids or as point lists in tour order, which it also writes.
//
// Like tsplib, it is written for untrusted input: bounded lines, memory
// backed by data, a one-line *tsplib.Error naming file and line for every
// problem, never a panic.
package instfile
