package app_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"slices"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/app"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/menu"
)

func TestMenuWriteShowsAtOnce(t *testing.T) {
	k := newKit(t, app.OrderLimits{})
	ctx := context.Background()
	before, err := k.menu.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := k.menu.Snapshot(ctx); again != before {
		t.Error("a second read without a write loaded the menu again")
	}
	d, err := k.menu.CreateDrink(ctx, menu.Drink{Name: "Negroni", Section: "Summer specials", Available: true})
	if err != nil {
		t.Fatal(err)
	}
	// The starter menu has a negroni: the new one gets another id.
	if d.ID == "negroni" || d.ID == "" || d.Section != "summer-specials" {
		t.Errorf("created %q in %q", d.ID, d.Section)
	}
	after, err := k.menu.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := after.Drink(d.ID); !ok {
		t.Error("the menu read after the write misses the new drink")
	}
	if n := k.events.count(live.TopicMenu + " menu.changed"); n != 1 {
		t.Errorf("%d menu.changed events, want 1", n)
	}
	if _, err := k.menu.DeleteDrink(ctx, d.ID); err != nil {
		t.Fatal(err)
	}
	_, err = k.menu.DeleteDrink(ctx, d.ID)
	if e := appError(t, err); e.Kind != app.NotFound || e.Message != "there is no such drink on the menu" {
		t.Errorf("delete twice: %v", err)
	}
	_, err = k.menu.UpdateDrink(ctx, menu.Drink{ID: d.ID, Name: "Gone"})
	if !errors.Is(err, app.ErrNotFound) {
		t.Errorf("update of a deleted drink: %v", err)
	}
}

func TestStockFollowsOrders(t *testing.T) {
	k := newKit(t, app.OrderLimits{})
	ctx := context.Background()
	ada := k.guest(t, guest.Guest{FirstName: "Ada"})
	_, err := k.menu.SetIngredientStock(ctx, "../../etc/passwd", false, "Bea Bar")
	if e := appError(t, err); e.Kind != app.NotFound || e.Code != "unknown_ingredient" {
		t.Errorf("an ingredient no drink uses: %v", err)
	}
	st, err := k.menu.SetIngredientStock(ctx, menu.IngredientKey("Mint"), false, "Bea Bar")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(st.Drinks, "mojito") || !slices.Contains(st.Unavailable, "Mojito") || st.Ingredient.UpdatedBy != "Bea Bar" {
		t.Fatalf("mint out: %+v", st)
	}
	_, _, err = k.orders.Place(ctx, ada, request(item("mojito", 1)), "k1")
	if e := appError(t, err); e.Kind != app.Conflict || e.Code != "drink_unavailable" || e.Key != "error.drink_unavailable.named" {
		t.Errorf("a mojito without mint: %v", err)
	}
	if _, err := k.menu.SetIngredientStock(ctx, menu.IngredientKey("mint"), true, "Bea Bar"); err != nil {
		t.Fatal(err)
	}
	if _, _, err := k.orders.Place(ctx, ada, request(item("mojito", 1)), "k1"); err != nil {
		t.Errorf("a mojito with mint back: %v", err)
	}
	stock, err := k.menu.Stock(ctx)
	if err != nil || len(stock.Drinks) == 0 || len(stock.Ingredients) == 0 {
		t.Errorf("stock: %v %+v", err, stock)
	}
	_, err = k.menu.SetDrinkStock(ctx, "no-such-drink", false)
	if !errors.Is(err, app.ErrNotFound) {
		t.Errorf("stock of no drink: %v", err)
	}
}

// TestRedisMenuVersion is the version protocol between instances: a
// write on one moves the shared version before it returns, so the
// other's next read reloads even though no event told it.
func TestRedisMenuVersion(t *testing.T) {
	url := os.Getenv("REDIS_URL")
	if url == "" {
		t.Fatal("REDIS_URL is not set: run the tests with make test, which starts a throwaway redis-server, or set REDIS_URL=redis://127.0.0.1:6379/0")
	}
	opts, err := redis.ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	rdb := redis.NewClient(opts)
	t.Cleanup(func() { rdb.Close() })
	prefix := "test-" + t.Name() + "-" + newPrefix()
	t.Cleanup(func() { rdb.Del(context.Background(), prefix+":menu:version") })

	k := newKit(t, app.OrderLimits{})
	ctx := context.Background()
	log := slog.New(slog.DiscardHandler)
	one := app.NewMenu(app.MenuDeps{Store: k.st, Version: app.NewRedisMenuVersion(rdb, prefix), Logger: log})
	two := app.NewMenu(app.MenuDeps{Store: k.st, Version: app.NewRedisMenuVersion(rdb, prefix), Logger: log})
	if _, err := two.Snapshot(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := one.SetDrinkStock(ctx, "negroni", false); err != nil {
		t.Fatal(err)
	}
	snap, err := two.Snapshot(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := snap.Drink("negroni"); d.Available {
		t.Error("the other instance still offers the negroni marked out")
	}
	// A write from outside (the seed command) moves it too.
	if err := app.NewMenu(app.MenuDeps{Version: app.NewRedisMenuVersion(rdb, prefix)}).Bump(ctx); err != nil {
		t.Fatal(err)
	}
	if again, _ := two.Snapshot(ctx); again == snap {
		t.Error("a bump from outside left the cached menu in place")
	}
}
