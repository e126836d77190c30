package api

import (
	"bytes"
	"context"
	"encoding/json"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/menu"
)

type drinksBody struct {
	Count            int                 `json:"count"`
	Drinks           []drinkView         `json:"drinks"`
	AllergenWarnings map[string][]string `json:"allergenWarnings"`
}

type sectionsBody struct {
	Sections []sectionView `json:"sections"`
}

func TestMenuBrowse(t *testing.T) {
	e := newBarEnv(t)
	status, body := e.do("GET", "/api/sections", "", nil)
	var secs sectionsBody
	decodeInto(t, body, &secs)
	if status != 200 || len(secs.Sections) != 4 || secs.Sections[0].ID != "classics" || secs.Sections[0].Drinks != 8 || secs.Sections[3].Available != 8 {
		t.Fatalf("sections %d: %s", status, body)
	}

	tests := []struct {
		query string
		count int
		first string
	}{
		{"", 37, "boulevardier"}, // classics first, then by name
		{"?section=alcohol-free", 8, "cinderella"},
		{"?ingredient=mint", 4, "mai-tai"},
		{"?ingredient=Egg%20White", 3, "amaretto-sour"},
		{"?tag=coffee", 3, "espresso-martini"},
		{"?q=tomato", 2, "bloody-mary"},
		{"?alcoholFree=true&q=colada", 1, "virgin-pina-colada"},
		{"?available=true", 37, "boulevardier"},
	}
	for _, tt := range tests {
		status, body := e.do("GET", "/api/drinks"+tt.query, "", nil)
		var got drinksBody
		decodeInto(t, body, &got)
		if status != 200 || got.Count != tt.count || len(got.Drinks) != tt.count || got.Drinks[0].ID != tt.first {
			t.Errorf("%s: %d, %d drinks, first %q; want %d from %s", tt.query, status, got.Count, firstID(got), tt.count, tt.first)
		}
	}

	status, body = e.do("GET", "/api/drinks/negroni", "", nil)
	var d drinkView
	decodeInto(t, body, &d)
	if status != 200 || d.Name != "Negroni" || d.ABV != 27 || d.StandardDrinks != 1.9 || len(d.Ingredients) != 4 || d.Ingredients[0].Unit != "ml" {
		t.Errorf("negroni %d: %s", status, body)
	}
	for _, tt := range []struct {
		path string
		code string
	}{
		{"/api/drinks/nope", "not_found"},
		{"/api/drinks?available=perhaps", "invalid_filter"},
		{"/api/drinks?q=" + strings.Repeat("x", 101), "invalid_filter"},
	} {
		status, body := e.do("GET", tt.path, "", nil)
		if status >= 500 || errorCode(t, body) != tt.code {
			t.Errorf("%s: %d %s, want %s", tt.path, status, body, tt.code)
		}
	}
}

func firstID(b drinksBody) string {
	if len(b.Drinks) == 0 {
		return ""
	}
	return b.Drinks[0].ID
}

