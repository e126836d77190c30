package api

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math/bits"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/barhub/barhub/store"
)

// The registration page's proof of work (docs/REGISTRATION.md, "The
// challenge"): the server hands out a signed challenge, the page finds a
// nonce such that sha256(challenge || nonce) starts with the challenge's
// number of zero bits, and the server checks the signature, the age and
// the hash without keeping anything, then claims the challenge so it
// serves once. It costs a phone about a second and a script registering
// thousands of people as many seconds each, with no third party.

// DefaultRegistrationWork is the zero bits asked by default: about 16,000
// hashes, a third of a second in Chromium on a laptop core with
// crypto.subtle, up to a second on a phone (BenchmarkRegistrationWork).
const DefaultRegistrationWork = 14

// challengeTTL is how long a challenge may be solved and used.
const challengeTTL = 10 * time.Minute

// maxNonce bounds the nonce's text.
const maxNonce = 32

type challenger struct {
	mu  sync.Mutex
	key []byte
}

func (s *Server) registrationWork() int {
	if s.cfg.RegistrationWork > 0 {
		return min(s.cfg.RegistrationWork, 32)
	}
	return DefaultRegistrationWork
}

func (s *Server) challengeKey(ctx context.Context) ([]byte, error) {
	s.challenge.mu.Lock()
	defer s.challenge.mu.Unlock()
	if s.challenge.key == nil {
		key, err := s.control.RegistrationChallengeKey(ctx)
		if err != nil {
			return nil, err
		}
		s.challenge.key = key
	}
	return s.challenge.key, nil
}

// challengeView is GET /api/register/challenge.
type challengeView struct {
	Challenge string    `json:"challenge"`
	Bits      int       `json:"bits"`
	ExpiresAt time.Time `json:"expiresAt"`
}

func (s *Server) handleRegisterChallenge(w http.ResponseWriter, r *http.Request) {
	key, err := s.challengeKey(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	now := time.Now()
	var b [12]byte
	rand.Read(b[:])
	body := fmt.Sprintf("1.%d.%d.%s", now.Unix(), s.registrationWork(), hex.EncodeToString(b[:]))
	w.Header().Set("Cache-Control", "no-store")
	writeJSON(w, http.StatusOK, challengeView{Challenge: body + "." + sign(key, body), Bits: s.registrationWork(), ExpiresAt: now.Add(challengeTTL).UTC()})
}

func sign(key []byte, body string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(body))
	return hex.EncodeToString(m.Sum(nil)[:16])
}

var errChallenge = &apiError{Status: http.StatusBadRequest, Code: "challenge_failed",
	Message: "the page's check did not pass; reload the page and try again", Key: "error.challenge_failed"}

// checkWork verifies a solved challenge and spends it.
func (s *Server) checkWork(ctx context.Context, challenge, nonce string) error {
	key, err := s.challengeKey(ctx)
	if err != nil {
		return err
	}
	if err := verifyWork(key, challenge, nonce, s.registrationWork(), time.Now()); err != nil {
		return err
	}
	// Spent once: the random part names the claim.
	parts := strings.Split(challenge, ".")
	err = s.store.Claim(ctx, "challenge/"+parts[3], challengeTTL+time.Minute)
	if errors.Is(err, store.ErrConflict) {
		return errChallenge
	}
	return err
}

// verifyWork checks challenge's signature and age, and that the hash of
// challenge and nonce starts with the challenge's zero bits, at least
// want of them.
func verifyWork(key []byte, challenge, nonce string, want int, now time.Time) error {
	if len(challenge) > 200 || nonce == "" || len(nonce) > maxNonce {
		return errChallenge
	}
	parts := strings.Split(challenge, ".")
	if len(parts) != 5 || parts[0] != "1" {
		return errChallenge
	}
	body := strings.Join(parts[:4], ".")
	if !hmac.Equal([]byte(parts[4]), []byte(sign(key, body))) {
		return errChallenge
	}
	at, err1 := strconv.ParseInt(parts[1], 10, 64)
	n, err2 := strconv.Atoi(parts[2])
	if err1 != nil || err2 != nil || n < want {
		return errChallenge
	}
	issued := time.Unix(at, 0)
	if now.Sub(issued) > challengeTTL || issued.Sub(now) > time.Minute {
		return &apiError{Status: http.StatusBadRequest, Code: "challenge_expired",
			Message: "the page waited too long; send the form again", Key: "error.challenge_expired"}
	}
	if leadingZeros(sha256.Sum256([]byte(challenge+nonce))) < n {
		return errChallenge
	}
	return nil
}

func leadingZeros(sum [32]byte) int {
	n := 0
	for _, b := range sum {
		if b != 0 {
			return n + bits.LeadingZeros8(b)
		}
		n += 8
	}
	return n
}
