package bedrock

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"

	"github.com/barhub/barhub/ai"
)

// DefaultImageModel is Amazon Nova Canvas.
const DefaultImageModel = "amazon.nova-canvas-v1:0"

// DefaultImageTimeout bounds one picture: Nova Canvas takes several
// seconds at premium quality.
const DefaultImageTimeout = 90 * time.Second

// imageNegative is what a drink's photograph should not have.
const imageNegative = "text, letters, watermark, logo, people, hands, clutter, blurry, distorted glass"

// ImageClient pictures drinks with Nova Canvas through InvokeModel's
// TEXT_IMAGE task. It implements ai.ImageModel.
type ImageClient struct {
	rt      *bedrockruntime.Client
	model   string
	timeout time.Duration
}

// NewImage builds an image client; cfg.Model defaults to
// DefaultImageModel, cfg.Timeout to DefaultImageTimeout. It makes no call.
func NewImage(ctx context.Context, cfg Config) (*ImageClient, error) {
	if cfg.Model == "" {
		cfg.Model = DefaultImageModel
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultImageTimeout
	}
	rt, _, cfg, err := newRuntime(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &ImageClient{rt: rt, model: cfg.Model, timeout: cfg.Timeout}, nil
}

// Name returns the model id.
func (c *ImageClient) Name() string { return c.model }

// canvasRequest is Nova Canvas's TEXT_IMAGE body.
type canvasRequest struct {
	TaskType          string `json:"taskType"`
	TextToImageParams struct {
		Text         string `json:"text"`
		NegativeText string `json:"negativeText,omitempty"`
	} `json:"textToImageParams"`
	ImageGenerationConfig struct {
		NumberOfImages int     `json:"numberOfImages"`
		Width          int     `json:"width"`
		Height         int     `json:"height"`
		Quality        string  `json:"quality"`
		CfgScale       float64 `json:"cfgScale"`
		Seed           int64   `json:"seed"`
	} `json:"imageGenerationConfig"`
}

// canvasMaxText is the longest prompt Nova Canvas takes, in characters.
const canvasMaxText = 1024

// GenerateImage returns one picture (PNG) of req.Prompt.
func (c *ImageClient) GenerateImage(ctx context.Context, req ai.ImageRequest) ([]byte, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var body canvasRequest
	body.TaskType = "TEXT_IMAGE"
	text := []rune(req.Prompt)
	if len(text) > canvasMaxText {
		text = text[:canvasMaxText]
	}
	body.TextToImageParams.Text = string(text)
	body.TextToImageParams.NegativeText = imageNegative
	g := &body.ImageGenerationConfig
	g.NumberOfImages, g.Width, g.Height, g.Quality, g.CfgScale, g.Seed = 1, req.Width, req.Height, req.Quality, 6.5, req.Seed
	raw, err := json.Marshal(body)
	if err != nil {
		return nil, err
	}
	out, err := c.rt.InvokeModel(ctx, &bedrockruntime.InvokeModelInput{
		ModelId:     aws.String(c.model),
		ContentType: aws.String("application/json"),
		Accept:      aws.String("application/json"),
		Body:        raw,
	})
	if err != nil {
		return nil, classify(fmt.Errorf("bedrock invoke %s: %w", c.model, err))
	}
	var resp struct {
		Images []string `json:"images"`
		Error  string   `json:"error"`
	}
	if err := json.Unmarshal(out.Body, &resp); err != nil {
		return nil, fmt.Errorf("bedrock invoke %s: read the answer: %w", c.model, err)
	}
	if resp.Error != "" {
		// The service's own refusal of the picture (its content filter):
		// asking again with the same prompt is refused again.
		return nil, &Error{Code: "ImageError", err: fmt.Errorf("bedrock invoke %s: %s", c.model, resp.Error)}
	}
	if len(resp.Images) == 0 {
		return nil, fmt.Errorf("bedrock invoke %s: the answer has no image", c.model)
	}
	img, err := base64.StdEncoding.DecodeString(resp.Images[0])
	if err != nil {
		return nil, fmt.Errorf("bedrock invoke %s: the image is not base64: %w", c.model, err)
	}
	if len(img) == 0 {
		return nil, errors.New("bedrock invoke " + c.model + ": the image is empty")
	}
	return img, nil
}
