// Package canvas holds the app's Fyne widgets for a run, TourView and
// Curve; what they draw lives in canvas/export.
package canvas
