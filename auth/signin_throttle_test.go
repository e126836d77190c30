package auth_test

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/api/ratelimit"
	"github.com/barhub/barhub/auth"
)

type clock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *clock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	c.t = c.t.Add(d)
	c.mu.Unlock()
}

func redisCounters(t *testing.T) *ratelimit.RedisCounters {
	t.Helper()
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	var b [6]byte
	rand.Read(b[:])
	return ratelimit.NewRedisCounters(rdb, "test-signin-"+hex.EncodeToString(b[:]))
}

// step is one sign-in in a policy scenario: from addr with code, right or
// wrong, and what the throttle must do with it.
type step struct {
	times   int
	addr    string
	code    string
	right   bool
	advance time.Duration // the clock moves on before the step
	// want is "" (admitted at once), "wait" (admitted after a wait) or
	// a refusal reason.
	want string
}

// TestSignInPolicy plays scenarios against the policy, on in-process
// counters and on Redis (what several instances share).
func TestSignInPolicy(t *testing.T) {
	p := auth.SignInPolicy{
		Window: 15 * time.Minute, PerCode: 8, PerCodeFromAddress: 2, PerAddress: 6,
		AddressPace: time.Second, Overall: 20, OverallPace: 100 * time.Millisecond, MaxWait: 3 * time.Second,
	}
	const venue, stranger, home = "203.0.113.1", "198.51.100.9", "192.0.2.7"
	tests := []struct {
		name  string
		steps []step
	}{
		{"a typo or two never stops anyone", []step{
			{times: 2, addr: home, code: "AAAAAAAA", want: ""},
			{times: 1, addr: home, code: "AAAAAAAA", right: true, want: auth.RefusedCodeFromAddress},
		}},
		{"a right code is refunded, so a guest signing in often is never counted", []step{
			{times: 10, addr: home, code: "OWNER123", right: true, want: ""},
			{times: 2, addr: home, code: "OWNER123", want: ""},
		}},
		{"a stranger alone cannot lock the owner out", []step{
			{times: 2, addr: stranger, code: "OWNER123", want: ""},
			{times: 5, addr: stranger, code: "OWNER123", want: auth.RefusedCodeFromAddress},
			{times: 1, addr: home, code: "OWNER123", right: true, want: ""},
		}},
		{"last-name guessing from many addresses locks the code until the window ends", []step{
			{times: 2, addr: "198.51.100.1", code: "OWNER123"},
			{times: 2, addr: "198.51.100.2", code: "OWNER123"},
			{times: 2, addr: "198.51.100.3", code: "OWNER123"},
			{times: 2, addr: "198.51.100.4", code: "OWNER123"},
			{times: 1, addr: "198.51.100.5", code: "OWNER123", want: auth.RefusedCode},
			{times: 1, addr: home, code: "OWNER123", right: true, want: auth.RefusedCode},
			{times: 1, addr: home, code: "OWNER123", right: true, advance: 15 * time.Minute, want: ""},
		}},
		{"a busy venue slows down but a right code gets in", []step{
			{times: 1, addr: venue, code: "TYPO0001"}, {times: 1, addr: venue, code: "TYPO0002"},
			{times: 1, addr: venue, code: "TYPO0003"}, {times: 1, addr: venue, code: "TYPO0004"},
			{times: 1, addr: venue, code: "TYPO0005"}, {times: 1, addr: venue, code: "TYPO0006"},
			// Over the address's budget: one failure a second, the first
			// at once, the others waiting their turn up to three seconds.
			// A right code takes a turn and gives it back.
			{times: 1, addr: venue, code: "OWNER123", right: true, want: ""},
			{times: 1, addr: venue, code: "TYPO0007", want: ""},
			{times: 1, addr: venue, code: "GUESS001", want: "wait"},
			{times: 1, addr: venue, code: "GUESS002", want: "wait"},
			{times: 1, addr: venue, code: "GUESS003", want: "wait"},
			// A flood is turned away without a check, once it has asked
			// for a turn for MaxWait (the test's clock moves on by it).
			{times: 1, addr: venue, code: "GUESS004", want: auth.RefusedBusy},
			{times: 1, addr: venue, code: "GUESS005", want: "wait"},
			{times: 1, addr: venue, code: "OWNER456", right: true, advance: 5 * time.Second, want: ""},
			{times: 1, addr: home, code: "HOME0001", right: true, want: ""},
		}},
		{"right sign-ins behind a busy address hold no turns", []step{
			{times: 1, addr: venue, code: "TYPO0001"}, {times: 1, addr: venue, code: "TYPO0002"},
			{times: 1, addr: venue, code: "TYPO0003"}, {times: 1, addr: venue, code: "TYPO0004"},
			{times: 1, addr: venue, code: "TYPO0005"}, {times: 1, addr: venue, code: "TYPO0006"},
			// Ten guests with their right codes, one after another at the
			// same instant: each is checked at once and gives its turn
			// back (before, the fifth waited three seconds and the rest
			// were refused).
			{times: 1, addr: venue, code: "RIGHT001", right: true}, {times: 1, addr: venue, code: "RIGHT002", right: true},
			{times: 1, addr: venue, code: "RIGHT003", right: true}, {times: 1, addr: venue, code: "RIGHT004", right: true},
			{times: 1, addr: venue, code: "RIGHT005", right: true}, {times: 1, addr: venue, code: "RIGHT006", right: true},
			{times: 1, addr: venue, code: "RIGHT007", right: true}, {times: 1, addr: venue, code: "RIGHT008", right: true},
			{times: 1, addr: venue, code: "RIGHT009", right: true}, {times: 1, addr: venue, code: "RIGHT010", right: true},
			// The failures still get one turn a second, as before them.
			{times: 1, addr: venue, code: "GUESS001", want: ""},
			{times: 1, addr: venue, code: "GUESS002", want: "wait"},
			{times: 1, addr: venue, code: "GUESS003", want: "wait"},
			{times: 1, addr: venue, code: "GUESS004", want: "wait"},
			// Every turn within three seconds is a failure's: a right code
			// asks for MaxWait and is refused too. Telling it from a guess
			// takes a check, and every check is a guess.
			{times: 1, addr: venue, code: "RIGHT011", right: true, want: auth.RefusedBusy},
		}},
		{"a flood from many addresses makes everyone take turns", []step{
			{times: 1, addr: "10.0.0.1", code: "FLOOD001"}, {times: 1, addr: "10.0.0.2", code: "FLOOD002"},
			{times: 1, addr: "10.0.0.3", code: "FLOOD003"}, {times: 1, addr: "10.0.0.4", code: "FLOOD004"},
			{times: 1, addr: "10.0.0.5", code: "FLOOD005"}, {times: 1, addr: "10.0.0.6", code: "FLOOD006"},
			{times: 1, addr: "10.0.0.7", code: "FLOOD007"}, {times: 1, addr: "10.0.0.8", code: "FLOOD008"},
			{times: 1, addr: "10.0.0.9", code: "FLOOD009"}, {times: 1, addr: "10.0.0.10", code: "FLOOD010"},
			{times: 1, addr: "10.0.1.1", code: "FLOOD011"}, {times: 1, addr: "10.0.1.2", code: "FLOOD012"},
			{times: 1, addr: "10.0.1.3", code: "FLOOD013"}, {times: 1, addr: "10.0.1.4", code: "FLOOD014"},
			{times: 1, addr: "10.0.1.5", code: "FLOOD015"}, {times: 1, addr: "10.0.1.6", code: "FLOOD016"},
			{times: 1, addr: "10.0.1.7", code: "FLOOD017"}, {times: 1, addr: "10.0.1.8", code: "FLOOD018"},
			{times: 1, addr: "10.0.1.9", code: "FLOOD019"}, {times: 1, addr: "10.0.1.10", code: "FLOOD020"},
			{times: 1, addr: "10.0.2.1", code: "FLOOD021"},
			{times: 1, addr: home, code: "HOME0001", right: true, want: "wait"},
		}},
	}
	backends := map[string]func(t *testing.T) auth.Counters{
		"memory": func(*testing.T) auth.Counters { return ratelimit.NewMemoryCounters() },
		"redis":  func(t *testing.T) auth.Counters { return redisCounters(t) },
	}
	for backend, counters := range backends {
		for _, tt := range tests {
			t.Run(backend+"/"+tt.name, func(t *testing.T) {
				// Start mid-window, as a real clock would be.
				c := &clock{t: time.Date(2026, 6, 19, 18, 0, 0, 0, time.UTC)}
				pol := p
				pol.Now = c.now
				pol.Sleep = func(_ context.Context, d time.Duration) error { c.add(d); return nil }
				th := auth.NewSignInThrottle(pol, counters(t), ratelimit.NewMemoryCounters(), nil)
				ctx := context.Background()
				for i, s := range tt.steps {
					c.add(s.advance)
					for n := range s.times {
						got := ""
						a, refused := th.Begin(ctx, s.addr, s.code)
						switch {
						case refused != nil:
							got = refused.Reason
							if refused.RetryAfter <= 0 {
								t.Errorf("step %d.%d: refused with Retry-After %v", i, n, refused.RetryAfter)
							}
						case a.Wait > 0:
							got = "wait"
						}
						if refused == nil && s.right {
							th.Succeeded(ctx, a)
						}
						if got != s.want {
							t.Fatalf("step %d.%d (%s, %s): %q, want %q", i, n, s.addr, s.code, got, s.want)
						}
					}
				}
			})
		}
	}
}

