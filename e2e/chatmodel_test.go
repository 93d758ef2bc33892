package e2e

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// chatMessage is one message of an OpenAI-style chat-completions request.
type chatMessage struct {
	Role       string `json:"role"`
	Content    any    `json:"content"`
	ToolCallID string `json:"tool_call_id"`
}

// text is the message's content as a string, however it was sent.
func (m chatMessage) text() string {
	switch c := m.Content.(type) {
	case string:
		return c
	case nil:
		return ""
	default:
		b, _ := json.Marshal(c)
		return string(b)
	}
}

// chatRequest is what a client sent to /v1/chat/completions.
type chatRequest struct {
	Messages []chatMessage `json:"messages"`
	Tools    []struct {
		Function functionDecl `json:"function"`
	} `json:"tools"`
	Stream bool `json:"stream"`
}

// modelTurn is what the model answers: a tool call, or text.
type modelTurn struct {
	Tool string
	Args map[string]any
	Text string
}

// chatModel plays a model behind an OpenAI-compatible chat-completions
// endpoint on 127.0.0.1: play picks each answer from the request. It
// answers streamed (SSE) or plain, as asked, and records every request.
type chatModel struct {
	*httptest.Server
	mu       sync.Mutex
	requests []chatRequest
	calls    int
}

func newChatModel(t *testing.T, play func(req chatRequest) modelTurn) *chatModel {
	m := &chatModel{}
	mux := http.NewServeMux()
	mux.HandleFunc("/v1/models", func(w http.ResponseWriter, _ *http.Request) {
		fmt.Fprint(w, `{"object":"list","data":[{"id":"test-model","object":"model"}]}`)
	})
	mux.HandleFunc("/v1/chat/completions", func(w http.ResponseWriter, r *http.Request) {
		var req chatRequest
		if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		m.mu.Lock()
		m.requests = append(m.requests, req)
		m.calls++
		id := m.calls
		m.mu.Unlock()
		writeChat(w, req.Stream, play(req), id)
	})
	m.Server = httptest.NewServer(mux) // listens on 127.0.0.1 only
	t.Cleanup(m.Close)
	return m
}

// writeChat answers a chat-completions request with turn, streamed (SSE)
// or plain.
func writeChat(w http.ResponseWriter, stream bool, turn modelTurn, id int) {
	msg := map[string]any{"role": "assistant", "content": turn.Text}
	finish := "stop"
	if turn.Tool != "" {
		args, _ := json.Marshal(turn.Args)
		msg["content"] = nil
		msg["tool_calls"] = []any{map[string]any{
			"index": 0, "id": fmt.Sprintf("call_%d", id), "type": "function",
			"function": map[string]any{"name": turn.Tool, "arguments": string(args)},
		}}
		finish = "tool_calls"
	}
	if !stream {
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", id), "object": "chat.completion", "created": 1, "model": "test-model",
			"choices": []any{map[string]any{"index": 0, "message": msg, "finish_reason": finish}},
		})
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta map[string]any, finish any) {
		b, _ := json.Marshal(map[string]any{
			"id": fmt.Sprintf("chatcmpl-%d", id), "object": "chat.completion.chunk", "created": 1, "model": "test-model",
			"choices": []any{map[string]any{"index": 0, "delta": delta, "finish_reason": finish}},
		})
		fmt.Fprintf(w, "data: %s\n\n", b)
	}
	chunk(msg, nil)
	chunk(map[string]any{}, finish)
	fmt.Fprint(w, "data: [DONE]\n\n")
}

// Requests returns every request so far.
func (m *chatModel) Requests() []chatRequest {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]chatRequest(nil), m.requests...)
}

// last is the request's last message, and the first user message.
func (req chatRequest) last() (last chatMessage, firstUser string) {
	for _, msg := range req.Messages {
		if msg.Role == "user" && firstUser == "" {
			firstUser = msg.text()
		}
	}
	if len(req.Messages) > 0 {
		last = req.Messages[len(req.Messages)-1]
	}
	return last, firstUser
}

var headerTagRe = regexp.MustCompile(`\[([^\]#]+)#([0-9A-F]{4})\]`)

// tagIn is the tag of the first [path#TAG] header in text.
func tagIn(text string) string {
	if m := headerTagRe.FindStringSubmatch(text); m != nil {
		return m[2]
	}
	return ""
}

// toolOutputs are the tool messages of a request, in order.
func (req chatRequest) toolOutputs() []string {
	var out []string
	for _, msg := range req.Messages {
		if msg.Role == "tool" {
			out = append(out, strings.TrimSpace(msg.text()))
		}
	}
	return out
}
