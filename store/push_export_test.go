package store

import (
	"context"

	"go.mongodb.org/mongo-driver/v2/bson"
)

// WritePushDevicesRaw writes a guest's device document as it is given,
// past the cap: a database written before the cap held.
func (s *Store) WritePushDevicesRaw(ctx context.Context, guestID string, devices []PushDevice) error {
	m := make(map[string]PushDevice, len(devices))
	for _, d := range devices {
		m[d.ID()] = d
	}
	_, err := s.coll(collPush).InsertOne(ctx, bson.D{{Key: "_id", Value: guestID}, {Key: "devices", Value: m}})
	return err
}
