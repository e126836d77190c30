// Package bedrock calls Amazon Bedrock's Converse API through the AWS SDK
// for Go v2.
//
// Credentials come from the standard AWS chain (environment, shared
// config and SSO, web identity, container and instance roles) or a
// Bedrock API key in AWS_BEARER_TOKEN_BEDROCK; none are ever configured in
// barhub itself. The SDK makes exactly one attempt per call (its default
// retryer would make three, backing off on throttling, and keep a guest
// waiting): the caller decides what a failure is worth. Recommendations
// retry once within the guest's budget; image prompts go back to the job
// queue, whose backoff spreads retries over minutes.
package bedrock

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/document"
	"github.com/aws/aws-sdk-go-v2/service/bedrockruntime/types"
	"github.com/aws/smithy-go"

	"github.com/barhub/barhub/ai"
)

// DefaultModel is Amazon Nova Pro.
const DefaultModel = "amazon.nova-pro-v1:0"

// DefaultTimeout bounds one Converse call.
const DefaultTimeout = 30 * time.Second

// Config says which model to call, where.
type Config struct {
	// Region is the AWS region, e.g. eu-north-1. Required.
	Region string
	// Model is the model or inference profile id (DefaultModel when empty).
	Model string
	// Endpoint overrides the service endpoint URL (a VPC endpoint, a
	// proxy, or a local test server).
	Endpoint string
	// Timeout bounds each call (DefaultTimeout when zero).
	Timeout time.Duration
	// Credentials replaces the standard AWS chain; tests pass static ones.
	Credentials aws.CredentialsProvider
}

// Client is a Converse client for one model. It implements ai.Model.
type Client struct {
	rt      *bedrockruntime.Client
	creds   aws.CredentialsProvider
	model   string
	timeout time.Duration
}

// New builds a client. It reads the AWS configuration but makes no call.
func New(ctx context.Context, cfg Config) (*Client, error) {
	if cfg.Model == "" {
		cfg.Model = DefaultModel
	}
	rt, creds, cfg, err := newRuntime(ctx, cfg)
	if err != nil {
		return nil, err
	}
	return &Client{rt: rt, creds: creds, model: cfg.Model, timeout: cfg.Timeout}, nil
}

