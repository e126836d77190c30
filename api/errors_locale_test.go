package api

import (
	"encoding/json"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/barhub/barhub/locale"
)

// errorCodes finds, in the API's source, every error code written as a
// literal: the first argument of errBadRequest, errConflict and
// errUnprocessable, the code of writeError, Code in an apiError or
// guest.RuleError literal, and the guest package's Code… constants.
func errorCodes(t *testing.T) map[string]string {
	t.Helper()
	codes := make(map[string]string) // code → where first seen
	fset := token.NewFileSet()
	add := func(lit ast.Expr) {
		bl, ok := lit.(*ast.BasicLit)
		if !ok || bl.Kind != token.STRING {
			return
		}
		code, err := strconv.Unquote(bl.Value)
		if err != nil || code == "" || strings.HasSuffix(code, "_") {
			return
		}
		if _, seen := codes[code]; !seen {
			codes[code] = fset.Position(bl.Pos()).String()
		}
	}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		f, err := parser.ParseFile(fset, path, src, 0)
		if err != nil {
			return err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.CallExpr:
				name := ""
				switch fn := n.Fun.(type) {
				case *ast.Ident:
					name = fn.Name
				case *ast.SelectorExpr:
					name = fn.Sel.Name
				}
				switch name {
				case "errBadRequest", "errConflict", "errUnprocessable":
					if len(n.Args) > 0 {
						add(n.Args[0])
					}
				case "writeError":
					if len(n.Args) == 5 {
						add(n.Args[3])
					}
				}
			case *ast.CompositeLit:
				var typ string
				switch tt := n.Type.(type) {
				case *ast.Ident:
					typ = tt.Name
				case *ast.SelectorExpr:
					typ = tt.Sel.Name
				}
				if typ != "apiError" && typ != "RuleError" {
					return true
				}
				for _, el := range n.Elts {
					if kv, ok := el.(*ast.KeyValueExpr); ok {
						if k, ok := kv.Key.(*ast.Ident); ok && k.Name == "Code" {
							add(kv.Value)
						}
					}
				}
			case *ast.ValueSpec:
				if filepath.Base(filepath.Dir(path)) == "guest" && filepath.Base(path) == "rsvp.go" {
					for i, id := range n.Names {
						if strings.HasPrefix(id.Name, "Code") && i < len(n.Values) {
							add(n.Values[i])
						}
					}
				}
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return codes
}

// TestErrorCodesTranslated fails when the API writes an error code the
// server's catalogues have no "error.<code>" message for.
func TestErrorCodesTranslated(t *testing.T) {
	codes := errorCodes(t)
	if len(codes) < 50 {
		t.Fatalf("found only %d error codes: the scan has stopped seeing the API's errors", len(codes))
	}
	for _, lang := range locale.Languages() {
		msgs, err := locale.Messages(lang)
		if err != nil {
			t.Fatal(err)
		}
		var missing []string
		for code, where := range codes {
			if _, ok := msgs["error."+code]; !ok {
				missing = append(missing, code+" ("+where+")")
			}
		}
		sort.Strings(missing)
		if len(missing) > 0 {
			t.Errorf("%s catalogue misses %d error messages:\n%s", lang, len(missing), strings.Join(missing, "\n"))
		}
	}
}

// TestErrorMessagesFollowAcceptLanguage: the code stays the same in every
// language while the message follows Accept-Language, English (the
// handler's own, most specific wording) when none of ours is asked for.
func TestErrorMessagesFollowAcceptLanguage(t *testing.T) {
	e := newTestEnv(t)
	login := map[string]string{"code": "ABCD2345", "lastName": "Nobody"}
	for _, tc := range []struct {
		name, method, path string
		body               any
		acceptLanguage     string
		code, message      string
		contentLanguage    string
	}{
		{"no header", "POST", "/api/auth/login", login, "",
			"invalid_login", "That code and last name do not match an invitation; check both and try again.", ""},
		{"english", "POST", "/api/auth/login", login, "en-US,en;q=0.9",
			"invalid_login", "That code and last name do not match an invitation; check both and try again.", ""},
		{"swedish", "POST", "/api/auth/login", login, "sv-SE,sv;q=0.9,en;q=0.8",
			"invalid_login", "Koden och efternamnet stämmer inte med någon inbjudan; kontrollera båda och försök igen.", "sv"},
		{"portuguese", "POST", "/api/auth/login", login, "pt-BR",
			"invalid_login", "O código e o sobrenome não correspondem a nenhum convite; confira os dois e tente de novo.", "pt-BR"},
		{"portugal falls back to brazil", "GET", "/api/no-such-thing", nil, "pt-PT,pt;q=0.9",
			"not_found", "Isso não existe (mais).", "pt-BR"},
		{"unsupported language", "GET", "/api/no-such-thing", nil, "de-DE,de;q=0.9",
			"not_found", "no such endpoint: GET /api/no-such-thing", ""},
		{"middleware error", "GET", "/api/me", nil, "sv",
			"unauthorized", "Logga in igen.", "sv"},
		{"decode error", "POST", "/api/auth/login", `{"code":`, "sv",
			"malformed_json", "Det som skickades gick inte att läsa; ladda om sidan.", "sv"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var hdr []string
			if tc.acceptLanguage != "" {
				hdr = []string{"Accept-Language", tc.acceptLanguage}
			}
			resp := e.doResp(tc.method, tc.path, "", tc.body, hdr...)
			defer resp.Body.Close()
			var eb errorBody
			if err := json.NewDecoder(resp.Body).Decode(&eb); err != nil {
				t.Fatal(err)
			}
			if eb.Error.Code != tc.code || eb.Error.Message != tc.message {
				t.Errorf("got %q %q, want %q %q", eb.Error.Code, eb.Error.Message, tc.code, tc.message)
			}
			if got := resp.Header.Get("Content-Language"); got != tc.contentLanguage {
				t.Errorf("Content-Language %q, want %q", got, tc.contentLanguage)
			}
		})
	}
}

