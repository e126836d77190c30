package store

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/guest"
)

// collBoards holds the pick-up boards: screens by the bar that show the
// orders being made and ready, opened with a link the bar or the host
// made. A board signs in as its own holder (role board), so the session
// machinery that ends a guest's tokens ends a board's too when it is
// revoked.
const collBoards = "boards"

// BoardIDPrefix starts every board's id, so a session check knows to read
// a board rather than a guest.
const BoardIDPrefix = "brd_"

// Board is one pick-up board link.
type Board struct {
	ID         string    `bson:"_id" json:"id"`
	Name       string    `bson:"name" json:"name"`
	SecretHash string    `bson:"secretHash" json:"-"`
	CreatedBy  string    `bson:"createdBy" json:"createdBy"`
	CreatedAt  time.Time `bson:"createdAt" json:"createdAt"`
}

// IsBoardID reports whether id names a board.
func IsBoardID(id string) bool { return strings.HasPrefix(id, BoardIDPrefix) }

func hashBoardSecret(secret string) string {
	sum := sha256.Sum256([]byte(secret))
	return hex.EncodeToString(sum[:])
}

// CreateBoard stores a new board and returns it with the secret of its
// link; only the secret's hash is kept.
func (s *Store) CreateBoard(ctx context.Context, name, by string) (Board, string, error) {
	secret := randomHex(16)
	b := Board{ID: BoardIDPrefix + randomHex(8), Name: name, SecretHash: hashBoardSecret(secret),
		CreatedBy: by, CreatedAt: time.Now().UTC().Truncate(time.Millisecond)}
	if err := s.retry(ctx, onBusy, func() error { _, err := s.coll(collBoards).InsertOne(ctx, b); return err }); err != nil {
		return Board{}, "", fmt.Errorf("create board: %w", err)
	}
	return b, secret, nil
}

// BoardBySecret returns board id when secret is its link's; anything else
// is ErrNotFound.
func (s *Store) BoardBySecret(ctx context.Context, id, secret string) (Board, error) {
	b, err := s.board(ctx, id)
	if err != nil {
		return Board{}, err
	}
	if subtle.ConstantTimeCompare([]byte(b.SecretHash), []byte(hashBoardSecret(secret))) != 1 {
		return Board{}, fmt.Errorf("board %s: %w", id, ErrNotFound)
	}
	return b, nil
}

func (s *Store) board(ctx context.Context, id string) (Board, error) {
	return findByID[Board](ctx, s, collBoards, "board", id)
}

// Boards lists every board, newest first.
func (s *Store) Boards(ctx context.Context) ([]Board, error) {
	cur, err := s.coll(collBoards).Find(ctx, bson.D{}, options.Find().SetSort(bson.D{{Key: "createdAt", Value: -1}}))
	if err != nil {
		return nil, fmt.Errorf("list boards: %w", err)
	}
	boards := []Board{}
	if err := cur.All(ctx, &boards); err != nil {
		return nil, fmt.Errorf("list boards: %w", err)
	}
	return boards, nil
}

// DeleteBoard revokes a board: its link and every token it holds stop
// working. A board that is not there is ErrNotFound.
func (s *Store) DeleteBoard(ctx context.Context, id string) error {
	var res *mongo.DeleteResult
	err := s.retry(ctx, onBusy, func() error {
		var err error
		res, err = s.coll(collBoards).DeleteOne(ctx, bson.D{{Key: "_id", Value: id}})
		return err
	})
	if err != nil {
		return fmt.Errorf("delete board %s: %w", id, err)
	}
	if res.DeletedCount == 0 {
		return fmt.Errorf("board %s: %w", id, ErrNotFound)
	}
	return nil
}

// boardSessionState is a board's session: role board, version 0 for as
// long as it exists.
func (s *Store) boardSessionState(ctx context.Context, id string) (SessionState, error) {
	b, err := s.board(ctx, id)
	if err != nil {
		return SessionState{}, fmt.Errorf("load session of %s: %w", id, err)
	}
	return SessionState{Role: guest.RoleBoard, Name: b.Name, CreatedAt: b.CreatedAt}, nil
}
