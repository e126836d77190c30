package api

import (
	"encoding/json"
	"net/http"
	"strconv"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/menu"
)

// Menu reads (public, cached; see app/menu_cache.go). A signed-in guest's copy
// carries warnings for drinks whose allergens match their own dietary
// answer.

// drinkView and sectionView are a drink and a section as the menu shows
// them.
type (
	drinkView   = app.DrinkView
	sectionView = app.SectionView
)

func (s *Server) handleSections(w http.ResponseWriter, r *http.Request) {
	snap, err := s.menu.Snapshot(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	sec := snap.Sections()
	writeCached(w, r, sec.Body, sec.ETag)
}

func (s *Server) handleDrinks(w http.ResponseWriter, r *http.Request) {
	id, signed := s.optionalIdentity(r)
	f, err := menu.ParseFilter(r.URL.Query())
	if err != nil {
		s.fail(w, r, errBadRequest("invalid_filter", err.Error()))
		return
	}
	snap, err := s.menu.Snapshot(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	l, err := snap.List(f)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// Each drink diet.Check finds not safe for the guest is marked with
	// why: their allergens, "alcohol", a diet.
	warnings := map[string][]string{}
	var unread []string
	if signed {
		mine := s.menu.GuestNeeds(r.Context(), id.GuestID)
		// ?for= marks the drinks for someone else the guest orders for.
		if ref := r.URL.Query().Get("for"); ref != "" {
			var known bool
			if mine, known, err = s.menu.PersonNeeds(r.Context(), id.GuestID, ref); err != nil {
				s.fail(w, r, err)
				return
			} else if !known {
				s.fail(w, r, errUnprocessable("unknown_person", "for must name someone on your invitation: a member of your group or a person you bring (+1, +2…)"))
				return
			}
		}
		if !mine.Empty() {
			// The words behind a "check" cause: what the person wrote that
			// barhub could not read (diet.Caution).
			unread = mine.Unread()
			for _, did := range l.IDs {
				if v := diet.Check(snap.DietDrink(did), mine); !v.Safe {
					warnings[did] = v.Causes()
				}
			}
		}
	}
	etag := l.ETag
	warn := []byte("{}")
	if len(warnings) > 0 {
		warn, err = json.Marshal(warnings)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		etag = strings.TrimSuffix(l.ETag, `"`) + "-" + strings.Trim(app.ETag(warn), `"`)[:12] + `"`
	}
	head := `{"count":` + strconv.Itoa(len(l.IDs)) + `,"drinks":`
	if len(unread) > 0 {
		words, err := json.Marshal(unread)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		head = `{"count":` + strconv.Itoa(len(l.IDs)) + `,"unread":` + string(words) + `,"drinks":`
		etag = strings.TrimSuffix(etag, `"`) + "-" + strings.Trim(app.ETag(words), `"`)[:8] + `"`
	}
	mid := []byte(`,"allergenWarnings":`)
	tail := []byte("}\n")
	// The cached array goes out as it is, never copied into a new body.
	writeCachedParts(w, r, etag, []byte(head), l.Array, mid, warn, tail)
}

func (s *Server) handleDrink(w http.ResponseWriter, r *http.Request) {
	id, signed := s.optionalIdentity(r)
	snap, err := s.menu.Snapshot(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	d, ok := snap.Drink(chi.URLParam(r, "id"))
	if !ok {
		s.fail(w, r, errNotFound("there is no such drink on the menu"))
		return
	}
	v := app.ViewOf(d)
	if signed {
		if c := diet.Check(snap.DietDrink(d.ID), s.menu.GuestNeeds(r.Context(), id.GuestID)); !c.Safe {
			v.AllergenWarning = c.Causes()
		}
	}
	body, err := json.Marshal(v)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeCached(w, r, append(body, '\n'), app.ETag(body))
}

// writeCached answers with body and its ETag, or 304 when the client has
// it already. Phones revalidate every time (no-cache), which costs a tiny
// 304 and never shows an old menu.
func writeCached(w http.ResponseWriter, r *http.Request, body []byte, etag string) {
	writeCachedParts(w, r, etag, body)
}

// writeCachedParts is writeCached for a body sent in pieces.
func writeCachedParts(w http.ResponseWriter, r *http.Request, etag string, parts ...[]byte) {
	h := w.Header()
	h.Set("ETag", etag)
	h.Set("Cache-Control", "private, no-cache")
	h.Set("Vary", "Authorization")
	if etagMatches(r.Header.Get("If-None-Match"), etag) {
		w.WriteHeader(http.StatusNotModified)
		return
	}
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	h.Set("Content-Type", "application/json; charset=utf-8")
	h.Set("Content-Length", strconv.Itoa(n))
	w.WriteHeader(http.StatusOK)
	if r.Method == http.MethodHead {
		return
	}
	for _, p := range parts {
		w.Write(p)
	}
}

// etagMatches implements If-None-Match's weak comparison over a list.
func etagMatches(header, etag string) bool {
	if header == "" {
		return false
	}
	for _, t := range strings.Split(header, ",") {
		t = strings.TrimPrefix(strings.TrimSpace(t), "W/")
		if t == "*" || t == etag {
			return true
		}
	}
	return false
}