// TestSignInThrottleParallel sends 150 wrong attempts at one code from one
// address at once, through two throttles sharing Redis (two instances):
// exactly the limit is checked, however they interleave.
func TestSignInThrottleParallel(t *testing.T) {
	shared := redisCounters(t)
	p := auth.DefaultSignInPolicy(20, 15*time.Minute)
	instances := []*auth.SignInThrottle{
		auth.NewSignInThrottle(p, shared, ratelimit.NewMemoryCounters(), nil),
		auth.NewSignInThrottle(p, shared, ratelimit.NewMemoryCounters(), nil),
	}
	var mu sync.Mutex
	admitted := 0
	var wg sync.WaitGroup
	for i := range 150 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, refused := instances[i%2].Begin(context.Background(), "198.51.100.66", "GUESSME2"); refused == nil {
				mu.Lock()
				admitted++
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	if admitted != p.PerCodeFromAddress {
		t.Errorf("%d of 150 parallel attempts were checked, want exactly %d", admitted, p.PerCodeFromAddress)
	}
}

// TestSignInGivingBackGainsNoGuesses floods one address with wrong codes
// while right ones arrive beside them, on two instances: the right ones
// give their turns back, yet the failures checked stay within what the
// pace allows, (elapsed + MaxWait) / pace + 1 past the budget, exactly the
// bound of the throttle where every attempt kept its turn
// (docs/SECURITY.md). A throttle that checked a code before taking a turn
// would check all of them.
func TestSignInGivingBackGainsNoGuesses(t *testing.T) {
	p := auth.SignInPolicy{
		Window: 15 * time.Minute, PerCode: 1000, PerCodeFromAddress: 1000, PerAddress: 5,
		AddressPace: 20 * time.Millisecond, Overall: 1_000_000, OverallPace: time.Millisecond, MaxWait: 100 * time.Millisecond,
	}
	backends := map[string]func(t *testing.T) auth.Counters{
		"memory": func(*testing.T) auth.Counters { return ratelimit.NewMemoryCounters() },
		"redis":  func(t *testing.T) auth.Counters { return redisCounters(t) },
	}
	for name, counters := range backends {
		t.Run(name, func(t *testing.T) {
			shared := counters(t)
			instances := []*auth.SignInThrottle{
				auth.NewSignInThrottle(p, shared, ratelimit.NewMemoryCounters(), nil),
				auth.NewSignInThrottle(p, shared, ratelimit.NewMemoryCounters(), nil),
			}
			const wrong, right = 300, 60
			var mu sync.Mutex
			checked, admittedRight := 0, 0
			var wg sync.WaitGroup
			start := time.Now()
			var last time.Time
			for i := range wrong + right {
				wg.Add(1)
				go func() {
					defer wg.Done()
					// Spread over about half a second, so the pace matters.
					time.Sleep(time.Duration(i%25) * 20 * time.Millisecond)
					th := instances[i%2]
					isRight := i%6 == 0
					a, refused := th.Begin(context.Background(), "203.0.113.77", fmt.Sprintf("CODE%04d", i))
					mu.Lock()
					if now := time.Now(); now.After(last) {
						last = now
					}
					switch {
					case refused != nil:
					case isRight:
						admittedRight++
					default:
						checked++
					}
					mu.Unlock()
					if refused != nil {
						return
					}
					if isRight {
						th.Succeeded(context.Background(), a)
						return
					}
					th.Failed(context.Background(), a)
				}()
			}
			wg.Wait()
			elapsed := last.Sub(start)
			// +1 for the milliseconds Redis rounds each turn to.
			bound := p.PerAddress + int((elapsed+p.MaxWait)/p.AddressPace) + 1 + 1
			t.Logf("%d wrong codes checked (bound %d over %v), %d of %d right ones admitted", checked, bound, elapsed.Round(time.Millisecond), admittedRight, right)
			if checked > bound {
				t.Errorf("%d wrong codes were checked from one address in %v, more than the %d the pace allows", checked, elapsed, bound)
			}
			if checked <= p.PerAddress {
				t.Errorf("only %d wrong codes were checked: the address was never paced", checked)
			}
		})
	}
}
