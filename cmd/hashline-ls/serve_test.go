package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"hashline-ls/endpoint"
)

// lspSession runs the server verb in process and sends it messages in the
// LSP framing; each call returns the answer to a request.
type lspSession struct {
	in   *io.PipeWriter
	out  *bufio.Reader
	exit chan int
	next int
}

func serveLSP(t *testing.T) *lspSession {
	t.Helper()
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	s := &lspSession{in: inW, out: bufio.NewReader(outR), exit: make(chan int, 1)}
	go func() {
		code := run([]string{"--stdio"}, inR, outW, io.Discard)
		outW.Close()
		s.exit <- code
	}()
	return s
}

func (s *lspSession) send(t *testing.T, method string, params any, call bool) json.RawMessage {
	t.Helper()
	msg := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if call {
		s.next++
		msg["id"] = s.next
	}
	b, _ := json.Marshal(msg)
	if _, err := fmt.Fprintf(s.in, "Content-Length: %d\r\n\r\n%s", len(b), b); err != nil {
		t.Fatal(err)
	}
	if !call {
		return nil
	}
	for {
		length := -1
		for {
			line, err := s.out.ReadString('\n')
			if err != nil {
				t.Fatalf("reading the answer to %s: %v", method, err)
			}
			if line = strings.TrimSpace(line); line == "" {
				break
			}
			if v, ok := strings.CutPrefix(line, "Content-Length: "); ok {
				length, _ = strconv.Atoi(v)
			}
		}
		body := make([]byte, length)
		if _, err := io.ReadFull(s.out, body); err != nil {
			t.Fatal(err)
		}
		var m struct {
			ID     *int            `json:"id"`
			Result json.RawMessage `json:"result"`
		}
		json.Unmarshal(body, &m)
		if m.ID != nil && *m.ID == s.next {
			return m.Result
		}
	}
}

// In LSP mode the server publishes its endpoint, and when the folder
// cannot be used, tells the editor why in its answer to initialize,
// without failing.
func TestServeTellsWhereTheEndpointIs(t *testing.T) {
	for _, tc := range []struct {
		name   string
		unsafe bool
	}{{"published", false}, {"an unsafe folder", true}} {
		t.Run(tc.name, func(t *testing.T) {
			tmp, err := os.MkdirTemp("", "hls")
			if err != nil {
				t.Fatal(err)
			}
			defer os.RemoveAll(tmp)
			t.Setenv("TMPDIR", tmp)
			folder := endpoint.FolderPath(tmp, os.Getuid())
			if tc.unsafe {
				if err := os.Mkdir(folder, 0o755); err != nil {
					t.Fatal(err)
				}
			}
			ws := t.TempDir()
			s := serveLSP(t)
			res := s.send(t, "initialize", map[string]any{"processId": nil, "rootUri": (&url.URL{Scheme: "file", Path: ws}).String(), "capabilities": map[string]any{}}, true)
			var r struct {
				Capabilities struct {
					Experimental struct {
						Hashline struct {
							Endpoint *string `json:"endpoint"`
							Problem  string  `json:"endpointProblem"`
						} `json:"hashline"`
					} `json:"experimental"`
				} `json:"capabilities"`
			}
			if err := json.Unmarshal(res, &r); err != nil {
				t.Fatalf("%s: %v", res, err)
			}
			h := r.Capabilities.Experimental.Hashline
			switch {
			case tc.unsafe && (h.Endpoint != nil || !strings.HasPrefix(h.Problem, "ENDPOINT_FOLDER_UNSAFE: the endpoint folder "+folder+" has mode 0755")):
				t.Errorf("initialize: %s", res)
			case !tc.unsafe && (h.Endpoint == nil || *h.Endpoint != filepath.Join(folder, strconv.Itoa(os.Getpid())+".sock")):
				t.Errorf("initialize: %s", res)
			}
			s.send(t, "shutdown", nil, true)
			s.send(t, "exit", nil, false)
			s.in.Close()
			if code := <-s.exit; code != 0 {
				t.Errorf("exit code %d", code)
			}
			if ents, _ := os.ReadDir(folder); len(ents) != 0 {
				t.Errorf("left in the endpoint folder after exit: %v", ents)
			}
		})
	}
}