// TestMenuCarriesTranslations: the cached menu answers carry the starter
// texts per language beside the English ones, and a drink the host
// rewrote shows the host's words only.
func TestMenuCarriesTranslations(t *testing.T) {
	e := newBarEnv(t)
	var secs struct {
		Sections []sectionView `json:"sections"`
	}
	_, body := e.do("GET", "/api/sections", "", nil)
	decodeInto(t, body, &secs)
	if got := secs.Sections[3].I18n["sv"].Name; got != "Alkoholfritt" {
		t.Errorf("alcohol-free section in Swedish = %q, want Alkoholfritt: %s", got, body)
	}
	var negroni drinkView
	_, body = e.do("GET", "/api/drinks/negroni", "", nil, "Accept-Language", "sv")
	decodeInto(t, body, &negroni)
	sv := negroni.I18n["sv"]
	if negroni.Description != "Equal parts gin, Campari and sweet vermouth, stirred over ice with an orange slice." ||
		sv.Description != "Lika delar gin, Campari och söt vermouth, rörd över is med en apelsinskiva." ||
		strings.Join(sv.Ingredients, ", ") != "Gin, Campari, Söt vermouth, Apelsin" ||
		negroni.I18n["pt-BR"].Ingredients[0] != "Gim" {
		t.Fatalf("negroni: %s", body)
	}

	edit := validDrink()
	edit["name"] = "Negroni"
	edit["description"] = "Our house Negroni, with a local gin."
	if status, body := e.do("PUT", "/api/admin/drinks/negroni", e.aTok, edit); status != 200 {
		t.Fatalf("edit: %d %s", status, body)
	}
	negroni = drinkView{}
	_, body = e.do("GET", "/api/drinks/negroni", "", nil)
	decodeInto(t, body, &negroni)
	if d := negroni.I18n["sv"].Description; d != "" {
		t.Errorf("a rewritten description still has the starter's Swedish %q", d)
	}
}
