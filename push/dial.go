package push

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"syscall"
	"time"
)

// ErrInside is a connection the sender refused to open: the address,
// after DNS, is not a public one.
var ErrInside = errors.New("address is not public")

// notPublic4 are the IPv4 ranges that are not the public internet (IANA's
// special-purpose address registry), beside what netip's own predicates
// catch: a push service is never there, and a party's LAN, the host
// itself or a cloud's metadata service may be.
var notPublic4 = []netip.Prefix{
	netip.MustParsePrefix("0.0.0.0/8"),       // "this network"
	netip.MustParsePrefix("10.0.0.0/8"),      // private
	netip.MustParsePrefix("100.64.0.0/10"),   // carrier-grade NAT; Alibaba's metadata 100.100.100.200
	netip.MustParsePrefix("127.0.0.0/8"),     // loopback
	netip.MustParsePrefix("169.254.0.0/16"),  // link-local; the clouds' metadata 169.254.169.254
	netip.MustParsePrefix("172.16.0.0/12"),   // private
	netip.MustParsePrefix("192.0.0.0/24"),    // IETF protocol assignments (Oracle's metadata 192.0.0.192)
	netip.MustParsePrefix("192.0.2.0/24"),    // documentation
	netip.MustParsePrefix("192.88.99.0/24"),  // 6to4 relays, deprecated
	netip.MustParsePrefix("192.168.0.0/16"),  // private
	netip.MustParsePrefix("198.18.0.0/15"),   // benchmarking
	netip.MustParsePrefix("198.51.100.0/24"), // documentation
	netip.MustParsePrefix("203.0.113.0/24"),  // documentation
	netip.MustParsePrefix("224.0.0.0/4"),     // multicast
	netip.MustParsePrefix("240.0.0.0/4"),     // reserved, and the broadcast address
}

var (
	// global6 is where public IPv6 unicast lives; everything outside it
	// (loopback, unspecified, IPv4-mapped and -compatible, unique-local
	// fc00::/7 with AWS's metadata fd00:ec2::254, link-local fe80::/10,
	// multicast, discard) is refused.
	global6 = netip.MustParsePrefix("2000::/3")
	// notPublic6 are the ranges inside 2000::/3 that are not public or
	// carry an IPv4 address whose reach the check cannot see.
	notPublic6 = []netip.Prefix{
		netip.MustParsePrefix("2001::/32"),     // Teredo
		netip.MustParsePrefix("2001:2::/48"),   // benchmarking
		netip.MustParsePrefix("2001:10::/28"),  // ORCHID
		netip.MustParsePrefix("2001:20::/28"),  // ORCHIDv2
		netip.MustParsePrefix("2001:db8::/32"), // documentation
		netip.MustParsePrefix("2002::/16"),     // 6to4
		netip.MustParsePrefix("3fff::/20"),     // documentation
	}
	// nat64 prefixes carry an IPv4 address in their last 32 bits: a
	// DNS64 resolver gives them for IPv4-only names, so they are judged
	// by that IPv4 address.
	nat64 = []netip.Prefix{
		netip.MustParsePrefix("64:ff9b::/96"),
	}
)

// Public reports whether a is an address on the public internet, where
// push services are.
func Public(a netip.Addr) bool {
	a = a.Unmap() // ::ffff:127.0.0.1 is 127.0.0.1
	if a.Zone() != "" {
		return false
	}
	if a.Is4() {
		for _, p := range notPublic4 {
			if p.Contains(a) {
				return false
			}
		}
		return true
	}
	for _, p := range nat64 {
		if p.Contains(a) {
			b := a.As16()
			return Public(netip.AddrFrom4([4]byte(b[12:16])))
		}
	}
	if !global6.Contains(a) {
		return false
	}
	for _, p := range notPublic6 {
		if p.Contains(a) {
			return false
		}
	}
	return true
}

// control runs on every connection the sender's dialer opens, after DNS
// and before connecting, with the address about to be dialled: the check
// therefore holds whatever a name resolves to, on every connection, and
// for each address of a name that has several.
func (p Policy) control(network, address string, _ syscall.RawConn) error {
	if network != "tcp4" && network != "tcp6" {
		return fmt.Errorf("push: dial %s %s: %w", network, address, ErrInside)
	}
	ap, err := netip.ParseAddrPort(address)
	if err != nil {
		return fmt.Errorf("push: dial %s: %w", address, ErrInside)
	}
	a := ap.Addr().Unmap()
	if Public(a) {
		return nil
	}
	for _, in := range p.Inside {
		if in.Contains(a) {
			return nil
		}
	}
	return fmt.Errorf("push: dial %s: %w", address, ErrInside)
}

// clientConfig is what the sender's HTTP client is built from.
type clientConfig struct {
	policy   Policy
	timeout  time.Duration
	conns    int
	rootCAs  *x509.CertPool
	resolver *net.Resolver
}

// newClient returns the client the sender posts with. It never uses a
// proxy from the environment (the check would then see the proxy's
// address, not the push service's), never follows a redirect (a 3xx is
// the answer: a redirect could otherwise take the POST, or a GET, to any
// URL), and checks every address it dials (control).
func newClient(c clientConfig) *http.Client {
	dialer := &net.Dialer{
		Timeout:   c.timeout,
		KeepAlive: 30 * time.Second,
		Resolver:  c.resolver,
		Control:   c.policy.control,
	}
	tr := &http.Transport{
		Proxy:                  nil,
		DialContext:            dialer.DialContext,
		TLSClientConfig:        &tls.Config{RootCAs: c.rootCAs, MinVersion: tls.VersionTLS12},
		ForceAttemptHTTP2:      true,
		TLSHandshakeTimeout:    c.timeout,
		ResponseHeaderTimeout:  c.timeout,
		MaxIdleConnsPerHost:    c.conns,
		IdleConnTimeout:        90 * time.Second,
		MaxResponseHeaderBytes: 64 << 10,
	}
	return &http.Client{
		Transport: tr,
		Timeout:   c.timeout,
		CheckRedirect: func(*http.Request, []*http.Request) error {
			return http.ErrUseLastResponse
		},
	}
}
