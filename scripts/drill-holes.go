//go:build ignore

// drill-holes.go writes the drill holes of a made-up 160 × 100 mm circuit
// board as an `id,x,y` point list in millimetres, the kind of file a user
// brings to the app; the README's points.png is taken on it:
//
//	go run scripts/drill-holes.go > drill-holes.csv
//
// It holds two via fields on 1 mm grids, three 2 × 25 pin headers, DIP
// parts (two rows of pins 2.54 mm apart), four mounting holes and vias
// scattered between the parts: 3,000 holes, the same on every run.
package main

import (
	"bufio"
	"fmt"
	"math/rand/v2"
	"os"
)

// holes is how many drill holes the board gets.
const holes = 3000

// pitch is the distance between neighbouring pins, 0.1 inch in mm.
const pitch = 2.54

// box is a part's outline on the board, in mm.
type box struct{ x0, y0, x1, y1 float64 }

// board collects the holes and the outlines of the parts placed so far.
type board struct {
	pts  [][2]float64
	used []box
}

func (b *board) add(x, y float64) { b.pts = append(b.pts, [2]float64{x, y}) }

// place reserves o inside the board's margin 2 mm clear of every earlier part.
func (b *board) place(o box) bool {
	if o.x0 < 6 || o.y0 < 6 || o.x1 > 154 || o.y1 > 94 {
		return false
	}
	for _, u := range b.used {
		if o.x0 < u.x1+2 && u.x0 < o.x1+2 && o.y0 < u.y1+2 && u.y0 < o.y1+2 {
			return false
		}
	}
	b.used = append(b.used, o)
	return true
}

// free reports whether (x, y) is 1 mm clear of every part.
func (b *board) free(x, y float64) bool {
	for _, u := range b.used {
		if x > u.x0-1 && x < u.x1+1 && y > u.y0-1 && y < u.y1+1 {
			return false
		}
	}
	return true
}

// fixed adds the via fields, the pin headers and the mounting holes.
func (b *board) fixed() {
	for _, f := range [][3]float64{{60, 38, 20}, {110, 55, 14}} {
		b.place(box{f[0], f[1], f[0] + f[2] - 1, f[1] + f[2] - 1})
		for i := range int(f[2]) {
			for j := range int(f[2]) {
				b.add(f[0]+float64(i), f[1]+float64(j))
			}
		}
	}
	for _, h := range [][3]float64{{10, 88, 0}, {90, 88, 0}, {146, 15, 1}} {
		vertical := h[2] == 1
		o := box{h[0], h[1], h[0] + 24*pitch, h[1] + pitch}
		if vertical {
			o = box{h[0], h[1], h[0] + pitch, h[1] + 24*pitch}
		}
		b.place(o)
		b.rows(h[0], h[1], 25, pitch, vertical)
	}
	for _, m := range [][2]float64{{3.5, 3.5}, {156.5, 3.5}, {3.5, 96.5}, {156.5, 96.5}} {
		b.add(m[0], m[1])
	}
}

// rows adds two rows of n pins at pitch, w apart, from (x0, y0), along x or y.
func (b *board) rows(x0, y0 float64, n int, w float64, vertical bool) {
	for k := range n {
		d := float64(k) * pitch
		if vertical {
			b.add(x0, y0+d)
			b.add(x0+w, y0+d)
		} else {
			b.add(x0+d, y0)
			b.add(x0+d, y0+w)
		}
	}
}

// parts places DIP parts of 4 to 20 pins a row at random free spots, a third turned.
func (b *board) parts(r *rand.Rand) {
	for tries := 0; tries < 4000 && len(b.pts) < 2200; tries++ {
		n := 4 + r.IntN(17)
		w := 3 * pitch
		if r.IntN(3) == 0 {
			w = 6 * pitch
		}
		l := float64(n-1) * pitch
		x0, y0 := 6+r.Float64()*148, 6+r.Float64()*88
		vertical := r.IntN(3) == 0
		o := box{x0, y0, x0 + l, y0 + w}
		if vertical {
			o = box{x0, y0, x0 + w, y0 + l}
		}
		if b.place(o) {
			b.rows(x0, y0, n, w, vertical)
		}
	}
}

func main() {
	r := rand.New(rand.NewPCG(7, 40))
	var b board
	b.fixed()
	b.parts(r)
	for len(b.pts) < holes {
		if x, y := 2+r.Float64()*156, 2+r.Float64()*96; b.free(x, y) {
			b.add(x, y)
		}
	}
	w := bufio.NewWriter(os.Stdout)
	fmt.Fprintln(w, "id,x,y")
	for i, p := range b.pts {
		fmt.Fprintf(w, "%d,%.3f,%.3f\n", i+1, p[0], p[1])
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "drill-holes:", err)
		os.Exit(1)
	}
}
