package store

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/mongo"
)

// Busy reports whether err is the embedded database refusing a write
// because another one holds SQLite's write lock. FerretDB v1 returns it as
// an InternalError ("database is locked (5) (SQLITE_BUSY)") when two write
// transactions collide, without waiting for the lock: the write was rolled
// back and can simply be tried again.
func Busy(err error) bool {
	return err != nil && (errors.Is(err, ErrBusy) || strings.Contains(err.Error(), "SQLITE_BUSY") || strings.Contains(err.Error(), "database is locked"))
}

// TimedOut reports whether err is the database not answering in time: a
// deadline that ran out on a database call, or the embedded database's
// gate answering busy after its wait. The caller may try again shortly.
func TimedOut(err error) bool {
	return err != nil && (mongo.IsTimeout(err) || errors.Is(err, context.DeadlineExceeded))
}

// retryPolicy says which failures a write may be retried after.
type retryPolicy int

const (
	// onBusy retries only a write the database refused for its lock.
	onBusy retryPolicy = iota
	// onBusyOrDuplicate also retries an upsert that lost the race to
	// insert a new _id (the embedded database upserts as find, then
	// insert): the second try finds the winner's document and updates it.
	onBusyOrDuplicate
)

// Retries of a refused write: about a second in all, with jitter so the
// writers that collided do not collide again.
const (
	retryAttempts = 12
	retryBase     = 2 * time.Millisecond
	retryCap      = 150 * time.Millisecond
)

// retry runs a write until it succeeds, fails for another reason, or has
// been tried retryAttempts times. On the embedded database this process's
// writes also take turns (writeTurn): SQLite has one writer at a time, and
// writers that collide are refused or put to sleep by its busy handler,
// which under load costs far more than waiting in line.
func (s *Store) retry(ctx context.Context, policy retryPolicy, write func() error) error {
	var err error
	for attempt := range retryAttempts {
		err = s.writeTurn(ctx, write)
		if err == nil {
			return nil
		}
		again := Busy(err) || (policy == onBusyOrDuplicate && mongo.IsDuplicateKeyError(err))
		if !again {
			return err
		}
		if sleepJittered(ctx, backoff(retryBase, retryCap, attempt)) != nil {
			return err
		}
	}
	return err
}

// backoff is base doubled attempt times, at most limit. It never
// overflows: a shift by the attempt number did after 43 attempts, and the
// negative wait panicked the process.
func backoff(base, limit time.Duration, attempt int) time.Duration {
	d := base
	for range attempt {
		if d >= limit {
			break
		}
		d *= 2
	}
	return min(d, limit)
}

// sleepJittered waits between half of d and d, so writers that collided
// do not collide again, or until ctx ends.
func sleepJittered(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d/2 + rand.N(d/2+1))
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// writeTurn runs write alone among this process's writes when the
// database is embedded, urgent ones first (writequeue.go).
func (s *Store) writeTurn(ctx context.Context, write func() error) error {
	s.written.Add(1)
	if s.single == nil {
		return write()
	}
	s.writes.acquire(isUrgent(ctx))
	defer s.writes.release()
	return write()
}

// Writes is how many write attempts this store has made through its
// retry loop (every insert, update and delete of the order path goes
// through it): on the embedded database each is a commit, and with the
// default sync an fsync, so the load tool reports them per order.
func (s *Store) Writes() int64 { return s.written.Load() }
