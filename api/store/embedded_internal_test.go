package store

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// A database dropped between the look for files and the indexing is
// neither an error nor created again as an empty file.
func TestIndexIDsSkipsADroppedDatabase(t *testing.T) {
	file := filepath.Join(t.TempDir(), "gone.sqlite")
	if err := indexIDsIn(context.Background(), file); err != nil {
		t.Errorf("indexing a dropped database: %v", err)
	}
	if _, err := os.Stat(file); !os.IsNotExist(err) {
		t.Errorf("the dropped database's file is back: %v", err)
	}
}
