package drinkart

import (
	"bytes"
	"image"
	"image/color"
	"image/png"
	"math"
	"sort"
	"strconv"
	"strings"
)

// PNG draws d as the SVG does, rasterised with the standard library, for
// clients that show no SVG (e-mail). width is the picture's width in
// pixels (the height follows the 4:5 canvas); it is drawn at twice that
// and scaled down, which smooths its edges.
func PNG(d Drink, width int) ([]byte, error) {
	width = min(max(width, 48), 960)
	p := PlanOf(d)
	s, ok := shapes[p.Glass]
	if !ok {
		s = shapes[Rocks]
	}
	r := newRaster(width*2, width*2*300/240)
	r.draw(p, s)
	var b bytes.Buffer
	if err := png.Encode(&b, r.half()); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

type pt struct{ x, y float64 }

// raster is a canvas in the SVG's coordinates (240×300), scaled to its
// pixels.
type raster struct {
	img   *image.RGBA
	k     float64 // pixels per SVG unit
	w, h  int
	bowl  []bool // the glass's inside, for clipping what is in it
	clipY float64
}

func newRaster(w, h int) *raster {
	return &raster{img: image.NewRGBA(image.Rect(0, 0, w, h)), k: float64(w) / 240, w: w, h: h}
}

// blend paints c over pixel x, y with coverage a (0–1).
func (r *raster) blend(x, y int, c color.RGBA, a float64) {
	if x < 0 || y < 0 || x >= r.w || y >= r.h || a <= 0 {
		return
	}
	a *= float64(c.A) / 255
	i := r.img.PixOffset(x, y)
	px := r.img.Pix[i : i+4 : i+4]
	px[0] = uint8(float64(px[0])*(1-a) + float64(c.R)*a + 0.5)
	px[1] = uint8(float64(px[1])*(1-a) + float64(c.G)*a + 0.5)
	px[2] = uint8(float64(px[2])*(1-a) + float64(c.B)*a + 0.5)
	px[3] = 255
}

// parsePath reads the absolute M, L, Q, C and Z of the shapes' paths
// into flattened subpaths, in SVG units.
func parsePath(d string) [][]pt {
	var out [][]pt
	var cur []pt
	fields := strings.FieldsFunc(d, func(r rune) bool { return r == ' ' || r == ',' })
	var tokens []string
	for _, f := range fields {
		// "M62" is a command and a number.
		if f[0] >= 'A' && f[0] <= 'Z' {
			tokens = append(tokens, f[:1])
			if len(f) > 1 {
				tokens = append(tokens, f[1:])
			}
			continue
		}
		tokens = append(tokens, f)
	}
	i := 0
	next := func() float64 {
		if i >= len(tokens) {
			return 0
		}
		v, _ := strconv.ParseFloat(tokens[i], 64)
		i++
		return v
	}
	last := func() pt {
		if len(cur) == 0 {
			return pt{}
		}
		return cur[len(cur)-1]
	}
	for i < len(tokens) {
		cmd := tokens[i]
		i++
		switch cmd {
		case "M":
			if len(cur) > 0 {
				out = append(out, cur)
			}
			cur = []pt{{next(), next()}}
		case "L":
			cur = append(cur, pt{next(), next()})
		case "Q":
			p0, c, p1 := last(), pt{next(), next()}, pt{next(), next()}
			for n := 1; n <= 12; n++ {
				t := float64(n) / 12
				u := 1 - t
				cur = append(cur, pt{u*u*p0.x + 2*u*t*c.x + t*t*p1.x, u*u*p0.y + 2*u*t*c.y + t*t*p1.y})
			}
		case "C":
			p0, c1, c2, p1 := last(), pt{next(), next()}, pt{next(), next()}, pt{next(), next()}
			for n := 1; n <= 16; n++ {
				t := float64(n) / 16
				u := 1 - t
				cur = append(cur, pt{
					u*u*u*p0.x + 3*u*u*t*c1.x + 3*u*t*t*c2.x + t*t*t*p1.x,
					u*u*u*p0.y + 3*u*u*t*c1.y + 3*u*t*t*c2.y + t*t*t*p1.y,
				})
			}
		case "Z":
			if len(cur) > 0 {
				cur = append(cur, cur[0])
			}
		}
	}
	if len(cur) > 0 {
		out = append(out, cur)
	}
	return out
}

// spans calls fn for each pixel row's inside of the closed polygons
// (even-odd), sampled at pixel centres.
func (r *raster) spans(polys [][]pt, fn func(y, x0, x1 int)) {
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, poly := range polys {
		for _, p := range poly {
			lo, hi = math.Min(lo, p.y), math.Max(hi, p.y)
		}
	}
	var xs []float64
	for y := max(0, int(lo*r.k)-1); y < min(r.h, int(hi*r.k)+2); y++ {
		sy := (float64(y) + 0.5) / r.k
		xs = xs[:0]
		for _, poly := range polys {
			for j := range poly {
				a, b := poly[j], poly[(j+1)%len(poly)]
				if (a.y <= sy) != (b.y <= sy) {
					xs = append(xs, a.x+(sy-a.y)/(b.y-a.y)*(b.x-a.x))
				}
			}
		}
		sort.Float64s(xs)
		for j := 0; j+1 < len(xs); j += 2 {
			x0 := int(math.Ceil(xs[j]*r.k - 0.5))
			x1 := int(math.Floor(xs[j+1]*r.k - 0.5))
			if x1 >= x0 {
				fn(y, x0, x1)
			}
		}
	}
}

// fill paints the closed polygons; clipped, only inside the bowl and
// below clipY.
func (r *raster) fill(polys [][]pt, c color.RGBA, clipped bool) {
	r.spans(polys, func(y, x0, x1 int) {
		for x := max(x0, 0); x <= min(x1, r.w-1); x++ {
			if clipped && !r.inside(x, y) {
				continue
			}
			r.blend(x, y, c, 1)
		}
	})
}

func (r *raster) inside(x, y int) bool {
	return r.bowl[y*r.w+x] && (float64(y)+0.5)/r.k >= r.clipY
}

func (r *raster) rect(x, y, w, h float64, c color.RGBA, clipped bool) {
	r.fill([][]pt{{{x, y}, {x + w, y}, {x + w, y + h}, {x, y + h}}}, c, clipped)
}

func (r *raster) disc(cx, cy, rad float64, c color.RGBA, clipped bool) {
	r.ellipse(cx, cy, rad, rad, c, clipped)
}

func (r *raster) ellipse(cx, cy, rx, ry float64, c color.RGBA, clipped bool) {
	poly := make([]pt, 0, 32)
	for n := range 32 {
		a := float64(n) * 2 * math.Pi / 32
		poly = append(poly, pt{cx + rx*math.Cos(a), cy + ry*math.Sin(a)})
	}
	r.fill([][]pt{poly}, c, clipped)
}

// stroke draws the open polylines with round ends, width in SVG units;
// c should be opaque (overlapping stamps would darken a translucent one).
func (r *raster) stroke(polys [][]pt, width float64, c color.RGBA) {
	rad := width * r.k / 2
	ri := int(math.Ceil(rad))
	for _, poly := range polys {
		for j := 0; j+1 < len(poly); j++ {
			a, b := poly[j], poly[j+1]
			n := int(math.Hypot(b.x-a.x, b.y-a.y)*r.k) + 1
			for s := 0; s <= n; s++ {
				t := float64(s) / float64(n)
				px, py := (a.x+(b.x-a.x)*t)*r.k, (a.y+(b.y-a.y)*t)*r.k
				for dy := -ri; dy <= ri; dy++ {
					for dx := -ri; dx <= ri; dx++ {
						x, y := int(px)+dx, int(py)+dy
						if math.Hypot(float64(x)+0.5-px, float64(y)+0.5-py) <= rad {
							r.blend(x, y, c, 1)
						}
					}
				}
			}
		}
	}
}

func line(x0, y0, x1, y1 float64) [][]pt { return [][]pt{{{x0, y0}, {x1, y1}}} }

func alpha(c color.RGBA, a float64) color.RGBA {
	c.A = uint8(math.Round(a * 255))
	return c
}

var (
	white     = color.RGBA{255, 255, 255, 255}
	glassGrey = rgb("#6f7a80")
)

func (r *raster) draw(p Picture, s shape) {
	top, bottom := rgb("#f6f3ee"), rgb("#e6e0d6")
	for y := 0; y < r.h; y++ {
		t := float64(y) / float64(r.h-1)
		c := color.RGBA{
			uint8(float64(top.R)*(1-t) + float64(bottom.R)*t),
			uint8(float64(top.G)*(1-t) + float64(bottom.G)*t),
			uint8(float64(top.B)*(1-t) + float64(bottom.B)*t), 255,
		}
		for x := 0; x < r.w; x++ {
			r.img.SetRGBA(x, y, c)
		}
	}
	r.ellipse(120, 272, 76, 7, alpha(color.RGBA{}, 0.08), false)

	bowl := parsePath(s.bowl)
	r.bowl = make([]bool, r.w*r.h)
	r.spans(bowl, func(y, x0, x1 int) {
		for x := max(x0, 0); x <= min(x1, r.w-1); x++ {
			r.bowl[y*r.w+x] = true
		}
	})
	r.clipY = s.top
	cx, wd, depth := (s.left+s.right)/2, s.right-s.left, s.bottom-s.top
	r.rect(0, s.top, 240, 300-s.top, p.Liquid, true)
	r.rect(0, s.top, 240, 3, alpha(lighter(p.Liquid, 0.5), 0.7), true)
	if p.Foam.A != 0 {
		r.rect(0, s.top, 240, 9, p.Foam, true)
	}
	r.clipY = s.top - 12 // ice may float above the surface
	ice := alpha(white, 0.4)
	switch p.Ice {
	case "cubes":
		size := math.Min(34, wd*0.34)
		for i, at := range [][2]float64{{-0.3, 0.06}, {0.04, 0.02}, {-0.12, 0.34}} {
			if i == 2 && depth < 3*size {
				continue
			}
			r.rect(cx+at[0]*wd, s.top+at[1]*depth-4, size, size, ice, true)
		}
	case "large":
		size := math.Min(66, wd*0.6)
		r.rect(cx-size/2, s.top-6, size, size, ice, true)
	case "crushed":
		for i := range 18 {
			fx := math.Mod(float64(i)*0.618034, 1)
			fy := float64(i/6) / 3
			r.rect(s.left+4+fx*(wd-16), s.top-4+fy*math.Min(depth*0.8, 80), 11, 9, alpha(white, 0.5), true)
		}
	}
	if p.Sparkling {
		for i := range 9 {
			fx := math.Mod(float64(i)*0.381966+0.2, 1)
			fy := math.Mod(float64(i)*0.7236, 1)
			r.disc(s.left+6+fx*(wd-12), s.top+12+fy*(depth-20), 1.5+float64(i%3)*0.7, alpha(white, 0.7), true)
		}
	}

	outline := parsePath(s.outline)
	if p.Glass == Mug {
		copper := rgb("#b87333")
		r.fill(outline[:1], copper, false)
		r.stroke(outline[:1], 4, rgb("#8a4f22"))
		r.stroke(outline[1:], 10, copper)
		r.ellipse(112, s.top-4, 48, 5, p.Liquid, false)
		r.stroke(line(74, 130, 74, 250), 5, rgb("#d8905a"))
	} else {
		r.fill(bowl, alpha(white, 0.12), false)
		r.stroke(outline, 2.5, glassGrey)
		r.stroke(line(s.rimL+9, s.rimY+14, s.rimL+11, math.Min(s.rimY+60, s.bottom-14)), 4, rgb("#fbfbfa"))
	}
	if s.stem > 0 {
		r.stroke(line(120, s.stem, 120, 262), 3, glassGrey)
		r.ellipse(120, 264, 38, 5, glassGrey, false)
		r.ellipse(120, 264, 35.5, 3, rgb("#eeeae4"), false)
	}
	for _, g := range p.Garnishes {
		r.garnish(g, s)
	}
}

func (r *raster) garnish(kind string, s shape) {
	cx := (s.left + s.right) / 2
	if fruit, form, ok := strings.Cut(kind, "-"); ok {
		c := citrus[fruit]
		rind, flesh := rgb(c[0]), rgb(c[1])
		switch form {
		case "wheel":
			x, y := s.rimR-8, s.rimY
			r.disc(x, y, 20, rind, false)
			r.disc(x, y, 16, flesh, false)
			for i := range 6 {
				a := float64(i) * math.Pi / 3
				r.stroke(line(x, y, x+15*math.Cos(a), y+15*math.Sin(a)), 1.5, rind)
			}
		case "wedge":
			x, y := s.rimR-4, s.rimY
			half := func(rad float64) [][]pt {
				poly := []pt{}
				for n := 0; n <= 16; n++ {
					a := math.Pi*float64(n)/16 - math.Pi/6
					poly = append(poly, pt{x + rad*math.Cos(a), y + rad*math.Sin(a)})
				}
				return [][]pt{poly}
			}
			r.fill(half(20), rind, false)
			r.fill(half(16), flesh, false)
		default:
			x, y := s.rimR-44, s.rimY-4
			r.stroke(parsePath("M"+num(x)+" "+num(y)+" Q"+num(x+12)+" "+num(y-16)+" "+num(x+24)+" "+num(y-6)+" Q"+num(x+36)+" "+num(y+4)+" "+num(x+48)+" "+num(y-12)), 5, rind)
		}
		return
	}
	switch kind {
	case "salt":
		for x := s.rimL + 2; x <= s.rimR-2; x += 4 {
			r.disc(x, s.rimY, 1.6, white, false)
		}
	case "mint":
		x, y := cx-18, s.top-6
		green := rgb("#3f9b4a")
		r.stroke(line(x, y+14, x+4, y-30), 2, rgb("#2f7a38"))
		for _, l := range [][2]float64{{-8, -24}, {10, -20}, {-6, -8}, {9, -4}} {
			r.ellipse(x+l[0], y+l[1], 9, 5, green, false)
		}
	case "cherry":
		x, y := cx+18, s.top-7
		r.stroke(parsePath("M"+num(x)+" "+num(y-6)+" Q"+num(x+4)+" "+num(y-24)+" "+num(x+16)+" "+num(y-30)), 2, rgb("#5a3a1a"))
		r.disc(x, y, 8, rgb("#b3122e"), false)
		r.disc(x-3, y-3, 2.5, alpha(white, 0.6), false)
	case "olive":
		x, y := cx, s.top+14
		r.stroke(line(x-30, y-40, x+10, y+8), 2, rgb("#8a6a3a"))
		r.ellipse(x, y, 9, 7, rgb("#7a8f2a"), false)
		r.disc(x-4, y, 2.5, rgb("#c0392b"), false)
	case "coffee":
		for i := range 3 {
			r.ellipse(cx-12+float64(i)*12, s.top+3, 5, 3.5, rgb("#3a2010"), false)
		}
	case "celery":
		r.stroke(line(s.left+14, s.top+60, s.left+2, s.rimY-40), 8, rgb("#7ab648"))
	case "pineapple":
		x, y := s.rimR-6, s.rimY
		r.fill([][]pt{{{x - 10, y - 6}, {x + 20, y - 12}, {x + 10, y + 14}}}, rgb("#f5c842"), false)
		r.fill([][]pt{{{x + 8, y - 8}, {x + 14, y - 30}, {x + 18, y - 10}, {x + 26, y - 26}, {x + 24, y - 6}}}, rgb("#3f8a3a"), false)
	case "bitters":
		for i := range 3 {
			r.disc(cx-14+float64(i)*14, s.top+4, 2.5, rgb("#7a1a12"), false)
		}
	}
}

// half scales the canvas down by two, averaging each 2×2 block.
func (r *raster) half() *image.RGBA {
	out := image.NewRGBA(image.Rect(0, 0, r.w/2, r.h/2))
	for y := 0; y < r.h/2; y++ {
		for x := 0; x < r.w/2; x++ {
			var sum [3]int
			for _, d := range [4][2]int{{0, 0}, {1, 0}, {0, 1}, {1, 1}} {
				i := r.img.PixOffset(2*x+d[0], 2*y+d[1])
				for c := range 3 {
					sum[c] += int(r.img.Pix[i+c])
				}
			}
			out.SetRGBA(x, y, color.RGBA{uint8(sum[0] / 4), uint8(sum[1] / 4), uint8(sum[2] / 4), 255})
		}
	}
	return out
}
