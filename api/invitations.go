package api

import (
	"bytes"
	"fmt"
	"html/template"
	"net/http"
	"net/url"
	"strings"

	qrcode "github.com/skip2/go-qrcode"

	"github.com/barhub/barhub/api/guest"
)

// Printable invitations: one card per guest with the sign-in link (code
// filled in) and the same link as a QR code, drawn as inline SVG so it
// prints sharp at any size.

// invitationCard is one guest's card.
type invitationCard struct {
	Guest guest.Guest
	// Others is how many people come on this card besides the guest.
	Others int
	Link   string
	QR     template.HTML
}

var invitationsPage = template.Must(template.New("invitations").Parse(`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Invitations · {{.Event.EventName}}</title>
<link rel="stylesheet" href="/static/css/invitations.css">
</head>
<body>
<header class="no-print">
  <h1>Invitations for {{.Event.EventName}}</h1>
  <p>{{len .Cards}} {{if eq (len .Cards) 1}}card{{else}}cards{{end}}. Print this page; each card fits a quarter of an A4 or Letter sheet.</p>
</header>
<main class="cards">
{{- range .Cards}}
<article class="card" data-guest="{{.Guest.ID}}">
  <p class="kicker">You are invited to</p>
  <h2>{{$.Event.EventName}}</h2>
  {{- with $.When}}<p class="when">{{.}}</p>{{end}}
  {{- with $.Event.Location}}<p class="where">{{.}}</p>{{end}}
  {{- with $.Event.DressCode}}<p class="dress">Dress code: {{.}}</p>{{end}}
  <p class="dear">Dear {{.Guest.FirstName}}{{if eq .Others 1}} and one more{{else if gt .Others 1}} and {{.Others}} more{{end}},</p>
  <p>Please let us know if you can come{{with $.Deadline}} by {{.}}{{end}}: scan the code or open the link, and sign in with your last name.</p>
  <div class="qr">{{.QR}}</div>
  <p class="link"><a href="{{.Link}}">{{.Link}}</a></p>
  <p class="code">Your code: <strong>{{.Guest.Code}}</strong></p>
</article>
{{- else}}
<p>No guests yet.</p>
{{- end}}
</main>
</body>
</html>
`))

// handleInvitations renders every guest's card, or one with ?guest=ID.
// Staff who are not also attending get no card unless ?staff=true: the
// host's own code printed as "Dear Party," is a key to the admin page.
func (s *Server) handleInvitations(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	var guests []guest.Guest
	withStaff, err := boolParam(r.URL.Query(), "staff")
	if err != nil {
		s.fail(w, r, err)
		return
	}
	if id := r.URL.Query().Get("guest"); id != "" {
		g, err := s.store.GuestByID(ctx, id)
		if err != nil {
			s.fail(w, r, storeError(err, "that guest"))
			return
		}
		guests = []guest.Guest{g}
	} else {
		all, err := s.store.AllGuests(ctx)
		if err != nil {
			s.fail(w, r, err)
			return
		}
		for _, g := range all {
			if g.Counted() || withStaff {
				guests = append(guests, g)
			}
		}
	}
	st, err := s.store.Settings(ctx)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	page, err := renderInvitations(s.publicURL(ctx), st, guests)
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

func renderInvitations(publicURL string, st guest.Settings, guests []guest.Guest) ([]byte, error) {
	data := struct {
		Event    guest.Settings
		When     string
		Deadline string
		Cards    []invitationCard
	}{Event: st}
	loc := st.Loc()
	if st.EventDate != nil {
		data.When = st.EventDate.In(loc).Format("Monday 2 January 2006, 15:04")
	}
	if st.RSVPDeadline != nil {
		data.Deadline = st.RSVPDeadline.In(loc).Format("2 January 2006")
	}
	for _, g := range guests {
		link := invitationLink(publicURL, g.Code)
		svg, err := qrSVG(link)
		if err != nil {
			return nil, fmt.Errorf("qr code for %s: %w", g.ID, err)
		}
		data.Cards = append(data.Cards, invitationCard{Guest: g, Others: max(1, g.ExpectedGuests) - 1, Link: link, QR: svg})
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
