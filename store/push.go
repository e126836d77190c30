package store

import (
	"context"
	"crypto/ecdh"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"time"

	"go.mongodb.org/mongo-driver/v2/bson"
	"go.mongodb.org/mongo-driver/v2/mongo/options"
)

// collPush holds the Web Push subscriptions: one document per guest,
// _id the guest's id, so finding a guest's devices is the _id look-up
// the embedded database serves from its index.
const collPush = "pushsubs"

// PushDevice is one browser a guest allowed to show notifications.
type PushDevice struct {
	Endpoint  string    `bson:"endpoint"`
	P256dh    string    `bson:"p256dh"`
	Auth      string    `bson:"auth"`
	CreatedAt time.Time `bson:"createdAt"`
}

// ID names the device by its endpoint, so subscribing the same browser
// again replaces it instead of adding a second copy.
func (d PushDevice) ID() string { return PushDeviceID(d.Endpoint) }

// PushDeviceID is the id of the device whose endpoint this is.
func PushDeviceID(endpoint string) string {
	sum := sha256.Sum256([]byte(endpoint))
	return hex.EncodeToString(sum[:16])
}

type pushDoc struct {
	GuestID string                `bson:"_id"`
	Devices map[string]PushDevice `bson:"devices"`
}

// MaxPushDevices is how many browsers one guest may have subscribed; the
// oldest gives way to a new one.
const MaxPushDevices = 10

// pushLockTTL bounds how long an instance that died while saving a
// device keeps the guest's devices locked; a save takes milliseconds.
const pushLockTTL = 30 * time.Second

// SavePushDevice stores d for guest id, replacing the same endpoint's
// earlier keys; past MaxPushDevices the oldest devices give way.
//
// The count and the write are one step under the guest's lock: read the
// devices, then write, with no other save or removal for that guest in
// between, on this instance or any other (Lock). Without it parallel
// subscribes each saw room for one more and all wrote, and on the
// embedded database, which updates a document by reading it and writing
// it whole, one could also undo another's write.
func (s *Store) SavePushDevice(ctx context.Context, guestID string, d PushDevice) error {
	unlock, err := s.Lock(ctx, "push/"+guestID, pushLockTTL)
	if err != nil {
		return fmt.Errorf("save push device of %s: %w", guestID, err)
	}
	defer unlock()
	have, err := s.PushDevices(ctx, guestID)
	if err != nil {
		return err
	}
	set := bson.D{{Key: "devices." + d.ID(), Value: d}}
	unset := bson.D{}
	if !slices.ContainsFunc(have, func(h PushDevice) bool { return h.ID() == d.ID() }) {
		// have is oldest first; a document written before the cap held
		// may have more than MaxPushDevices, and loses the surplus too.
		for _, old := range have[:max(0, len(have)-MaxPushDevices+1)] {
			unset = append(unset, bson.E{Key: "devices." + old.ID(), Value: ""})
		}
	}
	update := bson.D{{Key: "$set", Value: set}}
	if len(unset) > 0 {
		update = append(update, bson.E{Key: "$unset", Value: unset})
	}
	err = s.retry(ctx, onBusyOrDuplicate, func() error {
		_, err := s.coll(collPush).UpdateOne(ctx, bson.D{{Key: "_id", Value: guestID}}, update, options.UpdateOne().SetUpsert(true))
		return err
	})
	if err != nil {
		return fmt.Errorf("save push device of %s: %w", guestID, err)
	}
	return nil
}

// DeletePushDevice removes guest id's device deviceID; a device that is
// not there is no error. It takes the guest's lock too: on the embedded
// database an update rewrites the whole document, and a removal between
// a save's read and write would otherwise come back.
func (s *Store) DeletePushDevice(ctx context.Context, guestID, deviceID string) error {
	unlock, err := s.Lock(ctx, "push/"+guestID, pushLockTTL)
	if err != nil {
		return fmt.Errorf("delete push device of %s: %w", guestID, err)
	}
	defer unlock()
	err = s.retry(ctx, onBusy, func() error {
		_, err := s.coll(collPush).UpdateOne(ctx, bson.D{{Key: "_id", Value: guestID}},
			bson.D{{Key: "$unset", Value: bson.D{{Key: "devices." + deviceID, Value: ""}}}})
		return err
	})
	if err != nil {
		return fmt.Errorf("delete push device of %s: %w", guestID, err)
	}
	return nil
}

// PushDevices lists guest id's devices, oldest first.
func (s *Store) PushDevices(ctx context.Context, guestID string) ([]PushDevice, error) {
	doc, err := findByID[pushDoc](ctx, s, collPush, "push devices of", guestID)
	if errors.Is(err, ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return sortedDevices(doc.Devices), nil
}

// EachPushGuest calls fn with every guest that has a device, for an
// announcement to everyone.
func (s *Store) EachPushGuest(ctx context.Context, fn func(guestID string, devices []PushDevice)) error {
	cur, err := s.coll(collPush).Find(ctx, bson.D{})
	if err != nil {
		return fmt.Errorf("list push devices: %w", err)
	}
	defer cur.Close(ctx)
	for cur.Next(ctx) {
		var doc pushDoc
		if err := cur.Decode(&doc); err != nil {
			return fmt.Errorf("list push devices: %w", err)
		}
		if len(doc.Devices) > 0 {
			fn(doc.GuestID, sortedDevices(doc.Devices))
		}
	}
	if err := cur.Err(); err != nil {
		return fmt.Errorf("list push devices: %w", err)
	}
	return nil
}

func sortedDevices(m map[string]PushDevice) []PushDevice {
	out := make([]PushDevice, 0, len(m))
	for _, d := range m {
		out = append(out, d)
	}
	slices.SortFunc(out, func(a, b PushDevice) int { return a.CreatedAt.Compare(b.CreatedAt) })
	return out
}

// VAPIDKeys are the application server's key pair for Web Push (RFC 8292),
// base64url without padding as browsers and push services expect them.
type VAPIDKeys struct {
	Private string
	Public  string
}

const vapidKeyID = "vapid"

// VAPIDKeys returns the Web Push key pair, making it on first start.
// Every instance reads the same pair, so a subscription made through one
// instance is sent to by any other.
func (s *Store) VAPIDKeys(ctx context.Context) (VAPIDKeys, error) {
	doc, err := s.ensureSecretWith(ctx, vapidKeyID, func() string {
		k, err := ecdh.P256().GenerateKey(rand.Reader)
		if err != nil {
			panic(fmt.Sprintf("generate VAPID key: %v", err)) // crypto/rand does not fail
		}
		return base64.RawURLEncoding.EncodeToString(k.Bytes())
	})
	if err != nil {
		return VAPIDKeys{}, err
	}
	raw, err := base64.RawURLEncoding.DecodeString(doc.Value)
	if err != nil {
		return VAPIDKeys{}, fmt.Errorf("VAPID key: %w", err)
	}
	k, err := ecdh.P256().NewPrivateKey(raw)
	if err != nil {
		return VAPIDKeys{}, fmt.Errorf("VAPID key: %w", err)
	}
	return VAPIDKeys{Private: doc.Value, Public: base64.RawURLEncoding.EncodeToString(k.PublicKey().Bytes())}, nil
}
