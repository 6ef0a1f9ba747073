// Package pspm is the GPU's parallel simulated annealing: pspm, sspm and
// pssm, after Y. M. Lam et al., "Parallel neighbourhood search on many-core
// platforms" (LWSA, SSPM, PSSM and PSPM on an NVIDIA Tesla C2050; Table 1
// gives the default schedule). pspm.cu holds the kernels: blocks × threads
// relocation moves, every k steps each search restarting from the best of
// its island of searches (the island option; 0: the global best); sspm is one
// search, pssm one thread per search; pspm's seg option adds Or-opt moves
// (the layouts' _seg kernels). The searches may be split over several GPU
// contexts (the gpus option), the host exchanging the best at every
// synchronisation. lab/cpu/anneal holds the CPU reference.
package pspm
