// Package bedrocktest is a local HTTP server that speaks Amazon Bedrock
// Runtime's Converse wire format, and InvokeModel's for the image model
// (Amazon Nova Canvas), so tests run the real AWS SDK without reaching
// the network.
//
// It answers POST /model/{modelId}/converse with JSON shaped exactly as
// the service's (output.message.content[].text, stopReason, usage,
// metrics.latencyMs), and errors the way the service sends them: an HTTP
// status, an x-amzn-ErrorType header and a {"message": …} body. Every
// request is recorded. Responses come from a script (consumed in order),
// then from a handler, then from a default.
//
// POST /model/{modelId}/invoke takes Nova Canvas's TEXT_IMAGE body,
// checks it as the service does (a prompt of 1 to 1,024 characters,
// sides that are multiples of 16 from 320 to 4,096 pixels, standard or
// premium quality) and answers {"images":[base64 PNG]}: a real PNG of the
// requested size unless a scripted answer says otherwise.
package bedrocktest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
)

// Request is one recorded Converse call.
type Request struct {
	// ModelID is the {modelId} of the path, unescaped.
	ModelID string
	Header  http.Header
	Body    ConverseRequest
	Raw     []byte
	At      time.Time
}

// ConverseRequest is the JSON body the SDK sends.
type ConverseRequest struct {
	Messages        []Message        `json:"messages"`
	System          []ContentBlock   `json:"system,omitempty"`
	InferenceConfig *InferenceConfig `json:"inferenceConfig,omitempty"`
	ToolConfig      *ToolConfig      `json:"toolConfig,omitempty"`
}

// ToolConfig offers the model tools, and says which it must use.
type ToolConfig struct {
	Tools []struct {
		ToolSpec *ToolSpec `json:"toolSpec,omitempty"`
	} `json:"tools"`
	// ToolChoice is {"auto":{}}, {"any":{}} or {"tool":{"name":…}}.
	ToolChoice map[string]json.RawMessage `json:"toolChoice,omitempty"`
}

// ToolSpec is one tool: its name, description and input schema.
type ToolSpec struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	InputSchema struct {
		JSON json.RawMessage `json:"json"`
	} `json:"inputSchema"`
}

// Tool returns the request's first tool, or nil when it offered none.
func (r Request) Tool() *ToolSpec {
	if r.Body.ToolConfig == nil || len(r.Body.ToolConfig.Tools) == 0 {
		return nil
	}
	return r.Body.ToolConfig.Tools[0].ToolSpec
}

// Message is one turn of the conversation.
type Message struct {
	Role    string         `json:"role"`
	Content []ContentBlock `json:"content"`
}

// ContentBlock holds text; the other block kinds are not used by barhub.
type ContentBlock struct {
	Text string `json:"text,omitempty"`
}

// InferenceConfig is the sampling configuration.
type InferenceConfig struct {
	MaxTokens     *int     `json:"maxTokens,omitempty"`
	Temperature   *float64 `json:"temperature,omitempty"`
	TopP          *float64 `json:"topP,omitempty"`
	StopSequences []string `json:"stopSequences,omitempty"`
}

// SystemText joins the system prompt blocks.
func (r Request) SystemText() string {
	var b strings.Builder
	for _, c := range r.Body.System {
		b.WriteString(c.Text)
	}
	return b.String()
}

// UserText joins the text of the user messages.
func (r Request) UserText() string {
	var b strings.Builder
	for _, m := range r.Body.Messages {
		if m.Role != "user" {
			continue
		}
		for _, c := range m.Content {
			b.WriteString(c.Text)
		}
	}
	return b.String()
}

// Temperature returns the requested temperature, or -1 when none was sent.
func (r Request) Temperature() float64 {
	if r.Body.InferenceConfig == nil || r.Body.InferenceConfig.Temperature == nil {
		return -1
	}
	return *r.Body.InferenceConfig.Temperature
}

// MaxTokens returns the requested maxTokens, or 0 when none was sent.
func (r Request) MaxTokens() int {
	if r.Body.InferenceConfig == nil || r.Body.InferenceConfig.MaxTokens == nil {
		return 0
	}
	return *r.Body.InferenceConfig.MaxTokens
}

// Response is what the server answers one request with.
type Response struct {
	// Status is the HTTP status; 0 means 200.
	Status int
	// ErrorType is sent as x-amzn-ErrorType on errors.
	ErrorType string
	// Message is the error message.
	Message string
	// Text is the assistant's answer on success.
	Text string
	// ToolInput, when set, makes the answer a call of the request's first
	// tool with this input (raw JSON, sent as it is, so a test can send
	// input that does not match the schema); StopReason defaults to
	// tool_use then.
	ToolInput string
	// StopReason defaults to end_turn.
	StopReason string
	// InputTokens and OutputTokens are reported as usage; zero means an
	// estimate from the request and the text (about four bytes a token).
	InputTokens, OutputTokens int
	// Raw, when set, is sent as the body as is (with Status).
	Raw []byte
	// Delay holds the answer back, to look like a model thinking.
	Delay time.Duration
	// Image is the picture an InvokeModel call answers with; nil sends a
	// PNG of the requested size.
	Image []byte
}