// newRuntime builds the Bedrock Runtime client of cfg, with its defaults.
func newRuntime(ctx context.Context, cfg Config) (*bedrockruntime.Client, aws.CredentialsProvider, Config, error) {
	if cfg.Region == "" {
		return nil, nil, cfg, errors.New("bedrock: no AWS region configured")
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	opts := []func(*config.LoadOptions) error{
		config.WithRegion(cfg.Region),
		config.WithRetryMaxAttempts(1),
	}
	if cfg.Credentials != nil {
		opts = append(opts, config.WithCredentialsProvider(cfg.Credentials))
	}
	awsCfg, err := config.LoadDefaultConfig(ctx, opts...)
	if err != nil {
		return nil, nil, cfg, fmt.Errorf("bedrock: load AWS configuration: %w", err)
	}
	rt := bedrockruntime.NewFromConfig(awsCfg, func(o *bedrockruntime.Options) {
		o.RetryMaxAttempts = 1
		if cfg.Endpoint != "" {
			o.BaseEndpoint = aws.String(cfg.Endpoint)
		}
	})
	return rt, awsCfg.Credentials, cfg, nil
}

// Name returns the model id.
func (c *Client) Name() string { return c.model }

// CheckCredentials reports whether the chain yields credentials (or a
// Bedrock API key is set), so barhub can fall back to the local
// implementations at start instead of failing every job.
func (c *Client) CheckCredentials(ctx context.Context) error {
	if os.Getenv("AWS_BEARER_TOKEN_BEDROCK") != "" {
		return nil
	}
	if c.creds == nil {
		return errors.New("bedrock: no AWS credentials found")
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if _, err := c.creds.Retrieve(ctx); err != nil {
		return fmt.Errorf("bedrock: no usable AWS credentials: %w", err)
	}
	return nil
}

// Converse sends one user message with a system prompt and returns the
// text of the answer. An answer without text is an error.
func (c *Client) Converse(ctx context.Context, req ai.ModelRequest) (ai.ModelResponse, error) {
	ctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	in := &bedrockruntime.ConverseInput{
		ModelId: aws.String(c.model),
		Messages: []types.Message{{
			Role:    types.ConversationRoleUser,
			Content: []types.ContentBlock{&types.ContentBlockMemberText{Value: req.Prompt}},
		}},
		InferenceConfig: &types.InferenceConfiguration{
			Temperature: aws.Float32(req.Temperature),
			MaxTokens:   aws.Int32(req.MaxTokens),
		},
	}
	if req.System != "" {
		in.System = []types.SystemContentBlock{&types.SystemContentBlockMemberText{Value: req.System}}
	}
	if t := req.Tool; t != nil {
		in.ToolConfig = &types.ToolConfiguration{
			Tools: []types.Tool{&types.ToolMemberToolSpec{Value: types.ToolSpecification{
				Name:        aws.String(t.Name),
				Description: aws.String(t.Description),
				InputSchema: &types.ToolInputSchemaMemberJson{Value: document.NewLazyDocument(t.Schema)},
			}}},
			// "any" with one tool means "call this tool": the answer comes
			// as its input. Every model with tool use supports "any".
			ToolChoice: &types.ToolChoiceMemberAny{},
		}
	}
	out, err := c.rt.Converse(ctx, in)
	if err != nil {
		return ai.ModelResponse{}, classify(fmt.Errorf("bedrock converse with %s: %w", c.model, err))
	}
	var resp ai.ModelResponse
	resp.StopReason = string(out.StopReason)
	if u := out.Usage; u != nil {
		resp.Usage = ai.Usage{
			InputTokens:  int64(aws.ToInt32(u.InputTokens)),
			OutputTokens: int64(aws.ToInt32(u.OutputTokens)),
			TotalTokens:  int64(aws.ToInt32(u.TotalTokens)),
		}
	}
	if m := out.Metrics; m != nil {
		resp.LatencyMs = aws.ToInt64(m.LatencyMs)
	}
	// The SDK returns no error for a body without output; that is still
	// no answer.
	msg, ok := out.Output.(*types.ConverseOutputMemberMessage)
	if !ok || msg == nil {
		return resp, fmt.Errorf("bedrock converse with %s: the response has no output message", c.model)
	}
	var b strings.Builder
	for _, block := range msg.Value.Content {
		switch v := block.(type) {
		case *types.ContentBlockMemberText:
			b.WriteString(v.Value)
		case *types.ContentBlockMemberToolUse:
			if req.Tool == nil || aws.ToString(v.Value.Name) != req.Tool.Name || resp.ToolInput != nil {
				continue
			}
			resp.ToolCalled = true
			if v.Value.Input == nil {
				continue
			}
			raw, err := v.Value.Input.MarshalSmithyDocument()
			if err != nil {
				return resp, fmt.Errorf("bedrock converse with %s: read the tool input: %w", c.model, err)
			}
			resp.ToolInput = raw
		}
	}
	resp.Text = strings.TrimSpace(b.String())
	// A filtered answer is empty by design: the caller acts on the stop
	// reason (asking again would only be filtered again).
	filtered := out.StopReason == types.StopReasonContentFiltered || out.StopReason == types.StopReasonGuardrailIntervened
	if resp.Text == "" && !resp.ToolCalled && !filtered {
		return resp, fmt.Errorf("bedrock converse with %s: the answer has no text (stop reason %q)", c.model, resp.StopReason)
	}
	return resp, nil
}

// Error is a Converse failure that no retry can fix.
type Error struct {
	Code string
	err  error
}

func (e *Error) Error() string   { return e.err.Error() }
func (e *Error) Unwrap() error   { return e.err }
func (e *Error) Permanent() bool { return true }

// permanentCodes are the service's answers that mean "this request will
// never work as it is": a retry only costs time before the admin sees it.
var permanentCodes = map[string]bool{
	"ValidationException":         true,
	"AccessDeniedException":       true,
	"ResourceNotFoundException":   true,
	"UnrecognizedClientException": true,
}

func classify(err error) error {
	var ae smithy.APIError
	if errors.As(err, &ae) && permanentCodes[ae.ErrorCode()] {
		return &Error{Code: ae.ErrorCode(), err: err}
	}
	if Throttled(err) {
		return &throttledError{err}
	}
	return err
}

// throttledError is the service asking to slow down; callers that keep
// someone waiting answer without the model rather than retry at once
// (package ai reads Throttled()).
type throttledError struct{ err error }

func (e *throttledError) Error() string   { return e.err.Error() }
func (e *throttledError) Unwrap() error   { return e.err }
func (e *throttledError) Throttled() bool { return true }

// Throttled reports whether err is the service asking to slow down: its
// ThrottlingException, or any HTTP 429 (a proxy's, a gateway's).
func Throttled(err error) bool {
	var te *types.ThrottlingException
	if errors.As(err, &te) {
		return true
	}
	var re interface{ HTTPStatusCode() int }
	return errors.As(err, &re) && re.HTTPStatusCode() == http.StatusTooManyRequests
}
