package api

import (
	"context"
	"fmt"
	"math"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// wsTicketCap counts the WebSocket tickets each signed-in person takes per
// minute. Every ticket opens a socket, and every socket may ask for history
// replays, so the cap bounds what one person can make the hub send by
// reconnecting over and over. With Redis the count is shared by every
// instance; a fixed one-minute window lets a client reach twice the cap
// across a window boundary, the price of one round trip per ticket.
type wsTicketCap struct {
	limit  int
	rdb    *redis.Client // nil counts on this instance only
	prefix string

	mu     sync.Mutex
	minute int64
	counts map[string]int
}

func newWSTicketCap(limit int, rdb *redis.Client, prefix string) *wsTicketCap {
	if limit <= 0 {
		limit = 30
	}
	return &wsTicketCap{limit: limit, rdb: rdb, prefix: prefix, counts: make(map[string]int)}
}

var takeTicket = redis.NewScript(`
local n = redis.call('INCR', KEYS[1])
if n == 1 then redis.call('EXPIRE', KEYS[1], 120) end
return n`)

// take counts one ticket for guestID at now. It reports whether the
// ticket is within the cap and, when not, how long until the next window.
func (c *wsTicketCap) take(ctx context.Context, guestID string, now time.Time) (bool, time.Duration) {
	minute := now.Unix() / 60
	wait := time.Unix((minute+1)*60, 0).Sub(now)
	if c.rdb != nil {
		key := c.prefix + ":wstickets:" + guestID + ":" + strconv.FormatInt(minute, 10)
		if n, err := takeTicket.Run(ctx, c.rdb, []string{key}).Int64(); err == nil {
			return n <= int64(c.limit), wait
		}
		// Redis is away: count here, so the cap still holds per instance.
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.minute != minute {
		c.minute, c.counts = minute, make(map[string]int)
	}
	c.counts[guestID]++
	return c.counts[guestID] <= c.limit, wait
}

// ticketAllowed takes one ticket for the signed-in person, answering 429
// with Retry-After when the minute's tickets are spent.
func (s *Server) ticketAllowed(w http.ResponseWriter, r *http.Request) bool {
	ok, wait := s.wsTickets.take(r.Context(), identity(r.Context()).GuestID, time.Now())
	if ok {
		return true
	}
	secs := max(1, int(math.Ceil(wait.Seconds())))
	w.Header().Set("Retry-After", strconv.Itoa(secs))
	s.writeError(w, r, http.StatusTooManyRequests, "too_many_tickets", fmt.Sprintf(
		"more than %d live connections opened in a minute; try again in %d s", s.wsTickets.limit, secs))
	return false
}
