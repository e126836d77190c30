package live

import (
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// live is the protocol's vocabulary: it may lean on the domain, and on
// nothing that carries or serves the events.
func TestImports(t *testing.T) {
	allowed := map[string]bool{
		"github.com/barhub/barhub/guest": true,
		"github.com/barhub/barhub/order": true,
		"github.com/barhub/barhub/menu":  true,
	}
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range files {
		f, err := parser.ParseFile(token.NewFileSet(), name, nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			path := strings.Trim(imp.Path.Value, `"`)
			if strings.Contains(path, ".") && !allowed[path] {
				t.Errorf("%s imports %s: live may import the domain and the standard library only", name, path)
			}
		}
	}
}
