// Package problem holds the symmetric travelling salesman problem itself:
// an instance (coordinates or an explicit matrix, its TSPLIB95 distance
// function, its known optimum), tours and their exact lengths, and lengths
// in the instance's units for people. It imports nothing of this module, so
// that the readers, generators and front ends can use it without the run
// framework.
//
// Distances follow G. Reinelt, "TSPLIB 95" (Universität Heidelberg, 1995),
// section 2: every distance is an integer, computed exactly as the
// specification's C fragments do.
package problem