func TestMenuETag(t *testing.T) {
	e := newBarEnv(t)
	resp := e.doResp("GET", "/api/drinks?section=sours", "", nil)
	resp.Body.Close()
	etag := resp.Header.Get("ETag")
	if resp.StatusCode != 200 || etag == "" || resp.Header.Get("Cache-Control") != "private, no-cache" {
		t.Fatalf("first read %d etag %q cache %q", resp.StatusCode, etag, resp.Header.Get("Cache-Control"))
	}
	for _, inm := range []string{etag, "W/" + etag, `"other", ` + etag} {
		resp = e.doResp("GET", "/api/drinks?section=sours", "", nil, "If-None-Match", inm)
		resp.Body.Close()
		if resp.StatusCode != http.StatusNotModified || resp.Header.Get("ETag") != etag {
			t.Errorf("If-None-Match %s: %d", inm, resp.StatusCode)
		}
	}
	resp = e.doResp("GET", "/api/drinks?section=classics", "", nil, "If-None-Match", etag)
	resp.Body.Close()
	if resp.StatusCode != 200 {
		t.Errorf("other filter with the sours etag: %d, want 200", resp.StatusCode)
	}
	secResp := e.doResp("GET", "/api/sections", "", nil)
	secResp.Body.Close()
	secTag := secResp.Header.Get("ETag")

	// A write changes the answer and its tag at once.
	status, body := e.do("PUT", "/api/bar/stock/lemon%20juice", e.bTok, map[string]bool{"inStock": false})
	if status != 200 {
		t.Fatalf("stock: %d %s", status, body)
	}
	resp = e.doResp("GET", "/api/drinks?section=sours", "", nil, "If-None-Match", etag)
	var got drinksBody
	json.NewDecoder(resp.Body).Decode(&got)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("ETag") == etag {
		t.Fatalf("after a write: %d with etag %q", resp.StatusCode, resp.Header.Get("ETag"))
	}
	out := 0
	for _, d := range got.Drinks {
		if !d.Available {
			out++
		}
	}
	if out != 4 { // whiskey sour, amaretto sour, sidecar, paper plane
		t.Errorf("%d sours unavailable without lemon juice, want 4", out)
	}
	secResp = e.doResp("GET", "/api/sections", "", nil, "If-None-Match", secTag)
	secResp.Body.Close()
	if secResp.StatusCode != 200 {
		t.Errorf("sections after a write: %d, want 200 (available counts changed)", secResp.StatusCode)
	}
}

func TestMenuFlagsGuestAllergens(t *testing.T) {
	e := newBarEnv(t)
	vegan := e.addGuest(guest.Guest{FirstName: "Vee", Dietary: guest.Dietary{Tags: []string{"vegan"}, Text: "and a nut allergy"}})
	tok := e.tokenFor(vegan)
	status, body := e.do("GET", "/api/drinks?section=sours", tok, nil)
	var got drinksBody
	decodeInto(t, body, &got)
	// diet.Check's causes: the allergen, or the diet the drink breaks.
	want := map[string]string{"whiskey-sour": "vegan", "pisco-sour": "vegan", "amaretto-sour": "nuts,vegan", "mai-tai": "nuts"}
	if status != 200 || len(got.AllergenWarnings) != len(want) {
		t.Fatalf("%d warnings %v, want %v", status, got.AllergenWarnings, want)
	}
	for id, a := range want {
		if strings.Join(got.AllergenWarnings[id], ",") != a {
			t.Errorf("%s: %q, want %s", id, got.AllergenWarnings[id], a)
		}
	}
	// Another guest (and nobody) sees no flags, and gets another ETag.
	_, plain := e.do("GET", "/api/drinks?section=sours", e.gTok, nil)
	var none drinksBody
	decodeInto(t, plain, &none)
	if len(none.AllergenWarnings) != 0 {
		t.Errorf("guest without allergies got %v", none.AllergenWarnings)
	}
	r1 := e.doResp("GET", "/api/drinks?section=sours", tok, nil)
	r1.Body.Close()
	r2 := e.doResp("GET", "/api/drinks?section=sours", "", nil)
	r2.Body.Close()
	if r1.Header.Get("ETag") == r2.Header.Get("ETag") || r1.Header.Get("Vary") != "Authorization" {
		t.Errorf("personal and public answers share ETag %s (Vary %q)", r1.Header.Get("ETag"), r1.Header.Get("Vary"))
	}
	_, body = e.do("GET", "/api/drinks/whiskey-sour", tok, nil)
	var d drinkView
	decodeInto(t, body, &d)
	if strings.Join(d.AllergenWarning, ",") != "vegan" {
		t.Errorf("single drink warning %q", d.AllergenWarning)
	}
}

func validDrink() map[string]any {
	return map[string]any{
		"name": "Hugo", "description": "Elderflower spritz", "section": "Summer specials",
		"ingredients": []map[string]any{{"name": "Prosecco", "amount": 100, "unit": "ml"}, {"name": "Elderflower cordial", "amount": 20, "unit": "ml"}, {"name": "Mint", "amount": 4, "unit": "leaf"}},
		"tags":        []string{"Fresh", "sparkling"}, "allergens": []string{"sulfites"}, "abv": 8.5,
	}
}

