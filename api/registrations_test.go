package api

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"sync"
	"testing"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
)

// solve finds the nonce for a challenge, as the registration page does.
func solve(challenge string, bits int) string {
	for n := 0; ; n++ {
		nonce := strconv.Itoa(n)
		if leadingZeros(sha256.Sum256([]byte(challenge+nonce))) >= bits {
			return nonce
		}
	}
}

// wrongNonce finds a nonce that does not solve challenge (at 4 bits one
// in 16 does, so a fixed one would pass now and then).
func wrongNonce(challenge string, bits int) string {
	for n := 0; ; n++ {
		nonce := "x" + strconv.Itoa(n)
		if leadingZeros(sha256.Sum256([]byte(challenge+nonce))) < bits {
			return nonce
		}
	}
}

// registerBody is a registration with a solved challenge from base.
func registerBody(t testing.TB, base, name string, plusOnes int) map[string]any {
	t.Helper()
	resp, err := http.Get(base + "/api/register/challenge")
	if err != nil {
		t.Error(err)
		return nil
	}
	defer resp.Body.Close()
	var c challengeView
	if err := json.NewDecoder(resp.Body).Decode(&c); err != nil {
		t.Error(err)
		return nil
	}
	return map[string]any{"firstName": name, "lastName": "Lind", "email": name + "@example.com", "plusOnes": plusOnes,
		"needs": "vegan", "challenge": c.Challenge, "nonce": solve(c.Challenge, c.Bits)}
}

