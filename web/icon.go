package web

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
)

// The app's PNG icons (the manifest's 192 and 512 px, the home-screen icon) are
// drawn from the same shapes as static/img/icon.svg when first asked for, so the
// repository holds no image files and a change of logo is a change of code.
var iconSizes = []int{192, 512}

// iconPath names the generated icon of size px below static/.
func iconPath(px int) string { return fmt.Sprintf("img/icon-%d.png", px) }

var (
	iconGreen = color.RGBA{0x2f, 0x6f, 0x5e, 0xff}
	iconWhite = color.RGBA{0xff, 0xff, 0xff, 0xff}
	iconGold  = color.RGBA{0xf3, 0xc9, 0x69, 0xff}
)

// iconGlass is the glass of icon.svg's path, in its 64-unit box.
var iconGlass = [][2]float64{{18, 16}, {46, 16}, {34, 32}, {34, 46}, {41, 46}, {41, 50}, {23, 50}, {23, 46}, {30, 46}, {30, 32}}

// iconAt is the colour of icon.svg at (x, y) in its 64-unit box: the dot over
// the glass over the rounded square; nothing outside the square.
func iconAt(x, y float64) color.RGBA {
	switch {
	case (x-43)*(x-43)+(y-19)*(y-19) <= 16:
		return iconGold
	case inPolygon(iconGlass, x, y):
		return iconWhite
	case inRoundedSquare(x, y, 64, 14):
		return iconGreen
	}
	return color.RGBA{}
}

func inPolygon(pts [][2]float64, x, y float64) bool {
	in := false
	for i, j := 0, len(pts)-1; i < len(pts); j, i = i, i+1 {
		xi, yi, xj, yj := pts[i][0], pts[i][1], pts[j][0], pts[j][1]
		if (yi > y) != (yj > y) && x < (xj-xi)*(y-yi)/(yj-yi)+xi {
			in = !in
		}
	}
	return in
}

func inRoundedSquare(x, y, side, r float64) bool {
	if x < 0 || y < 0 || x > side || y > side {
		return false
	}
	cx, cy := min(max(x, r), side-r), min(max(y, r), side-r)
	return (x-cx)*(x-cx)+(y-cy)*(y-cy) <= r*r
}

// drawIcon renders the icon at px × px, each pixel the average of 4 × 4
// samples so the edges are smooth.
func drawIcon(px int) ([]byte, error) {
	const n = 4
	img := image.NewRGBA(image.Rect(0, 0, px, px))
	scale := 64 / float64(px)
	for py := range px {
		for qx := range px {
			var r, g, b, a int
			for sy := range n {
				for sx := range n {
					c := iconAt((float64(qx)+(float64(sx)+0.5)/n)*scale, (float64(py)+(float64(sy)+0.5)/n)*scale)
					// Premultiplied, as image.RGBA keeps them: averaging is then right.
					r, g, b, a = r+int(c.R), g+int(c.G), b+int(c.B), a+int(c.A)
				}
			}
			img.SetRGBA(qx, py, color.RGBA{uint8(r / (n * n)), uint8(g / (n * n)), uint8(b / (n * n)), uint8(a / (n * n))})
		}
	}
	var buf bytes.Buffer
	if err := (&png.Encoder{CompressionLevel: png.BestCompression}).Encode(&buf, img); err != nil {
		return nil, fmt.Errorf("encode %d px icon: %w", px, err)
	}
	return buf.Bytes(), nil
}
