package app

import (
	"runtime"

	"fyne.io/fyne/v2/dialog"

	"github.com/tsplab/tsplab/solver/buildinfo"
)

// AboutText is the About dialog's text: program, version and commit, Go release and platform, licence.
func AboutText() string {
	return "TSP Lab " + buildinfo.String() + "\n" +
		runtime.Version() + " " + runtime.GOOS + "/" + runtime.GOARCH + "\n" +
		"Licensed under the Apache License 2.0\nhttps://github.com/tsplab/tsplab"
}

// aboutDialog shows AboutText over the window.
func (a *App) aboutDialog() {
	dialog.ShowInformation("About TSP Lab", AboutText(), a.Win)
}
