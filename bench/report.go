package bench

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strings"
	"time"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver/gen"
)

// ReportParts are the report's parts, each run in one call: "gpu-a", "gpu-b" and "gpus" on GPU hosts, "cpu" anywhere.
var ReportParts = []string{"gpu-a", "gpu-b", "gpus", "cpu"}

// ReportOptions control a run of the report's plan.
type ReportOptions struct {
	Options          // the suites' options: TSPLIB and papers folders, workers, LKH-3, GPU, log
	Parts   []string // the plan's parts to run (ReportParts)
	Results string   // the folder the tables' CSV files go to
	Build   string   // the build the tables name ("": the binary's commit)
	Machine string   // the machine the tables name ("": the GPU and the host's processor, as measured)
}

// reportStep is one table of the plan: its part, file, full-setting time and measuring function.
type reportStep struct {
	part, id string
	est      time.Duration
	run      func(*reportRun) (*Table, error)
}

// reportPlan is every table of the report in each part's order, with estimates of the full setting on the H200 host.
var reportPlan = []reportStep{
	{"gpu-a", "ttq-tsplib", 390 * time.Second, (*reportRun).ttqTSPLIB},
	{"gpu-b", "ttq-large", 270 * time.Second, (*reportRun).ttqLarge},
	{"gpu-b", "kernel-2opt", 20 * time.Second, (*reportRun).kernel2opt},
	{"gpu-b", "kernel-pspm", 40 * time.Second, (*reportRun).kernelPSPM},
	{"gpu-b", "kernel-batch", 75 * time.Second, (*reportRun).kernelBatch},
	{"gpu-b", "paper-rocki", 15 * time.Second, (*reportRun).paperRocki},
	{"gpus", "gpus", gpusPartBudget, (*reportRun).gpusTable},
	{"cpu", "cpu-auto", 270 * time.Second, (*reportRun).cpuAuto},
	{"cpu", "cpu-engines", 90 * time.Second, (*reportRun).cpuEngines},
}

// ReportPlan describes the plan: each table with its part and estimated time, and each part's total.
func ReportPlan() []string {
	var out []string
	total := map[string]time.Duration{}
	for _, s := range reportPlan {
		out = append(out, fmt.Sprintf("%-6s %-13s about %v", s.part, s.id, s.est))
		total[s.part] += s.est
	}
	for _, p := range ReportParts {
		out = append(out, fmt.Sprintf("%-6s total         about %v", p, total[p]))
		if p == "gpus" {
			out = append(out, "gpus   (its 60-s runs of GPU auto are made only where they fit in "+gpusPartBudget.String()+")")
		}
	}
	return out
}

// reportRun is one run of the plan: the suites' shared state, the build and the start date the tables name.
type reportRun struct {
	*repro
	ropt  ReportOptions
	build string
	date  string
	gpu   string // the GPU's name, read once before the GPU parts
	// hostGPUs is the GPUs the several-GPU table found (0: not run), autoSlack GPU auto's most set-up per instance
	hostGPUs  int
	autoSlack map[string]time.Duration
	loadAvg   string // the load average over the last minute when the run started, for the CPU tables
}

// RunReport runs the parts in opt.Parts and writes each table's CSV under opt.Results;
// a failed table's error comes after the rest ran.
func RunReport(ctx context.Context, opt ReportOptions) error {
	rr, err := newReportRun(ctx, opt)
	if err != nil {
		return err
	}
	if err := os.MkdirAll(opt.Results, 0o755); err != nil {
		return err
	}
	var errs []string
	for _, s := range reportPlan {
		if !slices.Contains(opt.Parts, s.part) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		rr.logf("%s: %s (about %v)", s.part, s.id, s.est)
		t0 := time.Now()
		t, err := s.run(rr)
		if err == nil && ctx.Err() != nil {
			return ctx.Err() // a table cut short is not written
		}
		if err == nil {
			err = rr.save(s, t)
		}
		if err != nil {
			errs = append(errs, s.id+": "+err.Error())
			rr.logf("%s: %v", s.id, err)
			continue
		}
		rr.logf("%s: done in %v", s.id, time.Since(t0).Round(time.Second))
	}
	if len(errs) > 0 {
		return fmt.Errorf("report: %s", strings.Join(errs, "; "))
	}
	return nil
}

