package api

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardsOnlyInRoutes keeps the app key and the rate limits where
// routes.go names them: a handler calling allow or checkAppKey itself
// would hide part of the contract from the routes.
func TestGuardsOnlyInRoutes(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") || name == "guards.go" {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			call, ok := n.(*ast.CallExpr)
			if !ok {
				return true
			}
			if sel, ok := call.Fun.(*ast.SelectorExpr); ok && (sel.Sel.Name == "allow" || sel.Sel.Name == "checkAppKey") {
				t.Errorf("%s: %s is called outside the guards; wrap the route in routes.go instead", fset.Position(call.Pos()), sel.Sel.Name)
			}
			return true
		})
	}
}
