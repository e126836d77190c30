package browsertest

import (
	"fmt"
	"net/http/httptest"
	"testing"

	"github.com/barhub/barhub/web"
)

// BenchmarkRegistrationWork times the /join page's proof of work
// (web/static/js/pow.js) in Chromium on a phone's viewport, per number of
// zero bits: what --registration-work costs a person (docs/BENCHMARKS.md).
func BenchmarkRegistrationWork(b *testing.B) {
	srv := httptest.NewServer(web.Handler())
	defer srv.Close()
	br := New(b)
	for _, bits := range []int{12, 14, 16} {
		b.Run(fmt.Sprintf("bits=%d", bits), func(b *testing.B) {
			ctx := br.Page(b, Phone)
			Navigate(b, ctx, srv.URL+"/login")
			Eval[bool](b, ctx, `import("/static/js/pow.js").then((m) => { window.pow = m; return true; })`)
			b.ResetTimer()
			for i := range b.N {
				Eval[string](b, ctx, fmt.Sprintf(`window.pow.solve("1.1700000000.%d.%08x.bench", %d)`, bits, i, bits))
			}
		})
	}
}
