package main

import (
	"flag"
	"fmt"
	"os"
	"strconv"
	"strings"

	"github.com/tsplab/tsplab/bench"
)

// shardEnv are the variables --shard-from-env reads the index from: Kubernetes Indexed Job's, then Slurm's.
var shardEnv = []string{"JOB_COMPLETION_INDEX", "SLURM_ARRAY_TASK_ID"}

// shard is one part of a run split over machines: the items or rows whose index modulo N is I.
type shard = bench.Shard

// shardFlags are the flags that pick a shard.
type shardFlags struct {
	spec    string
	fromEnv bool
}

// register declares --shard and --shard-from-env on fs.
func (f *shardFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.spec, "shard", "", "run only shard `I/N` of the work: the items whose index modulo N is I (I from 0 to N-1), for N machines; 'tsp bench merge' joins bench shards")
	fs.BoolVar(&f.fromEnv, "shard-from-env", false, "take the shard's I from $JOB_COMPLETION_INDEX (Kubernetes Indexed Job) or $SLURM_ARRAY_TASK_ID (Slurm job array); --shard gives N as /N or I/N")
}

// resolve is the shard the flags pick, with getenv for the environment.
func (f *shardFlags) resolve(cmd string, getenv func(string) string) (shard, error) {
	if f.spec == "" && !f.fromEnv {
		return shard{}, nil
	}
	if f.spec == "" {
		return shard{}, usagef(cmd, "--shard-from-env needs the count of shards: --shard /N")
	}
	is, ns, ok := strings.Cut(f.spec, "/")
	n, err := strconv.Atoi(ns)
	if !ok || err != nil || n < 1 {
		return shard{}, usagef(cmd, "--shard %q: want I/N with N a positive integer", f.spec)
	}
	if f.fromEnv {
		is = ""
		for _, name := range shardEnv {
			if v := strings.TrimSpace(getenv(name)); v != "" {
				is = v
				break
			}
		}
		if is == "" {
			return shard{}, fmt.Errorf("--shard-from-env: neither %s is set", strings.Join(shardEnv, " nor "))
		}
	}
	i, err := strconv.Atoi(is)
	if err != nil || i < 0 || i >= n {
		return shard{}, usagef(cmd, "shard index %q: want an integer from 0 to %d", is, n-1)
	}
	return shard{I: i, N: n}, nil
}

// getenv is the environment the shard flags read (tests replace it).
var getenv = os.Getenv