// newReportRun checks opt's parts and build and reads what the tables name: the date, the load, the GPU.
func newReportRun(ctx context.Context, opt ReportOptions) (*reportRun, error) {
	for _, p := range opt.Parts {
		if !slices.Contains(ReportParts, p) {
			return nil, fmt.Errorf("report: unknown part %q (have: %s)", p, strings.Join(ReportParts, ", "))
		}
	}
	r, err := newRepro(ctx, "report", opt.Options)
	if err != nil {
		return nil, err
	}
	rr := &reportRun{repro: r, ropt: opt, build: cmp.Or(opt.Build, BinaryBuild()), date: time.Now().UTC().Format("2006-01-02"), loadAvg: loadNote(), autoSlack: map[string]time.Duration{}}
	if rr.build == "unknown" {
		return nil, errors.New("report: this binary names no commit (built with -buildvcs=false): pass the build the tables name")
	}
	if opt.Quick {
		rr.build += " (--quick: reduced settings)"
	}
	if opt.GPU != nil && slices.ContainsFunc(opt.Parts, func(p string) bool { return strings.HasPrefix(p, "gpu") }) {
		// the GPU auto runs name only the host's cores: the GPU names itself through a short kernel run
		if kr, err := opt.GPU.EvalRate(1000, 3, 1); err == nil {
			rr.gpu = gpuName(kr.Device)
		}
	}
	return rr, nil
}

// save writes step s's table as Results/report-ID.csv, build, machine and date first.
func (rr *reportRun) save(s reportStep, t *Table) error {
	id, cpuOnly := s.id, s.part == "cpu"
	machine := rr.ropt.Machine
	if machine == "" {
		machine = HostCPU()
		g := rr.gpuName()
		if s.part == "gpus" && g != "" {
			g = fmt.Sprintf("%d × %s", rr.hostGPUs, g)
		}
		if !cpuOnly && g != "" {
			machine = g + "; " + machine
		}
	}
	if cpuOnly {
		machine += rr.loadAvg
	}
	out := &Table{Header: append([]string{"build", "machine", "date"}, t.Header...)}
	for _, row := range t.Rows {
		out.Rows = append(out.Rows, append([]string{rr.build, machine, rr.date}, row...))
	}
	return atomicfile.Write(filepath.Join(rr.ropt.Results, "report-"+id+".csv"), out.CSV)
}

// BinaryBuild is the binary's commit: 7 hex digits, "+dirty" with changes, "unknown" unstamped.
func BinaryBuild() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "unknown"
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "unknown"
	}
	if len(rev) > 7 {
		rev = rev[:7]
	}
	if dirty {
		rev += "+dirty"
	}
	return rev
}

// loadNote is ", load average L at the start" from /proc/loadavg, "" where the system does not say.
func loadNote() string {
	b, err := os.ReadFile("/proc/loadavg")
	if err != nil {
		return ""
	}
	f := strings.Fields(string(b))
	if len(f) == 0 {
		return ""
	}
	return ", load average " + f[0] + " at the start"
}

// ReportFiles are the TSPLIB files (NAME.tsp) the given parts read, each once; an absent one is skipped where the plan allows.
func ReportFiles(parts []string) []string {
	lists := map[string][][]string{
		"gpu-a": {reportTSPLIB},
		"gpu-b": {reportLarge, {"d18512", "d493"}, LamInstances, {"pla85900", "pr2392"}},
		"gpus":  {{"d18512"}, gpusLam, gpusSettingOf(true).lam},
		"cpu":   {reportCPUInstances},
	}
	for _, c := range reportCPUCases {
		lists["cpu"] = append(lists["cpu"], []string{c.name})
	}
	var out []string
	for _, p := range parts {
		for _, l := range lists[p] {
			for _, n := range l {
				if _, dimacs := gen.ParseDIMACS(n); !dimacs && !slices.Contains(out, n+".tsp") {
					out = append(out, n+".tsp")
				}
			}
		}
	}
	return out
}

// gpuName is the NVIDIA GPU named in an engine's device line ("NVIDIA H200 (sm_90, 132 SMs)"), or "".
func gpuName(device string) string {
	i := strings.Index(device, "NVIDIA")
	if i < 0 {
		return ""
	}
	s := device[i:]
	if j := strings.Index(s, ")"); j >= 0 {
		return s[:j+1]
	}
	if j := strings.IndexAny(s, ";,"); j >= 0 {
		return s[:j]
	}
	return s
}

// gpuName is the GPU the tables name: the one read before the GPU parts, else the one of the last GPU run.
func (rr *reportRun) gpuName() string { return cmp.Or(rr.gpu, gpuName(rr.device)) }
