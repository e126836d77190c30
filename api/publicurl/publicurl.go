// Package publicurl checks that the address printed on invitations is one
// a guest's phone can open, and suggests this machine's network addresses
// when it is not.
package publicurl

import (
	"fmt"
	"net"
	"net/netip"
	"net/url"
	"slices"
	"strings"
)

// Report is what Check found.
type Report struct {
	URL string `json:"url"`
	// Reachable is false when phones cannot open URL.
	Reachable bool `json:"reachable"`
	// Level is "ok", "warning" (phones cannot open the links) or "info"
	// (barhub only listens on this machine, so only this machine can).
	Level   string `json:"level"`
	Problem string `json:"problem,omitempty"`
	// Reason names the problem for a page to say in its own language:
	// not_http, unspecified, loopback (on the network) or listens_locally;
	// Host and Port are the words it needs.
	Reason string `json:"reason,omitempty"`
	Host   string `json:"host,omitempty"`
	Port   string `json:"port,omitempty"`
	// Suggestions are public URLs that would work: this machine's
	// network addresses with the port barhub listens on.
	Suggestions []string `json:"suggestions"`
}

// Check judges publicURL for a server listening on listen (host:port)
// on a machine with the network addresses lan.
func Check(publicURL, listen string, lan []netip.Addr) Report {
	r := Report{URL: publicURL, Reachable: true, Level: "ok", Suggestions: []string{}}
	u, err := url.Parse(publicURL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Hostname() == "" {
		r.Reachable, r.Level, r.Reason = false, "warning", "not_http"
		r.Problem = fmt.Sprintf("%q is not an http(s) address, so invitation links cannot work", publicURL)
		return r
	}
	listenHost, listenPort, _ := net.SplitHostPort(listen)
	listenIP, _ := netip.ParseAddr(listenHost)
	onNetwork := listenHost == "" || listenIP.IsUnspecified() || (listenIP.IsValid() && !listenIP.IsLoopback())
	if listenHost == "localhost" {
		onNetwork = false
	}
	port := u.Port()
	if port == "" {
		port = listenPort
	}
	suggest := func() {
		cands := lan
		if listenIP.IsValid() && !listenIP.IsUnspecified() && !listenIP.IsLoopback() {
			cands = []netip.Addr{listenIP} // bound to one address: only it answers
		}
		for _, a := range cands {
			host := a.String()
			if a.Is6() {
				host = "[" + host + "]"
			}
			if port != "" {
				host += ":" + port
			}
			s := u.Scheme + "://" + host
			if !slices.Contains(r.Suggestions, s) {
				r.Suggestions = append(r.Suggestions, s)
			}
		}
	}
	host := u.Hostname()
	ip, isIP := netip.ParseAddr(host)
	switch {
	case isIP == nil && ip.IsUnspecified():
		r.Reachable, r.Level, r.Reason, r.Host = false, "warning", "unspecified", host
		r.Problem = fmt.Sprintf("invitation links point at %s, which is where barhub listens, not an address a phone can open", host)
		suggest()
	case strings.EqualFold(host, "localhost") || (isIP == nil && ip.IsLoopback()):
		r.Reachable = false
		if onNetwork {
			r.Level, r.Reason, r.Host = "warning", "loopback", host
			r.Problem = fmt.Sprintf("invitation links point at %s: on a guest's phone that is the phone itself", host)
			suggest()
		} else {
			r.Level, r.Reason, r.Host, r.Port = "info", "listens_locally", listenHost, orDefault(listenPort, "8080")
			r.Problem = fmt.Sprintf("barhub listens on %s only, so invitation links open on this machine alone; to invite phones, start it with --addr 0.0.0.0:%s and pick this machine's network address", listenHost, orDefault(listenPort, "8080"))
		}
	}
	return r
}

func orDefault(s, def string) string {
	if s == "" {
		return def
	}
	return s
}

// LANAddrs lists this machine's addresses a phone on the same network
// could reach: private IPv4 first, then other global unicast addresses;
// loopback and link-local ones are left out.
func LANAddrs() []netip.Addr {
	addrs, err := net.InterfaceAddrs()
	if err != nil {
		return nil
	}
	var out []netip.Addr
	for _, a := range addrs {
		p, err := netip.ParsePrefix(a.String())
		if err != nil {
			continue
		}
		ip := p.Addr().Unmap()
		if ip.IsLoopback() || ip.IsLinkLocalUnicast() || !ip.IsGlobalUnicast() {
			continue
		}
		out = append(out, ip)
	}
	slices.SortStableFunc(out, func(a, b netip.Addr) int { return rank(a) - rank(b) })
	return out
}

func rank(a netip.Addr) int {
	switch {
	case a.Is4() && a.IsPrivate():
		return 0
	case a.Is4():
		return 1
	case a.IsPrivate():
		return 2
	default:
		return 3
	}
}

// Where the public URL in use came from, strongest first.
const (
	// SourceFlag is --public-url or BARHUB_PUBLIC_URL: the host said so
	// when starting barhub, later than any pick on the admin page.
	SourceFlag = "flag"
	// SourcePicked is the address the host picked on the admin page.
	SourcePicked = "picked"
	// SourceLAN is this machine's only network address, when barhub
	// listens on every address and nothing else says which to use.
	SourceLAN = "lan"
	// SourceListen is the address barhub listens on, as a last resort: on
	// 0.0.0.0 or localhost no phone can open it.
	SourceListen = "listen"
)

// Resolve picks the public URL: flag (--public-url) wins, then the host's
// pick on the admin page, then, when barhub listens on every address,
// this machine's one network address if it has exactly one, else
// http://<listen>. Source says which.
func Resolve(flag, picked, listen string, lan []netip.Addr) (url, source string) {
	switch {
	case flag != "":
		return flag, SourceFlag
	case picked != "":
		return picked, SourcePicked
	}
	host, port, err := net.SplitHostPort(listen)
	ip, ipErr := netip.ParseAddr(host)
	if err == nil && (host == "" || (ipErr == nil && ip.IsUnspecified())) && len(lan) == 1 {
		return "http://" + net.JoinHostPort(lan[0].String(), port), SourceLAN
	}
	return "http://" + listen, SourceListen
}

// LocalURLs are the addresses to print when barhub starts listening on
// listen: one this machine opens (Local) and those phones on the network
// can (Network, from lan). Neither is ever 0.0.0.0 or [::].
func LocalURLs(listen string, lan []netip.Addr) (local string, network []string) {
	host, port, err := net.SplitHostPort(listen)
	if err != nil {
		return "http://" + listen, nil
	}
	ip, ipErr := netip.ParseAddr(host)
	switch {
	case host == "" || (ipErr == nil && ip.IsUnspecified()):
		// Go listens on both families for either wildcard.
		local = "http://" + net.JoinHostPort("127.0.0.1", port)
		for _, a := range lan {
			network = append(network, "http://"+net.JoinHostPort(a.String(), port))
		}
	case ipErr == nil && !ip.IsLoopback():
		network = []string{"http://" + listen}
	default:
		local = "http://" + listen
	}
	return local, network
}
