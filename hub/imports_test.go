package hub

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// The hub carries any application's events: it imports nothing of
// barhub, whose topics and rules come in through Config. (Its tests may
// use barhub's test kits.)
func TestImportsNothingOfBarhub(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			if path := strings.Trim(imp.Path.Value, `"`); strings.HasPrefix(path, "github.com/barhub/barhub") {
				t.Errorf("%s imports %s", name, path)
			}
		}
	}
}
