package app

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/storage/repository"

	"github.com/tsplab/tsplab/internal/atomicfile"
	"github.com/tsplab/tsplab/solver/instfile"
)

// inputs are the files the app has read for what is on screen: the
// instance (or the picture it was stippled from), the table or tour its
// optimum came from, the optimal tour beside it, and the panes' start
// tours. No export is written onto one.
func (a *App) inputs() []string {
	var files []string
	if a.current != "" {
		files = instfile.InputsOf(a.current, a.Single.Instance())
	}
	if a.picture != nil {
		files = append(files, a.picture.Path)
	}
	for _, p := range []*Pane{a.Single, a.Left, a.Right} {
		if _, f := p.StartTour(); f != "" {
			files = append(files, f)
		}
	}
	return files
}

// checkOutput refuses path as an export's file when it names one of the
// app's inputs.
func (a *App) checkOutput(path string) error {
	if in := atomicfile.InputAt(path, a.inputs()); in != "" {
		return fmt.Errorf("export: %s is a file TSP Lab has read (%s): choose another name", filepath.Base(path), filepath.Base(in))
	}
	return nil
}

// exportName is the file name the save dialog proposes for an export of
// kind of the instance name: the instance's name with what the export is
// ("-convergence.csv", "-report.json"), never the name of one of inputs
// (in whatever folder the dialog opens).
func exportName(kind, name string, inputs []string) string {
	suffix := map[string]string{ExportCSV: "-convergence", ExportJSON: "-report", ExportSVGPath: "-path"}[kind]
	taken := func(f string) bool {
		return slices.ContainsFunc(inputs, func(in string) bool { return strings.EqualFold(filepath.Base(in), f) })
	}
	f := name + suffix + "." + fileExt(kind)
	for i := 2; taken(f); i++ {
		f = fmt.Sprintf("%s%s-%d.%s", name, suffix, i, fileExt(kind))
	}
	return f
}

// fileRepository is what Fyne's own repository of file: URIs does.
type fileRepository interface {
	repository.Repository
	repository.WritableRepository
	repository.AppendableRepository
	repository.HierarchicalRepository
	repository.ListableRepository
	repository.CopyableRepository
	repository.MovableRepository
	repository.DeleteAllRepository
}

// guardedFiles is Fyne's file repository refusing to open for writing a
// file that check refuses: the save dialog empties the file it hands back
// before the app learns its name, so an input is guarded there.
type guardedFiles struct {
	fileRepository
	check func(path string) error
}

func (g guardedFiles) Writer(u fyne.URI) (fyne.URIWriteCloser, error) {
	if err := g.check(u.Path()); err != nil {
		return nil, err
	}
	return g.fileRepository.Writer(u)
}

func (g guardedFiles) Appender(u fyne.URI) (fyne.URIWriteCloser, error) {
	if err := g.check(u.Path()); err != nil {
		return nil, err
	}
	return g.fileRepository.Appender(u)
}

// guardInputs has every writer of a file: URI (the save dialog's) refuse
// the app's inputs.
func (a *App) guardInputs() error {
	r, err := repository.ForScheme("file")
	if err != nil {
		return err
	}
	if g, ok := r.(guardedFiles); ok {
		r = g.fileRepository
	}
	f, ok := r.(fileRepository)
	if !ok {
		return errors.New("the file repository cannot be guarded: it is not Fyne's")
	}
	repository.Register("file", guardedFiles{f, a.checkOutput})
	return nil
}
