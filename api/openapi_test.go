package api

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
)

// The OpenAPI document is written by hand; these tests keep it honest
// against the router, the authorisation table and itself.

type openAPIDocument struct {
	OpenAPI string `json:"openapi"`
	Tags    []struct {
		Name string `json:"name"`
	} `json:"tags"`
	Paths      map[string]map[string]json.RawMessage `json:"paths"`
	Components struct {
		Parameters map[string]openAPIParameter `json:"parameters"`
	} `json:"components"`
}

type openAPIOperation struct {
	OperationID string             `json:"operationId"`
	Summary     string             `json:"summary"`
	Description string             `json:"description"`
	Tags        []string           `json:"tags"`
	Access      string             `json:"x-access"`
	Security    *[]map[string]any  `json:"security"`
	Parameters  []openAPIParameter `json:"parameters"`
	Responses   map[string]any     `json:"responses"`
}

type openAPIParameter struct {
	Ref      string `json:"$ref"`
	Name     string `json:"name"`
	In       string `json:"in"`
	Required bool   `json:"required"`
}

var openAPIMethods = []string{"get", "put", "post", "delete", "options", "head", "patch", "trace"}

// loadOpenAPI parses the embedded document twice: typed, for the paths,
// and generic, for following $refs.
func loadOpenAPI(t *testing.T) (openAPIDocument, any) {
	t.Helper()
	var doc openAPIDocument
	if err := json.Unmarshal(openAPIDoc, &doc); err != nil {
		t.Fatalf("api/openapi.json does not parse: %v", err)
	}
	if !strings.HasPrefix(doc.OpenAPI, "3.1") {
		t.Fatalf("openapi is %q, want 3.1.x", doc.OpenAPI)
	}
	var root any
	if err := json.Unmarshal(openAPIDoc, &root); err != nil {
		t.Fatal(err)
	}
	return doc, root
}

// operations lists the documented operations as "METHOD /path".
func openAPIOperations(t *testing.T, doc openAPIDocument) map[string]openAPIOperation {
	t.Helper()
	ops := map[string]openAPIOperation{}
	for path, item := range doc.Paths {
		for key, raw := range item {
			if !slices.Contains(openAPIMethods, key) {
				continue // path-level parameters, summary, …
			}
			var op openAPIOperation
			if err := json.Unmarshal(raw, &op); err != nil {
				t.Fatalf("%s %s: %v", key, path, err)
			}
			ops[strings.ToUpper(key)+" "+path] = op
		}
	}
	return ops
}

// chiParam matches a chi URL parameter, with or without a regexp:
// {id} or {id:[0-9]+}.
var chiParam = regexp.MustCompile(`\{([^{}:]+)(:[^{}]*)?\}`)

// openAPIPath turns a chi route pattern into an OpenAPI path.
func openAPIPath(pattern string) string {
	p := chiParam.ReplaceAllString(pattern, "{$1}")
	if len(p) > 1 {
		p = strings.TrimSuffix(p, "/")
	}
	return p
}