func postJSON(base, path string, body any) (int, []byte, error) {
	j, _ := json.Marshal(body)
	resp, err := http.Post(base+path, "application/json", bytes.NewReader(j))
	if err != nil {
		return 0, nil, err
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	_, err = out.ReadFrom(resp.Body)
	return resp.StatusCode, out.Bytes(), err
}

func lowWork(d *Deps) { d.Config.RegistrationWork = 4 }

func TestRegistrationOverHTTP(t *testing.T) {
	e := newTestEnv(t, lowWork)
	adminTok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))

	var pub guest.Public
	_, raw := e.do("GET", "/api/event", "", nil)
	decodeInto(t, raw, &pub)
	if pub.Registration != "closed" {
		t.Fatalf("event says registration %q by default, want closed", pub.Registration)
	}
	if code, body := e.do("POST", "/api/register", "", registerBody(t, e.srv.URL, "Ada", 0)); code != http.StatusForbidden {
		t.Fatalf("register while closed: %d %s, want 403", code, body)
	}

	settings := map[string]any{"eventName": "Crayfish party", "timezone": "Europe/Stockholm", "registration": "open", "capacity": 1, "offerHours": 2}
	if code, body := e.do("PUT", "/api/admin/settings", adminTok, settings); code != http.StatusOK {
		t.Fatalf("settings: %d %s", code, body)
	}
	// The older form leaves the registration settings out: they stay.
	if code, body := e.do("PUT", "/api/admin/settings", adminTok, map[string]any{"eventName": "Crayfish party"}); code != http.StatusOK {
		t.Fatalf("settings: %d %s", code, body)
	}
	var st guest.Settings
	_, raw = e.do("GET", "/api/admin/settings", adminTok, nil)
	decodeInto(t, raw, &st)
	if st.Registration != "open" || st.Capacity != 1 || st.OfferHours != 2 {
		t.Fatalf("settings after a save without them: %s %d %d, want open 1 2", st.Registration, st.Capacity, st.OfferHours)
	}
	if code, body := e.do("PUT", "/api/admin/settings", adminTok, map[string]any{"eventName": "x", "registration": "everyone"}); code != http.StatusUnprocessableEntity {
		t.Fatalf("an unknown mode: %d %s, want 422", code, body)
	}
	_, raw = e.do("GET", "/api/event", "", nil)
	decodeInto(t, raw, &pub)
	if pub.Registration != "open" {
		t.Fatalf("event says registration %q, want open", pub.Registration)
	}

	// The challenge: a wrong nonce, then a reused one, are refused.
	body := registerBody(t, e.srv.URL, "Ada", 0)
	good := body["nonce"]
	body["nonce"] = wrongNonce(body["challenge"].(string), 4)
	if code, raw := e.do("POST", "/api/register", "", body); code != http.StatusBadRequest || !bytes.Contains(raw, []byte("challenge_failed")) {
		t.Fatalf("a wrong nonce: %d %s, want 400 challenge_failed", code, raw)
	}
	body["nonce"] = good
	code, raw := e.do("POST", "/api/register", "", body)
	var ada app.RegistrationView
	decodeInto(t, raw, &ada)
	if code != http.StatusCreated || ada.Status != guest.RegPlaced || ada.Code == "" {
		t.Fatalf("Ada: %d %s, want 201 placed with a code", code, raw)
	}
	if code, raw := e.do("POST", "/api/register", "", body); code != http.StatusBadRequest {
		t.Fatalf("the same challenge again: %d %s, want 400", code, raw)
	}
	bad := registerBody(t, e.srv.URL, "Bo", 0)
	bad["email"] = "not an address"
	if code, raw := e.do("POST", "/api/register", "", bad); code != http.StatusUnprocessableEntity {
		t.Fatalf("a bad address: %d %s, want 422", code, raw)
	}

	code, raw = e.do("POST", "/api/register", "", registerBody(t, e.srv.URL, "Bo", 0))
	var bo app.RegistrationView
	decodeInto(t, raw, &bo)
	if code != http.StatusCreated || bo.Status != guest.RegWaiting || bo.Position != 1 || bo.Code != "" {
		t.Fatalf("Bo: %d %s, want waiting first in line, no code", code, raw)
	}
	// Ada signs in with her code and declines: Bo is offered the place.
	var login loginResponse
	_, raw = e.do("POST", "/api/auth/login", "", map[string]string{"code": ada.Code, "lastName": "lind"})
	decodeInto(t, raw, &login)
	if code, raw := e.do("PUT", "/api/rsvp", login.Token, map[string]any{"status": "declined"}); code != http.StatusOK {
		t.Fatalf("decline: %d %s", code, raw)
	}
	_, raw = e.do("GET", "/api/register/"+bo.Token, "", nil)
	decodeInto(t, raw, &bo)
	if bo.Status != guest.RegOffered || bo.OfferedUntil == nil {
		t.Fatalf("Bo after Ada declined: %s", raw)
	}
	code, raw = e.do("POST", "/api/register/"+bo.Token+"/accept", "", nil)
	decodeInto(t, raw, &bo)
	if code != http.StatusOK || bo.Status != guest.RegPlaced || bo.Code == "" {
		t.Fatalf("Bo accepts: %d %s", code, raw)
	}
	var desk app.RegistrationsDesk
	_, raw = e.do("GET", "/api/admin/registrations", adminTok, nil)
	decodeInto(t, raw, &desk)
	if desk.Counts.Placed != 1 || desk.Counts.Declined != 1 || desk.Counts.Taken != 1 || len(desk.Registrations) != 2 {
		t.Fatalf("the host's desk: %s", raw)
	}
	if code, _ := e.do("GET", "/api/register/nope", "", nil); code != http.StatusNotFound {
		t.Fatalf("an unknown link: %d, want 404", code)
	}
}

