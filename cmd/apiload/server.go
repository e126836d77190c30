package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/api"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/cmd/internal/database"
	"github.com/barhub/barhub/cmd/internal/livehub"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/jobs"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/push"
	"github.com/barhub/barhub/push/pushtest"
	"github.com/barhub/barhub/store"
)

// server is barhub's API running in this process, with its people.
type server struct {
	url    string
	appKey string
	guests []person
	// bartenders has each event's bartender, the first event's first.
	bartenders []person
	admin      person
	// events are the keys of the server's events as tokens name them,
	// "" for the first (events.go).
	events []string
	drinks []string // available drinks without allergens, so no order needs a confirmation
	client *http.Client
	close  func()
	// pushes is the test push service every guest's device subscribed
	// at, with -push.
	pushes  *pushtest.Service
	devices []*pushtest.Device
	// store is the server's, for its count of database writes.
	store *store.Store
}

type person struct {
	id    string
	token string
	// event is the index of the person's event in server.events.
	event int
}

func randomName(prefix string) string {
	var b [6]byte
	rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

func startServer(ctx context.Context, o options) (*server, error) {
	dir, err := os.MkdirTemp("", "apiload-")
	if err != nil {
		return nil, err
	}
	var closers []func()
	cleanup := func() {
		for i := len(closers) - 1; i >= 0; i-- {
			closers[i]()
		}
		os.RemoveAll(dir)
	}
	fail := func(err error) (*server, error) {
		cleanup()
		return nil, err
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	if o.logLevel != "" {
		var level slog.Level
		if err := level.UnmarshalText([]byte(o.logLevel)); err != nil {
			return fail(fmt.Errorf("log level: %w", err))
		}
		logger = slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	}
	st, _, err := database.Open(ctx, database.Config{URI: o.mongoURI, DataDir: dir, Database: randomName("apiload_"), Sync: o.dbSync}, logger)
	if err != nil {
		return fail(err)
	}
	closers = append(closers, func() {
		if o.mongoURI != "" {
			st.DB().Drop(context.Background())
		}
		st.Close(context.Background())
	})
	keys, err := auth.NewKeys(ctx, st, auth.KeysConfig{TokenTTL: 4 * time.Hour})
	if err != nil {
		return fail(err)
	}

	prefix := randomName("apiload-")
	var rdb *redis.Client
	if o.redisURL != "" {
		opts, err := redis.ParseURL(o.redisURL)
		if err != nil {
			return fail(fmt.Errorf("redis url: %w", err))
		}
		opts.PoolSize = 256
		rdb = redis.NewClient(opts)
		closers = append(closers, func() {
			// Leave nothing behind in a shared Redis.
			bg := context.Background()
			iter := rdb.Scan(bg, 0, prefix+":*", 1000).Iterator()
			for iter.Next(bg) {
				rdb.Del(bg, iter.Val())
			}
			rdb.Close()
		})
		if err := rdb.Ping(ctx).Err(); err != nil {
			return fail(fmt.Errorf("redis: %w", err))
		}
	}
	lh, err := livehub.Start(ctx, st, livehub.Config{Redis: rdb, RedisPrefix: prefix, History: 1000, TicketTTL: time.Minute}, logger)
	if err != nil {
		return fail(err)
	}
	h, tickets, sessions := lh.Hub, lh.Tickets, lh.Sessions
	closers = append(closers, func() {
		sctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		h.Shutdown(sctx)
	})

	var publish api.Publisher = h
	var pushKey string
	var pushes *pushtest.Service
	if o.push {
		// Every guest's phone also subscribed to Web Push: each "ready"
		// is encrypted and sent, through the real library, to a push
		// service in this process that decrypts it.
		pushes = pushtest.New()
		closers = append(closers, pushes.Close)
		vk, err := st.VAPIDKeys(ctx)
		if err != nil {
			return fail(err)
		}
		pushes.VAPIDKey, pushKey = vk.Public, vk.Public
		// The push service is on loopback: its policy lets the sender
		// reach it, as the production policy would not.
		sender := push.New(st, push.Config{Keys: vk, Contact: "apiload@localhost", Policy: pushes.Policy(), RootCAs: pushes.RootCAs()}, logger, nil)
		pctx, cancel := context.WithCancel(context.Background())
		go sender.Run(pctx)
		closers = append(closers, cancel)
		publish = push.Forward(h, sender)
	}

	rate := 0.0
	if o.limiter {
		rate = 1e9 // in the path, never refusing
	}
	// The sweeps and the order view's corrections, as barhub runs them.
	maint := jobs.NewMaintenance(logger)
	evs := &loadEvents{}
	handler := api.New(api.Deps{
		Events:      evs,
		Maintenance: maint,
		Config:      api.Config{MaxBodyBytes: 1 << 20, PushKey: pushKey}, Logger: logger, Store: st, Keys: keys, Tickets: tickets,
		Publish: publish, Live: h, Presence: h.Presence, People: h.People, Sessions: sessions, SessionBus: h,
		Bar: api.BarConfig{
			RateBrowse: rate, RateOrders: rate, MaxOpenOrders: 1 << 30,
			ImageDir: filepath.Join(dir, "images"), Redis: rdb, RedisPrefix: prefix, Events: h,
		},
	})
	mctx, stopMaint := context.WithCancel(context.Background())
	maintDone := make(chan struct{})
	go func() { defer close(maintDone); maint.Run(mctx) }()
	closers = append(closers, func() { stopMaint(); <-maintDone })
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return fail(err)
	}
	hs := &http.Server{Handler: handler, ReadHeaderTimeout: 10 * time.Second}
	go hs.Serve(ln)
	closers = append(closers, func() { hs.Close() })

	s := &server{
		url:   "http://" + ln.Addr().String(),
		store: st,
		client: &http.Client{Transport: &http.Transport{
			MaxIdleConns: 1024, MaxIdleConnsPerHost: 1024, IdleConnTimeout: time.Minute,
		}},
	}
	if err := s.seed(ctx, st, keys, o.guests); err != nil {
		return fail(err)
	}
	if err := s.moreEvents(ctx, o, evs, eventParts{first: handler, st: st, keys: keys, live: lh, rdb: rdb, prefix: prefix, dir: dir, logger: logger}, &closers); err != nil {
		return fail(fmt.Errorf("make the events: %w", err))
	}
	if o.scenario == "desk" && o.deskGuests > 0 {
		if err := seedDesk(ctx, st, o.deskGuests); err != nil {
			return fail(fmt.Errorf("seed the guest desk: %w", err))
		}
	}
	if pushes != nil {
		s.pushes = pushes
		for _, g := range s.guests {
			d := pushes.NewDevice()
			sub := d.Subscription()
			k := sub["keys"].(map[string]string)
			if err := st.SavePushDevice(ctx, g.id, store.PushDevice{Endpoint: d.Endpoint, P256dh: k["p256dh"], Auth: k["auth"], CreatedAt: time.Now()}); err != nil {
				return fail(err)
			}
			s.devices = append(s.devices, d)
		}
	}
	k, err := st.AppKey(ctx)
	if err != nil {
		return fail(err)
	}
	s.appKey = k.Key
	s.close = cleanup
	return s, nil
}

// seed loads the starter menu and creates the guests and a bartender.
func (s *server) seed(ctx context.Context, st *store.Store, keys *auth.Keys, n int) error {
	sections, drinks, err := menu.StarterMenu()
	if err != nil {
		return err
	}
	for _, sec := range sections {
		if err := st.SaveSection(ctx, sec); err != nil {
			return err
		}
	}
	for _, d := range drinks {
		if _, err := st.SeedDrink(ctx, d); err != nil {
			return err
		}
		if len(d.Allergens) == 0 {
			s.drinks = append(s.drinks, d.ID)
		}
	}
	sign := func(g guest.Guest) (person, error) {
		tok, _, err := keys.Sign(auth.Identity{GuestID: g.ID, Name: g.Name(), Role: g.Role})
		return person{id: g.ID, token: tok}, err
	}
	b := guest.Guest{FirstName: "Bar", LastName: "Tender", Role: guest.RoleBartender}
	if err := st.CreateGuest(ctx, &b); err != nil {
		return err
	}
	bar, err := sign(b)
	if err != nil {
		return err
	}
	s.bartenders, s.events = []person{bar}, []string{""}
	a := guest.Guest{FirstName: "Host", LastName: "Desk", Role: guest.RoleAdmin}
	if err := st.CreateGuest(ctx, &a); err != nil {
		return err
	}
	if s.admin, err = sign(a); err != nil {
		return err
	}
	s.guests = make([]person, n)
	var wg sync.WaitGroup
	var mu sync.Mutex
	var firstErr error
	next := make(chan int)
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				g := guest.Guest{FirstName: fmt.Sprintf("Guest%d", i), LastName: "Load"}
				err := st.CreateGuest(ctx, &g)
				var p person
				if err == nil {
					p, err = sign(g)
				}
				mu.Lock()
				if err != nil && firstErr == nil {
					firstErr = err
				}
				s.guests[i] = p
				mu.Unlock()
			}
		}()
	}
	for i := range n {
		next <- i
	}
	close(next)
	wg.Wait()
	if firstErr != nil {
		return fmt.Errorf("create guests: %w", firstErr)
	}
	if len(s.drinks) == 0 {
		return errors.New("no drinks to order")
	}
	return nil
}
