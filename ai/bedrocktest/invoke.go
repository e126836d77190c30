package bedrocktest

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"net/http"
	"time"
	"unicode/utf8"
)

// ImageRequest is the InvokeModel body of Nova Canvas's TEXT_IMAGE task.
type ImageRequest struct {
	TaskType          string `json:"taskType"`
	TextToImageParams struct {
		Text         string `json:"text"`
		NegativeText string `json:"negativeText,omitempty"`
	} `json:"textToImageParams"`
	ImageGenerationConfig struct {
		NumberOfImages int     `json:"numberOfImages,omitempty"`
		Width          int     `json:"width,omitempty"`
		Height         int     `json:"height,omitempty"`
		Quality        string  `json:"quality,omitempty"`
		CfgScale       float64 `json:"cfgScale,omitempty"`
		Seed           int64   `json:"seed,omitempty"`
	} `json:"imageGenerationConfig"`
}

// Invocation is one recorded InvokeModel call.
type Invocation struct {
	ModelID string
	Header  http.Header
	Body    ImageRequest
	Raw     []byte
	At      time.Time
}

// ScriptImages queues answers for the next InvokeModel calls, in order;
// a Response without an error status answers with its Image (or a PNG of
// the requested size).
func (s *Server) ScriptImages(rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.imageScript = append(s.imageScript, rs...)
}

// Invocations returns the InvokeModel calls received so far.
func (s *Server) Invocations() []Invocation {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Invocation(nil), s.invocations...)
}

// PNG is a small real PNG, w×h, a soft gradient: what the server sends
// for an image unless told otherwise.
func PNG(w, h int) []byte {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(200 + 40*x/max(w, 1)), uint8(60 + 80*y/max(h, 1)), 70, 255})
		}
	}
	var b bytes.Buffer
	png.Encode(&b, img)
	return b.Bytes()
}

func (s *Server) serveInvoke(w http.ResponseWriter, r *http.Request, model string) {
	raw, ok := readCall(w, r, "InvokeModel")
	if !ok {
		return
	}
	var body ImageRequest
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, Response{Status: http.StatusBadRequest, ErrorType: "ValidationException", Message: "Malformed input request: " + err.Error()})
		return
	}
	if msg := checkImageRequest(body); msg != "" {
		writeError(w, Response{Status: http.StatusBadRequest, ErrorType: "ValidationException", Message: msg})
		return
	}
	s.mu.Lock()
	s.invocations = append(s.invocations, Invocation{ModelID: model, Header: r.Header.Clone(), Body: body, Raw: raw, At: time.Now()})
	var resp Response
	if len(s.imageScript) > 0 {
		resp, s.imageScript = s.imageScript[0], s.imageScript[1:]
	}
	s.mu.Unlock()
	if resp.Delay > 0 {
		select {
		case <-time.After(resp.Delay):
		case <-r.Context().Done():
			return
		}
	}
	w.Header().Set("X-Amzn-Requestid", fmt.Sprintf("fake-%d", time.Now().UnixNano()))
	switch {
	case resp.Raw != nil:
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(statusOr200(resp.Status))
		w.Write(resp.Raw)
		return
	case resp.Status >= 300:
		writeError(w, resp)
		return
	}
	img := resp.Image
	if img == nil {
		img = PNG(body.ImageGenerationConfig.Width, body.ImageGenerationConfig.Height)
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(map[string]any{"images": []string{base64.StdEncoding.EncodeToString(img)}})
}

// checkImageRequest refuses what Nova Canvas refuses, with its words.
func checkImageRequest(b ImageRequest) string {
	c := b.ImageGenerationConfig
	n := utf8.RuneCountInString(b.TextToImageParams.Text)
	switch {
	case b.TaskType != "TEXT_IMAGE":
		return fmt.Sprintf("Malformed input request: taskType %q is not supported by this server", b.TaskType)
	case n < 1 || n > 1024:
		return "Malformed input request: #/textToImageParams/text: expected minLength: 1, maxLength: 1024"
	case c.Width%16 != 0 || c.Height%16 != 0 || c.Width < 320 || c.Height < 320 || c.Width > 4096 || c.Height > 4096:
		return fmt.Sprintf("Malformed input request: width and height must be multiples of 16 between 320 and 4096 (got %dx%d)", c.Width, c.Height)
	case c.Width*c.Height > 4194304:
		return "Malformed input request: the image may have at most 4,194,304 pixels"
	case c.Quality != "" && c.Quality != "standard" && c.Quality != "premium":
		return "Malformed input request: #/imageGenerationConfig/quality: " + c.Quality + " is not a valid enum value"
	case c.NumberOfImages > 5:
		return "Malformed input request: #/imageGenerationConfig/numberOfImages: expected maximum: 5"
	}
	return ""
}
