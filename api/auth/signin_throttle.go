package auth

import (
	"context"
	"log/slog"
	"time"
)

// Counters is the shared counting the sign-in throttle needs: fixed-window
// counts and paced turns per key (ratelimit.RedisCounters across instances,
// ratelimit.MemoryCounters in one process). Each call is atomic.
type Counters interface {
	// Add adds delta to key's count in the window holding at and returns
	// the count after it.
	Add(ctx context.Context, key string, delta int64, window time.Duration, at time.Time) (int64, error)
	// Turn reserves key's next turn, one per every, and returns the wait
	// for it; ok is false (and nothing reserved) when it is further than
	// maxWait away.
	Turn(ctx context.Context, key string, every, maxWait time.Duration, at time.Time) (wait time.Duration, ok bool, err error)
}

// SignInPolicy says how many failed sign-ins are allowed, counted in fixed
// windows. docs/SECURITY.md works out what it means for someone guessing.
type SignInPolicy struct {
	// Window is the length of the counting windows.
	Window time.Duration
	// PerCode failures of one code, from anywhere, lock that code until
	// the window ends: what bounds guessing the last name of a known code.
	PerCode int
	// PerCodeFromAddress failures of one code from one address lock that
	// code for that address only, so a stranger alone cannot lock the
	// owner out.
	PerCodeFromAddress int
	// PerAddress failures from one address are allowed at full speed; after
	// them the address is not refused but slowed to one sign-in per
	// AddressPace, so a correct code from a busy venue still gets in.
	PerAddress  int
	AddressPace time.Duration
	// Overall failures from everywhere are allowed at full speed; after
	// them every sign-in takes its turn, one per OverallPace: what bounds a
	// guesser with many addresses.
	Overall     int
	OverallPace time.Duration
	// MaxWait is the longest a sign-in waits for its turn before 429.
	MaxWait time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
}

// DefaultSignInPolicy is barhub's policy with perCode failures of a code
// per window (the --login-failures and --login-window settings); the other
// limits follow from them.
func DefaultSignInPolicy(perCode int, window time.Duration) SignInPolicy {
	if perCode <= 0 {
		perCode = 20
	}
	if window <= 0 {
		window = 15 * time.Minute
	}
	return SignInPolicy{
		Window:             window,
		PerCode:            perCode,
		PerCodeFromAddress: max(1, perCode/4),
		PerAddress:         3 * perCode,
		AddressPace:        time.Second,
		Overall:            50 * perCode,
		OverallPace:        200 * time.Millisecond,
		MaxWait:            5 * time.Second,
	}
}

// SignInThrottle applies a SignInPolicy. Every attempt is charged as a
// failure before its code and name are checked, and refunded when they
// were right: a limit is then decided on the count the charge returned, so
// a burst of parallel attempts cannot overrun it.
type SignInThrottle struct {
	p        SignInPolicy
	counters Counters
	// local takes over when counters (Redis) fail, so guessing stays
	// bounded per instance during an outage and sign-in keeps working.
	local Counters
	log   *slog.Logger
}

// NewSignInThrottle returns the throttle. local is used when counters
// answer an error; pass the same in-process counters for both when there
// is no Redis.
func NewSignInThrottle(p SignInPolicy, counters, local Counters, log *slog.Logger) *SignInThrottle {
	if p.Now == nil {
		p.Now = time.Now
	}
	if log == nil {
		log = slog.Default()
	}
	return &SignInThrottle{p: p, counters: counters, local: local, log: log}
}

// Refusal is an attempt turned away before its code was checked.
type Refusal struct {
	// Reason is code (the code is locked everywhere), codeFromAddress
	// (locked for this address) or busy (no turn within MaxWait).
	Reason     string
	RetryAfter time.Duration
}

// Refusal reasons.
const (
	RefusedCode            = "code"
	RefusedCodeFromAddress = "codeFromAddress"
	RefusedBusy            = "busy"
)

// Attempt is a sign-in admitted by the throttle: wait Wait, check the code
// and name, and call Succeeded if they were right.
type Attempt struct {
	Wait    time.Duration
	at      time.Time
	charged []string
}

func (t *SignInThrottle) add(ctx context.Context, key string, delta int64, at time.Time) int64 {
	n, err := t.counters.Add(ctx, key, delta, t.p.Window, at)
	if err != nil {
		t.log.WarnContext(ctx, "sign-in throttle: shared counters failed; counting in this instance", "err", err)
		n, _ = t.local.Add(ctx, key, delta, t.p.Window, at)
	}
	return n
}

func (t *SignInThrottle) turn(ctx context.Context, key string, every time.Duration, at time.Time) (time.Duration, bool) {
	wait, ok, err := t.counters.Turn(ctx, key, every, t.p.MaxWait, at)
	if err != nil {
		t.log.WarnContext(ctx, "sign-in throttle: shared turns failed; pacing in this instance", "err", err)
		wait, ok, _ = t.local.Turn(ctx, key, every, t.p.MaxWait, at)
	}
	return wait, ok
}

// Begin admits or refuses a sign-in from addr with code (normalised).
func (t *SignInThrottle) Begin(ctx context.Context, addr, code string) (Attempt, *Refusal) {
	at := t.p.Now()
	a := Attempt{at: at}
	windowLeft := time.Unix(0, (at.UnixNano()/int64(t.p.Window)+1)*int64(t.p.Window)).Sub(at)
	refuse := func(reason string, after time.Duration) (Attempt, *Refusal) {
		t.refund(ctx, a)
		return Attempt{}, &Refusal{Reason: reason, RetryAfter: after}
	}
	charge := func(key string) int64 {
		a.charged = append(a.charged, key)
		return t.add(ctx, key, 1, at)
	}
	// The code's own limits refuse: they lock one code, never an address.
	if charge("signin:pair:"+addr+"|"+code) > int64(t.p.PerCodeFromAddress) {
		return refuse(RefusedCodeFromAddress, windowLeft)
	}
	if charge("signin:code:"+code) > int64(t.p.PerCode) {
		return refuse(RefusedCode, windowLeft)
	}
	// The address's and everyone's limits slow down instead: a busy
	// address or a flood makes sign-ins take turns, and a right code
	// still gets in when its turn comes.
	if charge("signin:addr:"+addr) > int64(t.p.PerAddress) {
		wait, ok := t.turn(ctx, "signin:addr:"+addr, t.p.AddressPace, at)
		if !ok {
			return refuse(RefusedBusy, max(time.Second, wait-t.p.MaxWait))
		}
		a.Wait = wait
	}
	if charge("signin:all") > int64(t.p.Overall) {
		wait, ok := t.turn(ctx, "signin:all", t.p.OverallPace, at)
		if !ok {
			return refuse(RefusedBusy, max(time.Second, wait-t.p.MaxWait))
		}
		a.Wait = max(a.Wait, wait)
	}
	return a, nil
}

// Succeeded refunds an attempt whose code and name were right: only
// failures count.
func (t *SignInThrottle) Succeeded(ctx context.Context, a Attempt) {
	t.refund(ctx, a)
}

func (t *SignInThrottle) refund(ctx context.Context, a Attempt) {
	ctx = context.WithoutCancel(ctx)
	for _, key := range a.charged {
		t.add(ctx, key, -1, a.at)
	}
}
