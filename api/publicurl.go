package api

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/barhub/barhub/api/publicurl"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/invite"
	"github.com/barhub/barhub/text"
)

// The public URL is the address on every invitation link and QR code:
// --public-url when given (it is said at start, so it wins over an earlier
// pick), else the address the host picked on the admin page, else this
// machine's only network address, else the address barhub listens on
// (publicurl.Resolve). Links that no phone could open are not passed on
// unless the host says to (refuseUnreachable).

// publicURL is the address invitations use now.
func (s *Server) publicURL(ctx context.Context) string {
	v, err := s.publicURLReport(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "read the host's public url; using the configured one", "err", err)
		return s.cfg.PublicURL
	}
	return v.URL
}

// publicURLView is GET /api/admin/public-url.
type publicURLView struct {
	publicurl.Report
	// Source says why URL is the one in use: flag (--public-url), picked
	// (on this page), lan (the machine's only network address) or listen
	// (where barhub listens; no phone can open it on 0.0.0.0).
	Source string `json:"source"`
	// Configured is --public-url, or "" when it was not given; Chosen the
	// host's pick, if any, which the flag overrides.
	Configured string `json:"configured"`
	Chosen     string `json:"chosen"`
}

func (s *Server) publicURLReport(ctx context.Context) (publicURLView, error) {
	chosen, err := s.control.PublicURLChoice(ctx)
	if err != nil {
		return publicURLView{}, err
	}
	var lan []netip.Addr
	if s.cfg.LANAddrs != nil {
		lan = s.cfg.LANAddrs()
	}
	var flag string
	if s.cfg.PublicURLSet {
		flag = s.cfg.PublicURL
	}
	url, source := publicurl.Resolve(flag, chosen, s.cfg.ListenAddr, lan)
	if source == publicurl.SourceListen && s.cfg.PublicURL != "" {
		url = s.cfg.PublicURL
	}
	return publicURLView{Report: publicurl.Check(url, s.cfg.ListenAddr, lan), Source: source, Configured: flag, Chosen: chosen}, nil
}

// refuseUnreachable answers 409 public_url_unreachable, naming the fix,
// when the links a request would pass on point where no phone can go
// while barhub is on the network, and reports whether it did. Listening
// on this machine alone, the links open wherever barhub does. The host
// may still go ahead with anyway.
func (s *Server) refuseUnreachable(w http.ResponseWriter, r *http.Request, anyway bool) bool {
	if anyway {
		return false
	}
	v, err := s.publicURLReport(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return true
	}
	if v.Level != "warning" {
		return false
	}
	fix := "start barhub with --public-url http://<this machine's address>:<port> (or BARHUB_PUBLIC_URL)"
	if v.Source == publicurl.SourceFlag {
		fix = "it was set with --public-url (or BARHUB_PUBLIC_URL), which wins over a pick: restart barhub with it set to an address phones can open"
	} else if len(v.Suggestions) > 0 {
		fix += ", or pick " + strings.Join(v.Suggestions, " or ") + " on the admin page"
	}
	ae := errConflict("public_url_unreachable", fmt.Sprintf("invitation links would point at %s, which no guest's phone can open: %s", v.URL, fix))
	ae.Details = map[string]any{"url": v.URL, "reason": v.Reason, "suggestions": v.Suggestions}
	ae.Vars = map[string]any{"URL": v.URL}
	s.fail(w, r, ae)
	return true
}

func (s *Server) handleGetPublicURL(w http.ResponseWriter, r *http.Request) {
	v, err := s.publicURLReport(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, v)
}

// publicURLInput is PUT /api/admin/public-url.
type publicURLInput struct {
	URL string `json:"url"`
}

// handlePutPublicURL keeps the host's pick: {"url": "http://192.168.1.23:8080"},
// or {"url": ""} for the configured one again.
func (s *Server) handlePutPublicURL(w http.ResponseWriter, r *http.Request) {
	var in publicURLInput
	if err := decode(r, &in); err != nil {
		s.fail(w, r, err)
		return
	}
	in.URL = strings.TrimRight(strings.TrimSpace(in.URL), "/")
	// The address is printed on every invitation card: no character in it
	// may hide or reorder the rest. It is taken as typed or refused, never
	// cleaned into another address (package text).
	if c, err := (text.Rule{}).Clean(in.URL); err != nil || c != in.URL {
		s.fail(w, r, errUnprocessable("invalid_url", "url holds characters that are not part of an address (controls, direction marks or overrides)"))
		return
	}
	if in.URL != "" {
		u, err := url.Parse(in.URL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" || u.User != nil || u.RawQuery != "" || u.Fragment != "" || len(in.URL) > 300 {
			s.fail(w, r, errUnprocessable("invalid_url", "url must be an http:// or https:// address such as http://192.168.1.23:8080, without a query"))
			return
		}
	}
	if err := s.control.SetPublicURLChoice(r.Context(), in.URL, identity(r.Context()).GuestID); err != nil {
		s.fail(w, r, err)
		return
	}
	audit.Note(r.Context(), "url", in.URL)
	s.handleGetPublicURL(w, r)
}

// handleEventICS is the event as a calendar file, for "Add to calendar"
// on the guest's page: signed in, since it carries the address.
func (s *Server) handleEventICS(w http.ResponseWriter, r *http.Request) {
	st, err := s.store.Settings(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	// The guest's page asks in the language it shows.
	label, _ := s.locale.Text(s.locale.Match(s.requestLanguage(r)), "mail.dressCode", nil)
	ics := invite.ICS(st, s.publicURL(r.Context()), label, time.Now())
	if ics == nil {
		s.fail(w, r, errNotFound("the event has no date yet, so there is no calendar entry"))
		return
	}
	w.Header().Set("Content-Type", "text/calendar; charset=utf-8")
	w.Header().Set("Content-Disposition", `attachment; filename="event.ics"`)
	w.Header().Set("Cache-Control", "no-store")
	w.Write(ics)
}
