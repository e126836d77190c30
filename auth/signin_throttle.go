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
	// GiveBack returns a turn Turn gave and that was not kept: key's next
	// turn moves one every earlier.
	GiveBack(ctx context.Context, key string, every time.Duration, at time.Time) error
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
	// them the address is not refused but slowed to one failure per
	// AddressPace, so a correct code from a busy venue still gets in.
	PerAddress  int
	AddressPace time.Duration
	// Overall failures from everywhere are allowed at full speed; after
	// them every sign-in takes its turn, one per OverallPace: what bounds a
	// guesser with many addresses.
	Overall     int
	OverallPace time.Duration
	// MaxWait is the longest a sign-in waits for its turn before 429,
	// counted from its arrival: the time it spends asking for a turn while
	// every one within MaxWait is held, and the wait for the turn it gets.
	MaxWait time.Duration
	// Now is the clock; time.Now when nil.
	Now func() time.Time
	// Sleep waits d or until ctx ends (then it returns ctx's error); a
	// timer when nil. Tests with their own clock move it here.
	Sleep func(ctx context.Context, d time.Duration) error
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
//
// Past the address's or everyone's budget an attempt also needs a turn
// before its code is checked, and the same holds for turns: a right
// sign-in gives its turn back the moment it is checked, and only a
// failure keeps it (and is answered when it comes). So the turns count
// failures, as the budgets do: the guests of a busy venue are never turned
// away for each other's typos, and a guesser gets exactly the checks he
// got when every attempt kept its turn (docs/SECURITY.md works it out).
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
	if p.Sleep == nil {
		p.Sleep = sleep
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

// Attempt is a sign-in admitted by the throttle: check its code and name
// at once, then call Succeeded if they were right, or Failed (which waits
// for the attempt's turn) if they were not.
type Attempt struct {
	// Wait is how far ahead the attempt's turn was when it was given: how
	// long Failed holds a failure back.
	Wait    time.Duration
	at      time.Time
	turnAt  time.Time
	charged []string
	turns   []turn
}

// turn is a paced key an attempt holds a turn of.
type turn struct {
	key   string
	every time.Duration
}

// Queueing for a turn: an attempt that finds every turn within MaxWait
// held asks again after queueFirst, doubling to queueMax. The turns a
// right sign-in holds come back within the milliseconds of its check, so
// a burst of right sign-ins gets in after a few short tries; only turns
// held by failures make an attempt wait longer.
const (
	queueFirst = 10 * time.Millisecond
	queueMax   = 250 * time.Millisecond
)

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

func (t *SignInThrottle) add(ctx context.Context, key string, delta int64, at time.Time) int64 {
	n, err := t.counters.Add(ctx, key, delta, t.p.Window, at)
	if err != nil {
		t.log.WarnContext(ctx, "sign-in throttle: shared counters failed; counting in this instance", "err", err)
		n, _ = t.local.Add(ctx, key, delta, t.p.Window, at)
	}
	return n
}

func (t *SignInThrottle) turn(ctx context.Context, key string, every, maxWait time.Duration, at time.Time) (time.Duration, bool) {
	wait, ok, err := t.counters.Turn(ctx, key, every, maxWait, at)
	if err != nil {
		t.log.WarnContext(ctx, "sign-in throttle: shared turns failed; pacing in this instance", "err", err)
		wait, ok, _ = t.local.Turn(ctx, key, every, maxWait, at)
	}
	return wait, ok
}

func (t *SignInThrottle) giveBack(ctx context.Context, tn turn, at time.Time) {
	if err := t.counters.GiveBack(ctx, tn.key, tn.every, at); err != nil {
		t.log.WarnContext(ctx, "sign-in throttle: shared turns failed; giving back in this instance", "err", err)
		_ = t.local.GiveBack(ctx, tn.key, tn.every, at)
	}
}

// Begin admits or refuses a sign-in from addr with code (normalised). It
// returns at once unless the address or everyone is past its budget and
// every turn within MaxWait is held; then it asks again until one comes
// back or MaxWait from the arrival is up.
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
	// gives its turn back at once (Succeeded).
	var paced []turn
	if charge("signin:addr:"+addr) > int64(t.p.PerAddress) {
		paced = append(paced, turn{"signin:addr:" + addr, t.p.AddressPace})
	}
	if charge("signin:all") > int64(t.p.Overall) {
		paced = append(paced, turn{"signin:all", t.p.OverallPace})
	}
	if len(paced) == 0 {
		return a, nil
	}
	deadline := at.Add(t.p.MaxWait)
	backoff := queueFirst
	for {
		now := t.p.Now()
		left := deadline.Sub(now)
		wait, ok := t.takeTurns(ctx, &a, paced, max(left, 0), now)
		if ok {
			a.Wait = wait
			a.turnAt = now.Add(wait)
			return a, nil
		}
		if left <= 0 || t.p.Sleep(ctx, min(backoff, left)) != nil {
			return refuse(RefusedBusy, max(time.Second, wait-max(left, 0)))
		}
		backoff = min(2*backoff, queueMax)
	}
}

// takeTurns takes a turn of every paced key within maxWait of now, or
// none: a turn taken before another key refused is given back. It answers
// the longest wait, or the refusing key's wait when not ok.
func (t *SignInThrottle) takeTurns(ctx context.Context, a *Attempt, paced []turn, maxWait time.Duration, now time.Time) (time.Duration, bool) {
	var longest time.Duration
	for i, tn := range paced {
		wait, ok := t.turn(ctx, tn.key, tn.every, maxWait, now)
		if !ok {
			for _, taken := range paced[:i] {
				t.giveBack(context.WithoutCancel(ctx), taken, now)
			}
			return wait, false
		}
		longest = max(longest, wait)
	}
	a.turns = paced
	return longest, true
}

// Succeeded refunds an attempt whose code and name were right, and gives
// its turns back: only failures count, and only failures hold turns.
func (t *SignInThrottle) Succeeded(ctx context.Context, a Attempt) {
	t.refund(ctx, a)
	ctx = context.WithoutCancel(ctx)
	for _, tn := range a.turns {
		t.giveBack(ctx, tn, t.p.Now())
	}
}

// Failed waits for a failed attempt's turn, so an address past its budget
// is answered one failure a pace whatever it sends at once. It returns
// early, with ctx's error, when ctx ends.
func (t *SignInThrottle) Failed(ctx context.Context, a Attempt) error {
	if d := a.turnAt.Sub(t.p.Now()); len(a.turns) > 0 && d > 0 {
		return t.p.Sleep(ctx, d)
	}
	return nil
}

func (t *SignInThrottle) refund(ctx context.Context, a Attempt) {
	ctx = context.WithoutCancel(ctx)
	for _, key := range a.charged {
		t.add(ctx, key, -1, a.at)
	}
}
