// Package canvas holds the app's Fyne widgets for a run: TourView, which
// shows a tour live with zoom and pan, and Curve, the convergence plot.
// What they draw, and how, lives in package canvas/export, which the
// command line uses without linking Fyne.
package canvas
