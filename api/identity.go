package api

import (
	"github.com/barhub/barhub/auth"
	"github.com/barhub/barhub/guest"
)

func identityOf(g guest.Guest) auth.Identity {
	return auth.Identity{GuestID: g.ID, Name: g.Name(), Role: g.Role, SessionVersion: g.SessionVersion}
}
