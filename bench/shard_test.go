package bench

import (
	"slices"
	"strings"
	"testing"
)

func TestMergeOrdersRowsAsTheWholeRun(t *testing.T) {
	var reps []Report
	for i := range 2 {
		tb := &Table{Title: "T", Header: []string{"k"}, file: "t", Notes: []string{"note"}}
		for k := range 5 {
			if (Shard{I: i, N: 2}).Has(k) {
				tb.addRowAt(k, k)
			}
		}
		reps = append(reps, Report{Suite: "cpu", Shard: &Shard{I: i, N: 2}, Tables: []TableJSON{tb.asJSON()}})
	}
	slices.Reverse(reps)
	m, err := Merge(reps, []string{"b", "a"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, r := range m.Tables[0].Rows {
		got = append(got, r[0])
	}
	if strings.Join(got, ",") != "0,1,2,3,4" || m.Shard != nil || m.Tables[0].Notes[0] != "note" {
		t.Fatalf("merged rows %v, shard %v", got, m.Shard)
	}
	reps[1].Tables[0].Header = []string{"other"}
	if _, err := Merge(reps, []string{"b", "a"}); err == nil || !strings.Contains(err.Error(), "differ") {
		t.Fatalf("tables that differ: %v", err)
	}
}
