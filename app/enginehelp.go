package app

import "github.com/tsplab/tsplab/solver"

// plainAbout says in plain words what the engines a new user meets first do (Describe is for readers of the papers).
var plainAbout = map[string]string{
	"auto": "The strongest search for the time you give it, and the default. " +
		"Within moments it has a good first tour, then it keeps shortening it: it tries small changes to the route " +
		"(turning a stretch around, moving a few cities, reconnecting up to five links at once), only towards each " +
		"city's few most promising neighbours, and keeps every change that makes the tour shorter. " +
		"On up to about 20,000 cities it keeps a small family of good tours and joins the best parts of two of them " +
		"into a shorter one; on larger instances every core works on its own part of one tour. " +
		"With a GPU, the graphics card builds first tours and runs hundreds of searches beside the cores. " +
		"Best and the plot always show the shortest tour found so far.",
	"pop": "Keeps a family of good tours and breeds shorter ones: two tours are joined where they differ, " +
		"keeping the better part of each, and the child is polished by the same small changes auto makes. " +
		"The family is kept varied, so the search does not settle too early.",
}

// engineHelp is the settings' "About" text of e: the app's plain words, else its description ("": none).
func engineHelp(e solver.Engine) string {
	if e == nil {
		return ""
	}
	if s, ok := plainAbout[e.Name()]; ok {
		return s
	}
	return e.Describe()
}
