package guest

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestGuestJSONHasEmptyListsNotNull(t *testing.T) {
	b, err := json.Marshal(Guest{ID: "g1"})
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"tags":[]`, `"likes":[]`, `"dislikes":[]`} {
		if !strings.Contains(string(b), want) {
			t.Errorf("%s lacks %s", b, want)
		}
	}
}
