package push

import (
	"errors"
	"fmt"
	"net/netip"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// A guest hands barhub a URL and barhub POSTs to it: without limits that
// is a request from inside the party's network to wherever the guest
// likes (server-side request forgery). Two checks stand in the way, each
// enough on its own for the addresses that matter:
//
//   - when a subscription is made (and again before every send), the
//     endpoint must be an https URL on a known push service's host, or on
//     a host the operator listed, at port 443 unless the listing names
//     another; IP literals, user info and odd host spellings are refused;
//   - every connection the sender opens is checked after DNS, on the
//     address actually dialled (dial.go): only public unicast addresses,
//     so a listed name that resolves inside is refused too.
//
// docs/SECURITY.md, "Web Push and the party's network", says what and why.

// knownServices are the push services of the browsers people use, as
// host patterns: Chrome, Edge on Android, Opera, Samsung Internet and
// other Chromium browsers use Firebase Cloud Messaging; Firefox uses
// Mozilla's autopush (updates.push.services.mozilla.com); Safari on macOS
// and iOS uses Apple's (web.push.apple.com; Apple asks servers with an
// allow-list to allow *.push.apple.com); Edge on Windows uses the Windows
// Push Notification Services (wns2-….notify.windows.com).
var knownServices = [...]string{
	"fcm.googleapis.com",
	"*.push.services.mozilla.com",
	"*.push.apple.com",
	"*.notify.windows.com",
}

// KnownServices lists the host patterns of the push services barhub
// sends to without being told.
func KnownServices() []string { return slices.Clone(knownServices[:]) }

// Policy says where notifications may go. The zero value is what a
// server runs with: the known push services only, on port 443, at public
// addresses only.
type Policy struct {
	// Hosts are accepted beside KnownServices (--push-hosts): "host",
	// "*.domain" (any name under domain, not domain itself) or either
	// with ":port" (that port only; without one, 443 only). An IP
	// address is accepted only when it is listed as it is written in the
	// URL, and still dialled only when it is public.
	Hosts []string
	// Inside lists address ranges that are not public but that the sender
	// may dial anyway. No flag sets it: it exists for tests, whose push
	// service (push/pushtest) listens on loopback. Anything else stays
	// refused.
	Inside []netip.Prefix
}

// ErrNotAllowed is an endpoint barhub does not send to.
var ErrNotAllowed = errors.New("endpoint not allowed")

// Validate reports the first entry of p.Hosts that is not a host pattern,
// for the flag's error message.
func (p Policy) Validate() error {
	for _, h := range p.Hosts {
		if _, err := parsePattern(h); err != nil {
			return fmt.Errorf("push host %q: %w", h, err)
		}
	}
	return nil
}

// CheckEndpoint reports whether barhub may send to endpoint; the error
// wraps ErrNotAllowed and says why in words a person can act on.
func (p Policy) CheckEndpoint(endpoint string) error {
	if err := p.checkEndpoint(endpoint); err != nil {
		return fmt.Errorf("%w: %s", ErrNotAllowed, err.Error())
	}
	return nil
}

func (p Policy) checkEndpoint(endpoint string) error {
	if strings.ContainsAny(endpoint, "\\ \t\r\n") || strings.ContainsFunc(endpoint, isControl) {
		return errors.New("endpoint contains spaces, backslashes or control characters")
	}
	u, err := url.Parse(endpoint)
	if err != nil || u.Scheme != "https" || u.Opaque != "" || u.Host == "" {
		return errors.New("endpoint must be an https URL of a push service")
	}
	if u.User != nil || strings.Contains(u.Host, "@") {
		return errors.New("endpoint must not carry a user name or password")
	}
	if u.Fragment != "" || strings.Contains(endpoint, "#") {
		return errors.New("endpoint must not have a fragment")
	}
	// url.Parse decodes escapes in the host; an escaped host is never a
	// push service's, and a decoded one could be spelt to slip past.
	if strings.Contains(u.Host, "%") {
		return errors.New("endpoint's host must not be percent-encoded")
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if port == "" && strings.HasSuffix(u.Host, ":") {
		return errors.New("endpoint has an empty port")
	}
	if port != "" {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port[0] == '0' {
			return errors.New("endpoint's port is not a port number")
		}
	}
	literal := false
	if a, err := netip.ParseAddr(host); err == nil {
		literal = true
		host = a.String() // one spelling of each address
		if a.Zone() != "" {
			return errors.New("endpoint's host must not be a scoped address")
		}
	} else if !isDNSName(host) {
		return errors.New("endpoint's host is not a DNS name")
	}
	var wrongPort error
	for _, raw := range append(knownServices[:len(knownServices):len(knownServices)], p.Hosts...) {
		pat, err := parsePattern(raw)
		if err != nil || !pat.matchHost(host) {
			continue
		}
		if pat.port == port || pat.port == "" && port == "443" {
			return nil
		}
		// Another entry may name this port.
		have, want := port, pat.port
		if have == "" {
			have = "443"
		}
		if want == "" {
			want = "443"
		}
		wrongPort = fmt.Errorf("endpoint's port %s is not the push service's (%s)", have, want)
	}
	if wrongPort != nil {
		return wrongPort
	}
	if literal {
		return errors.New("endpoint's host must be a push service's name, not an IP address")
	}
	return fmt.Errorf("%s is not a push service this server sends to (%s)", host, strings.Join(knownServices[:], ", "))
}

// pattern is one entry of the host list.
type pattern struct {
	host     string // lower case; an address in its canonical spelling
	wildcard bool   // "*.host": names under host, not host itself
	port     string // "" is 443
}

func parsePattern(s string) (pattern, error) {
	s = strings.ToLower(strings.TrimSpace(s))
	var p pattern
	if rest, ok := strings.CutPrefix(s, "*."); ok {
		p.wildcard, s = true, rest
	}
	host := s
	if h, port, ok := splitPort(s); ok {
		if n, err := strconv.Atoi(port); err != nil || n < 1 || n > 65535 || port[0] == '0' {
			return pattern{}, fmt.Errorf("%q is not a port", port)
		}
		host, p.port = h, port
	}
	if p.port == "443" {
		p.port = ""
	}
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		if p.wildcard {
			return pattern{}, errors.New("an IP address cannot have a wildcard")
		}
		if a.Zone() != "" {
			return pattern{}, errors.New("a scoped address is not a push service")
		}
		p.host = a.String()
		return p, nil
	}
	if !isDNSName(host) {
		return pattern{}, errors.New("not a host name, *.domain or an IP address, with an optional :port")
	}
	p.host = host
	return p, nil
}

// splitPort splits "host:port" and "[v6]:port"; a bare IPv6 address has
// no port.
func splitPort(s string) (host, port string, ok bool) {
	if strings.HasPrefix(s, "[") {
		i := strings.Index(s, "]")
		if i < 0 || !strings.HasPrefix(s[i+1:], ":") {
			return s, "", false
		}
		return s[:i+1], s[i+2:], true
	}
	if strings.Count(s, ":") != 1 {
		return s, "", false
	}
	host, port, _ = strings.Cut(s, ":")
	return host, port, true
}

func (p pattern) matchHost(host string) bool {
	if p.wildcard {
		return strings.HasSuffix(host, "."+p.host)
	}
	return host == p.host
}

// isDNSName reports whether s is a fully written host name: letters,
// digits and hyphens in labels of 1–63, at least two labels, no trailing
// dot, and a top-level label that is not a number. The last rule turns
// away every form an address can take that is not an address to Go
// (127.1, 0x7f.1, 2130706433) but that some resolvers would read as one.
func isDNSName(s string) bool {
	if len(s) == 0 || len(s) > 253 {
		return false
	}
	labels := strings.Split(s, ".")
	if len(labels) < 2 {
		return false
	}
	for _, l := range labels {
		if len(l) == 0 || len(l) > 63 || l[0] == '-' || l[len(l)-1] == '-' {
			return false
		}
		for i := 0; i < len(l); i++ {
			c := l[i]
			if !('a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-') {
				return false
			}
		}
	}
	tld := labels[len(labels)-1]
	if strings.HasPrefix(tld, "xn--") {
		return true
	}
	for i := 0; i < len(tld); i++ {
		if !('a' <= tld[i] && tld[i] <= 'z') {
			return false
		}
	}
	return true
}

func isControl(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) }
