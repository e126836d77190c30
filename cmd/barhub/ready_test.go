package main

import (
	"net/netip"
	"regexp"
	"strings"
	"testing"

	"github.com/barhub/barhub/api/publicurl"
)

// The reproduction: started with --addr 0.0.0.0:8080, as the README says,
// barhub printed "barhub is ready at http://[::]:8080", an address no
// browser opens. It prints where this machine and the phones on its
// network can open it.
func TestReadyLineOnEveryAddress(t *testing.T) {
	s := startServer(t, "", nil, "--addr", "0.0.0.0:0")
	var ready string
	for _, line := range strings.Split(s.Output(), "\n") {
		if strings.Contains(line, "barhub is ready") {
			ready = line
		}
	}
	if ready == "" {
		t.Fatalf("no ready line in\n%s", s.Output())
	}
	urls := regexp.MustCompile(`https?://\S+`).FindAllString(ready, -1)
	if len(urls) == 0 {
		t.Fatalf("the ready line names no address: %q", ready)
	}
	for _, u := range urls {
		if strings.Contains(u, "[::]") || strings.Contains(u, "0.0.0.0") {
			t.Errorf("the ready line prints %s, which no phone opens: %q", u, ready)
		}
	}
	m := regexp.MustCompile(`Local (http://127\.0\.0\.1:(\d+))`).FindStringSubmatch(ready)
	if m == nil || m[2] == "0" {
		t.Fatalf("no Local address with the port given: %q", ready)
	}
	for _, a := range publicurl.LANAddrs() {
		want := "Network http://" + netip.AddrPortFrom(a, 0).String()
		want = strings.TrimSuffix(want, ":0") + ":" + m[2]
		if !strings.Contains(ready, want) {
			t.Errorf("the ready line leaves out %q: %q", want, ready)
		}
	}
	if resp, _ := get(t, m[1]+"/healthz"); resp.StatusCode != 200 {
		t.Fatalf("the Local address does not answer: %d", resp.StatusCode)
	}
}

func TestReadyMessage(t *testing.T) {
	lan := []netip.Addr{netip.MustParseAddr("192.168.1.20")}
	if got, want := readyMessage("[::]:8080", lan), "barhub is ready: Local http://127.0.0.1:8080  Network http://192.168.1.20:8080"; got != want {
		t.Errorf("on every address: %q, want %q", got, want)
	}
	if got, want := readyMessage("127.0.0.1:8080", lan), "barhub is ready: Local http://127.0.0.1:8080"; got != want {
		t.Errorf("on this machine: %q, want %q", got, want)
	}
	if got := readyMessage("[::]:8080", nil); !strings.Contains(got, "phones cannot reach it") {
		t.Errorf("without a network: %q", got)
	}
}
