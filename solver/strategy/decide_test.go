package strategy

import (
	"strings"
	"testing"
	"time"
)

// TestDecide covers each branch of Decide: the kind of search by size,
// time and options, the lists of short runs, the crowded set-up, the chain, the restarts, the
// start tour and the GPU's roles.
func TestDecide(t *testing.T) {
	sec := time.Second
	auto := func(n, w int, limit time.Duration) Facts {
		return Facts{Engine: Auto, N: n, Cuttable: n >= 256, Workers: w, TimeLimit: limit}
	}
	with := func(f Facts, edit func(*Facts)) Facts { edit(&f); return f }
	deepMixed := deep
	deepMixed.Lists = Mixed
	merged := func(f Facts) Facts { f.Options.Merge = BySize(f.N).Merge; return f }
	gpu := func(f Facts) Facts {
		f.Engine, f.Devices = GPUAuto, Devices{GPU: true, OrSpan: true}
		return merged(f)
	}
	cases := []struct {
		name string
		f    Facts
		want Strategy
	}{
		{"small: independent", auto(500, 2, 10*sec), Strategy{Search: Independent, LocalSearch: small}},
		{"pop below PopMaxN", auto(5000, 2, 10*sec), Strategy{Search: Population, LocalSearch: popSearch(5000)}},
		{"pop below PopMaxN on many workers, short", auto(5000, 16, sec), Strategy{Search: Population, LocalSearch: popSearch(5000)}},
		{"merged below PopMaxN on few workers, short", merged(auto(5000, 2, 3*sec)), Strategy{Search: Merged, LocalSearch: deep}},
		{"mixed lists when too short for the ascent", merged(auto(13509, 2, 3*sec)), Strategy{Search: Merged, LocalSearch: deepMixed, ShortLists: true,
			LKStart: 900 * time.Millisecond}},
		{"alpha lists at AlphaMinPerCity", merged(auto(8000, 2, 3*sec)), Strategy{Search: Merged, LocalSearch: deep}},
		{"pop below PopLongMaxN with time", auto(30000, 16, 20*sec), Strategy{Search: Population, LocalSearch: popSearch(30000)}},
		{"merged below PopLongMaxN without time", merged(auto(30000, 16, 10*sec)), Strategy{Search: Merged, LocalSearch: deep, LKStart: 3 * sec}},
		{"few workers need more time", merged(auto(30000, 2, 20*sec)), Strategy{Search: Merged, LocalSearch: deep, LKStart: 6 * sec}},
		{"chained LK first from LKStartMinN", merged(auto(LKStartMinN, 2, 5*sec)), Strategy{Search: Merged, LocalSearch: deep, LKStart: 1500 * time.Millisecond}},
		{"chained LK first on four workers", merged(auto(30000, 4, 10*sec)), Strategy{Search: Merged, LocalSearch: deep, LKStart: 3 * sec}},
		{"no chained LK first below LKStartMinN", merged(auto(LKStartMinN-1, 2, 5*sec)), Strategy{Search: Merged, LocalSearch: deep}},
		{"no chained LK first with solo=off", merged(with(auto(30000, 2, 20*sec), func(f *Facts) { f.Options.NoLK = true })),
			Strategy{Search: Merged, LocalSearch: deep}},
		{"no chained LK first with fixed edges", merged(with(auto(30000, 2, 20*sec), func(f *Facts) { f.FixedEdges = true })),
			Strategy{Search: Merged, LocalSearch: deep}},
		{"no pop by a kicks budget", merged(with(auto(5000, 2, 0), func(f *Facts) { f.Kicks = 50 })), Strategy{Search: Merged, LocalSearch: deep}},
		{"no pop with an option given", merged(with(auto(5000, 2, 10*sec), func(f *Facts) { f.Options.Any = true })), Strategy{Search: Merged, LocalSearch: deep}},
		{"restart on many workers", merged(with(auto(5000, 16, 10*sec), func(f *Facts) { f.Options.Any = true })),
			Strategy{Search: Merged, LocalSearch: deep, Restart: RestartStall}},
		{"partition", auto(100000, 2, 10*sec), Strategy{Search: Partition, LocalSearch: large}},
		{"partition off", merged(with(auto(100000, 2, 10*sec), func(f *Facts) { f.Options.Partition = Off })), Strategy{Search: Merged, LocalSearch: large}},
		{"partition on a matrix", merged(with(auto(100000, 2, 10*sec), func(f *Facts) { f.Kind = Matrix })), Strategy{Search: Merged, LocalSearch: large}},
		{"partition forced on", with(auto(20000, 2, 0), func(f *Facts) { f.Options.Partition, f.Engine = On, ILS }), Strategy{Search: Partition, LocalSearch: deep}},
		{"chain with many cities a worker", auto(400000, 2, 60*sec), Strategy{Search: Partition, LocalSearch: large, Chain: true}},
		{"no chain with the move given", with(auto(400000, 2, 60*sec), func(f *Facts) { f.Options.Move = true }), Strategy{Search: Partition, LocalSearch: large}},
		{"crowded", auto(5000000, 2, 60*sec), Strategy{Search: Partition, LocalSearch: large, Chain: true, Crowded: true, CrowdSetUp: true, Start: StartCurve}},
		{"crowded short", auto(1000000, 2, 10*sec), Strategy{Search: Partition, LocalSearch: large, Chain: true, Crowded: true, CrowdSetUp: true, Start: StartCurve}},
		{"not crowded with time", auto(1000000, 2, 30*sec), Strategy{Search: Partition, LocalSearch: large, Chain: true, PartSlice: 600 * time.Millisecond}},
		{"longer rounds from PartSliceMinN", auto(750000, 16, 60*sec), Strategy{Search: Partition, LocalSearch: large, PartSlice: 450 * time.Millisecond}},
		{"rounds at most twice the option's", auto(PartSliceMaxN, 16, 60*sec), Strategy{Search: Partition, LocalSearch: large, PartSlice: 600 * time.Millisecond}},
		{"the option's rounds above PartSliceMaxN", auto(PartSliceMaxN+1, 16, 60*sec), Strategy{Search: Partition, LocalSearch: large}},
		{"the option's rounds up to PartSliceMinN", auto(PartSliceMinN, 16, 60*sec), Strategy{Search: Partition, LocalSearch: large}},
		{"crowded by limits", with(auto(100000, 2, 10*sec), func(f *Facts) { f.Limits.CrowdedMinPerWorker = 1000 }),
			Strategy{Search: Partition, LocalSearch: large, Crowded: true, CrowdSetUp: true, Start: StartCurve}},
		{"given start", with(auto(500, 2, 10*sec), func(f *Facts) { f.StartGiven = true }), Strategy{Search: Independent, LocalSearch: small, Start: StartGiven}},
		{"pop engine", Facts{Engine: Pop, N: 500, TimeLimit: 10 * sec}, Strategy{Search: Population, LocalSearch: popSearch(500)}},
		{"pop engine large", Facts{Engine: Pop, N: 100000, Cuttable: true, Kind: Coords}, Strategy{Search: Population, LocalSearch: popSearch(100000)}},
		{"GPU pop", Facts{Engine: Pop, N: 5000, TimeLimit: 10 * sec, Devices: Devices{GPU: true}},
			Strategy{Search: Population, LocalSearch: popSearch(5000), GPU: GPU{Ascent: true, Pool: true}}},
		{"GPU pop by kicks", Facts{Engine: Pop, N: 5000, Kicks: 10, Devices: Devices{GPU: true}},
			Strategy{Search: Population, LocalSearch: popSearch(5000), GPU: GPU{Ascent: true}}},
		{"GPU auto small", gpu(auto(500, 2, 10*sec)), Strategy{Search: Independent, LocalSearch: small, GPU: GPU{Ascent: true}}},
		{"GPU auto pop: the pool", gpu(auto(5000, 2, 10*sec)), Strategy{Search: Population, LocalSearch: popSearch(5000), GPU: GPU{Ascent: true, Pool: true}}},
		{"GPU auto partition off: no windows", with(gpu(auto(50000, 2, 10*sec)), func(f *Facts) { f.Options.Partition = Off }),
			Strategy{Search: Merged, LocalSearch: large, GPU: GPU{Ascent: true}}},
		{"GPU auto windows", gpu(auto(100000, 2, 10*sec)), Strategy{Search: Partition, LocalSearch: large, GPU: GPU{Ascent: true, Windows: true}}},
		{"GPU auto windows off", with(gpu(auto(100000, 2, 10*sec)), func(f *Facts) { f.Options.NoWindows = true }),
			Strategy{Search: Partition, LocalSearch: large, GPU: GPU{Ascent: true}}},
		{"GPU auto early and descent", gpu(auto(200000, 16, 4*sec)), Strategy{Search: Partition, LocalSearch: large, Start: StartGPUDescent,
			GPU: GPU{Ascent: true, Early: true, Windows: true, StartDescent: time.Second}}},
		{"GPU auto, long: no descent", gpu(auto(200000, 16, 60*sec)), Strategy{Search: Partition, Windows: true, LocalSearch: large, Start: StartGPUDescent,
			GPU: GPU{Ascent: true, Early: true, Windows: true}}},
		{"GPU auto fixed edges", with(gpu(auto(200000, 16, 60*sec)), func(f *Facts) { f.FixedEdges = true }),
			Strategy{Search: Partition, Windows: true, LocalSearch: large, GPU: GPU{Ascent: true}}},
	}
	for _, c := range cases {
		got := Decide(c.f)
		c.want.Ascent = AscentShare.Of(c.f.TimeLimit)
		if got != c.want {
			t.Errorf("%s:\n got %+v\nwant %+v", c.name, got, c.want)
		}
	}
}