func TestDrinkAdmin(t *testing.T) {
	var created []string
	var mu sync.Mutex
	e := newBarEnv(t, func(d *Deps) {
		d.OnDrinkCreated = func(ctx context.Context, id string) {
			mu.Lock()
			created = append(created, id)
			mu.Unlock()
		}
	})
	menuEvents := listen(t, e.hub, live.TopicMenu)

	status, body := e.do("POST", "/api/admin/drinks", e.aTok, validDrink())
	var d drinkView
	decodeInto(t, body, &d)
	if status != 201 || d.ID != "hugo" || d.Section != "summer-specials" || !d.Available || d.StandardDrinks != 0.8 ||
		strings.Join(d.Tags, ",") != "fresh,sparkling" || strings.Join(d.Allergens, ",") != "sulphites" {
		t.Fatalf("create %d: %s", status, body)
	}
	mu.Lock()
	if len(created) != 1 || created[0] != "hugo" {
		t.Errorf("image-prompt hook called with %q", created)
	}
	mu.Unlock()
	// Visible at once, in its new section.
	_, body = e.do("GET", "/api/drinks?section=summer-specials", "", nil)
	var list drinksBody
	decodeInto(t, body, &list)
	if list.Count != 1 {
		t.Errorf("new section lists %d drinks", list.Count)
	}
	var secs sectionsBody
	_, body = e.do("GET", "/api/sections", "", nil)
	decodeInto(t, body, &secs)
	if n := len(secs.Sections); n != 5 || secs.Sections[4].Name != "Summer specials" || secs.Sections[4].Position != 5 {
		t.Errorf("sections after create: %s", body)
	}
	// A second drink of the same name gets a random id.
	status, body = e.do("POST", "/api/admin/drinks", e.aTok, validDrink())
	var d2 drinkView
	decodeInto(t, body, &d2)
	if status != 201 || d2.ID == "hugo" || len(d2.ID) != 24 {
		t.Errorf("second hugo: %d id %q", status, d2.ID)
	}

	edit := validDrink()
	edit["name"] = "Hugo Spritz"
	edit["section"] = "classics"
	status, body = e.do("PUT", "/api/admin/drinks/hugo", e.aTok, edit)
	decodeInto(t, body, &d)
	if status != 200 || d.Name != "Hugo Spritz" || d.Section != "classics" || d.ID != "hugo" {
		t.Errorf("update %d: %s", status, body)
	}
	if status, _ := e.do("DELETE", "/api/admin/drinks/hugo", e.aTok, nil); status != 204 {
		t.Errorf("delete: %d", status)
	}
	if status, _ := e.do("GET", "/api/drinks/hugo", "", nil); status != 404 {
		t.Errorf("deleted drink still served: %d", status)
	}
	for _, tt := range []struct {
		method, path string
		body         any
		status       int
		code         string
	}{
		{"PUT", "/api/admin/drinks/hugo", validDrink(), 404, "not_found"},
		{"DELETE", "/api/admin/drinks/hugo", nil, 404, "not_found"},
		{"POST", "/api/admin/drinks", map[string]any{"name": ""}, 400, "invalid_drink"},
		{"POST", "/api/admin/drinks", `{"name": 3}`, 400, "invalid_field"},
		{"POST", "/api/admin/drinks", `{"name": "x",`, 400, "malformed_json"},
		{"POST", "/api/admin/drinks", func() any { d := validDrink(); d["alcoholFree"] = true; return d }(), 400, "invalid_drink"},
		{"POST", "/api/admin/drinks", func() any {
			d := validDrink()
			d["ingredients"] = []map[string]any{{"name": "Gin", "amount": 50, "unit": "gallon"}}
			return d
		}(), 400, "invalid_drink"},
	} {
		status, body := e.do(tt.method, tt.path, e.aTok, tt.body)
		if status != tt.status || errorCode(t, body) != tt.code {
			t.Errorf("%s %s %v: %d %s, want %d %s", tt.method, tt.path, tt.body, status, body, tt.status, tt.code)
		}
	}
	// The problems are listed for the editor to show next to each field.
	_, body = e.do("POST", "/api/admin/drinks", e.aTok, map[string]any{"name": "", "section": "x", "abv": 5, "ingredients": []any{}})
	var eb struct {
		Error struct {
			Details struct {
				Problems []menu.Problem `json:"problems"`
			} `json:"details"`
		} `json:"error"`
	}
	decodeInto(t, body, &eb)
	if len(eb.Error.Details.Problems) != 2 || eb.Error.Details.Problems[1].Field != "ingredients" {
		t.Errorf("problems %s", body)
	}

	changes := menuEvents.named(t, "menu.changed")
	var reasons []string
	for _, ev := range changes {
		var data struct {
			Reason string `json:"reason"`
		}
		json.Unmarshal(ev.Data, &data)
		reasons = append(reasons, data.Reason)
	}
	if strings.Join(reasons, ",") != "drink.created,drink.created,drink.updated,drink.deleted" {
		t.Errorf("menu.changed reasons %q", reasons)
	}
}