// Text is a successful answer.
func Text(s string) Response { return Response{Text: s} }

// ToolUse is an answer that calls the request's tool with input (JSON).
func ToolUse(input string) Response { return Response{ToolInput: input} }

// Throttle is the service's 429 ThrottlingException.
func Throttle() Response {
	return Response{Status: http.StatusTooManyRequests, ErrorType: "ThrottlingException", Message: "Too many requests, please wait before trying again."}
}

// ServerError is the service's 500 InternalServerException.
func ServerError() Response {
	return Response{Status: http.StatusInternalServerError, ErrorType: "InternalServerException", Message: "The server encountered an internal error."}
}

// Unavailable is the service's 503 ServiceUnavailableException.
func Unavailable() Response {
	return Response{Status: http.StatusServiceUnavailable, ErrorType: "ServiceUnavailableException", Message: "The service is temporarily unavailable."}
}

// AccessDenied is the 403 a model that is not enabled for the account gets.
func AccessDenied() Response {
	return Response{Status: http.StatusForbidden, ErrorType: "AccessDeniedException", Message: "You don't have access to the model with the specified model ID."}
}

// Empty is a 200 with an empty JSON object: the SDK returns no error and
// no output for it.
func Empty() Response { return Response{Raw: []byte("{}")} }

// Server is the fake Bedrock Runtime endpoint.
type Server struct {
	// URL is the endpoint to set as the SDK's BaseEndpoint.
	URL string
	srv *httptest.Server

	mu       sync.Mutex
	requests []Request
	script   []Response
	handler  func(Request) Response
	def      Response

	invocations []Invocation
	imageScript []Response
}

// New starts a server on the loopback interface and stops it when the
// test ends. Until told otherwise it answers every call with Text("ok").
func New(t testing.TB) *Server {
	t.Helper()
	s := &Server{def: Text("ok")}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	s.URL = s.srv.URL
	t.Cleanup(s.srv.Close)
	return s
}

// Script queues responses for the next calls, in order.
func (s *Server) Script(rs ...Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.script = append(s.script, rs...)
}

// Handle answers calls the script does not cover with fn.
func (s *Server) Handle(fn func(Request) Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.handler = fn
}

// Default answers calls neither the script nor a handler covers.
func (s *Server) Default(r Response) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.def = r
}

// Requests returns the Converse calls received so far.
func (s *Server) Requests() []Request {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Request(nil), s.requests...)
}

// Count returns how many Converse calls were received.
func (s *Server) Count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

// readCall reads the body of a call to operation as the real service
// accepts it: a signed POST. The real service refuses unsigned calls; so
// does this one, so a test cannot pass with credentials that never
// reached the SDK. It answers the error itself when ok is false.
func readCall(w http.ResponseWriter, r *http.Request, operation string) (raw []byte, ok bool) {
	if r.Method != http.MethodPost {
		writeError(w, Response{Status: http.StatusMethodNotAllowed, ErrorType: "UnknownOperationException", Message: operation + " takes POST"})
		return nil, false
	}
	if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 ") && !strings.HasPrefix(r.Header.Get("Authorization"), "Bearer ") {
		writeError(w, Response{Status: http.StatusForbidden, ErrorType: "MissingAuthenticationTokenException", Message: "Missing Authentication Token"})
		return nil, false
	}
	raw, err := io.ReadAll(r.Body)
	if err != nil {
		writeError(w, Response{Status: http.StatusBadRequest, ErrorType: "ValidationException", Message: "could not read the body"})
		return nil, false
	}
	return raw, true
}