// TestBySize checks the rows cover every size once, in order, and that
// BySize reads them.
func TestBySize(t *testing.T) {
	rows := Sizes()
	for i, r := range rows {
		if i > 0 && r.From != rows[i-1].To {
			t.Errorf("row %d starts at %d, the last ended at %d", i, r.From, rows[i-1].To)
		}
		if BySize(r.From) != r.LocalSearch {
			t.Errorf("BySize(%d) is not row %d", r.From, i)
		}
	}
	if rows[0].From != 0 || rows[len(rows)-1].To != 0 {
		t.Errorf("rows do not cover every size: %+v", rows)
	}
}

// TestString prints the parts a reader looks for.
func TestString(t *testing.T) {
	s := Decide(Facts{Engine: GPUAuto, N: 200000, Cuttable: true, Workers: 16, TimeLimit: 4 * time.Second,
		Devices: Devices{GPU: true, OrSpan: true}}).String()
	for _, want := range []string{"partition search", "GPU 2opt-or descent", "8 mixed candidates, move adapt", "early or-ils", "windows", "start descent (1s)"} {
		if !strings.Contains(s, want) {
			t.Errorf("%q lacks %q", s, want)
		}
	}
}

// TestStartDescent: the 2opt-or descent of GPU auto's start gets a
// quarter of the limit up to GPUStartDescentMax a city, and none with
// more time or no limit.
func TestStartDescent(t *testing.T) {
	for _, c := range []struct {
		n           int
		limit, want time.Duration
	}{
		{1000000, 10 * time.Second, 2500 * time.Millisecond},
		{1000000, 25 * time.Second, 6250 * time.Millisecond},
		{1000000, 30 * time.Second, 0},
		{10000000, 60 * time.Second, 15 * time.Second},
		{200000, 10 * time.Second, 0},
		{200000, 4 * time.Second, time.Second},
		{1000000, 0, 0},
	} {
		if got := startDescent(c.n, c.limit); got != c.want {
			t.Errorf("n %d, limit %v: descent %v, want %v", c.n, c.limit, got, c.want)
		}
	}
}

