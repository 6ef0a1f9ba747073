// Package ascent is the GPU device of solver/bound's Held–Karp subgradient
// ascent (Held & Karp, "The traveling-salesman problem and minimum spanning
// trees", Operations Research 18, 1970, and "Part II", Mathematical
// Programming 1, 1971; the ascent as LKH runs it, see solver/bound):
// BoundDevice computes Borůvka 1-trees in integer arithmetic (bound.cu),
// step for step the CPU's, for the lower bound and the alpha-nearness
// candidate lists.
package ascent
