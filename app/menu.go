package app

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/images"
	"github.com/barhub/barhub/live"
	"github.com/barhub/barhub/menu"
	"github.com/barhub/barhub/store"
)

// MenuStore is what the menu's use cases read and write.
type MenuStore interface {
	MenuReader
	EnsureSection(ctx context.Context, id, name string) (menu.Section, error)
	CreateDrink(ctx context.Context, d *menu.Drink) error
	ReplaceDrink(ctx context.Context, d *menu.Drink) error
	DrinkByID(ctx context.Context, id string) (menu.Drink, error)
	DrinksByIDs(ctx context.Context, ids []string) (map[string]menu.Drink, error)
	DeleteDrink(ctx context.Context, id string) (menu.Drink, error)
	ClearDrinkImage(ctx context.Context, id string) (menu.Drink, error)
	SetDrinkStock(ctx context.Context, id string, inStock bool) (menu.Drink, error)
	SetIngredientStock(ctx context.Context, key, name string, inStock bool, by string) ([]string, error)
	IngredientStock(ctx context.Context) ([]store.StockItem, error)
	GroupOf(ctx context.Context, g guest.Guest) ([]guest.Guest, error)
	GuestByID(ctx context.Context, id string) (guest.Guest, error)
	Lock(ctx context.Context, name string, ttl time.Duration) (unlock func(), err error)
}

// LivePublisher sends a live event to a topic on every instance.
type LivePublisher interface {
	Publish(ctx context.Context, topic, event string, data any) error
}

// ImageDeleter removes a stored drink photo.
type ImageDeleter interface {
	Delete(ctx context.Context, name string) error
}

// MenuDeps is what NewMenu builds the menu from.
type MenuDeps struct {
	Store MenuStore
	// Version is the menu's write counter; nil counts in this process
	// and follows the database's counter (NewLocalMenuVersion).
	Version MenuVersion
	// Publish tells phones and other instances of a change; nil tells
	// nobody.
	Publish LivePublisher
	// Images removes a deleted drink's photo; nil leaves it.
	Images ImageDeleter
	Logger *slog.Logger
}

// Menu is the drinks menu: its cached reads, the host's edits and the
// bar's stock marks. Every write moves the menu's version before it
// returns, so no instance serves the menu from before it afterwards.
type Menu struct {
	store   MenuStore
	cache   *menuCache
	publish LivePublisher
	images  ImageDeleter
	log     *slog.Logger
	diet    dietCache
}

// NewMenu returns the menu of d.Store.
func NewMenu(d MenuDeps) *Menu {
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	if d.Version == nil {
		c, _ := d.Store.(MenuCounter)
		d.Version = NewLocalMenuVersion(c)
	}
	return &Menu{
		store:   d.Store,
		cache:   newMenuCache(d.Store, d.Version, d.Logger),
		publish: d.Publish,
		images:  d.Images,
		log:     d.Logger,
		diet:    dietCache{m: make(map[string]dietEntry)},
	}
}

// DietDrinks is tonight's drinks as the dietary checks read them (the
// door's card).
func (m *Menu) DietDrinks(ctx context.Context) ([]diet.Drink, error) {
	snap, err := m.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return snap.DietDrinks(), nil
}

// Snapshot returns a menu no older than the last write that answered.
func (m *Menu) Snapshot(ctx context.Context) (*MenuSnapshot, error) {
	return m.cache.snapshot(ctx)
}

// Invalidated takes note of another instance's write, announced by its
// menu event.
func (m *Menu) Invalidated() { m.cache.invalidated() }

// Bump records a menu write made elsewhere (the seed command's), so the
// next read of every instance sharing the version reloads the menu.
func (m *Menu) Bump(ctx context.Context) error { return m.cache.bump(ctx) }

