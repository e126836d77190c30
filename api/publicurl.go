package api

import (
	"context"
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

// The public URL is the address on every invitation link and QR code. It
// is --public-url, unless the host picked another on the admin page (one
// of this machine's network addresses, when the configured one is
// 0.0.0.0 or localhost and no phone could open it).

// publicURL is the address invitations use now.
func (s *Server) publicURL(ctx context.Context) string {
	if u, err := s.store.PublicURLChoice(ctx); err == nil && u != "" {
		return u
	} else if err != nil {
		s.log.WarnContext(ctx, "read the host's public url; using the configured one", "err", err)
	}
	return s.cfg.PublicURL
}

// publicURLView is GET /api/admin/public-url.
type publicURLView struct {
	publicurl.Report
	// Configured is --public-url; Chosen the host's pick, if any.
	Configured string `json:"configured"`
	Chosen     string `json:"chosen"`
}

func (s *Server) publicURLReport(ctx context.Context) (publicURLView, error) {
	chosen, err := s.store.PublicURLChoice(ctx)
	if err != nil {
		return publicURLView{}, err
	}
	effective := s.cfg.PublicURL
	if chosen != "" {
		effective = chosen
	}
	var lan []netip.Addr
	if s.cfg.LANAddrs != nil {
		lan = s.cfg.LANAddrs()
	}
	return publicURLView{Report: publicurl.Check(effective, s.cfg.ListenAddr, lan), Configured: s.cfg.PublicURL, Chosen: chosen}, nil
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
	if err := s.store.SetPublicURLChoice(r.Context(), in.URL, identity(r.Context()).GuestID); err != nil {
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
