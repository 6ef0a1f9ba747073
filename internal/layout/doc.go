// Package layout has no code: its test holds the layout table of
// docs/LAYOUT.md (the "Layout" section) true of the tree: every path the
// table names exists, every package of the module has a row, and each
// package imports only what its row's "may import" column allows.
package layout
