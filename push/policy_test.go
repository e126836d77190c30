package push

import (
	"errors"
	"net/netip"
	"strings"
	"testing"
)

// TestCheckEndpoint: with the production policy (the zero value) only
// https URLs on the known push services' hosts, at port 443, pass; every
// way of writing an address inside, and every trick to make a URL look
// like a push service's, is refused. Listed hosts open exactly what they
// name.
func TestCheckEndpoint(t *testing.T) {
	listed := Policy{Hosts: []string{"push.example.org", "*.relay.example.net", "push.example.org:8443", "203.0.113.7:8443", "[2001:db8::7]"}}
	for _, tt := range []struct {
		endpoint string
		p        Policy
		ok       bool
	}{
		// The browsers' push services.
		{"https://fcm.googleapis.com/fcm/send/dXk:APA91b", Policy{}, true},
		{"https://fcm.googleapis.com:443/wp/dXk", Policy{}, true},
		{"https://FCM.GoogleAPIs.com/fcm/send/x", Policy{}, true},
		{"https://updates.push.services.mozilla.com/wpush/v2/gAAAA", Policy{}, true},
		{"https://web.push.apple.com/QGuQyavXutnMeiXdK", Policy{}, true},
		{"https://wns2-by3p.notify.windows.com/w/?token=BQYAAA%2b", Policy{}, true},

		// Addresses, in every spelling.
		{"https://127.0.0.1/x", Policy{}, false},
		{"https://127.1/x", Policy{}, false},
		{"https://2130706433/x", Policy{}, false},
		{"https://0x7f000001/x", Policy{}, false},
		{"https://0177.0.0.1/x", Policy{}, false},
		{"https://0/x", Policy{}, false},
		{"https://0.0.0.0/x", Policy{}, false},
		{"https://[::1]/x", Policy{}, false},
		{"https://[::]/x", Policy{}, false},
		{"https://[::ffff:127.0.0.1]/x", Policy{}, false},
		{"https://[::ffff:7f00:1]/x", Policy{}, false},
		{"https://[0:0:0:0:0:ffff:a9fe:a9fe]/x", Policy{}, false},
		{"https://10.0.0.1/x", Policy{}, false},
		{"https://172.16.0.1/x", Policy{}, false},
		{"https://192.168.1.1/x", Policy{}, false},
		{"https://169.254.169.254/latest/meta-data/", Policy{}, false},
		{"https://100.100.100.200/latest/meta-data/", Policy{}, false},
		{"https://[fd00:ec2::254]/latest/meta-data/", Policy{}, false},
		{"https://[fe80::1%25eth0]/x", Policy{}, false},
		{"https://8.8.8.8/x", Policy{}, false}, // public, but not a name of a push service
		// Names that are not push services'.
		{"https://localhost/x", Policy{}, false},
		{"https://localhost.localdomain/x", Policy{}, false},
		{"https://metadata.google.internal/computeMetadata/v1/", Policy{}, false},
		{"https://metadata/x", Policy{}, false},
		{"https://127.0.0.1.nip.io/x", Policy{}, false},
		{"https://fcm.googleapis.com.evil.test/x", Policy{}, false},
		{"https://evil-fcm.googleapis.com/x", Policy{}, false},
		{"https://push.services.mozilla.com/x", Policy{}, false}, // *. is a name under it
		{"https://fcm.googleapis.com./x", Policy{}, false},
		{"https://%66cm.googleapis.com/x", Policy{}, false},
		// Look-alike URLs.
		{"http://fcm.googleapis.com/fcm/send/x", Policy{}, false},
		{"https://fcm.googleapis.com:8443/fcm/send/x", Policy{}, false},
		{"https://fcm.googleapis.com:/x", Policy{}, false},
		{"https://user:pass@fcm.googleapis.com/x", Policy{}, false},
		{"https://fcm.googleapis.com@127.0.0.1/x", Policy{}, false},
		{"https://fcm.googleapis.com\\@127.0.0.1/x", Policy{}, false},
		{"https://fcm.googleapis.com/x#frag", Policy{}, false},
		{"https:fcm.googleapis.com/x", Policy{}, false},
		{"//fcm.googleapis.com/x", Policy{}, false},
		{"https:///x", Policy{}, false},
		{"https://fcm.googleapis.com /x", Policy{}, false},
		{"https://fcm.googleapis.com/x\x00", Policy{}, false},
		{"file:///etc/passwd", Policy{}, false},
		{"gopher://fcm.googleapis.com:443/x", Policy{}, false},

		// Listed hosts: the name, names under a wildcard, the port named.
		{"https://push.example.org/x", listed, true},
		{"https://push.example.org:8443/x", listed, true},
		{"https://push.example.org:9443/x", listed, false},
		{"https://a.relay.example.net/x", listed, true},
		{"https://relay.example.net/x", listed, false},
		{"https://a.relay.example.net:8443/x", listed, false},
		{"https://203.0.113.7:8443/x", listed, true},
		{"https://203.0.113.7/x", listed, false},
		{"https://[2001:db8:0::7]/x", listed, true},
		{"https://push.example.org/x", Policy{}, false},
	} {
		err := tt.p.CheckEndpoint(tt.endpoint)
		if (err == nil) != tt.ok {
			t.Errorf("%q (hosts %v): %v, want ok=%v", tt.endpoint, tt.p.Hosts, err, tt.ok)
		}
		if err != nil && !errors.Is(err, ErrNotAllowed) {
			t.Errorf("%q: %v does not wrap ErrNotAllowed", tt.endpoint, err)
		}
	}
}

