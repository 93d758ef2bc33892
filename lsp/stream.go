package lsp

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
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

// maxHeaderLine bounds one header line; a longer one is skipped as noise.
const maxHeaderLine = 64 << 10

// stream frames messages with Content-Length headers, like
// jsonrpc2.NewStream, with differences that keep the server alive and
// listening:
//   - a message whose body does not decode is answered with a parse error
//     (when it carries an id) and skipped, instead of failing the
//     connection;
//   - a frame whose Content-Length lies is recovered from: bytes before a
//     Content-Length header are skipped, and a body that holds the next
//     frame's header is cut there, its rest read again as that frame;
//   - an id "" is answered as "", which jsonrpc2 v0.10.0 would take for 0.
//
// Only the end of the input ends it.
type stream struct {
	rw  io.ReadWriteCloser
	in  *bufio.Reader
	log *zap.Logger
	// back holds bytes read past the end of a message whose frame claimed
	// more; they are read again, before in, as the start of the next frame.
	// Only Read touches it, and jsonrpc2 calls Read from one goroutine.
	back []byte

	mu sync.Mutex // serializes writes
}

// NewStream frames JSON-RPC messages on rw as the language server does:
// the bridge's two ends speak through it.
func NewStream(rw io.ReadWriteCloser, log *zap.Logger) jsonrpc2.Stream {
	if log == nil {
		log = zap.NewNop()
	}
	return newStream(rw, log)
}

func newStream(rw io.ReadWriteCloser, log *zap.Logger) *stream {
	return &stream{rw: rw, in: bufio.NewReaderSize(rw, maxHeaderLine), log: log}
}

func (s *stream) Read(ctx context.Context) (jsonrpc2.Message, int64, error) {
	for {
		data, n, err := s.readFrame()
		if err != nil {
			return nil, n, err
		}
		if head := nextHeader(data); head > 0 {
			// The frame claimed more than its message: what follows the
			// message is the next frame. (DecodeMessage would ignore it.)
			s.log.Warn("a frame's Content-Length ran into the next frame; reading that frame from its header", zap.Int("claimed", len(data)), zap.Int("message", head))
			s.back = append(data[head:len(data):len(data)], s.back...)
			data = data[:head]
		}
		msg, err := jsonrpc2.DecodeMessage(data)
		if err == nil {
			return withWireID(msg, data), n, nil
		}
		s.log.Warn("skipping a message that does not decode", zap.Error(err), zap.Int("bytes", len(data)))
		s.replyParseError(ctx, data, err)
	}
}

func (s *stream) readFrame() ([]byte, int64, error) {
	var total, length int64 = 0, -1
	skipped := 0 // bytes of noise before the frame's header
	for {
		line, err := s.readLine()
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
		if i := indexContentLength(line); i > 0 {
			// The tail of a message whose frame claimed less than it sent.
			skipped += i
			line = line[i:]
		}
		name, value, ok := strings.Cut(line, ":")
		isLength := ok && strings.EqualFold(strings.TrimSpace(name), "Content-Length")
		if !isLength {
			if length < 0 {
				skipped += len(line) // no header is read before a Content-Length
			}
			continue
		}
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil || n < 0 || n > maxMessageBytes {
			s.log.Warn("skipping a frame with an invalid Content-Length", zap.String("value", clipped(value)))
			skipped, length = skipped+len(line), -1
			continue
		}
		length = n
	}
	if skipped > 0 {
		s.log.Warn("skipped bytes that were not part of a frame", zap.Int("bytes", skipped))
	}
	data, err := s.readBody(int(length))
	if err != nil {
		return nil, total, fmt.Errorf("read body: %w", err)
	}
	return data, total + length, nil
}

// readLine reads one line, from back first; a line longer than
// maxHeaderLine comes back cut, the rest of it read as lines of its own.
func (s *stream) readLine() (string, error) {
	if len(s.back) > 0 {
		if i := bytes.IndexByte(s.back, '\n'); i >= 0 {
			line := string(s.back[:i+1])
			s.back = s.back[i+1:]
			return line, nil
		}
		head := string(s.back)
		s.back = nil
		rest, err := s.readLine()
		return head + rest, err
	}
	line, err := s.in.ReadSlice('\n')
	if errors.Is(err, bufio.ErrBufferFull) {
		err = nil
	}
	return string(line), err
}

// readBody reads n bytes, from back first.
func (s *stream) readBody(n int) ([]byte, error) {
	data := make([]byte, n)
	k := copy(data, s.back)
	s.back = s.back[k:]
	if _, err := io.ReadFull(s.in, data[k:]); err != nil {
		return nil, err
	}
	return data, nil
}

// indexContentLength is where a Content-Length header starts in line, or -1.
func indexContentLength(line string) int {
	const h = "content-length:"
	for i := 0; i+len(h) <= len(line); i++ {
		if (line[i] == 'c' || line[i] == 'C') && strings.EqualFold(line[i:i+len(h)], h) {
			return i
		}
	}
	return -1
}

// nextHeader is where a frame header starts inside a body, or -1: a
// Content-Length header right after the end of a JSON object, with its
// number and line end, or cut off by the end of the body. A message never
// holds one: inside a JSON string, a line end is escaped.
func nextHeader(data []byte) int {
	const h = "content-length:"
	for off := 0; ; {
		i := bytes.Index(data[off:], []byte("ength:"))
		if i < 0 {
			return -1
		}
		at := off + i - len("content-l")
		off += i + 1
		if at <= 0 || !strings.EqualFold(string(data[at:at+len(h)]), h) || !bytes.HasSuffix(bytes.TrimSpace(data[:at]), []byte("}")) {
			continue
		}
		rest := data[at+len(h):]
		j := 0
		for j < len(rest) && (rest[j] == ' ' || rest[j] >= '0' && rest[j] <= '9') {
			j++
		}
		if j == len(rest) || j > 0 && (rest[j] == '\r' || rest[j] == '\n') {
			return at
		}
	}
}

func clipped(s string) string {
	if len(s) > 40 {
		return s[:40] + "…"
	}
	return s
}

// emptyID stands for the id "" inside the server: jsonrpc2 v0.10.0 decodes
// "" as the number 0 and would answer it so. A client's own id can hold
// this only by sending NUL bytes, and then only confuses its own answers.
var emptyID = jsonrpc2.NewStringID("\x00hashline:empty-id\x00")

// withWireID gives a call whose id was sent as "" the id emptyID, which
// Write turns back into "".
func withWireID(msg jsonrpc2.Message, data []byte) jsonrpc2.Message {
	call, ok := msg.(*jsonrpc2.Call)
	if !ok || call.ID() != jsonrpc2.NewNumberID(0) || string(bytes.TrimSpace(findID(data))) != `""` {
		return msg
	}
	c, err := jsonrpc2.NewCall(emptyID, call.Method(), call.Params())
	if err != nil {
		return msg
	}
	return c
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
	if r, ok := msg.(*jsonrpc2.Response); ok && r.ID() == emptyID {
		// The id is the last member jsonrpc2 writes.
		id, _ := json.Marshal(&emptyID)
		if cut, ok := bytes.CutSuffix(data, append(append([]byte(`"id":`), id...), '}')); ok {
			data = append(cut, `"id":""}`...)
		}
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