func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	if model, ok := invokeModel(r.URL); ok {
		s.serveInvoke(w, r, model)
		return
	}
	model, ok := converseModel(r.URL)
	if !ok {
		writeError(w, Response{Status: http.StatusNotFound, ErrorType: "UnknownOperationException", Message: "no such operation: " + r.Method + " " + r.URL.Path})
		return
	}
	raw, ok := readCall(w, r, "Converse")
	if !ok {
		return
	}
	var body ConverseRequest
	if err := json.Unmarshal(raw, &body); err != nil {
		writeError(w, Response{Status: http.StatusBadRequest, ErrorType: "ValidationException", Message: "malformed JSON: " + err.Error()})
		return
	}
	if len(body.Messages) == 0 {
		writeError(w, Response{Status: http.StatusBadRequest, ErrorType: "ValidationException", Message: "A conversation must start with a user message."})
		return
	}
	req := Request{ModelID: model, Header: r.Header.Clone(), Body: body, Raw: raw, At: time.Now()}

	s.mu.Lock()
	s.requests = append(s.requests, req)
	var resp Response
	switch {
	case len(s.script) > 0:
		resp, s.script = s.script[0], s.script[1:]
	case s.handler != nil:
		h := s.handler
		s.mu.Unlock()
		resp = h(req)
		s.mu.Lock()
	default:
		resp = s.def
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
		if resp.ErrorType != "" {
			w.Header().Set("X-Amzn-Errortype", resp.ErrorType)
		}
		w.WriteHeader(statusOr200(resp.Status))
		w.Write(resp.Raw)
	case resp.Status >= 300:
		writeError(w, resp)
	default:
		writeSuccess(w, req, resp)
	}
}

// converseModel extracts the model id from /model/{modelId}/converse. The
// SDK escapes the id (":" becomes %3A), so the escaped path is split.
func converseModel(u *url.URL) (string, bool) { return pathModel(u, "/converse") }

// invokeModel extracts the model id from /model/{modelId}/invoke.
func invokeModel(u *url.URL) (string, bool) { return pathModel(u, "/invoke") }

func pathModel(u *url.URL, op string) (string, bool) {
	rest, ok := strings.CutPrefix(u.EscapedPath(), "/model/")
	if !ok {
		return "", false
	}
	escaped, ok := strings.CutSuffix(rest, op)
	if !ok || escaped == "" || strings.Contains(escaped, "/") {
		return "", false
	}
	id, err := url.PathUnescape(escaped)
	if err != nil {
		return "", false
	}
	return id, true
}

func statusOr200(s int) int {
	if s == 0 {
		return http.StatusOK
	}
	return s
}

func writeError(w http.ResponseWriter, r Response) {
	w.Header().Set("Content-Type", "application/json")
	// The service appends its namespace to the type; the SDK strips it.
	w.Header().Set("X-Amzn-Errortype", r.ErrorType+":http://internal.amazon.com/coral/com.amazon.bedrock/")
	w.WriteHeader(r.Status)
	json.NewEncoder(w).Encode(map[string]string{"message": r.Message})
}

func writeSuccess(w http.ResponseWriter, req Request, r Response) {
	in, out := r.InputTokens, r.OutputTokens
	if in == 0 {
		in = (len(req.SystemText())+len(req.UserText()))/4 + 1
	}
	if out == 0 {
		out = (len(r.Text)+len(r.ToolInput))/4 + 1
	}
	stop := r.StopReason
	content := []map[string]any{}
	if r.Text != "" || r.ToolInput == "" {
		content = append(content, map[string]any{"text": r.Text})
	}
	if r.ToolInput != "" {
		name := "tool"
		if t := req.Tool(); t != nil {
			name = t.Name
		}
		content = append(content, map[string]any{"toolUse": map[string]any{
			"toolUseId": fmt.Sprintf("tooluse_%d", time.Now().UnixNano()),
			"name":      name,
			"input":     json.RawMessage(r.ToolInput),
		}})
		if stop == "" {
			stop = "tool_use"
		}
	}
	if stop == "" {
		stop = "end_turn"
	}
	body := map[string]any{
		"output": map[string]any{
			"message": map[string]any{
				"role":    "assistant",
				"content": content,
			},
		},
		"stopReason": stop,
		"usage":      map[string]int{"inputTokens": in, "outputTokens": out, "totalTokens": in + out},
		"metrics":    map[string]int64{"latencyMs": r.Delay.Milliseconds() + 1},
	}
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(http.StatusOK)
	json.NewEncoder(w).Encode(body)
}

// IsolateAWS clears every environment variable through which the AWS SDK
// could find real credentials, profiles, endpoints or CA bundles, and
// points its config files at nothing, so a test never uses the
// developer's account or reaches the network.
func IsolateAWS(t testing.TB) {
	t.Helper()
	for _, name := range []string{
		"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN",
		"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_CA_BUNDLE", "AWS_BEARER_TOKEN_BEDROCK",
		"AWS_ROLE_ARN", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_CONTAINER_CREDENTIALS_RELATIVE_URI",
		"AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_BEDROCK_RUNTIME",
		"AWS_REGION", "AWS_DEFAULT_REGION",
	} {
		t.Setenv(name, "")
	}
	none := t.TempDir() + "/none"
	t.Setenv("AWS_CONFIG_FILE", none)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", none)
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
}

// Credentials are fixed test credentials: the SDK signs with them and the
// server checks a signature is present.
func Credentials() aws.CredentialsProvider {
	return credentials.NewStaticCredentialsProvider("AKIDTESTBARHUB", "test-secret-not-real", "")
}