// TestRegistrationCapacityAcrossInstances is the reproduction:
// two instances over one database and Redis take 50 registrations at once
// against a capacity of 20; exactly 20 get places and 30 wait, in order,
// and a freed place is offered to exactly one person.
func TestRegistrationCapacityAcrossInstances(t *testing.T) {
	envs := newCluster(t, 2, 0, nil)
	ctx := context.Background()
	st, err := envs[0].store.Settings(ctx)
	if err != nil {
		t.Fatal(err)
	}
	st.Registration, st.Capacity = guest.RegistrationOpen, 20
	if _, err := envs[0].store.SaveSettings(ctx, st); err != nil {
		t.Fatal(err)
	}
	// The challenges first (solving is the phones' work, not the race).
	bodies := make([]map[string]any, 50)
	for i := range bodies {
		bodies[i] = registerBody(t, envs[i%2].srv.URL, fmt.Sprintf("p%02d", i), 0)
	}
	views := make([]app.RegistrationView, 50)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range bodies {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			code, raw, err := postJSON(envs[i%2].srv.URL, "/api/register", bodies[i])
			if err != nil || code != http.StatusCreated {
				t.Errorf("registration %d: %d %s %v", i, code, raw, err)
				return
			}
			json.Unmarshal(raw, &views[i])
		}()
	}
	close(start)
	wg.Wait()
	placed, positions := 0, map[int64]bool{}
	var first app.RegistrationView
	for _, v := range views {
		switch v.Status {
		case guest.RegPlaced:
			placed++
			first = v
		case guest.RegWaiting:
			positions[v.Position] = true
		}
	}
	if placed != 20 || len(positions) != 30 || !positions[1] || !positions[30] {
		t.Fatalf("%d placed, %d distinct places in line (1 and 30: %v %v); want 20 and 30", placed, len(positions), positions[1], positions[30])
	}

	// First in line now, as each instance sees it.
	var next app.RegistrationView
	for _, v := range views {
		if v.Status == guest.RegWaiting && v.Position == 1 {
			next = v
		}
	}
	other := app.NewRegistrations(app.RegistrationsDeps{Store: envs[1].store})
	// A placed person cancels on one instance while the other sweeps:
	// the place goes to the first in line, and to nobody else.
	wg.Add(2)
	go func() {
		defer wg.Done()
		if code, raw, err := postJSON(envs[0].srv.URL, "/api/register/"+first.Token+"/cancel", nil); code != http.StatusOK || err != nil {
			t.Errorf("cancel: %d %s %v", code, raw, err)
		}
	}()
	go func() {
		defer wg.Done()
		if err := other.Refill(ctx); err != nil {
			t.Error(err)
		}
	}()
	wg.Wait()
	desk, err := other.Desk(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c := desk.Counts
	if c.Placed != 19 || c.Offered != 1 || c.Waiting != 29 || c.Taken != 20 {
		t.Fatalf("after one cancellation: %+v; want 19 placed, 1 offered, 29 waiting, 20 taken", c)
	}
	var offered guest.Registration
	for _, r := range desk.Registrations {
		if r.Status == guest.RegOffered {
			offered = r
		}
	}
	if offered.ID != next.ID {
		t.Fatalf("offered %s %s, want the first in line %s", offered.ID, offered.FirstName, next.FirstName)
	}
}

