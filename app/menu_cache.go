package app

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/barhub/barhub/diet"
	"github.com/barhub/barhub/menu"
)

// The menu is read far more than it is written: every phone polls it and
// refetches on every menu.changed. menuCache keeps the whole menu in
// memory with ready-encoded answers per filter and an ETag each.
//
// No instance may serve an old menu once a write has answered. A write
// bumps the menu version before it responds: a counter in this process,
// or in Redis when instances share one. Each read compares the cached
// snapshot's version with the current one (one Redis GET when shared), so
// an instance whose menu.changed event is still on its way reloads anyway.
// The event then only saves the next reader the reload.
type menuCache struct {
	store   MenuReader
	version MenuVersion
	log     *slog.Logger

	mu   sync.RWMutex
	snap *MenuSnapshot

	loadMu sync.Mutex
}

// MenuReader is what the menu cache reads from the store.
type MenuReader interface {
	Sections(ctx context.Context) ([]menu.Section, error)
	Drinks(ctx context.Context, f menu.Filter) ([]menu.Drink, error)
}

// MenuCounter is the database's menu write counter, which processes
// sharing a database without Redis watch (see NewLocalMenuVersion).
type MenuCounter interface {
	MenuVersion(ctx context.Context) (int64, error)
	BumpMenuVersion(ctx context.Context) (int64, error)
}

// MenuVersion is the menu's write counter.
type MenuVersion interface {
	// Current returns the latest version.
	Current(ctx context.Context) (int64, error)
	// Bump records a write and returns the new version.
	Bump(ctx context.Context) (int64, error)
	// Invalidated records that another instance wrote (its event
	// arrived), for counters that do not see other instances' bumps.
	Invalidated()
}

// localVersion counts this process's menu writes. With a store, it also
// looks at the database's menu counter at most every menuVersionPoll, so
// a menu written by another process on the same database (the seed
// command, an instance without Redis) shows within that time. This
// process's own writes bump both and show at once.
type localVersion struct {
	n       atomic.Int64
	st      MenuCounter  // nil: this process alone
	checked atomic.Int64 // when the database's counter was last read, Unix ns
	seen    atomic.Int64 // the database's counter as last read or written
}

// NewLocalMenuVersion counts menu writes in this process, and follows
// st's counter (nil: this process alone).
func NewLocalMenuVersion(st MenuCounter) MenuVersion {
	if st == nil {
		return &localVersion{}
	}
	return &localVersion{st: st}
}

// menuVersionPoll is how stale a menu written by another process may be
// without Redis; a read of one small document by _id costs that often.
const menuVersionPoll = 2 * time.Second

func (v *localVersion) Current(ctx context.Context) (int64, error) {
	if v.st == nil {
		return v.n.Load(), nil
	}
	last, now := v.checked.Load(), time.Now().UnixNano()
	if now-last >= int64(menuVersionPoll) && v.checked.CompareAndSwap(last, now) {
		if db, err := v.st.MenuVersion(ctx); err == nil && v.seen.Swap(db) != db {
			v.n.Add(1)
		}
	}
	return v.n.Load(), nil
}

func (v *localVersion) Bump(ctx context.Context) (int64, error) {
	n := v.n.Add(1) // this process sees its own write whatever happens below
	if v.st == nil {
		return n, nil
	}
	db, err := v.st.BumpMenuVersion(ctx)
	if err != nil {
		return n, err
	}
	v.seen.Store(db)
	return n, nil
}

func (v *localVersion) Invalidated() { v.n.Add(1) }

type redisVersion struct {
	rdb *redis.Client
	key string
}

// NewRedisMenuVersion keeps the menu's version in Redis, under prefix,
// shared by every instance.
func NewRedisMenuVersion(rdb *redis.Client, prefix string) MenuVersion {
	return &redisVersion{rdb: rdb, key: menuVersionKey(prefix)}
}

// menuVersionKey is the Redis key of the shared menu version.
func menuVersionKey(prefix string) string { return prefix + ":menu:version" }

func (v *redisVersion) Current(ctx context.Context) (int64, error) {
	n, err := v.rdb.Get(ctx, v.key).Int64()
	if errors.Is(err, redis.Nil) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("read menu version: %w", err)
	}
	return n, nil
}

