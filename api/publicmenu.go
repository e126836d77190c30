package api

import (
	"bytes"
	"context"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"sync"
	"time"

	"github.com/barhub/barhub/guest"
)

// The public menu (docs/MENU.md, "The public menu"): with it on, /menu
// shows the drinks to anyone who opens it, a QR code on the bar or a link
// in the group chat; with it off (the default, for a private party) the
// menu's read routes answer only a signed-in person. --public-menu
// (BARHUB_PUBLIC_MENU) sets the default; the host's switch on the admin
// page, kept in the event's settings, changes it live and wins from then
// on. The app key and the browse rate limit guard the routes either way.

// publicMenuTTL bounds how long an instance trusts its copy of the switch:
// another instance's change reaches it within this time.
const publicMenuTTL = 5 * time.Second

type publicMenuCache struct {
	mu sync.Mutex
	on bool
	at time.Time
}

// menuIsPublic reports whether the menu may be read without signing in.
func (s *Server) menuIsPublic(ctx context.Context) (bool, error) {
	c := &s.publicMenu
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.at.IsZero() && time.Since(c.at) < publicMenuTTL {
		return c.on, nil
	}
	st, err := s.store.Settings(ctx)
	if err != nil {
		return false, err
	}
	c.on, c.at = st.MenuIsPublic(s.cfg.PublicMenu), time.Now()
	return c.on, nil
}

// forgetPublicMenu makes the next read of the switch go to the database
// (the host changed it on this instance).
func (s *Server) forgetPublicMenu() {
	s.publicMenu.mu.Lock()
	s.publicMenu.at = time.Time{}
	s.publicMenu.mu.Unlock()
}

// requireMenuReader lets a menu read through for anyone signed in, and
// for anyone at all while the public menu is on; otherwise 401
// menu_private, which names no drink.
func (s *Server) requireMenuReader(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, signed := s.optionalIdentity(r); signed {
			next.ServeHTTP(w, r)
			return
		}
		on, err := s.menuIsPublic(r.Context())
		if err != nil {
			s.fail(w, r, err)
			return
		}
		if !on {
			w.Header().Set("Vary", "Authorization")
			s.writeError(w, r, http.StatusUnauthorized, "menu_private", "the menu is for the party's guests: sign in with the code on your invitation")
			return
		}
		next.ServeHTTP(w, r)
	})
}

// eventView is GET /api/event: the public part of the event, and whether
// the menu is public (so /menu knows what to show).
type eventView struct {
	guest.Public
	PublicMenu bool `json:"publicMenu"`
	// ID is the event's, for the links a page makes to the event's
	// public pages (/join?event=, /menu?event=; docs/EVENTS.md).
	ID string `json:"id,omitempty"`
}

// settingsView is GET and PUT /api/admin/settings: the settings with the
// public menu as it is now, and the flag's default beside the host's
// choice.
type settingsView struct {
	guest.Settings
	// PublicMenu is whether the menu is public now.
	PublicMenu bool `json:"publicMenu"`
	// PublicMenuDefault is --public-menu; PublicMenuSet says the host's
	// switch decides instead.
	PublicMenuDefault bool `json:"publicMenuDefault"`
	PublicMenuSet     bool `json:"publicMenuSet"`
}

func (s *Server) settingsView(st guest.Settings) settingsView {
	return settingsView{Settings: st.InZone(), PublicMenu: st.MenuIsPublic(s.cfg.PublicMenu), PublicMenuDefault: s.cfg.PublicMenu, PublicMenuSet: st.PublicMenu != nil}
}

// menuURL is the public menu's address, on the public URL invitations use;
// another event's than the first names it.
func (s *Server) menuURL(ctx context.Context) string {
	return s.publicURL(ctx) + "/menu" + s.eventQuery()
}

// eventQuery is "?event=<id>" for an event other than the first, whose
// public pages have no token to say which event they are.
func (s *Server) eventQuery() string {
	if s.event == "" {
		return ""
	}
	return "?event=" + url.QueryEscape(s.event)
}

var posterPage = template.Must(template.New("poster").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="stylesheet" href="/static/css/poster.css">
</head>
<body>
{{- if not .On}}
<p class="no-print warning" role="alert">{{.Off}}</p>
{{- end}}
<main class="poster">
  <p class="kicker">{{.Kicker}}</p>
  <h1>{{.Event}}</h1>
  <div class="qr">{{.QR}}</div>
  <p class="scan">{{.Scan}}</p>
  <p class="link">{{.Link}}</p>
  <p class="order">{{.Order}}</p>
</main>
</body>
</html>
`))

// handlePoster is the printable poster for the bar and the tables: the
// event's name, a big QR code of the public menu's address and a line of
// text, in the host's language (the page's Accept-Language).
func (s *Server) handlePoster(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	anyway, err := boolParam(r.URL.Query(), "anyway")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if s.refuseUnreachable(w, r, anyway) {
		return
	}
	st, err := s.store.Settings(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	link := s.menuURL(ctx)
	qr, err := qrSVG(link)
	if err != nil {
		s.fail(w, r, fmt.Errorf("draw the poster's QR code: %w", err))
		return
	}
	lang := s.locale.Match(s.requestLanguage(r))
	say := func(id string) string {
		t, _ := s.locale.Text(lang, id, map[string]any{"Event": st.EventName})
		return t
	}
	var page bytes.Buffer
	err = posterPage.Execute(&page, map[string]any{
		"Lang": lang.String(), "Title": say("poster.title"), "Event": st.EventName, "QR": qr, "Link": link,
		"Kicker": say("poster.kicker"), "Scan": say("poster.scan"), "Order": say("poster.order"),
		"On": st.MenuIsPublic(s.cfg.PublicMenu), "Off": say("poster.off"),
	})
	if err != nil {
		s.fail(w, r, fmt.Errorf("render the poster: %w", err))
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(page.Bytes())
}