// Changed makes a menu write visible everywhere before the caller
// answers: this instance's cache and the shared version first, then the
// event that tells other instances and the phones.
func (m *Menu) Changed(ctx context.Context, reason string, drinkIDs []string) {
	ctx = context.WithoutCancel(ctx)
	if err := m.cache.bump(ctx); err != nil {
		m.log.WarnContext(ctx, "menu version", "err", err)
	}
	if drinkIDs == nil {
		drinkIDs = []string{}
	}
	publishLive(ctx, m.publish, m.log, live.TopicMenu, live.EventMenuChanged, map[string]any{"reason": reason, "drinkIds": drinkIDs})
}

// publishLive sends an event and logs a failure: the change is already
// stored, and clients resync on reconnect, so a lost event must not fail
// the call.
func publishLive(ctx context.Context, p LivePublisher, log *slog.Logger, topic, event string, data any) {
	if p == nil {
		return
	}
	if err := p.Publish(context.WithoutCancel(ctx), topic, event, data); err != nil {
		log.WarnContext(ctx, "publish event", "topic", topic, "event", event, "err", err)
	}
}

var errNoDrink = NewError(NotFound, "not_found", "there is no such drink on the menu")

// placeInSection files d under its section, creating the section when it
// is new: "Summer specials" becomes section summer-specials.
func (m *Menu) placeInSection(ctx context.Context, d *menu.Drink) error {
	sec, err := m.store.EnsureSection(ctx, menu.SectionID(d.Section), d.Section)
	if err != nil {
		return err
	}
	d.Section = sec.ID
	return nil
}

// CreateDrink puts a new drink, normalised, on the menu.
func (m *Menu) CreateDrink(ctx context.Context, d menu.Drink) (menu.Drink, error) {
	if err := m.placeInSection(ctx, &d); err != nil {
		return menu.Drink{}, err
	}
	// A readable id when the name is free ("espresso-martini"), a random
	// one when a drink of that name exists already.
	d.ID = menu.Slug(d.Name)
	err := m.store.CreateDrink(ctx, &d)
	if errors.Is(err, store.ErrConflict) {
		d.ID = ""
		err = m.store.CreateDrink(ctx, &d)
	}
	if err != nil {
		return menu.Drink{}, err
	}
	m.Changed(ctx, "drink.created", []string{d.ID})
	return d, nil
}

// DrinkUpdate is an edited drink and, when it could be read, the drink
// before the edit.
type DrinkUpdate struct {
	Drink  menu.Drink
	Before *menu.Drink
}

// UpdateDrink replaces drink d.ID with d.
func (m *Menu) UpdateDrink(ctx context.Context, d menu.Drink) (DrinkUpdate, error) {
	before, beforeErr := m.store.DrinkByID(ctx, d.ID)
	if errors.Is(beforeErr, store.ErrNotFound) {
		return DrinkUpdate{}, errNoDrink
	}
	if err := m.placeInSection(ctx, &d); err != nil {
		return DrinkUpdate{}, err
	}
	if err := m.store.ReplaceDrink(ctx, &d); err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return DrinkUpdate{}, errNoDrink
		}
		return DrinkUpdate{}, err
	}
	m.Changed(ctx, "drink.updated", []string{d.ID})
	u := DrinkUpdate{Drink: d}
	if beforeErr == nil {
		u.Before = &before
	}
	return u, nil
}

// DeleteDrink takes drink id off the menu, and its photo with it.
func (m *Menu) DeleteDrink(ctx context.Context, id string) (menu.Drink, error) {
	d, err := m.store.DeleteDrink(ctx, id)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return menu.Drink{}, errNoDrink
		}
		return menu.Drink{}, err
	}
	m.DeleteImage(ctx, d.ImageURL)
	m.Changed(ctx, "drink.deleted", []string{d.ID})
	return d, nil
}

// DeleteImage removes a photo this server stored; others are left alone.
func (m *Menu) DeleteImage(ctx context.Context, url string) {
	name, ok := strings.CutPrefix(url, "/images/")
	if !ok || !images.ValidName(name) || m.images == nil {
		return
	}
	if err := m.images.Delete(context.WithoutCancel(ctx), name); err != nil {
		m.log.WarnContext(ctx, "delete old photo", "name", name, "err", err)
	}
}

