package store_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/api/store"
)

// Each durability setting opens a working database that keeps what is
// written across a restart; anything else is refused before start.
func TestEmbeddedSync(t *testing.T) {
	ctx := context.Background()
	for _, sync := range append([]string{""}, store.SyncModes...) {
		t.Run("sync="+sync, func(t *testing.T) {
			dir := t.TempDir()
			cfg := store.Config{DataDir: dir, Sync: sync}
			s, err := store.Open(ctx, cfg, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			if _, err := s.DB().Collection("notes").InsertOne(ctx, bson.D{{Key: "_id", Value: "n1"}, {Key: "text", Value: sync}}); err != nil {
				t.Fatal(err)
			}
			s.Close(ctx)
			s, err = store.Open(ctx, cfg, slog.New(slog.DiscardHandler))
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close(ctx)
			var got struct{ Text string }
			if err := s.DB().Collection("notes").FindOne(ctx, bson.D{{Key: "_id", Value: "n1"}}).Decode(&got); err != nil || got.Text != sync {
				t.Errorf("after a restart: %+v, %v", got, err)
			}
		})
	}
	_, err := store.Open(ctx, store.Config{DataDir: t.TempDir(), Sync: "sometimes"}, slog.New(slog.DiscardHandler))
	if err == nil || !strings.Contains(err.Error(), "full or normal") {
		t.Errorf("sync=sometimes: err = %v, want one naming the choices", err)
	}
}
