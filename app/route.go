package app

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/data/binding"
	"fyne.io/fyne/v2/widget"

	"github.com/tsplab/tsplab/solver"
	"github.com/tsplab/tsplab/solver/route"
)

// Routes a run can find, as Settings.Route holds them.
const (
	RouteTour = "tour" // a closed tour (the default)
	RouteOpen = "open" // an open path, both ends free
	RouteEnds = "ends" // a path from city A to city B (Settings.Ends)
)

// routeLabels are the Path menu's items, by route.
var routeLabels = map[string]string{
	RouteTour: "closed tour",
	RouteOpen: "open path (ends free)",
	RouteEnds: "from A to B",
}

// routeOrder is the order of the Path menu.
var routeOrder = []string{RouteTour, RouteOpen, RouteEnds}

// HelpRoute is the Path field's help text.
const HelpRoute = "a path has no closing edge; open: up to 5,000 cities; " +
	"from A to B: engines that keep fixed edges (auto and pop on the CPU or the GPU, 2opt-ils and 3opt-ils on the CPU)"

// routeForm is the Path field: the route menu and, for a path, the ends' city ids, saved under prefix.
type routeForm struct {
	route   binding.String
	ends    binding.String
	menu    *widget.Select
	entry   *widget.Entry
	errMsg  *widget.Label
	box     *fyne.Container
	in      func() *solver.Instance
	changed func() // after each change of the route or the ends
}

// newRouteForm binds the Path field to f's preferences.
func newRouteForm(f *settingsForm) *routeForm {
	r := &routeForm{route: f.bind("route", ""), ends: f.bind("ends", ""), in: func() *solver.Instance { return f.in }, changed: f.validityChanged}
	labels := make([]string, len(routeOrder))
	for i, k := range routeOrder {
		labels[i] = routeLabels[k]
	}
	r.menu = widget.NewSelect(labels, func(label string) {
		for k, l := range routeLabels {
			if l == label {
				if cur, _ := r.route.Get(); cur != k && !(cur == "" && k == RouteTour) {
					_ = r.route.Set(k)
				}
			}
		}
		r.refresh()
	})
	r.entry = widget.NewEntryWithData(r.ends)
	r.entry.SetPlaceHolder("A,B: two city ids")
	r.entry.Validator = func(s string) error { return r.checkEnds(s) }
	r.entry.OnChanged = func(string) { r.refresh() }
	r.errMsg = newErrLabel()
	line := container.NewBorder(nil, nil, widget.NewLabel("Path"), nil, container.NewGridWithColumns(2, r.menu, r.entry))
	r.box = container.NewVBox(line, newHelpLabel(Drawable(HelpRoute)), r.errMsg)
	r.menu.SetSelected(routeLabels[r.Route()])
	return r
}

// Route is the route chosen: RouteTour, RouteOpen or RouteEnds.
func (r *routeForm) Route() string {
	v, _ := r.route.Get()
	if _, ok := routeLabels[v]; !ok {
		return RouteTour
	}
	return v
}

// Ends is the ends' text.
func (r *routeForm) Ends() string {
	v, _ := r.ends.Get()
	return strings.TrimSpace(v)
}

// checkEnds validates the ends' text on the pane's instance (a path from A to B only).
func (r *routeForm) checkEnds(s string) error {
	if r.Route() != RouteEnds {
		return nil
	}
	if strings.TrimSpace(s) == "" {
		return fmt.Errorf("path from A to B: give two city ids A,B")
	}
	if in := r.in(); in != nil {
		if _, _, err := route.ParseEnds(s, in); err != nil {
			return fmt.Errorf("path from A to B: %v", err)
		}
	}
	return nil
}

// Valid reports whether the route can be run on the pane's instance.
func (r *routeForm) Valid() bool { return r.checkEnds(r.Ends()) == nil }

// refresh shows the ends' field for a path from A to B, and its error.
func (r *routeForm) refresh() {
	showIf(r.entry, r.Route() == RouteEnds)
	showFieldError(r.errMsg, r.checkEnds(r.Ends()))
	r.box.Refresh()
	if r.changed != nil {
		r.changed()
	}
}

// set shows route and ends (and so saves them).
func (r *routeForm) set(route, ends string) {
	if _, ok := routeLabels[route]; !ok {
		route = RouteTour
	}
	_ = r.route.Set(route)
	_ = r.ends.Set(ends)
	r.menu.SetSelected(routeLabels[route])
	r.refresh()
}

// enable enables or disables the field.
func (r *routeForm) enable(on bool) {
	enable(r.menu, on)
	enable(r.entry, on)
}

// NewRoute is s's route on in for e (route.New), errors naming the Path setting.
func (s Settings) NewRoute(in *solver.Instance, e solver.Engine) (*route.Route, error) {
	a, b := -1, -1
	switch s.Route {
	case "", RouteTour, RouteOpen:
	case RouteEnds:
		var err error
		if a, b, err = route.ParseEnds(s.Ends, in); err != nil {
			return nil, fmt.Errorf("path from A to B: %v", err)
		}
	default:
		return nil, fmt.Errorf("settings: path %q: want %s, %s or %s", s.Route, RouteTour, RouteOpen, RouteEnds)
	}
	rt, err := route.New(in, e, s.Route == RouteOpen, a, b)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", routeLabels[s.Route], err)
	}
	return rt, nil
}

// chooseRoute sets the pane's Path from command-line text: RouteTour, RouteOpen or "A,B" ("": keep).
func (p *Pane) chooseRoute(text string) {
	switch text {
	case "":
	case RouteTour, RouteOpen:
		p.settings.route.set(text, p.settings.route.Ends())
	default:
		p.settings.route.set(RouteEnds, text)
	}
}
