package store_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"

	"github.com/barhub/barhub/api/store/storetest"
)

func TestZZExp(t *testing.T) {
	ctx := context.Background()
	s := storetest.New(t)
	c := s.DB().Collection("guests")
	docs := make([]any, 0, 10000)
	st := []string{"pending", "coming", "declined"}
	for i := range 10000 {
		d := bson.D{{Key: "_id", Value: fmt.Sprintf("g%05d", i)}, {Key: "firstName", Value: "F"}, {Key: "lastName", Value: fmt.Sprintf("L%d", i)}, {Key: "status", Value: st[i%3]}, {Key: "expectedGuests", Value: 1 + i%3}, {Key: "code", Value: fmt.Sprintf("C%07d", i)}, {Key: "dietary", Value: bson.D{}}}
		if i%7 == 0 {
			d = append(d, bson.E{Key: "extraGuests", Value: 1})
		}
		if i%5 == 0 {
			d = append(d, bson.E{Key: "lastLogin", Value: time.Now()})
		}
		if i%11 == 0 {
			d[6] = bson.E{Key: "dietary", Value: bson.D{{Key: "text", Value: "nuts"}, {Key: "tags", Value: bson.A{"nuts"}}}}
		}
		docs = append(docs, d)
	}
	t0 := time.Now()
	if _, err := c.InsertMany(ctx, docs); err != nil {
		t.Fatal(err)
	}
	t.Logf("insert %v", time.Since(t0))
	agg := func(name string, p any) {
		t0 := time.Now()
		cur, err := c.Aggregate(ctx, p)
		if err != nil {
			t.Fatal(name, err)
		}
		var out []bson.M
		if err := cur.All(ctx, &out); err != nil {
			t.Fatal(name, err)
		}
		t.Logf("%s %v %v", name, time.Since(t0), out)
	}
	for range 2 {
		agg("status count", bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$status"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: 1}}}}}}})
		agg("status expected", bson.A{bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$status"}, {Key: "n", Value: bson.D{{Key: "$sum", Value: "$expectedGuests"}}}}}}})
		agg("extra", bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "status", Value: "coming"}, {Key: "extraGuests", Value: bson.D{{Key: "$exists", Value: true}}}}}}, bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: nil}, {Key: "n", Value: bson.D{{Key: "$sum", Value: "$extraGuests"}}}}}}})
		for _, f := range []bson.D{{{Key: "lastLogin", Value: bson.D{{Key: "$exists", Value: false}}}}, {{Key: "status", Value: "coming"}, {Key: "dietary.tags", Value: bson.D{{Key: "$exists", Value: true}}}}} {
			t0 := time.Now()
			n, err := c.CountDocuments(ctx, f)
			t.Logf("count %v %v %v", f, n, time.Since(t0))
			if err != nil {
				t.Fatal(err)
			}
		}
		t0 := time.Now()
		cur, err := c.Find(ctx, bson.D{}, options.Find().SetProjection(bson.D{{Key: "status", Value: 1}, {Key: "expectedGuests", Value: 1}, {Key: "extraGuests", Value: 1}, {Key: "lastLogin", Value: 1}, {Key: "dietary.tags", Value: 1}}))
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for cur.Next(ctx) {
			n++
		}
		t.Logf("scan %d %v", n, time.Since(t0))
		t0 = time.Now()
		cur, err = c.Find(ctx, bson.D{{Key: "status", Value: "coming"}}, options.Find().SetSort(bson.D{{Key: "lastName", Value: 1}}).SetSkip(100).SetLimit(50))
		if err != nil {
			t.Fatal(err)
		}
		n = 0
		for cur.Next(ctx) {
			n++
		}
		t.Logf("page %d %v", n, time.Since(t0))
		t0 = time.Now()
		agg("$push", bson.A{bson.D{{Key: "$match", Value: bson.D{{Key: "status", Value: "coming"}}}}, bson.D{{Key: "$group", Value: bson.D{{Key: "_id", Value: "$expectedGuests"}, {Key: "n", Value: bson.D{{Key: "$push", Value: "$_id"}}}}}}, bson.D{{Key: "$project", Value: bson.D{{Key: "c", Value: bson.D{{Key: "$size", Value: "$n"}}}}}}})
	}
}