func (v *redisVersion) Bump(ctx context.Context) (int64, error) {
	n, err := v.rdb.Incr(ctx, v.key).Result()
	if err != nil {
		return 0, fmt.Errorf("bump menu version: %w", err)
	}
	return n, nil
}

func (v *redisVersion) Invalidated() {}

// staleOK is how old a snapshot may be served when the version cannot be
// read (Redis down): the menu stays up, a little behind.
const staleOK = 5 * time.Second

// maxCachedLists bounds the encoded answers kept per snapshot; a search
// box sends many distinct queries.
const maxCachedLists = 512

// MenuSnapshot is one consistent copy of the menu.
type MenuSnapshot struct {
	version  int64
	loadedAt time.Time
	drinks   []menu.Drink // menu order: section, then name
	// diets are the drinks as diet.Check reads them, their contents
	// worked out once per version (the menu marks every drink on every
	// signed-in request).
	diets    []diet.Drink
	byID     map[string]int
	sections CachedBody

	mu    sync.Mutex
	lists map[string]*CachedList
}

// CachedBody is an answer encoded once per menu version, with its ETag.
type CachedBody struct {
	Body []byte
	ETag string
}

// CachedList is the drinks matching one filter, encoded once.
type CachedList struct {
	IDs   []string
	Array []byte // the drinks, as a JSON array
	ETag  string
}

// DrinkView is a drink as the API shows it.
type DrinkView struct {
	menu.Drink
	StandardDrinks float64 `json:"standardDrinks"`
	// AllergenWarning lists why the drink is not safe for the signed-in
	// guest (diet.Check's causes: their allergens, "alcohol", a diet).
	AllergenWarning []string `json:"allergenWarning,omitempty"`
	// I18n holds the drink's texts in other languages (menu_i18n.go).
	I18n map[string]DrinkText `json:"i18n,omitempty"`
}

// ViewOf is d as the API shows it: no null lists, with its standard
// drinks and translations.
func ViewOf(d menu.Drink) DrinkView {
	if d.Tags == nil {
		d.Tags = []string{}
	}
	if d.Allergens == nil {
		d.Allergens = []string{}
	}
	if d.MissingIngredients == nil {
		d.MissingIngredients = []string{}
	}
	if d.Ingredients == nil {
		d.Ingredients = []menu.Ingredient{}
	}
	return DrinkView{Drink: withPicture(d), StandardDrinks: d.StandardDrinks(), I18n: drinkTranslations(d)}
}

// SectionView is a section as the API shows it.
type SectionView struct {
	menu.Section
	Available int `json:"available"`
	// I18n holds the section's texts in other languages (menu_i18n.go).
	I18n map[string]SectionText `json:"i18n,omitempty"`
}

func newMenuCache(st MenuReader, v MenuVersion, logger *slog.Logger) *menuCache {
	return &menuCache{store: st, version: v, log: logger}
}

// bump records a write made by this instance and drops the snapshot.
func (c *menuCache) bump(ctx context.Context) error {
	_, err := c.version.Bump(ctx)
	c.drop()
	return err
}

// invalidated is another instance's write, announced by its event.
func (c *menuCache) invalidated() {
	c.version.Invalidated()
	c.drop()
}

func (c *menuCache) drop() {
	c.mu.Lock()
	c.snap = nil
	c.mu.Unlock()
}

func (c *menuCache) current() *MenuSnapshot {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.snap
}

// snapshot returns a menu no older than the last write that answered.
func (c *menuCache) snapshot(ctx context.Context) (*MenuSnapshot, error) {
	v, verr := c.version.Current(ctx)
	if snap := c.current(); snap != nil {
		if verr == nil && snap.version == v {
			return snap, nil
		}
		if verr != nil && time.Since(snap.loadedAt) < staleOK {
			return snap, nil
		}
	}
	if verr != nil {
		c.log.WarnContext(ctx, "menu version unavailable; reading the database", "err", verr)
		v = -1
	}
	c.loadMu.Lock()
	defer c.loadMu.Unlock()
	if snap := c.current(); snap != nil && verr == nil && snap.version == v {
		return snap, nil
	}
	// The version was read before the menu: a write landing in between
	// makes this snapshot look old at the next read, never new.
	snap, err := c.load(ctx, v)
	if err != nil {
		return nil, err
	}
	if verr == nil {
		c.mu.Lock()
		c.snap = snap
		c.mu.Unlock()
	}
	return snap, nil
}

