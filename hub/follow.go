package hub

import (
	"context"
	"fmt"
	"time"
)

// topicFollow is what the hub wants of one topic from a Follower broker.
// Guarded by Hub.fmu.
type topicFollow struct {
	routed bool // sockets here subscribe to it
	pinned bool // an OnEvent listener wants it for the hub's life
	// ready is the broker's answer to Follow; nil until Follow is called.
	ready <-chan struct{}
	idle  *time.Timer // pending Unfollow once neither routed nor pinned
}

// followed records that topic has subscribers here (routed) or not. It is
// called under routesMu and a shard's lock, so it never waits for the
// broker: the subscriber waits in awaitFollow, and Unfollow runs from a
// timer after Config.FollowGrace.
func (h *Hub) followed(topic string, routed bool) {
	if h.follower == nil {
		return
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	tf := h.follows[topic]
	if tf == nil {
		if !routed {
			return
		}
		tf = &topicFollow{}
		h.follows[topic] = tf
	}
	tf.routed = routed
	if routed {
		if tf.idle != nil {
			tf.idle.Stop()
			tf.idle = nil
		}
		return
	}
	if !tf.pinned && tf.idle == nil {
		tf.idle = time.AfterFunc(h.cfg.FollowGrace, func() { h.unfollowIdle(topic, tf) })
	}
}

// unfollowIdle stops following topic if nothing wanted it again since tf's
// timer was set. The broker call is made under fmu, so a Follow decided
// after it reaches the broker after it.
func (h *Hub) unfollowIdle(topic string, tf *topicFollow) {
	h.fmu.Lock()
	defer h.fmu.Unlock()
	if h.follows[topic] != tf || tf.routed || tf.pinned {
		return
	}
	delete(h.follows, topic)
	if tf.ready != nil {
		h.follower.Unfollow(topic)
	}
}

// awaitFollow makes sure the broker delivers topic here and waits until it
// does, so that a history read after it returns misses nothing: every
// event stored later arrives live.
func (h *Hub) awaitFollow(ctx context.Context, topic string) error {
	if h.follower == nil {
		return nil
	}
	h.fmu.Lock()
	tf := h.follows[topic]
	if tf == nil {
		// The subscription that routed the topic has gone already.
		h.fmu.Unlock()
		return nil
	}
	if tf.ready == nil {
		tf.ready = h.follower.Follow(topic)
	}
	ready := tf.ready
	h.fmu.Unlock()
	select {
	case <-ready:
		return nil
	case <-ctx.Done():
		return fmt.Errorf("follow %s: %w", topic, ctx.Err())
	}
}

// pin follows topic for the hub's life, for an OnEvent listener. Before
// Start the broker is told by Start; after it, at once.
func (h *Hub) pin(topic string) {
	if h.follower == nil {
		return
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	tf := h.follows[topic]
	if tf == nil {
		tf = &topicFollow{}
		h.follows[topic] = tf
	}
	tf.pinned = true
	if tf.idle != nil {
		tf.idle.Stop()
		tf.idle = nil
	}
	if h.listening && tf.ready == nil {
		tf.ready = h.follower.Follow(topic)
	}
}

// followPinned tells the broker, once it listens, about the topics pinned
// before Start, and waits until they are delivered.
func (h *Hub) followPinned(ctx context.Context) error {
	if h.follower == nil {
		return nil
	}
	h.fmu.Lock()
	h.listening = true
	var waits []<-chan struct{}
	for topic, tf := range h.follows {
		if tf.ready == nil {
			tf.ready = h.follower.Follow(topic)
		}
		waits = append(waits, tf.ready)
	}
	h.fmu.Unlock()
	for _, w := range waits {
		select {
		case <-w:
		case <-ctx.Done():
			return fmt.Errorf("follow listeners' topics: %w", ctx.Err())
		}
	}
	return nil
}

// stopFollowing cancels the pending Unfollow timers at Shutdown.
func (h *Hub) stopFollowing() {
	if h.follower == nil {
		return
	}
	h.fmu.Lock()
	defer h.fmu.Unlock()
	for _, tf := range h.follows {
		if tf.idle != nil {
			tf.idle.Stop()
		}
	}
	h.listening = false
}
