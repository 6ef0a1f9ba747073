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

// inputs are the files read for what is on screen, none of which an export may overwrite.
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

// checkOutput refuses path for an export when it names one of the app's inputs.
func (a *App) checkOutput(path string) error {
	if in := atomicfile.InputAt(path, a.inputs()); in != "" {
		return fmt.Errorf("export: %s is a file TSP Lab has read (%s): choose another name", filepath.Base(path), filepath.Base(in))
	}
	return nil
}

// exportName is the save dialog's file name for kind's export of instance name, never one of inputs.
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

// guardedFiles is Fyne's file repository refusing to open an input for writing: the save dialog empties its file at once.
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

// guardInputs has every file: URI writer (the save dialog's) refuse the app's inputs.
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
