package embedded

import (
	"context"
	"database/sql"
	"net/url"
	"os"
	"path"
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

// Every connection FerretDB opens to a database of the embedded server
// gets the capped page cache and no memory map: the URL's pragmas, read
// back from a connection opened as FerretDB opens one (the database's
// file joined to the folder's URL, its own defaults added), for each
// durability setting.
func TestSQLiteURLCapsMemory(t *testing.T) {
	dir := t.TempDir()
	for _, sync := range SyncModes {
		u, err := sqliteURL(dir, sync)
		if err != nil {
			t.Fatal(err)
		}
		parsed, err := url.Parse(u)
		if err != nil {
			t.Fatal(err)
		}
		parsed.Path = path.Join(parsed.Path, "party.sqlite")
		parsed.Opaque = parsed.Path
		q := parsed.Query()
		q.Add("_pragma", "busy_timeout(10000)")
		q.Add("_pragma", "journal_mode(wal)")
		parsed.RawQuery = q.Encode()
		db, err := sql.Open("sqlite", parsed.String())
		if err != nil {
			t.Fatal(err)
		}
		want := map[string]int64{"cache_size": -sqliteCacheKiB, "mmap_size": 0, "synchronous": map[string]int64{"full": 2, "normal": 1}[sync]}
		for pragma, v := range want {
			var got int64
			if err := db.QueryRow("PRAGMA " + pragma).Scan(&got); err != nil {
				t.Fatalf("%s: PRAGMA %s: %v", sync, pragma, err)
			}
			if got != v {
				t.Errorf("%s: %s = %d, want %d", sync, pragma, got, v)
			}
		}
		db.Close()
	}
	if _, err := sqliteURL(dir, "fast"); err == nil {
		t.Error("an unknown sync setting was accepted")
	}
}