func (c *menuCache) load(ctx context.Context, version int64) (*MenuSnapshot, error) {
	sections, err := c.store.Sections(ctx)
	if err != nil {
		return nil, err
	}
	drinks, err := c.store.Drinks(ctx, menu.Filter{})
	if err != nil {
		return nil, err
	}
	pos := make(map[string]int, len(sections))
	for i, sec := range sections {
		pos[sec.ID] = i
	}
	rank := func(d menu.Drink) int {
		if p, ok := pos[d.Section]; ok {
			return p
		}
		return len(sections)
	}
	sort.SliceStable(drinks, func(i, j int) bool {
		ri, rj := rank(drinks[i]), rank(drinks[j])
		if ri != rj {
			return ri < rj
		}
		return drinks[i].Name < drinks[j].Name
	})
	snap := &MenuSnapshot{
		version:  version,
		loadedAt: time.Now(),
		drinks:   drinks,
		byID:     make(map[string]int, len(drinks)),
		lists:    make(map[string]*CachedList),
	}
	views := make([]SectionView, len(sections))
	for i, sec := range sections {
		views[i] = SectionView{Section: sec, I18n: sectionTranslations(sec)}
	}
	snap.diets = make([]diet.Drink, len(drinks))
	for i, d := range drinks {
		snap.byID[d.ID] = i
		snap.diets[i] = d.Diet()
		snap.diets[i].Known = nonNilStrings(diet.Contents(snap.diets[i]))
		if p, ok := pos[d.Section]; ok {
			views[p].Drinks++
			if d.Available {
				views[p].Available++
			}
		}
	}
	body, err := json.Marshal(map[string]any{"sections": views})
	if err != nil {
		return nil, fmt.Errorf("encode sections: %w", err)
	}
	snap.sections = CachedBody{Body: body, ETag: ETag(body)}
	return snap, nil
}

// Sections is the encoded list of sections.
func (snap *MenuSnapshot) Sections() CachedBody { return snap.sections }

// Drinks is every drink on the menu, in menu order. The caller must not
// change it.
func (snap *MenuSnapshot) Drinks() []menu.Drink { return snap.drinks }

// List returns the encoded drinks matching f.
func (snap *MenuSnapshot) List(f menu.Filter) (*CachedList, error) {
	key := f.Key()
	snap.mu.Lock()
	l, ok := snap.lists[key]
	snap.mu.Unlock()
	if ok {
		return l, nil
	}
	views := []DrinkView{}
	ids := []string{}
	for _, d := range snap.drinks {
		if f.Match(d) {
			views = append(views, ViewOf(d))
			ids = append(ids, d.ID)
		}
	}
	arr, err := json.Marshal(views)
	if err != nil {
		return nil, fmt.Errorf("encode drinks: %w", err)
	}
	l = &CachedList{IDs: ids, Array: arr, ETag: ETag(arr)}
	snap.mu.Lock()
	if len(snap.lists) >= maxCachedLists {
		clear(snap.lists)
	}
	snap.lists[key] = l
	snap.mu.Unlock()
	return l, nil
}

// DietDrinks is the available drinks as diet.Check reads them, for the
// door card.
func (snap *MenuSnapshot) DietDrinks() []diet.Drink {
	out := make([]diet.Drink, 0, len(snap.drinks))
	for i, d := range snap.drinks {
		if d.Available {
			out = append(out, snap.diets[i])
		}
	}
	return out
}

// DietDrink returns one drink as diet.Check reads it.
func (snap *MenuSnapshot) DietDrink(id string) diet.Drink {
	if i, ok := snap.byID[id]; ok {
		return snap.diets[i]
	}
	return diet.Drink{}
}

// Drink returns one drink, if it is on the menu.
func (snap *MenuSnapshot) Drink(id string) (menu.Drink, bool) {
	i, ok := snap.byID[id]
	if !ok {
		return menu.Drink{}, false
	}
	return snap.drinks[i], true
}

// ETag is a strong validator for a body: its hash, so every instance
// gives the same menu the same tag and a phone moving between instances
// still gets its 304s.
func ETag(b []byte) string {
	sum := sha256.Sum256(b)
	return `"` + hex.EncodeToString(sum[:12]) + `"`
}