// Stock is every ingredient's mark and every drink's availability.
type Stock struct {
	Ingredients []store.StockItem `json:"ingredients"`
	Drinks      []StockDrink      `json:"drinks"`
}

// StockDrink is a drink as the bar's stock list shows it.
type StockDrink struct {
	ID                 string   `json:"id"`
	Name               string   `json:"name"`
	Section            string   `json:"section"`
	Available          bool     `json:"available"`
	OutOfStock         bool     `json:"outOfStock"`
	MissingIngredients []string `json:"missingIngredients"`
}

// Stock lists the ingredients' marks and the drinks' availability.
func (m *Menu) Stock(ctx context.Context) (Stock, error) {
	items, err := m.store.IngredientStock(ctx)
	if err != nil {
		return Stock{}, err
	}
	snap, err := m.Snapshot(ctx)
	if err != nil {
		return Stock{}, err
	}
	out := Stock{Ingredients: items, Drinks: make([]StockDrink, 0, len(snap.drinks))}
	for _, d := range snap.drinks {
		v := ViewOf(d)
		out.Drinks = append(out.Drinks, StockDrink{ID: d.ID, Name: d.Name, Section: d.Section, Available: d.Available, OutOfStock: d.OutOfStock, MissingIngredients: v.MissingIngredients})
	}
	return out, nil
}

// IngredientStock is the result of marking an ingredient.
type IngredientStock struct {
	Ingredient store.StockItem `json:"ingredient"`
	// Drinks are the ids of every drink that needs the ingredient.
	Drinks []string `json:"drinks"`
	// Unavailable names the drinks that cannot be ordered now.
	Unavailable []string `json:"unavailable"`
}

// stockLockTTL outlives a stock change's few writes by far.
const stockLockTTL = 30 * time.Second

// stockedIngredient returns the name of the ingredient key names when a
// drink on the menu uses it, else a NotFound: the key is typed by whoever
// holds a bartender's token, and marking anything else would store a mark
// no drink reads ("../../etc/passwd" in the bar's stock list for good).
// A mark left on an ingredient whose drinks were taken off the menu
// matters again only when a drink with it is back, and then it can be
// changed.
func (m *Menu) stockedIngredient(ctx context.Context, key string) (string, error) {
	snap, err := m.Snapshot(ctx)
	if err != nil {
		return "", err
	}
	for _, d := range snap.drinks {
		for _, in := range d.Ingredients {
			if in.Key == key {
				return in.Name, nil
			}
		}
	}
	return "", NewError(NotFound, "unknown_ingredient",
		fmt.Sprintf("no drink on the menu uses %q; name an ingredient of a drink on the menu (GET /api/bar/stock lists them)", key))
}

// SetIngredientStock marks the ingredient of key (menu.IngredientKey) out
// of or back in stock, by the named bartender; every drink needing it
// follows. Only an ingredient the menu uses can be marked.
func (m *Menu) SetIngredientStock(ctx context.Context, key string, inStock bool, by string) (IngredientStock, error) {
	name, err := m.stockedIngredient(ctx, key)
	if err != nil {
		return IngredientStock{}, err
	}
	// Each change is a few UpdateMany calls that must not interleave on
	// one drink with another change, on any instance.
	unlock, err := m.store.Lock(ctx, "stock", stockLockTTL)
	if err != nil {
		return IngredientStock{}, err
	}
	ids, err := m.store.SetIngredientStock(ctx, key, name, inStock, by)
	unlock()
	if err != nil {
		return IngredientStock{}, err
	}
	m.Changed(ctx, "stock", ids)
	byID, err := m.store.DrinksByIDs(ctx, ids)
	if err != nil {
		return IngredientStock{}, err
	}
	out := IngredientStock{
		Ingredient:  store.StockItem{Key: key, Name: name, InStock: inStock, UpdatedBy: by},
		Drinks:      ids,
		Unavailable: []string{},
	}
	for _, id := range ids {
		if d, ok := byID[id]; ok && !d.Available {
			out.Unavailable = append(out.Unavailable, d.Name)
		}
	}
	return out, nil
}

