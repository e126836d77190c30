package main

import (
	"github.com/barhub/barhub/guest"
	"github.com/barhub/barhub/hub"
	"github.com/barhub/barhub/live"
)

// liveRules gives a hub barhub's topics and who may hear them (package
// live): the hub knows neither.
func liveRules(c hub.Config) hub.Config {
	c.KnownTopic = live.Exists
	c.Admit = func(id hub.Identity) error {
		if !live.MayConnect(guest.Role(id.Role)) {
			return hub.ErrForbidden
		}
		return nil
	}
	c.Authorize = func(id hub.Identity, topic string) error {
		if !live.MayHear(guest.Role(id.Role), id.ID, topic) {
			return hub.ErrForbidden
		}
		return nil
	}
	return c
}
