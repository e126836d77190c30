package plan

import (
	"errors"
	"net/url"
	"testing"
)

// FuzzParseParams: any query string either gives parameters inside their
// bounds, which make a finite plan, or a *ParamError naming one of them;
// never a panic.
func FuzzParseParams(f *testing.F) {
	for _, s := range []string{"", "hours=6&perHour=2&margin=0.1", "hours=NaN", "margin=1e308", "perHour=-0", "hours=0x1p-2", "hours=%00"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, query string) {
		q, err := url.ParseQuery(query)
		if err != nil {
			return
		}
		p, err := ParseParams(q)
		if err != nil {
			var pe *ParamError
			if !errors.As(err, &pe) || pe.Param == "" || pe.Message == "" {
				t.Fatalf("%q: %v is not a ParamError", query, err)
			}
			return
		}
		if p.Validate() != nil {
			t.Fatalf("%q: accepted %+v", query, p)
		}
		plan := Make(Input{Guests: heads(3), Params: p})
		if perHead := p.DrinksPerHead(); !(perHead > 0 && perHead <= MaxPerHour*FirstHourFactor*MaxHours) || plan.Headcount != 3 {
			t.Fatalf("%q: %g drinks a head, plan %+v", query, perHead, plan)
		}
	})
}
