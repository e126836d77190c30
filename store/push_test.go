package store_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/barhub/barhub/store"
	"github.com/barhub/barhub/store/storetest"
)

func device(i int, at time.Time) store.PushDevice {
	return store.PushDevice{Endpoint: fmt.Sprintf("https://fcm.googleapis.com/fcm/send/d%d", i), P256dh: "key", Auth: "auth",
		CreatedAt: at.Add(time.Duration(i) * time.Millisecond).UTC().Truncate(time.Millisecond)}
}

func endpoints(ds []store.PushDevice) []string {
	out := make([]string, len(ds))
	for i, d := range ds {
		out[i] = d.Endpoint[len("https://fcm.googleapis.com/fcm/send/"):]
	}
	return out
}

// TestPushDevices: a guest's devices, oldest first; the same browser
// again replaces its keys; past ten the oldest gives way; a removal of a
// device that is not there is no error.
func TestPushDevices(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	at := time.Now()
	for i := range 3 {
		if err := st.SavePushDevice(ctx, "g1", device(i, at)); err != nil {
			t.Fatal(err)
		}
	}
	again := device(1, at)
	again.P256dh = "new key"
	if err := st.SavePushDevice(ctx, "g1", again); err != nil {
		t.Fatal(err)
	}
	ds, err := st.PushDevices(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if got := endpoints(ds); !slices.Equal(got, []string{"d0", "d1", "d2"}) || ds[1].P256dh != "new key" {
		t.Fatalf("devices %v (d1's key %q), want d0 d1 d2 with d1's new key", got, ds[1].P256dh)
	}
	for i := 3; i < 12; i++ {
		if err := st.SavePushDevice(ctx, "g1", device(i, at)); err != nil {
			t.Fatal(err)
		}
	}
	ds, _ = st.PushDevices(ctx, "g1")
	if got, want := endpoints(ds), []string{"d2", "d3", "d4", "d5", "d6", "d7", "d8", "d9", "d10", "d11"}; !slices.Equal(got, want) {
		t.Fatalf("after 12 devices: %v, want %v", got, want)
	}
	if err := st.DeletePushDevice(ctx, "g1", ds[0].ID()); err != nil {
		t.Fatal(err)
	}
	if err := st.DeletePushDevice(ctx, "g1", ds[0].ID()); err != nil {
		t.Fatalf("removing a device twice: %v", err)
	}
	if err := st.DeletePushDevice(ctx, "nobody", ds[0].ID()); err != nil {
		t.Fatalf("removing a device of a guest without any: %v", err)
	}
	if ds, _ = st.PushDevices(ctx, "g1"); len(ds) != 9 {
		t.Fatalf("%d devices after a removal, want 9", len(ds))
	}
	if ds, _ = st.PushDevices(ctx, "nobody"); len(ds) != 0 {
		t.Fatalf("%d devices of a guest without any", len(ds))
	}
}

// TestPushDeviceCapParallel: 60 browsers of one guest saved at once, and
// as many removals of devices already there, leave exactly ten: the count
// and the write are one step.
func TestPushDeviceCapParallel(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	at := time.Now()
	first := make([]store.PushDevice, 5)
	for i := range first {
		first[i] = device(1000+i, at.Add(-time.Hour))
		if err := st.SavePushDevice(ctx, "g1", first[i]); err != nil {
			t.Fatal(err)
		}
	}
	var wg sync.WaitGroup
	errs := make([]error, 60)
	for i := range errs {
		wg.Go(func() {
			errs[i] = st.SavePushDevice(ctx, "g1", device(i, at))
			if i < len(first) {
				st.DeletePushDevice(ctx, "g1", first[i].ID())
			}
		})
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			t.Fatalf("save %d: %v", i, err)
		}
	}
	ds, err := st.PushDevices(ctx, "g1")
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != store.MaxPushDevices {
		t.Fatalf("%d devices after 60 parallel saves, want %d: %v", len(ds), store.MaxPushDevices, endpoints(ds))
	}
}

// TestPushDeviceCapTrimsOldDocuments: a guest with more devices than the
// cap (stored before it held) keeps the newest nine and the new one on
// the next save.
func TestPushDeviceCapTrimsOldDocuments(t *testing.T) {
	ctx := context.Background()
	st := storetest.New(t)
	at := time.Now()
	var old []store.PushDevice
	for i := range 25 {
		old = append(old, device(i, at))
	}
	if err := st.WritePushDevicesRaw(ctx, "g1", old); err != nil {
		t.Fatal(err)
	}
	if ds, _ := st.PushDevices(ctx, "g1"); len(ds) != 25 {
		t.Fatalf("%d devices written, want 25", len(ds))
	}
	if err := st.SavePushDevice(ctx, "g1", device(100, at)); err != nil {
		t.Fatal(err)
	}
	ds, _ := st.PushDevices(ctx, "g1")
	if got, want := endpoints(ds), []string{"d16", "d17", "d18", "d19", "d20", "d21", "d22", "d23", "d24", "d100"}; !slices.Equal(got, want) {
		t.Fatalf("after a save: %v, want %v", got, want)
	}
}
