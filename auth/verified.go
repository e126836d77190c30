package auth

import (
	"sync"
	"time"
)

// maxVerifiedTokens bounds the verified-token cache: about 200 bytes an
// entry, so well under a megabyte however many tokens are in use; past it,
// the expired entries go and then arbitrary ones, which only costs their
// holders one full verification.
const maxVerifiedTokens = 4096

// verifiedToken is what a verified token said, kept until it expires.
type verifiedToken struct {
	id      Identity
	kid     string
	expires time.Time
}

// verifiedTokens remembers tokens that verified, by their SHA-256, so the
// token itself is never kept. Only successes are kept: a refused token is
// verified in full every time, so a forged one cannot fill the cache.
type verifiedTokens struct {
	mu sync.Mutex
	m  map[[32]byte]verifiedToken
}

func (v *verifiedTokens) get(sum [32]byte) (verifiedToken, bool) {
	v.mu.Lock()
	defer v.mu.Unlock()
	e, ok := v.m[sum]
	return e, ok
}

func (v *verifiedTokens) forget(sum [32]byte) {
	v.mu.Lock()
	defer v.mu.Unlock()
	delete(v.m, sum)
}

func (v *verifiedTokens) put(sum [32]byte, e verifiedToken, now time.Time) {
	v.mu.Lock()
	defer v.mu.Unlock()
	if v.m == nil {
		v.m = make(map[[32]byte]verifiedToken)
	}
	if len(v.m) >= maxVerifiedTokens {
		for k, old := range v.m {
			if !now.Before(old.expires) {
				delete(v.m, k)
			}
		}
		for k := range v.m {
			if len(v.m) < maxVerifiedTokens {
				break
			}
			delete(v.m, k)
		}
	}
	v.m[sum] = e
}

func (v *verifiedTokens) len() int {
	v.mu.Lock()
	defer v.mu.Unlock()
	return len(v.m)
}
