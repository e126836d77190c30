package storetest

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"sort"
	"strings"
	"testing"

	"go.mongodb.org/mongo-driver/v2/bson"

	"github.com/barhub/barhub/store"
)

// Fingerprint sums every document of each named collection of st's
// database, every collection when names is empty: equal sums, nothing
// written. The isolation tests take one before and after another event's
// requests (docs/EVENTS.md).
func Fingerprint(t testing.TB, st *store.Store, names ...string) map[string]string {
	t.Helper()
	ctx := context.Background()
	if len(names) == 0 {
		var err error
		if names, err = st.DB().ListCollectionNames(ctx, bson.D{}); err != nil {
			t.Fatal(err)
		}
	}
	sums := map[string]string{}
	for _, name := range names {
		cur, err := st.DB().Collection(name).Find(ctx, bson.D{})
		if err != nil {
			t.Fatal(err)
		}
		var docs []string
		for cur.Next(ctx) {
			docs = append(docs, cur.Current.String())
		}
		if err := cur.Err(); err != nil {
			t.Fatal(err)
		}
		sort.Strings(docs)
		sum := sha256.Sum256([]byte(strings.Join(docs, "\n")))
		sums[name] = hex.EncodeToString(sum[:])
	}
	return sums
}
