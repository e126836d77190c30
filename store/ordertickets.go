package store

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// Ticket numbers: the short number a bartender calls out ("forty-two!")
// and the guest's phone and the pick-up board show. They count from 1
// each night, and no two orders of a night share one, whichever instance
// placed them.
//
// Each number is a claim (claims.go) whose _id names the night and the
// number, "ticket/2026-12-01/00042": the database refuses a second insert
// of the same _id atomically on every backend, which findAndModify on a
// counter document would not (embedded FerretDB runs it as a read and a
// separate write). An instance remembers the last number it saw per night,
// so a placement costs one insert; a number another instance took first
// costs one more. After a restart the first placement reads the night's
// highest claim once.
//
// On the embedded database every placement is in this process
// (moveclaims.go says why), so the numbers are counted in memory and only
// the top of each block of ticketBlock numbers is claimed, before the
// first of them is handed out: one write per ticketBlock orders instead
// of one per order. Close hands the unused rest of the block back (it
// claims the last number handed out and drops the block's top), so the
// numbers go on without a gap after a restart; only a crash, which runs
// no Close, skips up to ticketBlock-1 numbers. None is ever given twice.

// ticketTTL keeps a night's numbers claimed well past the night, so the
// sweeper never frees a number that could be handed out again the same
// night.
const ticketTTL = 48 * time.Hour

// ticketDigits pads the number in the claim's _id so the night's claims
// sort by number.
const ticketDigits = 6

// ticketBlock is how many numbers the embedded database claims at once.
const ticketBlock = 16

type ticketHints struct {
	mu   sync.Mutex
	last map[string]int // night → highest number this instance has seen

	// On the embedded database: alloc makes allocations take turns, and
	// claimed is the top of the block claimed per night.
	alloc   sync.Mutex
	claimed map[string]int
}

func ticketClaimKey(night string, n int) string {
	return fmt.Sprintf("ticket/%s/%0*d", night, ticketDigits, n)
}

// NextTicket allocates the next ticket number of night (any stable name
// of the night, e.g. its date).
func (s *Store) NextTicket(ctx context.Context, night string) (int, error) {
	if s.single != nil {
		return s.nextLocalTicket(ctx, night)
	}
	n, err := s.ticketHint(ctx, night)
	if err != nil {
		return 0, err
	}
	for tries := 0; ; tries++ {
		n++
		err := s.Claim(ctx, ticketClaimKey(night, n), ticketTTL)
		if err == nil {
			s.seeTicket(night, n)
			return n, nil
		}
		if !errors.Is(err, ErrConflict) {
			return 0, fmt.Errorf("next ticket: %w", err)
		}
		// Go on after the highest number any placement of this process
		// has seen meanwhile, not one by one: 32 placements at once
		// otherwise climb past each other's numbers, hundreds of failed
		// inserts for 32 tickets.
		n = max(n, s.seeTicket(night, n))
		if tries == 8 {
			// Other instances are well ahead: jump to the night's highest
			// rather than climbing one by one.
			if n, err = s.highestTicket(ctx, night); err != nil {
				return 0, err
			}
			tries = 0
		}
	}
}

// nextLocalTicket is NextTicket on the embedded database: counted here,
// claimed a block at a time.
func (s *Store) nextLocalTicket(ctx context.Context, night string) (int, error) {
	s.tickets.alloc.Lock()
	defer s.tickets.alloc.Unlock()
	for {
		n, err := s.ticketHint(ctx, night)
		if err != nil {
			return 0, err
		}
		n++
		if n <= s.tickets.claimed[night] {
			s.seeTicket(night, n)
			return n, nil
		}
		top := n + ticketBlock - 1
		err = s.Claim(ctx, ticketClaimKey(night, top), ticketTTL)
		if errors.Is(err, ErrConflict) {
			// Not ours: someone wrote this database after all. Go on
			// after the night's highest claim.
			h, err := s.highestTicket(ctx, night)
			if err != nil {
				return 0, err
			}
			s.seeTicket(night, max(h, top))
			continue
		}
		if err != nil {
			return 0, fmt.Errorf("next ticket: %w", err)
		}
		if s.tickets.claimed == nil {
			s.tickets.claimed = map[string]int{}
		}
		s.tickets.claimed[night] = top
		s.seeTicket(night, n)
		return n, nil
	}
}

// returnUnusedTickets gives back the numbers claimed but not handed out
// on the embedded database, so the next start goes on from the last one
// given. The last number's claim is written before the block's top is
// dropped: a stop between the two leaves a gap, never a number twice.
func (s *Store) returnUnusedTickets(ctx context.Context) error {
	if s.single == nil {
		return nil
	}
	s.tickets.alloc.Lock()
	defer s.tickets.alloc.Unlock()
	var errs []error
	for night, top := range s.tickets.claimed {
		s.tickets.mu.Lock()
		last := s.tickets.last[night]
		s.tickets.mu.Unlock()
		if last >= top {
			continue
		}
		if err := s.Claim(ctx, ticketClaimKey(night, last), ticketTTL); err != nil {
			errs = append(errs, fmt.Errorf("return the unused tickets of %s: %w", night, err))
			continue
		}
		if err := s.Release(ctx, ticketClaimKey(night, top)); err != nil {
			errs = append(errs, fmt.Errorf("return the unused tickets of %s: %w", night, err))
			continue
		}
		s.tickets.claimed[night] = last
	}
	return errors.Join(errs...)
}

// seeTicket notes that number n of night is taken and returns the
// highest number this instance knows of.
func (s *Store) seeTicket(night string, n int) int {
	s.tickets.mu.Lock()
	defer s.tickets.mu.Unlock()
	if s.tickets.last == nil {
		s.tickets.last = map[string]int{}
	}
	if n > s.tickets.last[night] {
		s.tickets.last[night] = n
	}
	return s.tickets.last[night]
}

// ticketHint is the highest number this instance knows of for night,
// read from the database the first time.
func (s *Store) ticketHint(ctx context.Context, night string) (int, error) {
	s.tickets.mu.Lock()
	n, ok := s.tickets.last[night]
	s.tickets.mu.Unlock()
	if ok {
		return n, nil
	}
	n, err := s.highestTicket(ctx, night)
	if err != nil {
		return 0, err
	}
	s.seeTicket(night, n)
	return n, nil
}

// highestTicket reads the night's highest claimed number: a range on _id,
// the one index every backend uses.
func (s *Store) highestTicket(ctx context.Context, night string) (int, error) {
	prefix := "ticket/" + night + "/"
	var doc claimDoc
	err := s.coll(collClaims).FindOne(ctx,
		bson.D{{Key: "_id", Value: bson.D{{Key: "$gt", Value: prefix}, {Key: "$lt", Value: prefix + "~"}}}},
		options.FindOne().SetSort(bson.D{{Key: "_id", Value: -1}})).Decode(&doc)
	if errors.Is(err, mongo.ErrNoDocuments) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read the night's last ticket: %w", err)
	}
	n, err := strconv.Atoi(strings.TrimPrefix(doc.Key, prefix))
	if err != nil {
		return 0, fmt.Errorf("read the night's last ticket %q: %w", doc.Key, err)
	}
	return n, nil
}
