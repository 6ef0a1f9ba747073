package bench

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"time"

	"github.com/tsplab/tsplab/solver"
)

// reportCPUCase is one row of the report's CPU auto table: an instance, the run's time and its seeds.
type reportCPUCase struct {
	name  string
	d     time.Duration
	seeds int
}

// reportCPUCases are the report's CPU auto runs at the floors' times, E10M.0 the largest.
var reportCPUCases = []reportCPUCase{
	{"pr2392", 10 * time.Second, 2},
	{"usa13509", 3 * time.Second, 2},
	{"usa13509", 20 * time.Second, 1},
	{"fnl4461", 30 * time.Second, 2},
	{"E100k.0", 30 * time.Second, 1},
	{"E10M.0", 30 * time.Second, 1},
}

// cpuAuto is CPU auto on this machine's cores, each case's seeds in turn: the gap of the final tour.
func (rr *reportRun) cpuAuto() (*Table, error) {
	cases := reportCPUCases
	if rr.opt.Quick {
		cases = []reportCPUCase{{"pr2392", time.Second, 1}}
	}
	e := rr.engine("auto", "cpu")
	if e == nil {
		return nil, fmt.Errorf("no CPU auto")
	}
	t := &Table{Header: []string{"instance", "n", "gap against", "time", "seeds", "CPU `auto`, gap % by seed"}}
	for _, c := range cases {
		in, tc, err := rr.ttqCaseOf(c.name, c.d)
		if err != nil {
			return nil, err
		}
		x := &ttqEngine{part: "cpu", label: "auto cpu", ok: true}
		x.run = func(seed uint64) ([]ttqPoint, solver.Result, error) {
			return rr.ttqRun(rr.ctx, e, in, c.d, rr.opt.Workers, seed, rr.extraFor(e))
		}
		var gaps []float64
		for seed := 1; seed <= c.seeds; seed++ {
			g, err := rr.ttqFinal(x, tc, seed)
			if err != nil {
				return nil, err
			}
			gaps = append(gaps, g)
		}
		t.AddRow(c.name, in.N, tc.refName, fmtD(c.d), seedRange(c.seeds), seedsCell(gaps, "%.4f"))
	}
	return t, nil
}

// reportCPUInstances are the instances of the report's every-engine table.
var reportCPUInstances = []string{"a280", "d493", "pr2392"}

// cpuEngines runs the cpu suite on reportCPUInstances as an engine a row, the best gap a cell.
func (rr *reportRun) cpuEngines() (*Table, error) {
	dir, err := os.MkdirTemp("", "tsp-report-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	opt := rr.opt
	opt.OutDir, opt.JSON, opt.Instances = "", filepath.Join(dir, "cpu.json"), reportCPUInstances
	if opt.Quick {
		opt.Instances = reportCPUInstances[:1]
	}
	if err := Run(rr.ctx, "cpu", opt, io.Discard); err != nil {
		return nil, err
	}
	rep, err := ReadReport(opt.JSON)
	if err != nil {
		return nil, err
	}
	if len(rep.Tables) != 1 {
		return nil, fmt.Errorf("the cpu suite gave %d tables, want 1", len(rep.Tables))
	}
	return pivotCPU(rep.Tables[0], opt.Instances)
}

// pivotCPU turns the cpu suite's table into a row per engine: time and best gap per instance.
func pivotCPU(tj TableJSON, instances []string) (*Table, error) {
	col := func(name string) int { return slices.Index(tj.Header, name) }
	ci, ce, ct, cg := col("instance"), col("engine"), col("time s"), col("gap %")
	if ci < 0 || ce < 0 || ct < 0 || cg < 0 {
		return nil, fmt.Errorf("the cpu suite's table lacks a column of instance, engine, time s, gap %%: %v", tj.Header)
	}
	t := &Table{Header: []string{"engine", "time s on " + instances[0]}}
	for _, name := range instances {
		t.Header = append(t.Header, name+", gap %")
	}
	rows := map[string][]string{}
	var order []string
	for _, r := range tj.Rows {
		e := r[ce]
		if rows[e] == nil {
			order = append(order, e)
			rows[e] = make([]string, 2+len(instances))
			rows[e][0] = e
		}
		if r[ci] == instances[0] {
			rows[e][1] = r[ct]
		}
		if k := slices.Index(instances, r[ci]); k >= 0 {
			rows[e][2+k] = r[cg]
		}
	}
	for _, e := range order {
		t.Rows = append(t.Rows, rows[e])
	}
	return t, nil
}
