package api

import (
	"encoding/json"
	"errors"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/push"
)

// decoded lists every type a handler decodes a request body into (with
// decode or decodeOptional), by the type's name as the handler spells
// it. TestEveryDecoderIsListed keeps it complete.
var decoded = map[string]reflect.Type{
	"announcementRequest":  reflect.TypeFor[announcementRequest](),
	"archiveRequest":       reflect.TypeFor[archiveRequest](),
	"newEventRequest":      reflect.TypeFor[newEventRequest](),
	"switchRequest":        reflect.TypeFor[switchRequest](),
	"boardCreateRequest":   reflect.TypeFor[boardCreateRequest](),
	"boardLoginRequest":    reflect.TypeFor[boardLoginRequest](),
	"checkInRequest":       reflect.TypeFor[checkInRequest](),
	"dietaryReadRequest":   reflect.TypeFor[dietaryReadRequest](),
	"dietaryReviewRequest": reflect.TypeFor[dietaryReviewRequest](),
	"editRequest":          reflect.TypeFor[editRequest](),
	"guest.SettingsInput":  reflect.TypeFor[guest.SettingsInput](),
	"guestInput":           reflect.TypeFor[guestInput](),
	"hostPrefsRequest":     reflect.TypeFor[hostPrefsRequest](),
	"importInput":          reflect.TypeFor[importInput](),
	"loginBody":            reflect.TypeFor[loginBody](),
	"menu.Input":           reflect.TypeFor[menu.Input](),
	"order.Request":        reflect.TypeFor[order.Request](),
	"publicURLInput":       reflect.TypeFor[publicURLInput](),
	"push.Subscription":    reflect.TypeFor[push.Subscription](),
	"reasonRequest":        reflect.TypeFor[reasonRequest](),
	"registerRequest":      reflect.TypeFor[registerRequest](),
	"recommendationInput":  reflect.TypeFor[recommendationInput](),
	"reminderInput":        reflect.TypeFor[reminderInput](),
	"rsvpRequest":          reflect.TypeFor[rsvpRequest](),
	"sendInput":            reflect.TypeFor[sendInput](),
	"setAppKeyRequest":     reflect.TypeFor[setAppKeyRequest](),
	"stockRequest":         reflect.TypeFor[stockRequest](),
	"walkInRequest":        reflect.TypeFor[walkInRequest](),
}

// TestEveryDecoderIsListed reads the package's handlers and finds every
// body they decode: each type must be in decoded, so the test below
// covers a new handler's body without anyone remembering to add it.
func TestEveryDecoderIsListed(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	found := map[string]string{} // type → where
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		src, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		f, err := parser.ParseFile(fset, name, src, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Body == nil {
				continue
			}
			// The types of the function's variables, by name.
			types := map[string]string{}
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				if vs, ok := n.(*ast.ValueSpec); ok && vs.Type != nil {
					for _, id := range vs.Names {
						types[id.Name] = string(src[fset.Position(vs.Type.Pos()).Offset:fset.Position(vs.Type.End()).Offset])
					}
				}
				return true
			})
			ast.Inspect(fn.Body, func(n ast.Node) bool {
				call, ok := n.(*ast.CallExpr)
				if !ok || len(call.Args) != 2 {
					return true
				}
				if id, ok := call.Fun.(*ast.Ident); !ok || id.Name != "decode" && id.Name != "decodeOptional" {
					return true
				}
				where := fset.Position(call.Pos()).String()
				ref, ok := call.Args[1].(*ast.UnaryExpr)
				if !ok || ref.Op != token.AND {
					if fn.Name.Name != "decodeOptional" { // passes its own argument on
						t.Errorf("%s: decodes into something other than &variable: this test cannot tell the type", where)
					}
					return true
				}
				v, ok := ref.X.(*ast.Ident)
				if !ok || types[v.Name] == "" {
					t.Errorf("%s: decodes into a variable not declared with var and a type", where)
					return true
				}
				found[types[v.Name]] = where
				return true
			})
		}
	}
	if len(found) < 15 {
		t.Fatalf("found only %d decoded types: the scan has stopped seeing the handlers", len(found))
	}
	var missing []string
	for typ, where := range found {
		if _, ok := decoded[typ]; !ok {
			missing = append(missing, typ+" ("+where+")")
		}
	}
	for typ := range decoded {
		if _, ok := found[typ]; !ok {
			missing = append(missing, typ+" (listed, but no handler decodes it)")
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("decoded and the handlers disagree:\n%s", strings.Join(missing, "\n"))
	}
}

