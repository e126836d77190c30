package api

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/locale"
)

// Printable invitations: one card per guest with the sign-in link (code
// filled in) and the same link as a QR code, drawn as inline SVG so it
// prints sharp at any size.

// invitationCard is one guest's card, in the guest's language.
type invitationCard struct {
	Guest guest.Guest
	Lang  string
	Words invite.Words
	Link  string
	QR    template.HTML
}

var invitationsPage = template.Must(template.New("invitations").Parse(`<!doctype html>
<html lang="{{.Lang}}">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{{.Title}}</title>
<link rel="stylesheet" href="/static/css/invitations.css">
</head>
<body>
<header class="no-print">
  <h1>{{.Title}}</h1>
  <p>{{.Count}}</p>
</header>
<main class="cards">
{{- range .Cards}}
<article class="card" data-guest="{{.Guest.ID}}" lang="{{.Lang}}">
  <p class="kicker">{{.Words.W.lead}}</p>
  <h2>{{$.Event.EventName}}</h2>
  {{- with .Words.When}}<p class="when">{{.}}</p>{{end}}
  {{- with $.Event.Location}}<p class="where">{{.}}</p>{{end}}
  {{- if $.Event.DressCode}}<p class="dress">{{.Words.W.dressCode}}: {{$.Event.DressCode}}</p>{{end}}
  <p class="dear">{{.Words.W.greeting}}</p>
  <p>{{.Words.W.ask}}. {{.Words.W.scan}}</p>
  <div class="qr">{{.QR}}</div>
  <p class="link"><a href="{{.Link}}">{{.Link}}</a></p>
  <p class="code">{{.Words.W.code}} <strong>{{.Guest.Code}}</strong></p>
</article>
{{- else}}
<p>{{.None}}</p>
{{- end}}
</main>
</body>
</html>
`))

// handleInvitations prints invitation cards: every counted guest's (staff
// too with ?staff=true), or one guest's with ?guest=; not while no phone
// could open their links, unless ?anyway=true. Each card is in its
// guest's language (the one their page last showed), else in the host's;
// the page around them is in the host's.
func (s *Server) handleInvitations(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	withStaff, err := boolParam(r.URL.Query(), "staff")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	anyway, err := boolParam(r.URL.Query(), "anyway")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if s.refuseUnreachable(w, r, anyway) {
		return
	}
	cards, err := s.guests.invitations.Cards(ctx, r.URL.Query().Get("guest"), withStaff)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page, err := renderInvitations(s.locale, s.requestLanguage(r), s.publicURL(ctx), cards.Settings, cards.Guests)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Content-Security-Policy", "default-src 'none'; style-src 'self'; img-src 'self' data:; base-uri 'self'")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	w.Write(page)
}

// invitationLink is where a guest's card points: the sign-in page with
// the code filled in.
func invitationLink(publicURL, code string) string {
	return strings.TrimRight(publicURL, "/") + "/login?code=" + url.QueryEscape(code)
}

// renderInvitations writes the cards page: the page in hostLang, each card
// in its guest's language, else hostLang, else English.
func renderInvitations(texts *locale.Catalog, hostLang, publicURL string, st guest.Settings, guests []guest.Guest) ([]byte, error) {
	lang := texts.Match(hostLang)
	say := func(id string, vars map[string]any) string {
		t, _ := texts.Text(lang, id, vars)
		return t
	}
	data := struct {
		Lang, Title, Count, None string
		Event                    guest.Settings
		Cards                    []invitationCard
	}{
		Lang: lang.String(), Event: st,
		Title: say("invitations.title", map[string]any{"Event": st.EventName}),
		Count: say("invitations.count", map[string]any{"Count": len(guests)}),
		None:  say("invitations.none", nil),
	}
	for _, g := range guests {
		link := invitationLink(publicURL, g.Code)
		svg, err := qrSVG(link)
		if err != nil {
			return nil, fmt.Errorf("qr code for %s: %w", g.ID, err)
		}
		cardLang := texts.Match(g.Language, hostLang)
		words, err := invite.CardWords(texts, cardLang, g, st)
		if err != nil {
			return nil, fmt.Errorf("invitation card for %s: %w", g.ID, err)
		}
		data.Cards = append(data.Cards, invitationCard{Guest: g, Lang: cardLang.String(), Words: words, Link: link, QR: svg})
	}
	var buf bytes.Buffer
	if err := invitationsPage.Execute(&buf, data); err != nil {
		return nil, fmt.Errorf("render invitations: %w", err)
	}
	return buf.Bytes(), nil
}

// qrSVG draws content as a QR code: one path of unit squares over a white
// quiet zone, scaled by the viewBox.
func qrSVG(content string) (template.HTML, error) {
	q, err := qrcode.New(content, qrcode.Medium)
	if err != nil {
		return "", err
	}
	bits := q.Bitmap()
	n := len(bits)
	var b strings.Builder
	fmt.Fprintf(&b, `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 %d %d" width="160" height="160" shape-rendering="crispEdges" role="img" aria-label="QR code of the invitation link">`, n, n)
	fmt.Fprintf(&b, `<rect width="%d" height="%d" fill="#fff"/><path fill="#000" d="`, n, n)
	for y, row := range bits {
		for x, on := range row {
			if on {
				fmt.Fprintf(&b, "M%d %dh1v1h-1z", x, y)
			}
		}
	}
	b.WriteString(`"/></svg>`)
	return template.HTML(b.String()), nil
}
