package store

import (
	"context"
	"errors"
	"fmt"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// Many new guests at once (the CSV import). InsertGuest makes five writes
// a guest — its code, the guest, the change log, the summary's claim and
// the summary — and on the embedded database each is a transaction with
// its fsync, about 11 ms a guest. InsertGuests makes the same five writes
// for a whole chunk: one insert command of the codes, one of the guests,
// one change-log entry naming them all, one move of the summary.

// guestInsertChunk is how many guests one chunk writes. FerretDB v1 runs
// an insert command as transactions of 100 documents (its batch size), so
// a chunk of 100 is one transaction a command; and this process's other
// writes, which take turns with these, wait for one such transaction at
// most, not for a whole import.
const guestInsertChunk = 100

// InsertGuests stores new guests as InsertGuest does each, and fills in
// their ids, codes and defaults the same way. It returns each guest's
// failure (nil: stored): an id or a given code that is taken is an
// ErrConflict, and refuses that guest alone.
func (s *Store) InsertGuests(ctx context.Context, gs []guest.Guest) []error {
	return s.insertGuests(ctx, gs, guest.NewCode)
}

// insertGuests is InsertGuests with the fresh codes drawn from newCode.
func (s *Store) insertGuests(ctx context.Context, gs []guest.Guest, newCode func() string) []error {
	errs := make([]error, len(gs))
	for from := 0; from < len(gs); from += guestInsertChunk {
		to := min(len(gs), from+guestInsertChunk)
		s.insertGuestChunk(ctx, gs[from:to], errs[from:to], newCode)
	}
	return errs
}

func (s *Store) insertGuestChunk(ctx context.Context, gs []guest.Guest, errs []error, newCode func() string) {
	defer s.guestWrites.begin()()
	now := time.Now().UTC().Truncate(time.Millisecond)
	for i := range gs {
		prepareNewGuest(&gs[i], now)
	}
	s.reserveCodes(ctx, gs, errs, now, newCode)

	var at []int // the guests whose code is reserved
	var docs []any
	for i := range gs {
		if errs[i] == nil {
			at = append(at, i)
			docs = append(docs, &gs[i])
		}
	}
	if len(docs) == 0 {
		return
	}
	werrs, retried, err := s.insertEach(ctx, collGuests, docs)
	var stored []string
	var delta guest.Counts
	for j, i := range at {
		g := &gs[i]
		switch {
		case err != nil:
			// Some of the chunk may have been written before the command
			// failed: those are stored, with their code.
			if !s.guestIsStored(ctx, *g) {
				errs[i] = fmt.Errorf("create guest: %w", err)
			}
		case werrs[j] == nil:
		case !mongo.IsDuplicateKeyError(werrs[j]):
			errs[i] = fmt.Errorf("create guest: %w", werrs[j])
		case retried && s.guestIsStored(ctx, *g):
			// The first try, refused for the lock, had written it.
		default:
			errs[i] = fmt.Errorf("guest id %s is already in use: %w", g.ID, ErrConflict)
		}
		if errs[i] != nil {
			s.freeCode(ctx, g.Code)
			continue
		}
		stored = append(stored, g.ID)
		delta = delta.Add(guest.CountOf(*g))
	}
	s.guestsChanged(ctx, stored...)
	if err := s.adjustStats(ctx, delta); err != nil {
		s.log.WarnContext(ctx, "stats not updated; the next recount repairs them", "err", err)
	}
}

// reserveCodes reserves each guest's code in one insert command: the code
// it was given, or a fresh one, drawn again for the guests whose fresh
// code was taken. A given code that is taken is the guest's failure.
func (s *Store) reserveCodes(ctx context.Context, gs []guest.Guest, errs []error, now time.Time, newCode func() string) {
	var pending []int
	for i := range gs {
		if errs[i] == nil {
			pending = append(pending, i)
		}
	}
	fresh := make([]bool, len(gs))
	for i := range gs {
		fresh[i] = gs[i].Code == ""
	}
	for range codeAttempts {
		if len(pending) == 0 {
			break
		}
		docs := make([]any, len(pending))
		for j, i := range pending {
			if fresh[i] {
				gs[i].Code = newCode()
			}
			docs[j] = codeDoc{Code: gs[i].Code, GuestID: gs[i].ID, At: now}
		}
		werrs, retried, err := s.insertEach(ctx, collCodes, docs)
		if err != nil {
			for _, i := range pending {
				errs[i] = fmt.Errorf("reserve code: %w", err)
			}
			pending = nil
			break
		}
		var again []int
		for j, i := range pending {
			g := &gs[i]
			switch {
			case werrs[j] == nil:
			case !mongo.IsDuplicateKeyError(werrs[j]):
				errs[i] = fmt.Errorf("reserve code: %w", werrs[j])
			case retried && s.codeIsFor(ctx, g.Code, g.ID):
				// The first try, refused for the lock, had written it.
			case !fresh[i]:
				errs[i] = fmt.Errorf("code %s is already in use: %w", g.Code, ErrConflict)
			default:
				again = append(again, i) // a collision: draw another
			}
		}
		pending = again
	}
	for _, i := range pending {
		gs[i].Code = ""
		errs[i] = errors.New("reserve code: too many collisions")
	}
	var reserved []string
	for i := range gs {
		if errs[i] == nil {
			reserved = append(reserved, gs[i].Code)
		}
	}
	if err := s.indexCodes(ctx, reserved...); err != nil {
		for i := range gs {
			if errs[i] == nil {
				errs[i] = fmt.Errorf("reserve code: %w", err)
				s.freeCode(ctx, gs[i].Code)
			}
		}
	}
}

// insertEach inserts docs with one unordered insert command, and returns
// each document's failure (nil: inserted). A command the embedded
// database refused for its lock is tried again (retry); as FerretDB may
// have written some of the documents before it was refused, retried then
// says that a duplicate may be this call's own document.
//
// FerretDB v1 inserts each 100 documents in one transaction; when one of
// them is a duplicate, that transaction is rolled back and its documents
// are inserted one at a time, the duplicate reported with its index like
// MongoDB's. A failure other than a document's is the command's, err.
func (s *Store) insertEach(ctx context.Context, coll string, docs []any) (werrs []error, retried bool, err error) {
	werrs = make([]error, len(docs))
	tries := 0
	err = s.retry(ctx, onBusy, func() error {
		tries++
		clear(werrs)
		_, err := s.coll(coll).InsertMany(ctx, docs, options.InsertMany().SetOrdered(false))
		var bwe mongo.BulkWriteException
		if !errors.As(err, &bwe) || bwe.WriteConcernError != nil || len(bwe.WriteErrors) == 0 {
			return err
		}
		for _, we := range bwe.WriteErrors {
			if we.Index < 0 || we.Index >= len(docs) {
				return fmt.Errorf("insert into %s: a write error for document %d of %d: %w", coll, we.Index, len(docs), err)
			}
			// An exception of its own, so mongo.IsDuplicateKeyError reads it.
			werrs[we.Index] = mongo.BulkWriteException{WriteErrors: []mongo.BulkWriteError{we}}
		}
		return nil
	})
	if err != nil {
		return nil, tries > 1, fmt.Errorf("insert into %s: %w", coll, err)
	}
	return werrs, tries > 1, nil
}

// codeIsFor reports whether code is reserved for guestID.
func (s *Store) codeIsFor(ctx context.Context, code, guestID string) bool {
	var c codeDoc
	err := s.coll(collCodes).FindOne(ctx, bson.D{{Key: "_id", Value: code}}).Decode(&c)
	return err == nil && c.GuestID == guestID
}

// guestIsStored reports whether g's document is stored: its id with its
// code, which was reserved for that id alone.
func (s *Store) guestIsStored(ctx context.Context, g guest.Guest) bool {
	got, err := s.GuestByID(ctx, g.ID)
	return err == nil && got.Code == g.Code
}

// freeCode deletes the reservation of a guest that was not stored.
func (s *Store) freeCode(ctx context.Context, code string) {
	if code == "" {
		return
	}
	if err := s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collCodes).DeleteOne(ctx, bson.D{{Key: "_id", Value: code}})
		return err
	}); err != nil {
		s.log.WarnContext(ctx, "free the code of a guest not stored", "err", err)
		return
	}
	s.unindexCode(ctx, code)
}