// TestUnknownFieldsRefusedAtEveryDepth builds, for every decoded type, a
// body with every field filled, then the same body with one field the
// server does not know in each of its objects in turn — the body itself,
// an order line, a dietary answer inside a "+1" inside a member — and
// decodes each as the handlers do. The full body decodes; every other is
// a 400 unknown_field naming the field. A nested type with its own
// UnmarshalJSON that forgets to refuse (dietary used to) fails here.
func TestUnknownFieldsRefusedAtEveryDepth(t *testing.T) {
	for name, typ := range decoded {
		t.Run(name, func(t *testing.T) {
			body, objects := sampleJSON(t, typ, -1)
			if err := decode(fuzzRequest(body), reflect.New(typ).Interface()); err != nil {
				t.Fatalf("the full body %s: %v", body, err)
			}
			if objects == 0 {
				t.Fatalf("no object in %s", body)
			}
			for i := range objects {
				body, _ := sampleJSON(t, typ, i)
				err := decode(fuzzRequest(body), reflect.New(typ).Interface())
				var ae *apiError
				if !errors.As(err, &ae) || ae.Status != 400 || ae.Code != "unknown_field" || !strings.Contains(ae.Message, "zzUnknown") {
					t.Errorf("%s: %v, want 400 unknown_field naming zzUnknown", body, err)
				}
			}
		})
	}
}

// sampleJSON is a JSON body for typ with every field present, and how
// many objects it holds; the object numbered unknown (in the order they
// are built) gets a field "zzUnknown" as well.
func sampleJSON(t *testing.T, typ reflect.Type, unknown int) ([]byte, int) {
	t.Helper()
	n := 0
	v := sampleValue(typ, unknown, &n, 0)
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b, n
}

func sampleValue(typ reflect.Type, unknown int, n *int, depth int) any {
	if depth > 32 { // a recursive type; none is decoded today
		return nil
	}
	switch typ {
	case reflect.TypeFor[time.Time]():
		return "2030-06-19T18:00:00Z"
	}
	switch typ.Kind() {
	case reflect.Pointer:
		return sampleValue(typ.Elem(), unknown, n, depth+1)
	case reflect.Struct:
		obj := map[string]any{}
		if *n == unknown {
			obj["zzUnknown"] = true
		}
		*n++
		sampleFields(typ, obj, unknown, n, depth)
		return obj
	case reflect.Slice, reflect.Array:
		if typ.Elem().Kind() == reflect.Uint8 {
			return "eA=="
		}
		return []any{sampleValue(typ.Elem(), unknown, n, depth+1)}
	case reflect.Map:
		return map[string]any{"k": sampleValue(typ.Elem(), unknown, n, depth+1)}
	case reflect.String:
		return "x"
	case reflect.Bool:
		return true
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return 1
	case reflect.Float32, reflect.Float64:
		return 1.5
	}
	return "x"
}

// sampleFields fills obj with typ's JSON fields, those of embedded
// structs included as encoding/json promotes them.
func sampleFields(typ reflect.Type, obj map[string]any, unknown int, n *int, depth int) {
	for i := range typ.NumField() {
		f := typ.Field(i)
		tag := f.Tag.Get("json")
		name, _, _ := strings.Cut(tag, ",")
		if name == "-" {
			continue
		}
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			sampleFields(ft, obj, unknown, n, depth+1)
			continue
		}
		if !f.IsExported() {
			continue
		}
		if name == "" {
			name = f.Name
		}
		obj[name] = sampleValue(f.Type, unknown, n, depth+1)
	}
}