// FuzzParseRegistration: any body is a registration whose fields keep
// the form's rules, or a 4xx, never a panic.
func FuzzParseRegistration(f *testing.F) {
	for _, seed := range []string{
		`{"firstName":"Ada","lastName":"Lind","email":"ada@example.com","plusOnes":2,"needs":"no nuts","likes":["sour"],"challenge":"1.2.3.4.5","nonce":"7"}`,
		`{"firstName":"Ada","lastName":"Lind","email":"ada@example.com","plusOnes":-1}`,
		`{"firstName":"","email":"a@b"}`, `{"plusOnes":1e9}`, `{"email":"a@b\r\nBcc: x@y"}`, `{`, ``, `[]`, `{"x":1}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		_, reg, err := parseRegistration(fuzzRequest(body))
		if err != nil {
			checkAPIError(t, err)
			return
		}
		if reg.FirstName == "" || reg.LastName == "" || !guest.ValidEmail(reg.Email) || reg.PlusOnes < 0 || reg.PlusOnes > guest.MaxPlusOnes || reg.Heads() < 1 {
			t.Fatalf("accepted %+v", reg)
		}
	})
}

// TestRegisteredGuestPlacesOverHTTP: answering "coming" again after a
// decline is refused with 409 no_places while the places are offered on,
// and the host deleting a registered guest gives their places to the
// next in line.
func TestRegisteredGuestPlacesOverHTTP(t *testing.T) {
	e := newTestEnv(t, lowWork)
	ctx := context.Background()
	adminTok := e.tokenFor(e.addGuest(guest.Guest{FirstName: "Hosta", LastName: "Host", Role: guest.RoleAdmin}))
	settings := map[string]any{"eventName": "Crayfish party", "timezone": "Europe/Stockholm", "registration": "open", "capacity": 2}
	if code, body := e.do("PUT", "/api/admin/settings", adminTok, settings); code != http.StatusOK {
		t.Fatalf("settings: %d %s", code, body)
	}
	register := func(name string) app.RegistrationView {
		t.Helper()
		var v app.RegistrationView
		code, raw := e.do("POST", "/api/register", "", registerBody(t, e.srv.URL, name, 1))
		decodeInto(t, raw, &v)
		if code != http.StatusCreated {
			t.Fatalf("%s: %d %s", name, code, raw)
		}
		return v
	}
	status := func(v app.RegistrationView) guest.RegStatus {
		t.Helper()
		_, raw := e.do("GET", "/api/register/"+v.Token, "", nil)
		decodeInto(t, raw, &v)
		return v.Status
	}
	taken := func() int {
		t.Helper()
		p, err := e.store.RegistrationPlaces(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return p.Taken
	}

	ada, bo, cy := register("Ada"), register("Bo"), register("Cy")
	if ada.Status != guest.RegPlaced || bo.Status != guest.RegWaiting || cy.Status != guest.RegWaiting {
		t.Fatalf("Ada %s, Bo %s, Cy %s; want placed, waiting, waiting", ada.Status, bo.Status, cy.Status)
	}
	var login loginResponse
	_, raw := e.do("POST", "/api/auth/login", "", map[string]string{"code": ada.Code, "lastName": "lind"})
	decodeInto(t, raw, &login)
	if code, raw := e.do("PUT", "/api/rsvp", login.Token, map[string]any{"status": "declined"}); code != http.StatusOK {
		t.Fatalf("decline: %d %s", code, raw)
	}
	if code, raw := e.do("PUT", "/api/rsvp", login.Token, map[string]any{"status": "coming"}); code != http.StatusConflict || !bytes.Contains(raw, []byte(`"no_places"`)) {
		t.Fatalf("coming again while Bo holds the offer: %d %s, want 409 no_places", code, raw)
	}
	if s, n := status(bo), taken(); s != guest.RegOffered || n != 2 {
		t.Fatalf("Bo %s, %d taken; want offered, 2", s, n)
	}

	// Bo takes the place; the host deletes his guest: Cy is offered it.
	if code, raw := e.do("POST", "/api/register/"+bo.Token+"/accept", "", nil); code != http.StatusOK {
		t.Fatalf("accept: %d %s", code, raw)
	}
	_, raw = e.do("GET", "/api/register/"+bo.Token, "", nil)
	decodeInto(t, raw, &bo)
	g, err := e.store.GuestByCode(ctx, bo.Code)
	if err != nil {
		t.Fatal(err)
	}
	if code, raw := e.do("DELETE", "/api/admin/guests/"+g.ID, adminTok, nil); code != http.StatusNoContent {
		t.Fatalf("delete Bo: %d %s", code, raw)
	}
	if s, c, n := status(bo), status(cy), taken(); s != guest.RegCancelled || c != guest.RegOffered || n != 2 {
		t.Fatalf("after deleting Bo: Bo %s, Cy %s, %d taken; want cancelled, offered, 2", s, c, n)
	}
}
