package api

import (
	"net/netip"
	"strings"
	"testing"

	"github.com/barhub/barhub/guest"
)

func lanOf(addrs ...string) func() []netip.Addr {
	return func() []netip.Addr {
		var out []netip.Addr
		for _, a := range addrs {
			out = append(out, netip.MustParseAddr(a))
		}
		return out
	}
}

// The README says --public-url wins; an address picked on the admin page
// earlier silently overrode it. Flag > picked > the only LAN address >
// where barhub listens.
func TestPublicURLPrecedence(t *testing.T) {
	t.Run("flag wins over a pick", func(t *testing.T) {
		e := newTestEnv(t, func(d *Deps) {
			d.Config.PublicURL, d.Config.PublicURLSet = "https://party.example.com", true
			d.Config.ListenAddr, d.Config.LANAddrs = "[::]:8080", lanOf("192.168.1.20")
		})
		tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
		ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron"})
		// Picked before the host restarted with --public-url.
		if err := e.store.SetPublicURLChoice(t.Context(), "http://192.168.1.20:8080", ""); err != nil {
			t.Fatal(err)
		}
		var rep publicURLView
		status, body := e.do("GET", "/api/admin/public-url", tok, nil)
		decodeInto(t, body, &rep)
		if status != 200 || rep.URL != "https://party.example.com" || rep.Source != "flag" || rep.Chosen != "http://192.168.1.20:8080" || rep.Configured != "https://party.example.com" {
			t.Fatalf("flag and pick: %d %s", status, body)
		}
		status, page := e.do("GET", "/api/admin/invitations?guest="+ada.ID, tok, nil)
		if status != 200 || !strings.Contains(string(page), "https://party.example.com/login?code="+ada.Code) {
			t.Fatalf("the card does not use --public-url: %d %s", status, page)
		}
	})
	t.Run("pick over the only LAN address, then that address", func(t *testing.T) {
		e := newTestEnv(t, func(d *Deps) {
			d.Config.PublicURL = "http://[::]:8080"
			d.Config.ListenAddr, d.Config.LANAddrs = "[::]:8080", lanOf("192.168.1.20")
		})
		tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
		var rep publicURLView
		status, body := e.do("GET", "/api/admin/public-url", tok, nil)
		decodeInto(t, body, &rep)
		if status != 200 || rep.URL != "http://192.168.1.20:8080" || rep.Source != "lan" || !rep.Reachable {
			t.Fatalf("the only LAN address: %d %s", status, body)
		}
		status, body = e.do("PUT", "/api/admin/public-url", tok, map[string]string{"url": "http://party.lan:8080"})
		decodeInto(t, body, &rep)
		if status != 200 || rep.URL != "http://party.lan:8080" || rep.Source != "picked" {
			t.Fatalf("picked: %d %s", status, body)
		}
		// The TV's board link follows the same address (it once used the
		// listen address as configured, http://[::]:8080).
		status, body = e.do("POST", "/api/bar/boards", tok, map[string]string{"name": "TV"})
		var made boardLink
		decodeInto(t, body, &made)
		if status != 201 || !strings.HasPrefix(made.Link, "http://party.lan:8080/board#key=") {
			t.Fatalf("board link: %d %s", status, body)
		}
	})
	t.Run("none known", func(t *testing.T) {
		e := newTestEnv(t, func(d *Deps) {
			d.Config.PublicURL = "http://[::]:8080"
			d.Config.ListenAddr, d.Config.LANAddrs = "[::]:8080", lanOf("192.168.1.20", "10.0.0.4")
		})
		tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
		var rep publicURLView
		status, body := e.do("GET", "/api/admin/public-url", tok, nil)
		decodeInto(t, body, &rep)
		if status != 200 || rep.Source != "listen" || rep.Reachable || len(rep.Suggestions) != 2 {
			t.Fatalf("two LAN addresses: %d %s", status, body)
		}
	})
}