// TestPopSearch: pop's local search takes auto's moves, lists and kicks
// for the size, each search alone.
func TestPopSearch(t *testing.T) {
	for _, n := range []int{500, DeepMinN, PartitionMinN} {
		l, a := popSearch(n), BySize(min(n, PartitionMinN-1))
		if l.Lists != a.Lists || l.Neighbors != a.Neighbors || l.Move != a.Move || l.Depth != a.Depth || l.Or3 != a.Or3 ||
			l.Bridge != a.Bridge || l.Segment != a.Segment || l.Stale != 0 || l.Merge || l.Sync != 0 {
			t.Errorf("%d cities: pop %+v, auto %+v", n, l, a)
		}
	}
}

// TestWindows: auto's partition search hands over to the windows from
// WindowsMinN cities on a time limit: when the option turns them on, or
// left to the strategy up to WindowsMaxN cities with WindowsCoreTime a
// city and WindowsMinLimit (GPUWindowsMinLimit under GPU auto with its
// GPU); never when it turns them off.
func TestWindows(t *testing.T) {
	on := func(f Facts) Facts { f.Options.Windows = On; return f }
	off := func(f Facts) Facts { f.Options.Windows = Off; return f }
	with := func(f Facts, edit func(*Facts)) Facts { edit(&f); return f }
	part := func(n int, limit time.Duration) Facts {
		return Facts{Engine: Auto, N: n, Cuttable: true, Workers: 16, TimeLimit: limit}
	}
	gpuPart := func(n int, limit time.Duration) Facts {
		return Facts{Engine: GPUAuto, N: n, Cuttable: true, Workers: 16, TimeLimit: limit, Devices: Devices{GPU: true}}
	}
	for _, tc := range []struct {
		name string
		f    Facts
		want bool
	}{
		{"on", on(part(WindowsMinN, time.Minute)), true},
		{"GPU auto, on", on(Facts{Engine: GPUAuto, N: 100000, Cuttable: true, Workers: 16, TimeLimit: time.Minute}), true},
		{"by strategy, 16 cores, 60 s", part(100000, time.Minute), true},
		{"by strategy, 16 cores, 30 s", part(100000, 30*time.Second), true},
		{"by strategy, 16 cores, 10 s", part(100000, 10*time.Second), false},
		{"by strategy, 16 cores, 20 s", part(100000, 20*time.Second), false},
		{"GPU auto, 16 cores, what --time 10 leaves", gpuPart(100000, 9500*time.Millisecond), true},
		{"GPU auto, 16 cores, 8 s", gpuPart(100000, 8*time.Second), false},
		{"GPU auto, 4 cores, 10 s", with(gpuPart(100000, 10*time.Second), func(f *Facts) { f.Workers = 4 }), false},
		{"GPU auto without its GPU, 16 cores, 10 s", with(gpuPart(100000, 10*time.Second), func(f *Facts) { f.Devices.GPU = false }), false},
		{"by strategy, 4 cores, 30 s", with(part(100000, 30*time.Second), func(f *Facts) { f.Workers = 4 }), true},
		{"by strategy, 4 cores, what --time 30 leaves", with(part(100000, 29*time.Second), func(f *Facts) { f.Workers = 4 }), true},
		{"by strategy, 16 cores, what --time 30 leaves", part(100000, 29*time.Second), true},
		{"by strategy, 4 cores, what --time 30 leaves after a slow start", with(part(100000, 28*time.Second), func(f *Facts) { f.Workers = 4 }), true},
		{"by strategy, 2 cores, 60 s less a slow start", with(part(100000, 50*time.Second), func(f *Facts) { f.Workers = 2 }), true},
		{"by strategy, 2 cores, 45 s", with(part(100000, 45*time.Second), func(f *Facts) { f.Workers = 2 }), false},
		{"by strategy, 2 cores, 60 s", with(part(100000, time.Minute), func(f *Facts) { f.Workers = 2 }), true},
		{"by strategy, 2 cores, 30 s", with(part(100000, 30*time.Second), func(f *Facts) { f.Workers = 2 }), false},
		{"by strategy, above WindowsMaxN", part(WindowsMaxN+1, 10*time.Minute), false},
		{"on, above WindowsMaxN", on(part(WindowsMaxN+1, time.Minute)), true},
		{"off", off(part(100000, time.Minute)), false},
		{"below WindowsMinN", on(part(WindowsMinN-1, time.Minute)), false},
		{"no time limit", on(part(100000, 0)), false},
		{"a kicks budget", on(Facts{Engine: Auto, N: 100000, Cuttable: true, Workers: 16, TimeLimit: time.Minute, Kicks: 10}), false},
		{"no partition search", on(Facts{Engine: Auto, N: 100000, Kind: Matrix, Cuttable: true, Workers: 16, TimeLimit: time.Minute}), false},
		{"pop", on(Facts{Engine: Pop, N: 100000, Cuttable: true, Workers: 16, TimeLimit: time.Minute}), false},
	} {
		s := Decide(tc.f)
		if s.Windows != tc.want {
			t.Errorf("%s: windows %v, want %v (%s)", tc.name, s.Windows, tc.want, s.Search)
		}
		if s.Windows != strings.Contains(s.String(), "windows of the tour") {
			t.Errorf("%s: the printed strategy %q does not say the windows", tc.name, s.String())
		}
	}
}
