package api

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/go-chi/chi/v5"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/audit"
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/order"
	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/text"
)

// The pick-up board (/board): a TV or spare tablet by the bar showing the
// orders waiting, being made and ready to collect. The bar or the host makes a
// board link; the board signs in with it as a holder of role board, which
// sees the board and nothing else, and revoking the link ends its tokens
// and socket through the same machinery as a guest's "sign out
// everywhere" (docs/DESIGN.md; sessions.go).

// boardOrder is what a board shows of an order: no guest id, no notes, no
// dietary details.
type boardOrder struct {
	ID     string      `json:"id"`
	Ticket int         `json:"ticket,omitempty"`
	Name   string      `json:"name"`
	Items  []boardItem `json:"items"`
	Status string      `json:"status"`
	// StartedAt orders the drinks being made, newest started first.
	StartedAt *time.Time `json:"startedAt,omitempty"`
	ReadyAt   *time.Time `json:"readyAt,omitempty"`
	At        time.Time  `json:"at"`
}

type boardItem struct {
	Name string `json:"name"`
	Qty  int    `json:"qty"`
	// ImageURL is the drink's picture as the menu shows it.
	ImageURL string `json:"imageUrl,omitempty"`
}

// shortName is "Ada L." for "Ada Lovelace": enough to call out at the bar.
func shortName(full string) string {
	f := strings.Fields(full)
	switch len(f) {
	case 0:
		return "Guest"
	case 1:
		return f[0]
	}
	r, _ := utf8.DecodeRuneInString(f[len(f)-1])
	return strings.Join(f[:len(f)-1], " ") + " " + strings.ToUpper(string(r)) + "."
}

func newBoardOrder(o order.Order, snap *app.MenuSnapshot) boardOrder {
	b := boardOrder{ID: o.ID, Ticket: o.Ticket, Name: shortName(o.GuestName), Status: string(o.Status), StartedAt: o.StartedAt, ReadyAt: o.ReadyAt, At: o.UpdatedAt, Items: make([]boardItem, 0, len(o.Items))}
	for _, it := range o.Items {
		bi := boardItem{Name: it.Name, Qty: it.Qty}
		if snap != nil {
			if d, ok := snap.Drink(it.DrinkID); ok {
				bi.ImageURL = app.ViewOf(d).ImageURL
			}
		}
		b.Items = append(b.Items, bi)
	}
	return b
}

// boardMenu is the menu the board's pictures come from; nil (no
// pictures) when it cannot be read, which must not keep an order off the
// board.
func (s *Server) boardMenu(ctx context.Context) *app.MenuSnapshot {
	snap, err := s.menu.Snapshot(ctx)
	if err != nil {
		s.log.WarnContext(ctx, "the board's pictures", "err", err)
		return nil
	}
	return snap
}

type boardResponse struct {
	Orders []boardOrder `json:"orders"`
	Now    time.Time    `json:"now"`
}