func testJPEG(t testing.TB) []byte {
	img := image.NewRGBA(image.Rect(0, 0, 8, 8))
	img.Set(2, 2, color.RGBA{180, 40, 40, 255})
	var buf bytes.Buffer
	if err := jpeg.Encode(&buf, img, nil); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func testPNG(t testing.TB) []byte {
	var buf bytes.Buffer
	if err := png.Encode(&buf, image.NewGray(image.Rect(0, 0, 3, 3))); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type uploadURL struct {
	UploadURL string    `json:"uploadUrl"`
	Method    string    `json:"method"`
	ExpiresAt time.Time `json:"expiresAt"`
	MaxBytes  int       `json:"maxBytes"`
}

func (e *barEnv) uploadURL(drinkID string) uploadURL {
	e.t.Helper()
	status, body := e.do("POST", "/api/admin/drinks/"+drinkID+"/image-upload", e.aTok, nil)
	if status != 200 {
		e.t.Fatalf("upload url: %d %s", status, body)
	}
	var u uploadURL
	decodeInto(e.t, body, &u)
	return u
}

func TestPhotoUpload(t *testing.T) {
	e := newBarEnv(t)
	u := e.uploadURL("negroni")
	if u.Method != "PUT" || u.MaxBytes != 5<<20 || !strings.HasPrefix(u.UploadURL, "/uploads/drinks/negroni?expires=") ||
		u.ExpiresAt.Before(time.Now().Add(9*time.Minute)) || u.ExpiresAt.After(time.Now().Add(10*time.Minute+time.Second)) {
		t.Fatalf("upload url %+v", u)
	}
	if status, body := e.do("POST", "/api/admin/drinks/nope/image-upload", e.aTok, nil); status != 404 {
		t.Errorf("upload url for an unknown drink: %d %s", status, body)
	}

	// Refused: not an image (whatever its declared type), too big, signed
	// for another drink, tampered, empty.
	html := []byte("<!doctype html><script>alert(1)</script>")
	big := append(testJPEG(t), make([]byte, 5<<20)...)
	other := e.uploadURL("mojito")
	tampered := strings.Replace(u.UploadURL, "expires=", "expires=9", 1)
	for _, tt := range []struct {
		name   string
		path   string
		body   []byte
		status int
		code   string
	}{
		{"html", u.UploadURL, html, 415, "unsupported_image"},
		{"gif", u.UploadURL, []byte("GIF89a\x01\x00\x01\x00\x00\x00\x00"), 415, "unsupported_image"},
		{"too big", u.UploadURL, big, 413, "image_too_large"},
		{"empty", u.UploadURL, []byte{}, 400, "empty_upload"},
		{"other drink's url", strings.Replace(other.UploadURL, "mojito", "negroni", 1), testJPEG(t), 400, "invalid_upload_url"},
		{"tampered expiry", tampered, testJPEG(t), 400, "invalid_upload_url"},
		{"no signature", "/uploads/drinks/negroni", testJPEG(t), 400, "invalid_upload_url"},
	} {
		status, body := e.do("PUT", tt.path, "", tt.body, "Content-Type", "image/jpeg")
		if status != tt.status || errorCode(t, body) != tt.code {
			t.Errorf("%s: %d %s, want %d %s", tt.name, status, body, tt.status, tt.code)
		}
	}

	// Accepted: a JPEG, then a PNG replacing it (POST works too).
	jpg := testJPEG(t)
	status, body := e.do("PUT", u.UploadURL, "", jpg, "Content-Type", "application/octet-stream")
	var up uploadResponse
	decodeInto(t, body, &up)
	if status != 200 || up.ContentType != "image/jpeg" || up.Bytes != len(jpg) || !strings.HasPrefix(up.ImageURL, "/images/negroni-") || !strings.HasSuffix(up.ImageURL, ".jpg") {
		t.Fatalf("upload %d: %s", status, body)
	}
	_, body = e.do("GET", "/api/drinks/negroni", "", nil)
	var d drinkView
	decodeInto(t, body, &d)
	if d.ImageURL != up.ImageURL {
		t.Errorf("drink shows %q, want the new photo %q", d.ImageURL, up.ImageURL)
	}
	resp := e.doResp("GET", up.ImageURL, "", nil)
	var got bytes.Buffer
	got.ReadFrom(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Equal(got.Bytes(), jpg) || resp.Header.Get("Content-Type") != "image/jpeg" ||
		resp.Header.Get("Cache-Control") != "public, max-age=31536000, immutable" || resp.Header.Get("ETag") == "" ||
		resp.Header.Get("X-Content-Type-Options") != "nosniff" {
		t.Errorf("serve photo: %d %d bytes %v", resp.StatusCode, got.Len(), resp.Header)
	}
	resp = e.doResp("GET", up.ImageURL, "", nil, "If-None-Match", resp.Header.Get("ETag"))
	resp.Body.Close()
	if resp.StatusCode != 304 {
		t.Errorf("revalidate photo: %d", resp.StatusCode)
	}

	status, body = e.do("POST", u.UploadURL, "", testPNG(t))
	var up2 uploadResponse
	decodeInto(t, body, &up2)
	if status != 200 || up2.ContentType != "image/png" || !strings.HasSuffix(up2.ImageURL, ".png") {
		t.Fatalf("second upload %d: %s", status, body)
	}
	if status, _ := e.do("GET", up.ImageURL, "", nil); status != 404 {
		t.Errorf("replaced photo still served: %d", status)
	}
	for _, p := range []string{"/images/..%2Fsecret.jpg", "/images/nope.jpg", "/images/x.gif"} {
		if status, _ := e.do("GET", p, "", nil); status != 404 {
			t.Errorf("GET %s: %d, want 404", p, status)
		}
	}

	// An expired link: signed with the server's own key, ten minutes ago.
	signer, err := e.srvSigner()
	if err != nil {
		t.Fatal(err)
	}
	old := signer.UploadPath("negroni", time.Now().Add(-time.Second))
	status, body = e.do("PUT", old, "", testJPEG(t))
	if status != 410 || errorCode(t, body) != "upload_url_expired" {
		t.Errorf("expired link: %d %s", status, body)
	}
}

// srvSigner builds a signer from the stored key, as any instance does.
func (e *barEnv) srvSigner() (*images.Signer, error) {
	key, err := e.store.ImageSigningKey(context.Background())
	if err != nil {
		return nil, err
	}
	return images.NewSigner(key), nil
}

func TestStockMakesDrinksUnavailableAndBack(t *testing.T) {
	e := newBarEnv(t)
	menuEvents := listen(t, e.hub, live.TopicMenu)

	status, body := e.do("PUT", "/api/bar/stock/Mint", e.bTok, map[string]bool{"inStock": false})
	var resp ingredientStockResponse
	decodeInto(t, body, &resp)
	if status != 200 || resp.Ingredient.Key != "mint" || resp.Ingredient.InStock || strings.Join(resp.Drinks, ",") != "elderflower-spritz,mai-tai,mojito,virgin-mojito" || len(resp.Unavailable) != 4 {
		t.Fatalf("mint out: %d %s", status, body)
	}
	_, body = e.do("GET", "/api/drinks?available=true", "", nil)
	var avail drinksBody
	decodeInto(t, body, &avail)
	if avail.Count != 33 {
		t.Errorf("%d available without mint, want 33", avail.Count)
	}
	_, body = e.do("GET", "/api/drinks/mojito", "", nil)
	var mojito drinkView
	decodeInto(t, body, &mojito)
	if mojito.Available || strings.Join(mojito.MissingIngredients, ",") != "mint" {
		t.Errorf("mojito %s", body)
	}

	// Ordering it is refused, naming what is missing.
	status, body = e.do("POST", "/api/orders", e.gTok, map[string]any{"items": []any{one("mojito")}}, "Idempotency-Key", newKey())
	if status != 409 || errorCode(t, body) != "drink_unavailable" || !strings.Contains(string(body), "the bar is out of mint") {
		t.Errorf("order mojito without mint: %d %s", status, body)
	}

	status, body = e.do("GET", "/api/bar/stock", e.bTok, nil)
	var stock stockResponse
	decodeInto(t, body, &stock)
	var mint *bool
	for _, it := range stock.Ingredients {
		if it.Key == "mint" {
			in := it.InStock
			mint = &in
			if it.Drinks != 4 || it.UpdatedBy != "Bea Bar" {
				t.Errorf("mint stock item %+v", it)
			}
		}
	}
	if status != 200 || mint == nil || *mint || len(stock.Drinks) != 37 {
		t.Errorf("stock list %d: mint %v, %d drinks", status, mint, len(stock.Drinks))
	}

	if status, body := e.do("PUT", "/api/bar/stock/mint", e.bTok, map[string]bool{"inStock": true}); status != 200 {
		t.Fatalf("mint back: %d %s", status, body)
	}
	_, body = e.do("GET", "/api/drinks?available=true", "", nil)
	decodeInto(t, body, &avail)
	if avail.Count != 37 {
		t.Errorf("%d available with mint back, want 37", avail.Count)
	}
	e.order(e.gTok, 201, one("mojito"))

	// One drink by itself.
	status, body = e.do("PUT", "/api/bar/drinks/negroni/stock", e.bTok, map[string]bool{"inStock": false})
	var neg drinkView
	decodeInto(t, body, &neg)
	if status != 200 || neg.Available || !neg.OutOfStock {
		t.Errorf("negroni out: %d %s", status, body)
	}
	status, body = e.do("POST", "/api/orders", e.gTok, map[string]any{"items": []any{one("negroni")}}, "Idempotency-Key", newKey())
	if status != 409 || !strings.Contains(string(body), "run out") {
		t.Errorf("order negroni: %d %s", status, body)
	}

	for _, tt := range []struct {
		path string
		body any
		code string
	}{
		{"/api/bar/stock/mint", map[string]any{}, "missing_in_stock"},
		{"/api/bar/stock/mint", `{"inStock": "no"}`, "invalid_field"},
		{"/api/bar/stock/%20", map[string]bool{"inStock": true}, "invalid_ingredient"},
		{"/api/bar/stock/" + strings.Repeat("x", 61), map[string]bool{"inStock": true}, "invalid_ingredient"},
		{"/api/bar/drinks/nope/stock", map[string]bool{"inStock": true}, "not_found"},
	} {
		status, body := e.do("PUT", tt.path, e.bTok, tt.body)
		if status >= 500 || errorCode(t, body) != tt.code {
			t.Errorf("PUT %s %v: %d %s, want %s", tt.path, tt.body, status, body, tt.code)
		}
	}
	changes := menuEvents.named(t, "menu.changed")
	if len(changes) != 3 {
		t.Errorf("%d menu.changed events, want 3 (mint out, mint in, negroni out)", len(changes))
	}
	var first struct {
		Reason   string   `json:"reason"`
		DrinkIDs []string `json:"drinkIds"`
	}
	json.Unmarshal(changes[0].Data, &first)
	if first.Reason != "stock" || len(first.DrinkIDs) != 4 {
		t.Errorf("first menu.changed %s", changes[0].Data)
	}
}

func TestStockPathNamesAnyCase(t *testing.T) {
	e := newBarEnv(t)
	status, body := e.do("PUT", "/api/bar/stock/"+url.PathEscape("Lime  Juice"), e.bTok, map[string]bool{"inStock": false})
	var resp ingredientStockResponse
	decodeInto(t, body, &resp)
	if status != 200 || resp.Ingredient.Key != "lime juice" || resp.Ingredient.Name != "Lime juice" || len(resp.Drinks) != 12 {
		t.Errorf("lime juice: %d %s", status, body)
	}
}
