package store

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/event"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// StuckAfter is how old a database call must be, by default, to count as
// stuck (Config.StuckAfter). Every call barhub makes answers in
// milliseconds when the database is well, and the embedded database's
// gate answers "busy" after 30 s at the latest, so a call this old means
// the database is not doing its work.
const StuckAfter = 20 * time.Second

// Call is one database command in flight.
type Call struct {
	Command    string
	Database   string
	Collection string
	Started    time.Time
}

func (c Call) String() string {
	if c.Collection == "" {
		return fmt.Sprintf("%s on %s", c.Command, c.Database)
	}
	return fmt.Sprintf("%s on %s.%s", c.Command, c.Database, c.Collection)
}

// calls keeps every command this process has in flight, from the driver's
// command monitor, so a database that stops answering is seen even though
// the requests waiting on it produce no errors.
type calls struct {
	mu       sync.Mutex
	inFlight map[int64]Call // by the driver's request id
	reported map[int64]bool // stuck calls already logged
	stuck    int64          // calls that became stuck, ever
}

func newCalls() *calls {
	return &calls{inFlight: map[int64]Call{}, reported: map[int64]bool{}}
}

func (c *calls) monitor() *event.CommandMonitor {
	done := func(id int64) {
		c.mu.Lock()
		delete(c.inFlight, id)
		delete(c.reported, id)
		c.mu.Unlock()
	}
	return &event.CommandMonitor{
		Started: func(_ context.Context, e *event.CommandStartedEvent) {
			call := Call{Command: e.CommandName, Database: e.DatabaseName, Started: time.Now()}
			if v, err := e.Command.LookupErr(e.CommandName); err == nil {
				call.Collection, _ = v.StringValueOK()
			}
			c.mu.Lock()
			c.inFlight[e.RequestID] = call
			c.mu.Unlock()
		},
		Succeeded: func(_ context.Context, e *event.CommandSucceededEvent) { done(e.RequestID) },
		Failed:    func(_ context.Context, e *event.CommandFailedEvent) { done(e.RequestID) },
	}
}

// olderThan returns the calls in flight started before limit ago, oldest
// first; with mark, also those of them not returned as fresh before.
func (c *calls) olderThan(now time.Time, limit time.Duration, mark bool) (old, fresh []Call) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for id, call := range c.inFlight {
		if now.Sub(call.Started) < limit {
			continue
		}
		old = append(old, call)
		if mark && !c.reported[id] {
			c.reported[id] = true
			c.stuck++
			fresh = append(fresh, call)
		}
	}
	byAge := func(a, b Call) int { return a.Started.Compare(b.Started) }
	slices.SortFunc(old, byAge)
	slices.SortFunc(fresh, byAge)
	return old, fresh
}

// DBHealth is what the watchdog knows of the database now.
type DBHealth struct {
	// InFlight is every call this process is waiting on.
	InFlight int
	// Oldest is the age of the oldest of them (0 when none).
	Oldest time.Duration
	// Stuck are the calls older than the stuck limit, oldest first.
	Stuck []Call
	// StuckTotal counts the calls that ever became stuck.
	StuckTotal int64
}

// Health reports the calls in flight. It never touches the database, so
// it answers when the database does not.
func (s *Store) Health() DBHealth {
	now := time.Now()
	old, _ := s.calls.olderThan(now, s.stuckAfter, false)
	s.calls.mu.Lock()
	h := DBHealth{InFlight: len(s.calls.inFlight), Stuck: old, StuckTotal: s.calls.stuck}
	for _, call := range s.calls.inFlight {
		h.Oldest = max(h.Oldest, now.Sub(call.Started))
	}
	s.calls.mu.Unlock()
	return h
}

// Watch logs each call the moment it becomes stuck, until ctx ends:
// which command, on what, waiting how long. onStuck, when set, hears the
// calls stuck now each time a new one joins them (the alerts).
func (s *Store) Watch(ctx context.Context, every time.Duration, onStuck func([]Call)) {
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		old, fresh := s.calls.olderThan(time.Now(), s.stuckAfter, true)
		for _, c := range fresh {
			s.log.ErrorContext(ctx, "database call stuck", "call", c.String(), "waitingSeconds", int(time.Since(c.Started).Seconds()), "gate", s.gate)
		}
		if len(fresh) > 0 && onStuck != nil {
			onStuck(old)
		}
	}
}

// collHealth holds one document per host, written and read back by
// Probe.
const collHealth = "health"

// Probe writes and reads back a document, as a request would: ping alone
// is answered by a database that no longer reads or writes (the embedded
// one answers it without its storage).
func (s *Store) Probe(ctx context.Context) error {
	if old, _ := s.calls.olderThan(time.Now(), s.stuckAfter, false); len(old) > 0 {
		return fmt.Errorf("%d database calls stuck, the oldest %s for %s", len(old), old[0], time.Since(old[0].Started).Round(time.Second))
	}
	id := "probe/" + s.instance
	now := time.Now().UTC().Truncate(time.Millisecond)
	if _, err := s.coll(collHealth).UpdateOne(ctx, bson.D{{Key: "_id", Value: id}},
		bson.D{{Key: "$set", Value: bson.D{{Key: "at", Value: now}}}}, options.UpdateOne().SetUpsert(true)); err != nil {
		return fmt.Errorf("write %s: %w", collHealth, err)
	}
	if err := s.coll(collHealth).FindOne(ctx, bson.D{{Key: "_id", Value: id}}).Err(); err != nil {
		return fmt.Errorf("read %s: %w", collHealth, err)
	}
	return nil
}