// The reproduction: served on 0.0.0.0, barhub e-mailed, copied and
// printed http://[::]:8080/… links after only a warning in the log.
func TestUnreachableLinksAreRefused(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) {
		d.Config.PublicURL = "http://[::]:8080"
		d.Config.ListenAddr, d.Config.LANAddrs = "[::]:8080", lanOf("192.168.1.20", "10.0.0.4")
		d.Mail = MailConfig{Configured: true, From: "party@example.com", Rate: 5}
	})
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron", Email: "ada@example.com"})
	refused := func(status int, body []byte) bool {
		s := string(body)
		return status == 409 && strings.Contains(s, "public_url_unreachable") && strings.Contains(s, "--public-url") &&
			strings.Contains(s, "http://192.168.1.20:8080") && strings.Contains(s, "admin page")
	}
	for _, how := range []string{"email", "link", "share", "print"} {
		status, body := e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": how, "guestIds": []string{ada.ID}})
		if !refused(status, body) {
			t.Errorf("%s: %d %s", how, status, body)
		}
	}
	status, body := e.do("GET", "/api/admin/invitations?guest="+ada.ID, tok, nil)
	if !refused(status, body) {
		t.Errorf("print: %d %s", status, body)
	}
	g, _ := e.store.GuestByID(t.Context(), ada.ID)
	if g.Invite != nil {
		t.Fatalf("a refused invitation was recorded: %+v", g.Invite)
	}
	// The host may insist (one machine alone).
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "link", "guestIds": []string{ada.ID}, "anyway": true})
	if status != 200 {
		t.Errorf("link anyway: %d %s", status, body)
	}
	// Once an address is picked, the links go.
	e.do("PUT", "/api/admin/public-url", tok, map[string]string{"url": "http://192.168.1.20:8080"})
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{ada.ID}})
	if status != 202 {
		t.Errorf("email after the pick: %d %s", status, body)
	}
	status, body = e.do("GET", "/api/admin/invitations?guest="+ada.ID, tok, nil)
	if status != 200 || !strings.Contains(string(body), "http://192.168.1.20:8080/login?code="+ada.Code) {
		t.Errorf("print after the pick: %d %s", status, body)
	}
}

// A guest e-mailed a wrong link was "already invited" for good: Send
// again e-mails them once more with the same code.
func TestSendInvitationAgain(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) {
		d.Mail = MailConfig{Configured: true, From: "party@example.com", Rate: 5}
	})
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron", Email: "ada@example.com"})
	var res sendResult
	status, body := e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{ada.ID}})
	decodeInto(t, body, &res)
	if status != 202 || res.Queued != 1 {
		t.Fatalf("first: %d %s", status, body)
	}
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{ada.ID}})
	decodeInto(t, body, &res)
	if status != 200 || res.Queued != 0 || len(res.Skipped) != 1 || res.Skipped[0].Reason != "already_sent" {
		t.Fatalf("second without again: %d %s", status, body)
	}
	status, body = e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "email", "guestIds": []string{ada.ID}, "again": true})
	decodeInto(t, body, &res)
	if status != 202 || res.Queued != 1 || len(res.Skipped) != 0 {
		t.Fatalf("send again: %d %s", status, body)
	}
}

// A --public-url no phone can open cannot be fixed by a pick, which it
// overrides: the refusal says to restart with another.
func TestUnreachableFlagSaysRestart(t *testing.T) {
	e := newTestEnv(t, func(d *Deps) {
		d.Config.PublicURL, d.Config.PublicURLSet = "http://localhost:8080", true
		d.Config.ListenAddr, d.Config.LANAddrs = "[::]:8080", lanOf("192.168.1.20")
	})
	tok := e.tokenFor(e.addGuest(guest.Guest{Role: guest.RoleAdmin}))
	ada := e.addGuest(guest.Guest{FirstName: "Ada", LastName: "Byron"})
	status, body := e.do("POST", "/api/admin/invitations/send", tok, map[string]any{"how": "link", "guestIds": []string{ada.ID}})
	if status != 409 || !strings.Contains(string(body), "public_url_unreachable") || !strings.Contains(string(body), "restart barhub") || strings.Contains(string(body), "on the admin page") {
		t.Fatalf("flag no phone opens: %d %s", status, body)
	}
}