func TestOpenAPIPathConversion(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/api/orders/{id}", "/api/orders/{id}"},
		{"/api/bar/orders/{id}/{action}", "/api/bar/orders/{id}/{action}"},
		{"/api/items/{id:[0-9]+}/", "/api/items/{id}"},
		{"/healthz", "/healthz"},
		{"/", "/"},
	} {
		if got := openAPIPath(tc.in); got != tc.want {
			t.Errorf("openAPIPath(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestOpenAPIMatchesRouter fails for a route the document leaves out and
// for a documented operation the router does not have; and checks the
// document is what GET /api/openapi.json serves.
func TestOpenAPIMatchesRouter(t *testing.T) {
	doc, _ := loadOpenAPI(t)
	ops := openAPIOperations(t, doc)
	e := newTestEnv(t)

	routes := map[string]bool{}
	for _, route := range walkRoutes(t, New(e.deps)) {
		method, pattern, _ := strings.Cut(route, " ")
		routes[method+" "+openAPIPath(pattern)] = true
	}
	if len(routes) == 0 {
		t.Fatal("the router has no routes")
	}
	for _, route := range sortedKeys(routes) {
		if _, ok := ops[route]; !ok {
			t.Errorf("route %s is not documented in api/openapi.json", route)
		}
	}
	for _, op := range sortedKeys(ops) {
		if !routes[op] {
			t.Errorf("api/openapi.json documents %s, which the router does not have", op)
		}
	}

	resp := e.doResp(http.MethodGet, "/api/openapi.json", "", nil)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	if resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		t.Errorf("GET /api/openapi.json: %d %s, want 200 application/json", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	if !bytes.Equal(body, openAPIDoc) {
		t.Errorf("GET /api/openapi.json served %d bytes, not the embedded document (%d bytes)", len(body), len(openAPIDoc))
	}
}

// TestOpenAPIOperations checks each operation on its own: identified,
// tagged, answering, with its path parameters declared, and with access
// and security that agree with the authorisation table (authz_test.go).
func TestOpenAPIOperations(t *testing.T) {
	doc, root := loadOpenAPI(t)
	ops := openAPIOperations(t, doc)
	if len(ops) == 0 {
		t.Fatal("api/openapi.json documents no operations")
	}
	tags := map[string]bool{}
	for _, tag := range doc.Tags {
		tags[tag.Name] = true
	}
	ids := map[string]string{}
	for _, name := range sortedKeys(ops) {
		op := ops[name]
		method, path, _ := strings.Cut(name, " ")

		if op.OperationID == "" {
			t.Errorf("%s: no operationId", name)
		} else if other, dup := ids[op.OperationID]; dup {
			t.Errorf("%s: operationId %q is also used by %s", name, op.OperationID, other)
		}
		ids[op.OperationID] = name
		if op.Summary == "" {
			t.Errorf("%s: no summary", name)
		}
		if len(op.Tags) == 0 {
			t.Errorf("%s: no tags", name)
		}
		for _, tag := range op.Tags {
			if !tags[tag] {
				t.Errorf("%s: tag %q is not declared in the document's tags", name, tag)
			}
		}

		checkOpenAPIResponses(t, root, name, op)
		checkOpenAPIPathParams(t, doc, name, path, op)

		want, ok := expectedAccess(method + " " + path)
		if !ok {
			t.Errorf("%s is not in the authorisation table (api/authz_test.go)", name)
			continue
		}
		checkOpenAPIAccess(t, name, op, want)
	}
}

// openAPINotErrors are 4xx/5xx answers whose body is not an error: a
// not-ready instance reports its checks.
var openAPINotErrors = map[string]bool{"GET /readyz 503": true}

func checkOpenAPIResponses(t *testing.T, root any, name string, op openAPIOperation) {
	t.Helper()
	if len(op.Responses) == 0 {
		t.Errorf("%s: no responses", name)
	}
	for code, r := range op.Responses {
		status, err := strconv.Atoi(code)
		if code != "default" && (err != nil || status < 100 || status > 599) {
			t.Errorf("%s: response key %q is not a status code", name, code)
			continue
		}
		resp, ok := derefOpenAPI(root, r)
		if !ok {
			continue // TestOpenAPIRefsResolve reports it
		}
		m, _ := resp.(map[string]any)
		if d, _ := m["description"].(string); d == "" {
			t.Errorf("%s: response %s has no description", name, code)
		}
		if status < 400 || openAPINotErrors[name+" "+code] {
			continue
		}
		// Every JSON error is the one Error shape.
		content, _ := m["content"].(map[string]any)
		media, _ := content["application/json"].(map[string]any)
		schema, _ := media["schema"].(map[string]any)
		if ref, _ := schema["$ref"].(string); ref != "#/components/schemas/Error" {
			t.Errorf("%s: response %s is not the shared Error schema (got %v)", name, code, schema)
		}
	}
}

func checkOpenAPIPathParams(t *testing.T, doc openAPIDocument, name, path string, op openAPIOperation) {
	t.Helper()
	inPath := map[string]bool{}
	for _, m := range chiParam.FindAllStringSubmatch(path, -1) {
		inPath[m[1]] = true
	}
	declared := map[string]bool{}
	params := op.Parameters
	if raw, ok := doc.Paths[path]["parameters"]; ok {
		var shared []openAPIParameter
		if err := json.Unmarshal(raw, &shared); err != nil {
			t.Errorf("%s: path-level parameters: %v", name, err)
		}
		params = append(shared, params...)
	}
	for _, p := range params {
		if p.Ref != "" {
			key, ok := strings.CutPrefix(p.Ref, "#/components/parameters/")
			c, found := doc.Components.Parameters[key]
			if !ok || !found {
				t.Errorf("%s: parameter %s does not resolve", name, p.Ref)
				continue
			}
			p = c
		}
		if p.In != "path" {
			continue
		}
		if !p.Required {
			t.Errorf("%s: path parameter %q must be required", name, p.Name)
		}
		if !inPath[p.Name] {
			t.Errorf("%s: path parameter %q is not in the path", name, p.Name)
		}
		declared[p.Name] = true
	}
	for _, p := range sortedKeys(inPath) {
		if !declared[p] {
			t.Errorf("%s: path parameter {%s} is not declared", name, p)
		}
	}
}

var openAPIAccessNames = map[access]string{public: "public", signedIn: "signedIn", bartender: "bartender", admin: "admin", board: "board", menuReader: "menu"}

func checkOpenAPIAccess(t *testing.T, name string, op openAPIOperation, want access) {
	t.Helper()
	if op.Access != openAPIAccessNames[want] {
		t.Errorf("%s: x-access is %q, the authorisation table says %q", name, op.Access, openAPIAccessNames[want])
	}
	if op.Security == nil {
		t.Errorf("%s: no security (use [] for a public route)", name)
		return
	}
	// Alternatives: a public route needs one without a token; any other
	// needs a token in every one.
	withoutToken := len(*op.Security) == 0
	for _, alt := range *op.Security {
		if _, ok := alt["bearerAuth"]; !ok {
			withoutToken = true
		}
	}
	switch {
	case (want == public || want == menuReader) && !withoutToken:
		t.Errorf("%s: public, but its security always requires bearerAuth", name)
	case want != public && want != menuReader && withoutToken:
		t.Errorf("%s: needs a token, but its security allows calls without bearerAuth", name)
	}
	if want != public && op.Responses["401"] == nil {
		t.Errorf("%s: needs a token but documents no 401", name)
	}
	if (want == bartender || want == admin || want == board) && op.Responses["403"] == nil {
		t.Errorf("%s: needs a role but documents no 403", name)
	}
}

// TestOpenAPIRefsResolve follows every $ref in the document, and fails
// for a component nothing refers to (dead documentation goes stale).
func TestOpenAPIRefsResolve(t *testing.T) {
	_, root := loadOpenAPI(t)
	used := map[string]bool{}
	var walk func(at string, v any)
	walk = func(at string, v any) {
		switch v := v.(type) {
		case map[string]any:
			if ref, ok := v["$ref"].(string); ok {
				if _, found := resolveOpenAPIRef(root, ref); !found {
					t.Errorf("%s: $ref %q does not resolve", at, ref)
				}
				used[ref] = true
			}
			for k, child := range v {
				walk(at+"/"+strings.NewReplacer("~", "~0", "/", "~1").Replace(k), child)
			}
		case []any:
			for i, child := range v {
				walk(at+"/"+strconv.Itoa(i), child)
			}
		}
	}
	walk("#", root)
	if len(used) == 0 {
		t.Fatal("the document has no $refs; components are expected to be shared")
	}

	components, _ := root.(map[string]any)["components"].(map[string]any)
	for _, kind := range []string{"schemas", "parameters", "responses", "headers"} {
		group, _ := components[kind].(map[string]any)
		for _, name := range sortedKeys(group) {
			if ref := "#/components/" + kind + "/" + name; !used[ref] {
				t.Errorf("%s is never referred to", ref)
			}
		}
	}
	for _, name := range []string{"Error", "Guest", "Settings", "Drink", "Section", "Ingredient", "Order", "OrderItem", "Recommendation", "Job", "Stats"} {
		if _, ok := resolveOpenAPIRef(root, "#/components/schemas/"+name); !ok {
			t.Errorf("components/schemas has no %s", name)
		}
	}
}

// resolveOpenAPIRef follows a local JSON pointer ("#/components/…").
func resolveOpenAPIRef(root any, ref string) (any, bool) {
	rest, ok := strings.CutPrefix(ref, "#/")
	if !ok {
		return nil, false
	}
	cur := root
	for _, part := range strings.Split(rest, "/") {
		part = strings.NewReplacer("~1", "/", "~0", "~").Replace(part)
		switch c := cur.(type) {
		case map[string]any:
			next, ok := c[part]
			if !ok {
				return nil, false
			}
			cur = next
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			cur = c[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

// derefOpenAPI returns v, or what its $ref points to.
func derefOpenAPI(root, v any) (any, bool) {
	for range 10 {
		m, ok := v.(map[string]any)
		if !ok {
			return v, true
		}
		ref, ok := m["$ref"].(string)
		if !ok {
			return v, true
		}
		if v, ok = resolveOpenAPIRef(root, ref); !ok {
			return nil, false
		}
	}
	return nil, false
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// TestOpenAPIResponsesMatch calls the real API the way the apps do and
// checks each answer against the documented response for its status: the
// status is documented, and the JSON body has the documented fields (no
// missing required one, no undocumented one) with the documented types.
// It is what catches a renamed json tag.
func TestOpenAPIResponsesMatch(t *testing.T) {
	_, root := loadOpenAPI(t)
	e := newTestEnv(t)
	check := func(method, pattern, path, token string, body any, header ...string) []byte {
		t.Helper()
		resp := e.doResp(method, path, token, body, header...)
		defer resp.Body.Close()
		raw, err := io.ReadAll(resp.Body)
		if err != nil {
			t.Fatal(err)
		}
		name := method + " " + pattern
		doc, ok := resolveOpenAPIRef(root, "#/paths/"+strings.ReplaceAll(pattern, "/", "~1")+"/"+strings.ToLower(method)+"/responses/"+strconv.Itoa(resp.StatusCode))
		if !ok {
			t.Errorf("%s answered %d, which api/openapi.json does not document: %s", name, resp.StatusCode, raw)
			return raw
		}
		r, _ := derefOpenAPI(root, doc)
		content, _ := r.(map[string]any)["content"].(map[string]any)
		media, ok := content["application/json"].(map[string]any)
		if !ok {
			return raw
		}
		var v any
		if err := json.Unmarshal(raw, &v); err != nil {
			t.Errorf("%s %d: body is not JSON: %v: %s", name, resp.StatusCode, err, raw)
			return raw
		}
		for _, p := range checkOpenAPISchema(root, media["schema"], v, "body") {
			t.Errorf("%s %d: %s", name, resp.StatusCode, p)
		}
		return raw
	}
	idOf := func(raw []byte) string {
		t.Helper()
		var v struct {
			ID string `json:"id"`
		}
		decodeInto(t, raw, &v)
		if v.ID == "" {
			t.Fatalf("no id in %s", raw)
		}
		return v.ID
	}

	adminTok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Åberg", GroupID: "byron", Dietary: guest.Dietary{Text: "no nuts", Tags: []string{"nuts"}}})
	e.addGuest(guest.Guest{FirstName: "Bo", LastName: "Åberg", GroupID: "byron"})

	// Empty lists, before there is anything to list.
	check("GET", "/api/sections", "/api/sections", "", nil)
	check("GET", "/api/drinks", "/api/drinks", "", nil)
	check("GET", "/api/bar/queue", "/api/bar/queue", adminTok, nil)
	check("GET", "/api/bar/stock", "/api/bar/stock", adminTok, nil)
	check("GET", "/api/admin/orders", "/api/admin/orders", adminTok, nil)
	check("GET", "/api/admin/orders", "/api/admin/orders?drinkId=x&bartenderId=y&status=served", adminTok, nil)
	check("GET", "/api/admin/orders.csv", "/api/admin/orders.csv", adminTok, nil)
	check("GET", "/api/admin/orders/report", "/api/admin/orders/report?anonymous=true", adminTok, nil)
	check("GET", "/api/admin/orders/report", "/api/admin/orders/report?anonymous=maybe", adminTok, nil)
	check("GET", "/api/admin/orders/report.csv", "/api/admin/orders/report.csv", adminTok, nil)
	check("GET", "/api/admin/notifications", "/api/admin/notifications", adminTok, nil)
	check("PUT", "/api/admin/notifications", "/api/admin/notifications", adminTok, map[string]any{"off": []string{"digest"}, "batchMinutes": 10, "digestHour": 8})
	check("PUT", "/api/admin/notifications", "/api/admin/notifications", adminTok, map[string]any{"off": []string{"nope"}, "batchMinutes": 10, "digestHour": 8})
	check("GET", "/api/admin/jobs", "/api/admin/jobs", adminTok, nil)
	check("GET", "/api/admin/guests", "/api/admin/guests?status=declined", adminTok, nil)
	check("GET", "/api/admin/groups", "/api/admin/groups", adminTok, nil)
	check("GET", "/api/admin/reports/dietary", "/api/admin/reports/dietary", adminTok, nil)
	check("GET", "/api/admin/reports/shopping", "/api/admin/reports/shopping", adminTok, nil)
	check("GET", "/api/admin/presence", "/api/admin/presence", adminTok, nil)

	// Signed out.
	check("GET", "/healthz", "/healthz", "", nil)
	check("GET", "/readyz", "/readyz", "", nil)
	check("GET", "/.well-known/jwks.json", "/.well-known/jwks.json", "", nil)
	check("GET", "/api/event", "/api/event", "", nil)
	check("GET", "/api/app-key", "/api/app-key", "", nil)
	check("GET", "/api/me", "/api/me", "", nil)
	check("GET", "/api/register/challenge", "/api/register/challenge", "", nil)
	check("POST", "/api/register", "/api/register", "", registerBody(t, e.srv.URL, "Reg", 1))
	check("PUT", "/api/admin/settings", "/api/admin/settings", adminTok, map[string]any{"eventName": "Party", "registration": "open", "capacity": 1})
	var reg registrationOut
	decodeInto(t, check("POST", "/api/register", "/api/register", "", registerBody(t, e.srv.URL, "Reg", 0)), &reg)
	check("POST", "/api/register", "/api/register", "", registerBody(t, e.srv.URL, "Reg", 0))
	check("GET", "/api/register/{token}", "/api/register/"+reg.Token, "", nil)
	check("POST", "/api/register/{token}/accept", "/api/register/"+reg.Token+"/accept", "", nil)
	check("POST", "/api/register/{token}/confirm", "/api/register/"+reg.Token+"/confirm", "", nil)
	check("POST", "/api/register/{token}/confirm", "/api/register/nope/confirm", "", nil)
	check("GET", "/api/admin/registrations", "/api/admin/registrations", adminTok, nil)
	check("POST", "/api/admin/registrations/{id}/approve", "/api/admin/registrations/"+reg.ID+"/approve", adminTok, nil)
	check("POST", "/api/register/{token}/cancel", "/api/register/"+reg.Token+"/cancel", "", nil)
	check("DELETE", "/api/admin/registrations/{id}", "/api/admin/registrations/nope", adminTok, nil)
	check("GET", "/api/register/{token}", "/api/register/nope", "", nil)
	check("POST", "/api/auth/login", "/api/auth/login", "", map[string]string{"code": ada.Code, "lastName": "nobody"})
	check("POST", "/api/auth/login", "/api/auth/login", "", map[string]string{"code": ""})
	var login loginResponse
	decodeInto(t, check("POST", "/api/auth/login", "/api/auth/login", "", map[string]string{"code": ada.Code, "lastName": " aberg "}), &login)
	tok := login.Token

	// The guest.
	check("GET", "/api/me", "/api/me", tok, nil)
	check("POST", "/api/ws/ticket", "/api/ws/ticket", tok, nil)
	check("GET", "/api/rsvp", "/api/rsvp", tok, nil)
	check("PUT", "/api/rsvp", "/api/rsvp", tok, map[string]any{"status": "coming", "numGuests": 1})
	check("PUT", "/api/rsvp", "/api/rsvp", tok, map[string]any{"status": "coming", "numGuests": 2, "tastes": map[string]any{"likes": []string{"sour"}}})
	check("GET", "/api/admin/stats", "/api/admin/stats", tok, nil)

	// The admin's menu.
	drink := map[string]any{
		"name": "Garden Sour", "section": "Summer specials", "abv": 12, "tags": []string{"sour"}, "allergens": []string{"almonds"},
		"ingredients": []map[string]any{{"name": "Gin", "amount": 4, "unit": "cl"}, {"name": "Lime juice", "amount": 2, "unit": "cl"}, {"name": "Orgeat", "amount": 1, "unit": "cl"}},
	}
	drinkID := idOf(check("POST", "/api/admin/drinks", "/api/admin/drinks", adminTok, drink))
	check("POST", "/api/admin/drinks", "/api/admin/drinks", adminTok, map[string]any{"name": "", "ingredients": []any{}})
	soft := map[string]any{"name": "Elderflower Fizz", "section": "Alcohol-free", "alcoholFree": true,
		"ingredients": []map[string]any{{"name": "Elderflower cordial", "amount": 3, "unit": "cl"}, {"name": "Soda", "amount": 12, "unit": "cl"}}}
	softID := idOf(check("POST", "/api/admin/drinks", "/api/admin/drinks", adminTok, soft))
	check("PUT", "/api/admin/drinks/{id}", "/api/admin/drinks/"+softID, adminTok, soft)
	check("POST", "/api/admin/drinks/{id}/image-upload", "/api/admin/drinks/"+drinkID+"/image-upload", adminTok, nil)
	check("POST", "/api/admin/drinks/{id}/image-prompt", "/api/admin/drinks/"+drinkID+"/image-prompt", adminTok, nil)
	check("POST", "/api/admin/drinks/{id}/image/regenerate", "/api/admin/drinks/"+drinkID+"/image/regenerate", adminTok, nil)
	check("DELETE", "/api/admin/drinks/{id}/image", "/api/admin/drinks/"+drinkID+"/image", adminTok, nil)
	check("DELETE", "/api/admin/drinks/{id}/image", "/api/admin/drinks/nope/image", adminTok, nil)
	check("GET", "/images/drinks/{file}", "/images/drinks/"+drinkID+".svg", "", nil)
	check("GET", "/images/drinks/{file}", "/images/drinks/nope.svg", "", nil)
	check("GET", "/images/drinks/{file}", "/images/drinks/"+drinkID+".png", "", nil)
	check("GET", "/api/sections", "/api/sections", "", nil)
	check("GET", "/api/drinks", "/api/drinks", tok, nil)
	check("GET", "/api/drinks", "/api/drinks", "", nil, "X-Api-Key", "")
	check("GET", "/api/drinks/{id}", "/api/drinks/"+drinkID, tok, nil)
	check("GET", "/api/drinks/{id}", "/api/drinks/nope", tok, nil)

	// Ordering.
	check("GET", "/api/orders", "/api/orders", tok, nil)
	order := map[string]any{"items": []map[string]any{{"drinkId": softID, "qty": 2, "notes": "no ice"}}}
	check("POST", "/api/orders", "/api/orders", tok, order)
	orderID := idOf(check("POST", "/api/orders", "/api/orders", tok, order, "Idempotency-Key", "k-1"))
	check("POST", "/api/orders", "/api/orders", tok, order, "Idempotency-Key", "k-1")
	check("POST", "/api/orders", "/api/orders", tok, map[string]any{"items": []map[string]any{{"drinkId": drinkID}}}, "Idempotency-Key", "k-2")
	check("GET", "/api/orders", "/api/orders", tok, nil)
	check("GET", "/api/drinks", "/api/drinks", tok, nil)
	check("GET", "/api/orders/{id}", "/api/orders/"+orderID, tok, nil)
	check("PATCH", "/api/orders/{id}", "/api/orders/"+orderID, tok, map[string]any{"items": []map[string]any{{"drinkId": softID}}, "version": 1})
	secondID := idOf(check("POST", "/api/orders", "/api/orders", tok, order, "Idempotency-Key", "k-3"))
	check("POST", "/api/orders/{id}/cancel", "/api/orders/"+secondID+"/cancel", tok, nil)

	// The bar.
	check("GET", "/api/bar/queue", "/api/bar/queue", tok, nil)
	check("GET", "/api/bar/queue", "/api/bar/queue", adminTok, nil)
	check("POST", "/api/bar/orders/{id}/{action}", "/api/bar/orders/"+orderID+"/start", adminTok, nil)
	check("POST", "/api/bar/orders/{id}/{action}", "/api/bar/orders/"+orderID+"/serve", adminTok, nil)
	check("POST", "/api/bar/orders/{id}/{action}", "/api/bar/orders/"+orderID+"/cancel", adminTok, nil)
	check("POST", "/api/orders/{id}/cancel", "/api/orders/"+orderID+"/cancel", tok, map[string]string{"reason": "changed my mind"})
	check("GET", "/api/bar/stock", "/api/bar/stock", adminTok, nil)
	check("PUT", "/api/bar/stock/{ingredient}", "/api/bar/stock/Lime%20juice", adminTok, map[string]bool{"inStock": false})
	check("PUT", "/api/bar/drinks/{id}/stock", "/api/bar/drinks/"+softID+"/stock", adminTok, map[string]bool{"inStock": true})
	check("GET", "/api/bar/drinks/{id}/recipe", "/api/bar/drinks/"+softID+"/recipe?qty=3", adminTok, nil)
	check("GET", "/api/bar/drinks/{id}/recipe", "/api/bar/drinks/"+softID+"/recipe?qty=0", adminTok, nil)
	check("GET", "/api/bar/drinks/{id}/recipe", "/api/bar/drinks/nope/recipe", adminTok, nil)

	// The AI bartender.
	recID := idOf(check("POST", "/api/recommendations", "/api/recommendations", tok, map[string]any{"likes": []string{"sour"}, "mood": "festive"}))
	check("GET", "/api/recommendations/{id}", "/api/recommendations/"+recID, tok, nil)
	check("GET", "/api/admin/jobs", "/api/admin/jobs", adminTok, nil)
	check("POST", "/api/admin/jobs/{id}/retry", "/api/admin/jobs/nope/retry", adminTok, nil)

	// The host's desk.
	check("GET", "/api/admin/stats", "/api/admin/stats", adminTok, nil)
	check("GET", "/api/admin/stats", "/api/admin/stats?recount=true&timeline=true", adminTok, nil)
	check("GET", "/api/admin/guests", "/api/admin/guests", adminTok, nil)
	check("GET", "/api/admin/guests", "/api/admin/guests?sort=nope", adminTok, nil)
	newID := idOf(check("POST", "/api/admin/guests", "/api/admin/guests", adminTok, map[string]any{"firstName": "Cy", "lastName": "Day", "expectedGuests": 2, "groupId": "days"}))
	check("POST", "/api/admin/guests", "/api/admin/guests", adminTok, map[string]any{"firstName": "Cy"})
	check("GET", "/api/admin/guests/{id}", "/api/admin/guests/"+newID, adminTok, nil)
	check("PUT", "/api/admin/guests/{id}", "/api/admin/guests/"+newID, adminTok, map[string]any{"status": "coming", "dietary": "vegan"})
	check("POST", "/api/admin/guests/{id}/code", "/api/admin/guests/"+newID+"/code", adminTok, nil)
	check("GET", "/api/admin/groups", "/api/admin/groups", adminTok, nil)
	check("GET", "/api/admin/reports/dietary", "/api/admin/reports/dietary?status=all", adminTok, nil)
	check("GET", "/api/admin/guests.csv", "/api/admin/guests.csv", adminTok, nil)
	check("GET", "/api/admin/reports/shopping", "/api/admin/reports/shopping?hours=5&perHour=1.2&margin=0.2", adminTok, nil)
	check("GET", "/api/admin/reports/shopping", "/api/admin/reports/shopping?hours=forever", adminTok, nil)
	check("GET", "/api/admin/reports/shopping", "/api/admin/reports/shopping?trim=true", adminTok, nil)
	check("GET", "/api/admin/reports/shopping.csv", "/api/admin/reports/shopping.csv?hours=3", adminTok, nil)
	check("GET", "/api/admin/reports/shopping.csv", "/api/admin/reports/shopping.csv?margin=15", adminTok, nil)
	check("POST", "/api/admin/orders/report/learn", "/api/admin/orders/report/learn?hours=forever", adminTok, nil)
	check("POST", "/api/admin/orders/report/learn", "/api/admin/orders/report/learn", adminTok, nil)
	check("DELETE", "/api/admin/reports/shopping/learnt", "/api/admin/reports/shopping/learnt", adminTok, nil)
	check("POST", "/api/admin/guests/import", "/api/admin/guests/import", adminTok, map[string]any{"csv": "firstName,lastName,shoeSize\nDee,Eve,42\n,\n", "dryRun": true})
	check("GET", "/api/admin/invitations", "/api/admin/invitations?guest="+newID, adminTok, nil)
	check("GET", "/api/admin/invitations", "/api/admin/invitations?staff=maybe", adminTok, nil)
	check("GET", "/api/admin/public-url", "/api/admin/public-url", adminTok, nil)
	check("GET", "/api/admin/mail", "/api/admin/mail", adminTok, nil)
	check("GET", "/api/event.ics", "/api/event.ics", adminTok, nil)
	check("POST", "/api/admin/reminders", "/api/admin/reminders", adminTok, map[string]any{"kind": "unanswered", "daysBefore": 3})
	check("POST", "/api/admin/reminders", "/api/admin/reminders", adminTok, map[string]any{"kind": "soon"})
	check("GET", "/api/admin/reminders", "/api/admin/reminders", adminTok, nil)
	check("DELETE", "/api/admin/reminders/{id}", "/api/admin/reminders/nope", adminTok, nil)
	check("POST", "/api/admin/invitations/send", "/api/admin/invitations/send", adminTok, map[string]any{"how": "email"})
	check("POST", "/api/admin/invitations/send", "/api/admin/invitations/send", adminTok, map[string]any{"how": "link", "guestIds": []string{newID}})
	check("POST", "/api/admin/invitations/send", "/api/admin/invitations/send", adminTok, map[string]any{"how": "pigeon"})
	check("PUT", "/api/admin/public-url", "/api/admin/public-url", adminTok, map[string]string{"url": "http://192.168.1.23:8080"})
	check("PUT", "/api/admin/public-url", "/api/admin/public-url", adminTok, map[string]string{"url": "ftp://x"})
	check("DELETE", "/api/admin/guests/{id}", "/api/admin/guests/"+newID, adminTok, nil)
	check("PUT", "/api/admin/settings", "/api/admin/settings", adminTok, map[string]string{"eventName": "Garden party", "eventDate": "2030-06-12T18:00", "timezone": "Europe/Stockholm"})
	check("PUT", "/api/admin/settings", "/api/admin/settings", adminTok, map[string]string{"eventName": "Garden party", "timezone": "Mars/Olympus"})
	check("GET", "/api/admin/settings", "/api/admin/settings", adminTok, nil)
	// Walk-ins at the door, and the menu once the host made it private.
	walkIn := map[string]string{"firstName": "Nora", "lastName": "Lind", "groupOf": ada.ID, "needs": "vegan"}
	check("POST", "/api/door/walkins", "/api/door/walkins", adminTok, walkIn, "Idempotency-Key", "walk-in-1")
	check("POST", "/api/door/walkins", "/api/door/walkins", adminTok, walkIn, "Idempotency-Key", "walk-in-1")
	check("POST", "/api/door/walkins", "/api/door/walkins", adminTok, walkIn)
	check("POST", "/api/door/walkins", "/api/door/walkins", adminTok, map[string]string{"firstName": "Nora"}, "Idempotency-Key", "walk-in-2")
	check("POST", "/api/door/walkins", "/api/door/walkins", adminTok, map[string]string{"firstName": "Ola", "lastName": "Berg", "groupOf": "000000000000000000000000"}, "Idempotency-Key", "walk-in-3")
	check("GET", "/api/admin/stats", "/api/admin/stats", adminTok, nil)
	check("GET", "/api/admin/poster", "/api/admin/poster", adminTok, nil)
	check("GET", "/api/admin/poster", "/api/admin/poster?anyway=maybe", adminTok, nil)
	check("PUT", "/api/admin/settings", "/api/admin/settings", adminTok, map[string]any{"eventName": "Garden party", "timezone": "Europe/Stockholm", "publicMenu": false})
	check("GET", "/api/event", "/api/event", "", nil)
	check("GET", "/api/drinks", "/api/drinks", "", nil)
	check("GET", "/api/drinks/{id}", "/api/drinks/"+drinkID, "", nil)
	check("GET", "/api/admin/orders", "/api/admin/orders", adminTok, nil)
	check("POST", "/api/admin/announcements", "/api/admin/announcements", adminTok, map[string]string{"text": "Cake in the garden"})
	check("GET", "/api/admin/presence", "/api/admin/presence", adminTok, nil)
	check("GET", "/api/admin/app-key", "/api/admin/app-key", adminTok, nil)
	check("PUT", "/api/admin/app-key", "/api/admin/app-key", adminTok, map[string]bool{"enabled": false})
	check("GET", "/api/app-key", "/api/app-key", "", nil)
	check("GET", "/api/sections", "/api/sections", "", nil)
	check("DELETE", "/api/admin/drinks/{id}", "/api/admin/drinks/"+drinkID, adminTok, nil)
	check("GET", "/api/admin/audit", "/api/admin/audit", adminTok, nil) // every change above, bar and desk
	check("GET", "/api/admin/audit", "/api/admin/audit?action=guest&limit=0", adminTok, nil)
}

// checkOpenAPISchema reports where v does not fit schema. It knows the
// parts of JSON Schema the document uses: $ref, allOf, type (or a list
// of types), enum, date-time, properties, required, additionalProperties
// and items. An object schema with properties is closed: a field it does
// not name is reported, so a new or renamed field must be documented.
func checkOpenAPISchema(root, schema, v any, at string) []string {
	s, ok := derefOpenAPI(root, schema)
	if !ok {
		return []string{at + ": schema does not resolve"}
	}
	m, _ := s.(map[string]any)
	if len(m) == 0 {
		return nil // {}: anything
	}
	if _, ok := m["oneOf"]; ok {
		return nil // only request bodies use it
	}
	var probs []string
	if all, ok := m["allOf"].([]any); ok {
		merged := map[string]any{"type": "object", "properties": map[string]any{}, "required": []any{}}
		for _, part := range all {
			p, _ := derefOpenAPI(root, part)
			pm, _ := p.(map[string]any)
			for k, prop := range mapOf(pm["properties"]) {
				merged["properties"].(map[string]any)[k] = prop
			}
			req, _ := pm["required"].([]any)
			merged["required"] = append(merged["required"].([]any), req...)
		}
		return checkOpenAPISchema(root, merged, v, at)
	}
	if !openAPITypeFits(m["type"], v) {
		return []string{fmt.Sprintf("%s: %s is not of type %v", at, jsonKindOf(v), m["type"])}
	}
	if enum, ok := m["enum"].([]any); ok && !slices.Contains(enum, v) {
		probs = append(probs, fmt.Sprintf("%s: %v is not one of %v", at, v, enum))
	}
	if str, ok := v.(string); ok && m["format"] == "date-time" {
		if _, err := time.Parse(time.RFC3339, str); err != nil {
			probs = append(probs, fmt.Sprintf("%s: %q is not an RFC 3339 time", at, str))
		}
	}
	switch v := v.(type) {
	case map[string]any:
		props := mapOf(m["properties"])
		req, _ := m["required"].([]any)
		for _, r := range req {
			if _, ok := v[r.(string)]; !ok {
				probs = append(probs, fmt.Sprintf("%s: required field %q is missing", at, r))
			}
		}
		for _, k := range sortedKeys(v) {
			if p, ok := props[k]; ok {
				probs = append(probs, checkOpenAPISchema(root, p, v[k], at+"."+k)...)
			} else if extra, ok := m["additionalProperties"]; ok {
				probs = append(probs, checkOpenAPISchema(root, extra, v[k], at+"."+k)...)
			} else if len(props) > 0 {
				probs = append(probs, fmt.Sprintf("%s: field %q is not documented", at, k))
			}
		}
	case []any:
		for i, item := range v {
			probs = append(probs, checkOpenAPISchema(root, m["items"], item, fmt.Sprintf("%s[%d]", at, i))...)
		}
	}
	return probs
}

func mapOf(v any) map[string]any {
	m, _ := v.(map[string]any)
	return m
}

func openAPITypeFits(typ, v any) bool {
	var types []any
	switch t := typ.(type) {
	case nil:
		return true
	case string:
		types = []any{t}
	case []any:
		types = t
	}
	for _, t := range types {
		switch t {
		case "null":
			if v == nil {
				return true
			}
		case "string":
			if _, ok := v.(string); ok {
				return true
			}
		case "boolean":
			if _, ok := v.(bool); ok {
				return true
			}
		case "number":
			if _, ok := v.(float64); ok {
				return true
			}
		case "integer":
			if f, ok := v.(float64); ok && f == math.Trunc(f) {
				return true
			}
		case "object":
			if _, ok := v.(map[string]any); ok {
				return true
			}
		case "array":
			if _, ok := v.([]any); ok {
				return true
			}
		}
	}
	return false
}

func jsonKindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "a string"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case map[string]any:
		return "an object"
	case []any:
		return "an array"
	}
	return fmt.Sprintf("%T", v)
}
