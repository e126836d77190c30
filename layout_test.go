package barhub_test

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const module = "github.com/barhub/barhub"

// pkg is what go list says of one package of the module.
type pkg struct {
	ImportPath string
	Imports    []string
}

// rel is p without the module path: "store/embedded", "" for the root.
func rel(p string) string { return strings.TrimPrefix(strings.TrimPrefix(p, module), "/") }

func listPackages(t *testing.T) []pkg {
	t.Helper()
	out, err := exec.Command("go", "list", "-json=ImportPath,Imports", "./...").Output()
	if err != nil {
		t.Fatalf("go list: %v", err)
	}
	var pkgs []pkg
	dec := json.NewDecoder(strings.NewReader(string(out)))
	for dec.More() {
		var p pkg
		if err := dec.Decode(&p); err != nil {
			t.Fatalf("go list output: %v", err)
		}
		p.ImportPath = rel(p.ImportPath)
		if p.ImportPath == "" {
			continue // this test's own package
		}
		var own []string
		for _, imp := range p.Imports {
			if imp == module || strings.HasPrefix(imp, module+"/") {
				own = append(own, rel(imp))
			} else if imp == "net/http" {
				own = append(own, imp)
			}
		}
		p.Imports = own
		pkgs = append(pkgs, p)
	}
	if len(pkgs) < 20 {
		t.Fatalf("go list found %d packages; run the test from the module", len(pkgs))
	}
	return pkgs
}

// under reports whether p is folder or inside it.
func under(p, folder string) bool { return p == folder || strings.HasPrefix(p, folder+"/") }

func underAny(p string, folders ...string) bool {
	return slices.ContainsFunc(folders, func(f string) bool { return under(p, f) })
}

// The domain: plain types, tested without HTTP or a database. text and
// safecsv are the small pure helpers the domain writes with.
var domain = []string{"guest", "order", "menu", "diet", "plan", "event", "text", "safecsv"}

// rule says which of the module's packages a set of packages may import
// (nil: any), and which they must not.
type rule struct {
	name    string
	applies func(p string) bool
	allowed func(imp string) bool
}

// rules are docs/DESIGN.md's arrows ("Folders"): each names what its
// packages may import of barhub, so an arrow pointing the wrong way fails
// here rather than in review.
var rules = []rule{
	{
		name:    "the domain imports only the domain",
		applies: func(p string) bool { return underAny(p, domain...) && !strings.HasSuffix(p, "test") },
		allowed: func(imp string) bool { return underAny(imp, domain...) },
	},
	{
		name:    "live (the live protocol's words) imports only the domain",
		applies: func(p string) bool { return under(p, "live") },
		allowed: func(imp string) bool { return underAny(imp, domain...) },
	},
	{
		name:    "hub imports nothing of barhub",
		applies: func(p string) bool { return under(p, "hub") },
		allowed: func(imp string) bool { return false },
	},
	{
		name:    "the embedded database imports nothing of barhub",
		applies: func(p string) bool { return p == "store/embedded" },
		allowed: func(imp string) bool { return false },
	},
	{
		name:    "store imports the domain and the records it keeps, never the embedded server",
		applies: func(p string) bool { return p == "store" },
		allowed: func(imp string) bool { return underAny(imp, domain...) || underAny(imp, "audit", "images") },
	},
	{
		name:    "only cmd/ and the store's test kit link the embedded database",
		applies: func(p string) bool { return !under(p, "cmd") && !under(p, "store/storetest") },
		allowed: func(imp string) bool { return imp != "store/embedded" },
	},
	{
		name:    "nothing imports api but cmd/",
		applies: func(p string) bool { return !under(p, "cmd") && !under(p, "api") },
		allowed: func(imp string) bool { return !under(imp, "api") },
	},
	{
		name:    "the use cases know nothing of HTTP",
		applies: func(p string) bool { return under(p, "app") },
		allowed: func(imp string) bool { return imp != "net/http" && !underAny(imp, "api", "cmd", "web") },
	},
	{
		name:    "jobs knows none of the work it runs",
		applies: func(p string) bool { return under(p, "jobs") },
		allowed: func(imp string) bool { return !underAny(imp, "ai", "invite", "api", "app", "push", "mail") },
	},
}

// checkLayout returns every import that breaks a rule.
func checkLayout(pkgs []pkg) []string {
	var bad []string
	for _, p := range pkgs {
		for _, r := range rules {
			if !r.applies(p.ImportPath) {
				continue
			}
			for _, imp := range p.Imports {
				if imp == "net/http" && r.name != "the use cases know nothing of HTTP" {
					continue
				}
				if !r.allowed(imp) {
					bad = append(bad, fmt.Sprintf("%s imports %s: %s", p.ImportPath, imp, r.name))
				}
			}
		}
	}
	return bad
}

// TestLayout keeps the arrows between folders pointing one way.
func TestLayout(t *testing.T) {
	for _, b := range checkLayout(listPackages(t)) {
		t.Error(b)
	}
}

// The rules catch the imports they forbid: each wrong import added to the
// real package list is reported.
func TestLayoutRules(t *testing.T) {
	pkgs := listPackages(t)
	tests := []struct{ from, imp string }{
		{"hub", "live"},
		{"order", "store"},
		{"guest", "hub"},
		{"store", "store/embedded"},
		{"store", "api"},
		{"push", "api"},
		{"ai", "store/embedded"},
		{"app", "net/http"},
		{"hub", "guest"},
	}
	for _, tt := range tests {
		wrong := slices.Clone(pkgs)
		for i := range wrong {
			if wrong[i].ImportPath == tt.from {
				wrong[i].Imports = append(slices.Clone(wrong[i].Imports), tt.imp)
			}
		}
		if !slices.ContainsFunc(checkLayout(wrong), func(s string) bool { return strings.HasPrefix(s, tt.from+" imports "+tt.imp+":") }) {
			t.Errorf("%s importing %s passes the layout rules", tt.from, tt.imp)
		}
	}
}

// docs/DESIGN.md's folder table names every package, and nothing else.
func TestDesignFolderTable(t *testing.T) {
	doc, err := os.ReadFile("docs/DESIGN.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(doc), "\n## Folders\n")
	if !ok {
		t.Fatal(`docs/DESIGN.md has no "## Folders" section`)
	}
	section, _, _ = strings.Cut(section, "\n## ")
	// A row names its packages in backquotes in its first cell.
	cell := regexp.MustCompile("`([a-z0-9/]+)/?`")
	documented := map[string]bool{}
	for _, line := range strings.Split(section, "\n") {
		if !strings.HasPrefix(line, "| `") {
			continue
		}
		first, _, _ := strings.Cut(strings.TrimPrefix(line, "| "), " |")
		for _, m := range cell.FindAllStringSubmatch(first, -1) {
			documented[path.Clean(m[1])] = true
		}
	}
	listed := map[string]bool{}
	for _, p := range listPackages(t) {
		listed[p.ImportPath] = true
		if !documented[p.ImportPath] {
			t.Errorf("package %s is missing from docs/DESIGN.md's folder table", p.ImportPath)
		}
	}
	for d := range documented {
		if !listed[d] {
			t.Errorf("docs/DESIGN.md's folder table names %s, which is no package", d)
		}
	}
}
