package api

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"testing"
	"time"

	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

// testEnv is a real API on a real (embedded) database and an in-process
// hub, served over HTTP.
type testEnv struct {
	t      testing.TB
	srv    *httptest.Server
	store  *store.Store
	keys   *auth.Keys
	hub    *hub.Hub
	deps   Deps
	logger *slog.Logger
	appKey string // sent as X-Api-Key, as the guest pages do
}

// newTestEnv starts the API. tweak may adjust the dependencies first.
func newTestEnv(t testing.TB, tweak ...func(*Deps)) *testEnv {
	t.Helper()
	return newTestEnvOn(t, storetest.New(t), tweak...)
}

// newTestEnvOn is newTestEnv on the store st.
func newTestEnvOn(t testing.TB, st *store.Store, tweak ...func(*Deps)) *testEnv {
	t.Helper()
	ctx := context.Background()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if os.Getenv("BARHUB_TEST_LOG") != "" {
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelDebug}))
	}
	keys, err := auth.NewKeys(ctx, st, auth.KeysConfig{TokenTTL: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	tickets, err := auth.OpenTickets(ctx, st, nil, "", 30*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	sessions := auth.NewSessions(st, auth.SessionsConfig{})
	h := hub.New(liveRules(hub.Config{}), hub.NewMemoryBroker(1000), testTickets{tickets, sessions}, logger)
	if err := h.Start(ctx); err != nil {
		t.Fatal(err)
	}
	d := Deps{
		// PushKey turns the subscription routes on; what is sent is
		// push_test.go's (newPushEnv). The menu tests read the menu as a
		// stranger may with the public menu on (--public-menu);
		// TestPublicMenuSwitch and the authorisation table turn it off.
		Config:   Config{MaxBodyBytes: 1 << 20, PublicURL: "http://party.test", PushKey: "test-vapid-key", PublicMenu: true},
		Logger:   logger,
		Store:    st,
		Keys:     keys,
		Tickets:  tickets,
		Publish:  h,
		Live:     h,
		Presence: h.Presence,
		People:   h.People,
		Ready:    map[string]Pinger{"database": st},
		Bar:      BarConfig{ImageDir: t.TempDir(), Events: h},

		Sessions:   sessions,
		SessionBus: h,
	}
	for _, f := range tweak {
		f(&d)
	}
	srv := httptest.NewServer(New(d))
	t.Cleanup(func() {
		srv.Close()
		sctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		h.Shutdown(sctx)
	})
	return &testEnv{t: t, srv: srv, store: st, keys: keys, hub: h, deps: d, logger: logger, appKey: appKeyOf(t, st)}
}

type testTickets struct {
	t *auth.Tickets
	s *auth.Sessions
}

func (tt testTickets) RedeemTicket(ctx context.Context, ticket string) (hub.Identity, error) {
	id, err := tt.t.Redeem(ctx, ticket)
	if err != nil {
		return hub.Identity{}, err
	}
	// A ticket issued before its holder's access changed opens nothing,
	// and the socket gets the current role.
	if tt.s != nil {
		if id, err = tt.s.Current(ctx, id); err != nil {
			return hub.Identity{}, err
		}
	}
	return hub.Identity{ID: id.GuestID, Role: string(id.Role), Name: id.Name, Scope: id.Event}, nil
}

// liveRules gives the test hub barhub's topics and who may hear them, as
// cmd/barhub does.
func liveRules(c hub.Config) hub.Config {
	c.KnownTopic = live.Exists
	c.Admit = func(id hub.Identity) error {
		if !live.MayConnect(guest.Role(id.Role)) {
			return hub.ErrForbidden
		}
		return nil
	}
	c.Authorize = func(id hub.Identity, topic string) error {
		if !live.MayHear(guest.Role(id.Role), id.ID, id.Scope, topic) {
			return hub.ErrForbidden
		}
		return nil
	}
	return c
}

// addGuest stores a guest (filling defaults) and returns it with its code.
func (e *testEnv) addGuest(g guest.Guest) guest.Guest {
	e.t.Helper()
	if g.FirstName == "" {
		g.FirstName = "Test"
	}
	if g.LastName == "" {
		g.LastName = "Guest"
	}
	if err := e.store.CreateGuest(context.Background(), &g); err != nil {
		e.t.Fatal(err)
	}
	return g
}

// tokenFor signs a token for g without going through the login route.
func (e *testEnv) tokenFor(g guest.Guest) string {
	e.t.Helper()
	tok, _, err := e.keys.Sign(identityOf(g))
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// do sends a request; body may be nil, a string/[]byte (sent raw) or a
// value (sent as JSON). It returns the status and the body.
func (e *testEnv) do(method, path, token string, body any, header ...string) (int, []byte) {
	e.t.Helper()
	resp := e.doResp(method, path, token, body, header...)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// doResp is do returning the whole response (headers too); close its body.
func (e *testEnv) doResp(method, path, token string, body any, header ...string) *http.Response {
	e.t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case string:
		rd = bytes.NewBufferString(b)
	case []byte:
		rd = bytes.NewReader(b)
	default:
		j, err := json.Marshal(b)
		if err != nil {
			e.t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	}
	req, err := http.NewRequest(method, e.srv.URL+path, rd)
	if err != nil {
		e.t.Fatal(err)
	}
	if body != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	if e.appKey != "" {
		req.Header.Set(appKeyHeader, e.appKey)
	}
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		e.t.Fatal(err)
	}
	return resp
}

// decodeInto unmarshals b into v or fails the test.
func decodeInto(t testing.TB, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("decode %s: %v", b, err)
	}
}

// errorCode extracts error.code from an error body.
func errorCode(t testing.TB, b []byte) string {
	t.Helper()
	var eb errorBody
	if err := json.Unmarshal(b, &eb); err != nil {
		t.Fatalf("not a JSON error body: %s", b)
	}
	if eb.Error.Code == "" || eb.Error.Message == "" {
		t.Fatalf("error body lacks code or message: %s", b)
	}
	return eb.Error.Code
}
