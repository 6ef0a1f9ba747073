//go:build !headless

package main

import (
	"fyne.io/fyne/v2"
	fyneapp "fyne.io/fyne/v2/app"

	"github.com/tsplab/tsplab/app"
)

// windowless reports that this build cannot open a window.
const windowless = false

// newWindowedApp returns the Fyne app with its OpenGL window driver.
func newWindowedApp() fyne.App { return fyneapp.NewWithID(app.ID) }
