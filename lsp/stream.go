package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"sync"

	"go.lsp.dev/jsonrpc2"
	"go.uber.org/zap"
)

// maxMessageBytes bounds one message; a larger Content-Length is refused
// before anything is allocated.
const maxMessageBytes = 256 << 20

// stream frames messages with Content-Length headers, like
// jsonrpc2.NewStream, with one difference that keeps the server alive: a
// message whose body does not decode is answered with a parse error (when it
// carries an id) and skipped, instead of failing the connection. Only a
// broken frame, after which no later message can be found, ends it.
type stream struct {
	rw  io.ReadWriteCloser
	in  *bufio.Reader
	log *zap.Logger

	mu sync.Mutex // serializes writes
}

func newStream(rw io.ReadWriteCloser, log *zap.Logger) *stream {
	return &stream{rw: rw, in: bufio.NewReaderSize(rw, 64<<10), log: log}
}

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		data, n, err := s.readFrame()
		if err != nil {
			return nil, n, err
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return msg, n, nil
		}
		s.log.Warn("skipping a message that does not decode", zap.Error(err), zap.Int("bytes", len(data)))
		s.replyParseError(ctx, data, err)
	}
}

func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	for {
		line, err := s.in.ReadString('\n')
		total += int64(len(line))
		if err != nil {
			return nil, total, fmt.Errorf("read header: %w", err)
		}
		line = strings.TrimSpace(line)
		if line == "" {
			if length < 0 {
				continue // stray blank line between frames
			}
			break
		}
		name, value, ok := strings.Cut(line, ":")
		if !ok {
			return nil, total, fmt.Errorf("invalid header line %q", line)
		}
		if strings.EqualFold(strings.TrimSpace(name), "Content-Length") {
			n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
			if err != nil || n < 0 || n > maxMessageBytes {
				return nil, total, fmt.Errorf("invalid Content-Length %q", value)
			}
			length = n
		}
	}
	data := make([]byte, length)
	if _, err := io.ReadFull(s.in, data); err != nil {
		return nil, total, fmt.Errorf("read body: %w", err)
	}
	return data, total + length, nil
}

// replyParseError answers a request that did not decode, so its sender does
// not wait forever. Without a readable id there is no one to answer.
func (s *stream) replyParseError(ctx context.Context, data []byte, cause error) {
	// Only a string or a number is an id a client can match an answer to.
	id := findID(data)
	if len(id) == 0 || !strings.ContainsAny(string(id[:1]), `"-0123456789`) {
		return
	}
	body, _ := json.Marshal(map[string]any{
		"jsonrpc": "2.0",
		"id":      id,
		"error":   map[string]any{"code": jsonrpc2.ParseError, "message": "the message does not decode: " + cause.Error()},
	})
	s.writeRaw(body)
}

// findID returns the id of a message body that may not be JSON at all: it
// walks the top-level object one member at a time and stops at the first
// fault, so an id written before the fault is still found.
func findID(data []byte) json.RawMessage {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil
	}
	for dec.More() {
		key, err := dec.Token()
		if err != nil {
			return nil
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil
		}
		if key == "id" {
			return v
		}
	}
	return nil
}

func (s *stream) Write(ctx context.Context, msg jsonrpc2.Message) (int64, error) {
	data, err := json.Marshal(msg)
	if err != nil {
		return 0, fmt.Errorf("marshal message: %w", err)
	}
	return s.writeRaw(data)
}

func (s *stream) writeRaw(data []byte) (int64, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	n, err := fmt.Fprintf(s.rw, "Content-Length: %d\r\n\r\n", len(data))
	if err != nil {
		return int64(n), err
	}
	m, err := s.rw.Write(data)
	return int64(n + m), err
}

func (s *stream) Close() error { return s.rw.Close() }