// handleBoard lists what the board shows: every order queued, being made
// or ready, oldest first.
func (s *Server) handleBoard(w http.ResponseWriter, r *http.Request) {
	orders, err := s.store.BarQueue(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	out := make([]boardOrder, 0, len(orders))
	snap := s.boardMenu(r.Context())
	for _, o := range orders {
		out = append(out, newBoardOrder(o, snap))
	}
	writeJSON(w, http.StatusOK, boardResponse{Orders: out, Now: time.Now().UTC()})
}

type boardLoginRequest struct {
	// Key is the board link's "#key=" part: the board's id, a dot, and
	// its secret.
	Key string `json:"key"`
}

type boardLoginResponse struct {
	Token     string    `json:"token"`
	ExpiresAt time.Time `json:"expiresAt"`
	Role      string    `json:"role"`
	Name      string    `json:"name"`
}

// parseBoardLogin decodes a board's sign-in into the board's id and the
// link's secret.
func parseBoardLogin(r *http.Request) (id, secret string, err error) {
	var req boardLoginRequest
	if err := decode(r, &req); err != nil {
		return "", "", err
	}
	id, secret, ok := strings.Cut(req.Key, ".")
	if !ok || !store.IsBoardID(id) || !guest.ValidID(id) || secret == "" || len(secret) > 64 {
		return "", "", errBadRequest("invalid_key", "that is not a board link's key")
	}
	return id, secret, nil
}

// handleBoardLogin signs a board in with its link's key.
func (s *Server) handleBoardLogin(w http.ResponseWriter, r *http.Request) {
	id, secret, err := parseBoardLogin(r)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	b, err := s.store.BoardBySecret(r.Context(), id, secret)
	if errors.Is(err, store.ErrNotFound) {
		s.writeError(w, r, http.StatusUnauthorized, "board_revoked", "this board link no longer works; ask the bar for a new one")
		return
	}
	if err != nil {
		s.fail(w, r, err)
		return
	}
	tok, exp, err := s.keys.Sign(auth.Identity{GuestID: b.ID, Name: b.Name, Role: guest.RoleBoard, Event: s.event})
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, boardLoginResponse{Token: tok, ExpiresAt: exp, Role: string(guest.RoleBoard), Name: b.Name})
}

type boardCreateRequest struct {
	Name string `json:"name,omitempty"`
}

type boardLink struct {
	store.Board
	// Link is shown once, when the board is made: only its hash is kept.
	Link string `json:"link,omitempty"`
}

// handleCreateBoard makes a board link.
func (s *Server) handleCreateBoard(w http.ResponseWriter, r *http.Request) {
	var req boardCreateRequest
	if err := decodeOptional(r, &req); err != nil {
		s.fail(w, r, err)
		return
	}
	name, err := text.Rule{Max: 60}.Clean(req.Name)
	if err != nil {
		s.fail(w, r, errBadRequest("invalid_name", "a board's name is one line of up to 60 characters: it "+err.Error()))
		return
	}
	if name == "" {
		name = "Pick-up board"
	}
	req.Name = name
	b, secret, err := s.store.CreateBoard(r.Context(), req.Name, identity(r.Context()).Name)
	if err != nil {
		s.fail(w, r, err)
		return
	}
	audit.SetSubject(r.Context(), b.ID)
	audit.Note(r.Context(), "name", b.Name)
	writeJSON(w, http.StatusCreated, boardLink{Board: b, Link: strings.TrimRight(s.publicURL(r.Context()), "/") + "/board#key=" + b.ID + "." + secret})
}

type boardsResponse struct {
	Boards []store.Board `json:"boards"`
}

func (s *Server) handleListBoards(w http.ResponseWriter, r *http.Request) {
	boards, err := s.store.Boards(r.Context())
	if err != nil {
		s.fail(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, boardsResponse{Boards: boards})
}

// handleRevokeBoard deletes a board: its link stops working and its
// tokens and socket end on every instance at once.
func (s *Server) handleRevokeBoard(w http.ResponseWriter, r *http.Request) {
	id := chi.URLParam(r, "id")
	if !store.IsBoardID(id) || !guest.ValidID(id) {
		s.fail(w, r, errNotFound("there is no such board"))
		return
	}
	if err := s.store.DeleteBoard(r.Context(), id); err != nil {
		s.fail(w, r, storeError(err, "that board"))
		return
	}
	s.accessChanged(r.Context(), id)
	w.WriteHeader(http.StatusNoContent)
}

// ctxBoardRoute marks the routes a board's token may call; every other
// signed-in route refuses it (authenticate).
type ctxBoardRouteKey struct{}

func boardRoute(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), ctxBoardRouteKey{}, true)))
	})
}

func isBoardRoute(ctx context.Context) bool {
	ok, _ := ctx.Value(ctxBoardRouteKey{}).(bool)
	return ok
}

// boardEvent gives the boards the order's new state.
func (s *Server) boardEvent(ctx context.Context, o order.Order) {
	s.publishEvent(ctx, live.TopicBoard, live.EventBoardOrder, newBoardOrder(o, s.boardMenu(ctx)))
}