// TestCheckEndpointSaysWhy: the refusal names what to change, for the
// guest's browser and the host's logs.
func TestCheckEndpointSaysWhy(t *testing.T) {
	for endpoint, want := range map[string]string{
		"https://127.0.0.1/x":               "not an IP address",
		"https://evil.test/x":               "evil.test is not a push service this server sends to (fcm.googleapis.com, *.push.services.mozilla.com",
		"https://fcm.googleapis.com:8443/x": "port 8443 is not the push service's (443)",
		"https://u@fcm.googleapis.com/x":    "user name",
		"http://fcm.googleapis.com/x":       "https URL",
	} {
		if err := (Policy{}).CheckEndpoint(endpoint); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v, want it to say %q", endpoint, err, want)
		}
	}
}

func TestPolicyValidate(t *testing.T) {
	for _, tt := range []struct {
		host string
		ok   bool
	}{
		{"push.example.org", true},
		{"*.example.org", true},
		{"push.example.org:8443", true},
		{"203.0.113.7", true},
		{"[2001:db8::7]:8443", true},
		{"2001:db8::7", true},
		{"localhost", false},
		{"*.203.0.113.7", false},
		{"push.example.org:0", false},
		{"push.example.org:99999", false},
		{"push.example.org:x", false},
		{"https://push.example.org", false},
		{"push example.org", false},
		{"[fe80::1%eth0]", false},
		{"", false},
	} {
		err := Policy{Hosts: []string{tt.host}}.Validate()
		if (err == nil) != tt.ok {
			t.Errorf("%q: %v, want ok=%v", tt.host, err, tt.ok)
		}
	}
}

// TestPublic: the address check that runs on every dial. Inside is
// every range a push service is never in; the public internet passes.
func TestPublic(t *testing.T) {
	for _, tt := range []struct {
		addr   string
		public bool
	}{
		{"0.0.0.0", false},
		{"0.1.2.3", false},
		{"10.1.2.3", false},
		{"100.64.0.1", false},
		{"100.100.100.200", false}, // Alibaba's metadata
		{"127.0.0.1", false},
		{"127.255.255.254", false},
		{"169.254.169.254", false}, // the clouds' metadata
		{"172.16.0.1", false},
		{"172.31.255.255", false},
		{"192.0.0.192", false}, // Oracle's metadata
		{"192.0.2.1", false},
		{"192.168.0.1", false},
		{"198.18.0.1", false},
		{"224.0.0.1", false},
		{"239.255.255.250", false},
		{"240.0.0.1", false},
		{"255.255.255.255", false},
		{"::", false},
		{"::1", false},
		{"::ffff:127.0.0.1", false},
		{"::ffff:10.0.0.1", false},
		{"::ffff:169.254.169.254", false},
		{"::127.0.0.1", false}, // IPv4-compatible
		{"64:ff9b::7f00:1", false},
		{"64:ff9b::a9fe:a9fe", false},
		{"fc00::1", false},
		{"fd00:ec2::254", false}, // AWS's metadata over IPv6
		{"fe80::1", false},
		{"fe80::1%eth0", false},
		{"ff02::1", false},
		{"2001:db8::1", false},
		{"2001::1", false},       // Teredo
		{"2002:7f00:1::", false}, // 6to4 of 127.0.0.1
		{"100::1", false},

		{"8.8.8.8", true},
		{"142.250.74.106", true}, // fcm.googleapis.com, once
		{"172.15.255.255", true},
		{"172.32.0.1", true},
		{"100.63.255.255", true},
		{"100.128.0.1", true},
		{"::ffff:8.8.8.8", true},
		{"64:ff9b::808:808", true},
		{"2a00:1450:4001:82b::200a", true},
		{"2620:fe::fe", true},
	} {
		a := netip.MustParseAddr(tt.addr)
		if got := Public(a); got != tt.public {
			t.Errorf("Public(%s) = %v, want %v", tt.addr, got, tt.public)
		}
		err := Policy{}.control("tcp6", netip.AddrPortFrom(a, 443).String(), nil)
		if (err == nil) != tt.public || (err != nil && !errors.Is(err, ErrInside)) {
			t.Errorf("dial %s: %v", tt.addr, err)
		}
	}
	// Inside opens exactly the ranges it lists.
	p := Policy{Inside: []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32")}}
	if err := p.control("tcp4", "127.0.0.1:443", nil); err != nil {
		t.Errorf("listed loopback address refused: %v", err)
	}
	if err := p.control("tcp4", "127.0.0.2:443", nil); !errors.Is(err, ErrInside) {
		t.Errorf("unlisted loopback address: %v", err)
	}
	if err := p.control("udp4", "8.8.8.8:443", nil); !errors.Is(err, ErrInside) {
		t.Errorf("udp dial: %v", err)
	}
}