// SetDrinkStock marks one whole drink out of or back in stock.
func (m *Menu) SetDrinkStock(ctx context.Context, id string, inStock bool) (menu.Drink, error) {
	d, err := m.store.SetDrinkStock(ctx, id, inStock)
	if err != nil {
		if errors.Is(err, store.ErrNotFound) {
			return menu.Drink{}, errNoDrink
		}
		return menu.Drink{}, err
	}
	m.Changed(ctx, "stock", []string{d.ID})
	return d, nil
}

// dietCache keeps each guest's own dietary needs for a short while, so
// marking the menu for them costs no database read per request. Ordering
// always reads the guest afresh.
type dietCache struct {
	mu sync.Mutex
	m  map[string]dietEntry
}

type dietEntry struct {
	needs diet.Needs
	at    time.Time
}

const dietTTL = 30 * time.Second

func (c *dietCache) put(guestID string, needs diet.Needs) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]dietEntry{}
	}
	if len(c.m) > 20000 {
		clear(c.m)
	}
	c.m[guestID] = dietEntry{needs: needs, at: time.Now()}
}

// GuestNeeds is a guest's own needs, for the menu's marks.
func (m *Menu) GuestNeeds(ctx context.Context, guestID string) diet.Needs {
	c := &m.diet
	c.mu.Lock()
	e, ok := c.m[guestID]
	c.mu.Unlock()
	if ok && time.Since(e.at) < dietTTL {
		return e.needs
	}
	g, err := m.store.GuestByID(ctx, guestID)
	if err != nil {
		// Unknown or unreadable: no marks this time; ordering checks again.
		return diet.Needs{}
	}
	n := ownNeeds(g)
	c.put(guestID, n)
	return n
}

// ownNeeds are the needs the menu marks and ordering read for g's own
// drinks: their dietary answer, and alcohol-free for a child.
func ownNeeds(g guest.Guest) diet.Needs {
	n := g.Dietary.Needs()
	if g.Child() && !slices.Contains(n.Tags, diet.AlcoholFree) {
		n.Tags = append(slices.Clone(n.Tags), diet.AlcoholFree)
	}
	return n
}

// PersonNeeds are the needs of ref, someone guestID may order for (a
// "+1", a member of their group: guest.PersonFor), so the order dialog
// warns the moment the guest chooses whom a drink is for, not when the
// order is refused. A child's needs include alcohol-free. ok is false
// when ref is nobody on the guest's answer.
func (m *Menu) PersonNeeds(ctx context.Context, guestID, ref string) (needs diet.Needs, ok bool, err error) {
	g, err := m.store.GuestByID(ctx, guestID)
	if errors.Is(err, store.ErrNotFound) {
		return diet.Needs{}, false, nil
	}
	if err != nil {
		return diet.Needs{}, false, err
	}
	group, err := m.store.GroupOf(ctx, g)
	if err != nil {
		return diet.Needs{}, false, err
	}
	p, ok := guest.PersonFor(ref, g.ID, group)
	if !ok {
		return diet.Needs{}, false, nil
	}
	needs = p.Dietary.Needs()
	if p.Child && !slices.Contains(needs.Tags, diet.AlcoholFree) {
		needs.Tags = append(slices.Clone(needs.Tags), diet.AlcoholFree)
	}
	return needs, true, nil
}

// ForgetNeeds drops what the menu's marks keep of a guest's needs, when
// they changed: the next read of the menu reads them afresh.
func (m *Menu) ForgetNeeds(guestIDs ...string) {
	c := &m.diet
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, id := range guestIDs {
		delete(c.m, id)
	}
}

// rememberNeeds keeps needs just read by an order for the menu's marks.
func (m *Menu) rememberNeeds(guestID string, needs diet.Needs) { m.diet.put(guestID, needs) }
